"""File commands of the main window: new, open, save, recent files, drop to open, export
image, the unsaved-changes prompt, and restoring recovery copies.

``FileCommands`` is the window's collaborator for files: it is given the map view (the image to
export, the parent of its dialogs), the settings (recent files), the recovery store and a status
callback, follows the shown document (``set_document``, connected to the window's
``document_changed``) and asks the window to show the documents it opens (``document_opened``).
It reads and writes files only through ``battlestudio.store``, and any failure is shown in a
dialog naming the file and the place in it, leaving the open document untouched (a failed save
leaves it modified). A game holding recorded events that cannot be read is saved with them to a
``.battle`` file (their rows as they are); a ``.battle.json`` file cannot hold them, so the user
is asked whether to save the scenario without its recorded game (``ask_save_without_game``).

A game recorded in a ``.battle`` file leaves the file as it was until Save; the phases closed
meanwhile are in its journal (``store.journal``). Save and Discard remove the journal; opening
a file whose journal was left by an editor that died offers its events (``offer_journal``).

Every open and save records the file as it is (``Document.disk``, a ``FileIdentity``). Before
Save writes over the file it checks the file is still that one: if another window or program
changed it, the user chooses Reload, Save As… or Overwrite (``ask_file_changed``), so nobody's
work is overwritten unasked. A read-only file is replaced only when the user says so.
"""

from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Callable, Iterator

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QMenu, QMessageBox

from battlestudio import store
from battlestudio.document import Document
from battlestudio.model.scenario import Scenario, ScenarioInfo, Side
from battlestudio.replay.battle import Battle
from battlestudio.replay.state import GameState
from battlestudio.store.atomic import is_read_only
from battlestudio.store.file_identity import FileIdentity
from battlestudio.store.journal import Journal, read_journal, remove_journal
from battlestudio.ui import dialogs
from battlestudio.ui.resources import is_battle_file, is_bundled

if TYPE_CHECKING:
    from battlestudio.ui.map_view import MapView
    from battlestudio.ui.recovery import RecoveryStore
    from battlestudio.ui.settings import Settings


def new_battle() -> Battle:
    """An empty scenario on the default 240 × 180 cm table with two sides to start from (New)."""
    s = Scenario(info=ScenarioInfo(title="Untitled"))
    s.sides = {"blue": Side("blue", "Blue", (), "#2a4fb0"), "red": Side("red", "Red", (), "#c03030")}
    return Battle(s)


def document_name(doc: Document) -> str:
    """File name of ``doc``, a club game's title and server, or "Untitled"."""
    club = getattr(doc, "club_title", None)  # ui.club.ClubPlayDocument
    return doc.path.name if doc.path else club if isinstance(club, str) else "Untitled"


class FileCommands(QObject):
    """New, open, save, export and recovery for the window showing ``document``.

    Parameters
    ----------
    document : Document
        the shown document until ``set_document``.
    map_view : MapView
        the map: exported as an image, and the parent of the dialogs.
    settings : Settings
        recent files.
    recovery : RecoveryStore
        the recovery copies ``offer_recovery`` offers.
    show_status : callable
        ``(text, ms)``: a message in the status bar for ``ms`` milliseconds.

    Signals
    -------
    document_opened(object, bool)
        show this ``Document`` (new, opened or restored; True when restored from a recovery copy).
        The window answers with ``document_changed``, which comes back as ``set_document``.
    """

    document_opened = Signal(object, bool)

    def __init__(
        self,
        document: Document,
        map_view: MapView,
        settings: Settings,
        recovery: RecoveryStore,
        show_status: Callable[[str, int], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.map_view = map_view
        self.settings = settings
        self.recovery = recovery
        self.show_status = show_status

    def set_document(self, doc: Document) -> None:
        """The window shows ``doc`` now: save and export that one."""
        old = self.document
        replaced = getattr(old, "file_replaced", None)
        if replaced is not None and old is not doc:
            replaced.disconnect(self.on_file_replaced)
        self.document = doc
        replaced = getattr(doc, "file_replaced", None)  # a recording (PlayDocument)
        if replaced is not None and old is not doc:
            replaced.connect(self.on_file_replaced)

    def on_file_replaced(self, text: str) -> None:
        """Recording into a ``.battle`` another writer replaced: say so, and offer Save As."""
        b = QMessageBox.StandardButton
        answer = QMessageBox.warning(
            self.map_view,
            "File changed by another program",
            f"{text}\n\nSave the game under another name now?",
            b.Save | b.Cancel,
            b.Save,
        )
        if answer == b.Save:
            self.save_as()

    def maybe_save(self) -> bool:
        """Ask to save unsaved changes; False if the user cancelled (or saving failed)."""
        if not self.document.is_modified:
            return True
        answer = dialogs.ask_save_changes(self.map_view, document_name(self.document))
        if answer == "save":
            return self.save()
        if answer == "discard":
            self.discard_journal()
            return True
        return False

    def discard_journal(self) -> None:
        """Drop the unsaved phases journaled beside the document's ``.battle`` file: the file
        is as it was when opened or last saved."""
        path = self.document.path
        if path is not None and _is_database(path):
            remove_journal(path)

    def new_document(self) -> None:
        if self.maybe_save():
            self.document_opened.emit(Document(new_battle()), False)

    def open_dialog(self) -> None:
        start = self.document.path.parent if self.document.path else None
        path = dialogs.open_file(self.map_view, start)
        if path is not None:
            self.open_path(path)

    def open_path(self, path: str | Path, ask: bool = True) -> bool:
        """Open ``path``; on failure show an error and keep the current document.

        The file is read first; only then is the user asked about unsaved changes (``ask``).
        """
        path = Path(path)
        try:
            identity = FileIdentity.of(path)  # before reading: a change while it is read is noticed at Save
            with _collector_paused():
                battle = store.load(path, lazy_events=True)  # built as replayed; PlayView checks them in idle time
        except Exception as exc:  # noqa: BLE001 - any failure is reported, never raised to the user
            self.show_status(f"Could not open {path.name}", 10_000)
            if not path.exists():
                self.settings.remove_recent(path)
            dialogs.show_error(self.map_view, "Could not open file", _describe(exc, path, "read"))
            return False
        if ask and not self.maybe_save():
            return False
        restored = self.offer_journal(path, battle)
        if restored is not None:
            battle = restored
        gc.unfreeze()  # the last document's objects may be collected again once it is closed
        doc = Document(battle, path)
        doc.disk = identity
        if restored is not None:
            doc.mark_unsaved()
        with _collector_paused():  # every view builds from the document (map, docks)
            self.document_opened.emit(doc, restored is not None)  # restored: written to the recovery copy at once
        gc.freeze()  # what lives as long as the document is not rescanned by every full collection (issue 9)
        if restored is not None:
            self._journal_taken_over(path)
        self.settings.add_recent(path)
        self.show_status(f"Opened {path}" + (" with its unsaved phases restored" if restored else ""), 5_000)
        return True

    def open_imported(self, battle: Battle, status: str) -> bool:
        """Show ``battle`` (imported from another program's file) as a new unsaved document,
        after asking about unsaved changes; True when shown. ``status`` goes to the status bar."""
        if not self.maybe_save():
            return False
        doc = Document(battle)
        doc.mark_unsaved()
        self.document_opened.emit(doc, False)
        self.show_status(status, 10_000)
        return True

    def offer_journal(self, path: Path, battle: Battle) -> Battle | None:
        """When an editor that died left a journal beside ``path``, offer its events: the battle
        with them (restored, to be saved), or None (declined: the journal is deleted; or there
        is none, or another editor is recording this file: said in a warning, left alone)."""
        if not _is_database(path):
            return None
        try:
            journal = read_journal(path)
        except store.BattleFileError as exc:
            dialogs.show_error(self.map_view, "Unsaved recording not readable", f"{exc}\nIt is left as it is.")
            return None
        if journal is None or journal.pid == os.getpid():
            return None
        if not journal.stale:
            QMessageBox.warning(
                self.map_view,
                "Recorded in another window",
                f"{path.name} is being recorded in another BattleStudio window (process {journal.pid}); "
                f"its unsaved phases are in {journal.path.name}. Save there before recording here.",
            )
            return None
        if not journal.changes_game:
            remove_journal(path)
            return None
        if not journal.fits():
            kept = journal.path.with_name(journal.path.name + ".unusable")
            journal.path.replace(kept)
            dialogs.show_error(
                self.map_view,
                "Unsaved recording cannot be restored",
                f"{path.name} has changed since the recording in {journal.path.name} began "
                f"({journal.started.replace('T', ' ')[:19]} UTC), so its {len(journal.events)} events "
                f"cannot be added to it. The journal was kept as {kept}.",
            )
            return None
        if not self.ask_restore_journal(path, journal):
            remove_journal(path)
            return None
        try:
            return journal.applied(battle)
        except store.BattleFileError as exc:
            dialogs.show_error(self.map_view, "Unsaved recording cannot be restored", str(exc))
            return None

    def _journal_taken_over(self, path: Path | None) -> None:
        """A restored game is in this session's recovery copy now: its journal goes."""
        if path is not None and (self.recovery.data_path.exists() or self.recovery.raw_data_path.exists()):
            remove_journal(path)

    def ask_restore_journal(self, path: Path, journal: Journal) -> bool:
        """Ask whether to restore the phases ``journal`` holds; True to restore."""
        undone = journal.events_in_file - journal.keep
        what = f"{len(journal.events)} recorded event(s)" + (
            f", {undone} of the saved ones taken back," if undone else ""
        )
        text = (
            f"BattleStudio did not close normally while recording {path.name}. {what} of phases closed "
            f"after it was last saved were kept in {journal.path.name} "
            f"(recording began {journal.started.replace('T', ' ')[:19]} UTC).\n\n"
            "Restore them? The game then opens unsaved; Save writes them to the file. "
            "(No discards them; the file stays as it was saved.)"
        )
        b = QMessageBox.StandardButton
        return QMessageBox.question(self.map_view, "Restore unsaved recording", text, b.Yes | b.No, b.Yes) == b.Yes

    def save(self) -> bool:
        """Save to the document's file; True on success.

        A new document, or one opened from the bundled scenarios (templates, never overwritten),
        asks where to save instead.
        """
        path = self.document.path
        if path is None:
            return self.save_as()
        if is_bundled(path):
            return self.save_as(None, Path.home() / path.name)
        return self.save_to(path)

    def save_as(self, path: str | Path | None = None, suggested: Path | None = None) -> bool:
        """Save under a new name: ``path``, or one the user picks (starting from ``suggested``)."""
        if path is None:
            start = suggested or self.document.path or Path(f"{self.document.scenario.info.title}.battle")
            path = dialogs.save_file(self.map_view, start)
            if path is None:
                return False
        return self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
        """Write the document to ``path``; on failure show an error and keep it modified.

        Over the document's own file, first check that no other writer changed it since it was
        opened or last saved here; if one did, ask (Reload, Save As…, Overwrite). A read-only
        file is replaced only if the user says so.
        """
        without_game = False
        old = self.document.path
        doc = self.document
        if old is not None and doc.disk is not None and _same_file(path, old):
            changed = doc.disk.still(path)
            if changed is not None:
                choice = dialogs.ask_file_changed(self.map_view, path.name, changed)
                if choice == "reload":  # not saved: whatever asked for the save stops here
                    self.reload()
                    return False
                if choice == "save_as":
                    return self.save_as()
                if choice != "overwrite":
                    return False
        read_only = _read_only(path)
        if read_only and not dialogs.ask_replace_read_only(self.map_view, path):
            return False
        try:
            try:
                store.save(doc.battle, path, replace_read_only=read_only, states=_game_states(doc))
            except store.UnreadableEvents as exc:
                if not self.ask_save_without_game(path, exc):
                    return False
                store.save(doc.battle, path, without_game=True, replace_read_only=read_only)
                without_game = True
        except Exception as exc:  # noqa: BLE001
            dialogs.show_error(self.map_view, "Could not save file", _describe(exc, path, "write"))
            return False
        for p in {old, path}:  # the saved file holds the game: no unsaved phases beside either
            if p is not None and _is_database(p):
                remove_journal(p)
        doc.disk = _identity_or_none(path)
        doc.mark_saved(path)
        self.settings.add_recent(path)
        what = " (the scenario without its recorded game)" if without_game else ""
        self.show_status(f"Saved {path}{what}", 15_000 if without_game else 5_000)
        return True

    def reload(self) -> bool:
        """Read the document's file again as it is on disk, dropping this window's changes
        (the user chose Reload); True when reloaded."""
        path = self.document.path
        if path is None:
            return False
        self.discard_journal()
        return self.open_path(path, ask=False)

    def ask_save_without_game(self, path: Path, exc: store.UnreadableEvents) -> bool:
        """``path`` cannot hold the recorded game (events that cannot be read): ask whether to
        save the scenario without it; True to do so. The question says where the game stays."""
        source = getattr(exc.unreadable[0][1], "path", None)
        kept = f"It stays, unchanged, in {source}." if source else "It stays only in this window."
        text = (
            f"{exc.path} is a .battle.json file, which cannot hold the recorded game: "
            f"{len(exc.unreadable)} of its {exc.total} events cannot be read "
            f"(the first: {exc.unreadable[0][1]}).\n\n"
            f"Save the scenario without its recorded game? None of the {exc.total} recorded events "
            f"will be written to {path.name}. {kept}\n\n"
            "To keep the recorded game with your edits, cancel and save as a .battle file: it keeps "
            "the events that cannot be read as they are."
        )
        answer = QMessageBox.question(
            self.map_view,
            "Save without the recorded game?",
            text,
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Save

    def fill_recent_menu(self, menu: QMenu) -> None:
        """List the recent files in ``menu`` (File ▸ Open Recent, as it is about to show)."""
        menu.clear()
        files = self.settings.recent_files()
        for p in files:
            a = menu.addAction(p.name)
            a.setToolTip(str(p))
            a.setStatusTip(str(p))
            a.triggered.connect(lambda _c=False, p=p: self.open_path(p))
        if not files:
            menu.addAction("(none)").setEnabled(False)
        menu.addSeparator()
        menu.addAction("Clear Recent Files", self.settings.clear_recent)

    def export_image(self, path: Path | None = None, spec=None) -> bool:
        """Export the map as the CLI's ``export-map`` page (``ui.export``): with no ``path``,
        the export dialog asks for the file, region, paper, scale, width and DPI; with one,
        ``spec`` (default: the whole table, the window's layers) is written there."""
        from battlestudio.ui.export import ExportDialog, export_window_map, window_spec

        if path is None:
            suggested = self.document.path.with_suffix("").with_suffix(".png") if self.document.path else None
            dialog = ExportDialog(self.map_view, suggested, self.map_view.window())
            if dialog.exec() != ExportDialog.DialogCode.Accepted:
                return False
            path, spec = dialog.path(), dialog.spec()
        try:
            export_window_map(self.map_view, path, spec if spec is not None else window_spec(self.map_view))
        except (OSError, ValueError) as exc:
            dialogs.show_error(self.map_view, "Could not export the map", f"{path}: {exc}")
            return False
        self.show_status(f"Exported {path}", 5_000)
        return True

    # -- recovery ------------------------------------------------------------------------
    def offer_recovery(self) -> bool:
        """Offer recovery copies left by editors that did not close; True if one was restored."""
        for entry in self.recovery.pending():
            if not dialogs.ask_restore(self.map_view, entry.describe()):
                self.recovery.remove(entry)
                continue
            try:
                battle = self.recovery.load(entry)
            except Exception as exc:  # noqa: BLE001
                kept = entry.data.with_name(entry.data.name + ".unreadable")
                entry.data.replace(kept)
                entry.meta.unlink(missing_ok=True)
                dialogs.show_error(
                    self.map_view,
                    "Could not restore",
                    f"{_describe(exc, entry.data, 'read')}\nThe copy was kept as {kept}.",
                )
                continue
            battle = self._with_journal(battle, entry.source)
            doc = Document(battle, entry.source)
            doc.disk = _identity_or_none(entry.source)  # the file as it is now: later changes are noticed
            doc.mark_unsaved()
            self.document_opened.emit(doc, True)
            self.recovery.remove(entry)
            self._journal_taken_over(entry.source if entry.source and _is_database(entry.source) else None)
            return True
        return False

    def _with_journal(self, copy: Battle, source: Path | None) -> Battle:
        """The recovered ``copy`` of ``source``, or the game of ``source`` with the journal the
        dead editor left beside it when that holds more (phases closed after the last autosave)."""
        if source is None or not _is_database(source):
            return copy
        try:
            journal = read_journal(source)
            if journal is None or not journal.stale or not journal.fits():
                return copy
            journaled = journal.applied(store.load(source, lazy_events=True))
        except (store.BattleFileError, OSError):
            return copy
        return newest_game(copy, journaled)


def newest_game(copy: Battle, journaled: Battle) -> Battle:
    """``copy`` (an autosaved recovery copy), unless the ``journaled`` game (the file with its
    journal) continues it with more events: then that game with the copy's scenario."""
    a, b = copy.events, journaled.events
    if len(b) > len(a) and list(b[: len(a)]) == list(a):
        return Battle(copy.scenario, list(b), list(copy.bookmarks))
    return copy


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (after symlinks)."""
    return os.path.realpath(a) == os.path.realpath(b)


def _read_only(path: Path) -> bool:
    """Whether ``path`` is an existing file its mode keeps from being written (see
    ``store.atomic.is_read_only``)."""
    try:
        return is_read_only(os.stat(path))
    except OSError:
        return False


def _identity_or_none(path: Path | None) -> FileIdentity | None:
    """The identity of ``path`` now, or None (no path, or it cannot be read)."""
    if path is None:
        return None
    try:
        return FileIdentity.of(path)
    except (OSError, store.BattleFileError):
        return None


def _game_states(doc: Document) -> Callable[[int], GameState] | None:
    """The states of ``doc``'s recorded game by position, from the log it is replayed with (a
    ``PlayDocument`` of this battle), for the keyframes a ``.battle`` save stores; None (the
    save replays the game) otherwise."""
    log = getattr(doc, "log", None)
    if log is None or len(log) != len(doc.battle.events):
        return None
    return log.state_at  # type: ignore[no-any-return]


def _is_database(path: Path) -> bool:
    """Whether ``path`` names a ``.battle`` file (the kind a journal goes beside)."""
    return str(path).lower().endswith(".battle")


def dropped_file(event: QDragEnterEvent | QDropEvent) -> Path | None:
    """The first local ``.battle``/``.battle.json`` file among dropped URLs."""
    mime = event.mimeData()
    if not mime.hasUrls():
        return None
    for url in mime.urls():
        if url.isLocalFile() and is_battle_file(url.toLocalFile()):
            return Path(url.toLocalFile())
    return None


def _describe(exc: Exception, path: Path, verb: str) -> str:
    """The message of a failed read/write: the store's errors already name file and place."""
    from battlestudio.store.errors import BattleFileError

    if isinstance(exc, BattleFileError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"{path}: could not {verb} the file: {exc.strerror or exc}"
    if isinstance(exc, ValueError) and str(exc).startswith(f"{path}: "):
        return str(exc)  # the store's refusals name the file and say what is wrong
    return f"{path}: could not {verb} the file ({type(exc).__name__}: {exc})"


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a file is read and shown: what is built then lives
    as long as the document (and is frozen after it: ``open_path``), and full collections of the
    growing heap cost 0.2-0.6 s before the first frame at Leipzig scale."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
