"""ClubView: club games in the main window — File ▸ Open Club Game…, the Umpires dock, the
live following of the others' events, claims from the order of battle's context menu.

``ClubView`` is made once by the ``MainWindow`` with the map view, the ``DockHost``, a status
callback, the settings (recent club games, never with a password) and the Game toolbar; it
follows the shown document (``follow``, on the window's ``document_changed``) and asks for a
club game to be shown with ``document_opened``.

While a ``ClubPlayDocument`` is shown: a ``QSocketNotifier`` on the connection's listening
socket (and a poll every ``POLL_MS`` in case a notification is missed or the connection was
lost: the connection reconnects and the window catches up from its last seq) brings the
others' events into the log within a second; a drag is sent once the mouse is released or it
has rested ``FLUSH_MS``; a write the server refused is reported in a dialog.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSocketNotifier, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMenu, QMessageBox, QToolBar

from battlestudio.document import Document
from battlestudio.store.club import ClaimTaken, ClubError, ClubURL, ServerUnavailable
from battlestudio.ui import dialogs
from battlestudio.ui.club.document import LOCKED, ClubPlayDocument
from battlestudio.ui.club.open_dialog import ClubOpenDialog
from battlestudio.ui.club.opening import open_club
from battlestudio.ui.club.panel import UmpiresPanel

if TYPE_CHECKING:
    from battlestudio.ui.dock_host import DockHost
    from battlestudio.ui.map_view import MapView
    from battlestudio.ui.settings import Settings

POLL_MS = 500
"""The fallback poll of the server while a club game is shown (ms)."""
RETRY_MS = 5000
"""The poll while the server cannot be reached (ms)."""
FLUSH_MS = 300
"""A drag resting this long (ms) is sent to the server."""
RECENT_KEY = "recent/club"
MAX_RECENT_CLUB = 8


class ClubView(QObject):
    """Club play in one window (see the module docstring).

    Signals
    -------
    document_opened(object)
        show this ``ClubPlayDocument``.
    """

    document_opened = Signal(object)

    def __init__(
        self,
        map_view: MapView,
        docks: DockHost,
        show_status: Callable[[str, int], None],
        settings: Settings,
        toolbar: QToolBar | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.map_view = map_view
        self.show_status = show_status
        self.settings = settings
        self.doc: ClubPlayDocument | None = None
        self.maybe_save: Callable[[], bool] = lambda: True
        self.panel = UmpiresPanel()
        self.panel.claim_requested.connect(self.claim)
        self.panel.release_requested.connect(self.release)
        self.panel.end_requested.connect(self.end_game)
        self.dock = docks.add_dock("dock_umpires", "Umpires", self.panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.dock.hide()
        self.open_action = QAction("Open &Club Game…", self)
        self.open_action.setObjectName("action_open_club")
        self.open_action.setStatusTip("Open a game on a club's PostgreSQL server, to record it with other umpires")
        self.open_action.triggered.connect(lambda _c=False: self.open_dialog())
        self.status_label = QLabel()
        self.status_label.setObjectName("club_status")
        self.status_label.setTextFormat(Qt.TextFormat.RichText)
        self.status_label.hide()
        self.strip = QLabel()
        self.strip.setObjectName("club_strip")
        self.strip.setTextFormat(Qt.TextFormat.RichText)
        self.strip.setContentsMargins(8, 0, 8, 0)
        self._strip_action = toolbar.addWidget(self.strip) if toolbar is not None else None
        if self._strip_action is not None:
            self._strip_action.setVisible(False)
        self.notifier: QSocketNotifier | None = None
        self._fileno = -1
        self.poll_timer = QTimer(self)
        self.poll_timer.timeout.connect(self.poll)
        self.flush_timer = QTimer(self)
        self.flush_timer.setSingleShot(True)
        self.flush_timer.setInterval(FLUSH_MS)
        self.flush_timer.timeout.connect(self.flush)
        self.busy: list[str] = []
        map_view.viewport().installEventFilter(self)

    # -- opening ------------------------------------------------------------------------
    def open_dialog(self, url: str = "") -> ClubOpenDialog:
        """Show File ▸ Open Club Game… (non-modal); its Open opens the chosen battle."""
        recent = self.recent()
        dlg = ClubOpenDialog(url or (recent[0] if recent else ""), self._last_umpire(), self.map_view)
        dlg.accepted.connect(lambda: self.open_url(dlg.connect_url(), dlg.umpire(), shown=dlg.url()))
        dlg.show()
        if dlg.server.text():
            QTimer.singleShot(0, dlg.list_battles)
        self.dialog = dlg
        return dlg

    def open_url(self, url: str, umpire: str | None = None, shown: str | None = None) -> ClubPlayDocument | None:
        """Open the club game ``url`` as ``umpire`` (default: the last name used, else the login);
        on failure say why in a dialog and keep the shown document."""
        umpire = umpire or self._last_umpire() or None
        try:
            doc = open_club(url, umpire)
        except (ClubError, ValueError) as exc:
            where = shown or _shown(url)
            self.show_status(f"Could not open the club game {where}", 10_000)
            dialogs.show_error(self.map_view, "Could not open club game", str(exc))
            return None
        if not self.maybe_save():
            doc.close()
            return None
        self._add_recent(shown or str(doc.conn.url))
        self.settings.q.setValue("club/umpire", doc.umpire)
        self.document_opened.emit(doc)
        self.show_status(f"Opened {doc.conn.url} as umpire {doc.umpire}", 8_000)
        return doc

    def _last_umpire(self) -> str:
        return str(self.settings.q.value("club/umpire", "") or "")

    # -- recent club games (no passwords) -----------------------------------------------
    def recent(self) -> list[str]:
        raw = self.settings.q.value(RECENT_KEY, [])
        if isinstance(raw, str):
            raw = [raw]
        return [str(u) for u in (raw or []) if u][:MAX_RECENT_CLUB]

    def _add_recent(self, url: str) -> None:
        shown = _shown(url)
        self.settings.q.setValue(RECENT_KEY, [shown] + [u for u in self.recent() if u != shown][: MAX_RECENT_CLUB - 1])
        self.settings.q.sync()

    def fill_recent_menu(self, menu: QMenu) -> None:
        """Add the recent club games to File ▸ Open Recent (after the files)."""
        urls = self.recent()
        if not urls:
            return
        first = menu.actions()[0] if menu.actions() else None
        if first is not None and first.text() == "(none)":
            menu.removeAction(first)
        before = next((a for a in menu.actions() if a.isSeparator()), None)
        for u in urls:
            a = QAction(f"Club: {u}", menu)
            a.setToolTip(u)
            a.setStatusTip(u)
            a.triggered.connect(lambda _c=False, u=u: self.open_dialog(u))
            menu.insertAction(before, a) if before is not None else menu.addAction(a)

    # -- following the shown document ---------------------------------------------------
    def close(self) -> None:
        """The window closes: send what is pending and close the connection."""
        self.follow(None)

    def follow(self, doc: Document | None) -> None:
        """The window shows ``doc`` now: follow it when it is a club game (closing the one before)."""
        old = self.doc
        if old is doc:
            return
        if old is not None:
            self._unbind(old)
            old.close()
        self.doc = doc if isinstance(doc, ClubPlayDocument) else None
        self.panel.set_document(self.doc)
        self.status_label.setVisible(self.doc is not None)
        if self.doc is None:
            self.dock.hide()
            if self._strip_action is not None:
                self._strip_action.setVisible(False)
            return
        self._bind(self.doc)

    def _bind(self, doc: ClubPlayDocument) -> None:
        doc.recorded.connect(self._on_recorded)
        doc.write_failed.connect(self._on_write_failed)
        doc.claims_changed.connect(self.refresh)
        doc.phase_closed.connect(self._on_phase_closed)
        self._watch(doc)
        self.poll_timer.start(POLL_MS)
        self.dock.show()
        self.dock.raise_()
        if self._strip_action is not None:
            self._strip_action.setVisible(True)
        self.refresh()
        locked = " The scenario is locked while the game runs." if doc.battle.events else ""
        self.show_status(f"Club game on {doc.conn.url}: you record as umpire {doc.umpire}.{locked}", 15_000)

    def _unbind(self, doc: ClubPlayDocument) -> None:
        doc.recorded.disconnect(self._on_recorded)
        doc.write_failed.disconnect(self._on_write_failed)
        doc.claims_changed.disconnect(self.refresh)
        doc.phase_closed.disconnect(self._on_phase_closed)
        self.poll_timer.stop()
        self.flush_timer.stop()
        if self.notifier is not None:
            self.notifier.setEnabled(False)
            self.notifier.deleteLater()
            self.notifier = None

    def _watch(self, doc: ClubPlayDocument) -> None:
        """A notifier on the listening socket (again after a reconnect gave a new one)."""
        try:
            fd = doc.conn.fileno()
        except ClubError:
            return
        if fd == self._fileno and self.notifier is not None:
            return
        if self.notifier is not None:
            self.notifier.setEnabled(False)
            self.notifier.deleteLater()
        self._fileno = fd
        self.notifier = QSocketNotifier(fd, QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self.poll)

    # -- live updates -------------------------------------------------------------------
    def poll(self) -> int:
        """Read the notifications and apply the events the others recorded; how many."""
        doc = self.doc
        if doc is None:
            return 0
        try:
            seq = doc.conn.poll()
            changes = doc.conn.changes()
            n = doc.catch_up() if seq is None or seq > doc.seq else 0
            if "game" in changes:
                doc.set_finished(bool(doc.log) and not doc.conn.game_running())
            if "claims" in changes:
                doc.read_claims()
            if n or changes:
                self.refresh()
        except ServerUnavailable as exc:
            self.poll_timer.setInterval(RETRY_MS)
            self.show_status(f"Lost the club server: {exc} — retrying every {RETRY_MS // 1000} s", RETRY_MS)
            return 0
        except ClubError as exc:
            self.show_status(str(exc), 10_000)
            return 0
        if self.poll_timer.interval() != POLL_MS:
            self.poll_timer.setInterval(POLL_MS)
            self.show_status("Reconnected to the club server; caught up with the game", 5_000)
        self._watch(doc)
        if n:
            self.show_status(f"{n} event{'s' if n != 1 else ''} recorded by the other umpires", 3_000)
        return n

    def _on_recorded(self) -> None:
        doc = self.doc
        if doc is None:
            return
        if doc.pending:
            self.flush_timer.start()
        key = doc.session.key if doc.session is not None and doc.session.started else None
        if key != self._key:  # who is busy changes with the phase, a claim or a close, not a move
            self.refresh()

    _key: object = None

    def _on_phase_closed(self, _busy: list) -> None:
        self.refresh()

    def flush(self) -> None:
        if self.doc is not None and self.doc.pending:
            self.doc.flush()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.MouseButtonRelease and self.doc is not None:
            QTimer.singleShot(0, self.flush)  # the drag has ended: send it
        return False

    def _on_write_failed(self, text: str) -> None:
        self.show_status(text, 15_000)
        QMessageBox.warning(self.map_view, "Not recorded on the club server", text)

    def end_game(self) -> bool:
        """Ask, then end the shown club game for every umpire; True when ended."""
        doc = self.doc
        if doc is None or doc.finished:
            return False
        b = QMessageBox.StandardButton
        text = (
            f"End the game of {doc.base.scenario.info.title} for every umpire? Nothing more can be "
            "recorded in it; spectators may read it and the scenario may be published again."
        )
        if QMessageBox.question(self.map_view, "End club game", text, b.Yes | b.No, b.No) != b.Yes:
            return False
        try:
            doc.end_game()
        except ClubError as exc:
            dialogs.show_error(self.map_view, "The game was not ended", str(exc))
            return False
        self.refresh()
        self.show_status(doc.ENDED, 10_000)
        return True

    # -- claims -------------------------------------------------------------------------
    def claim(self, ids: list[str]) -> list[str]:
        """Claim the formations ``ids`` for this umpire; those another umpire holds are refused
        (said in the dock and the status bar). Returns the ids claimed."""
        return self._claims(ids, True)

    def release(self, ids: list[str]) -> list[str]:
        """Release this umpire's claims on ``ids``."""
        return self._claims(ids, False)

    def _claims(self, ids: list[str], take: bool) -> list[str]:
        doc = self.doc
        if doc is None or not ids:
            return []
        done, refused = [], []
        names = {i: (doc.scenario.record(i).name if doc.scenario.record(i) is not None else i) for i in ids}
        try:
            for i in ids:
                if take:
                    try:
                        doc.conn.claim(i)
                        done.append(i)
                    except ClaimTaken as exc:
                        refused.append(f"{names[i]} is held by umpire {exc.holder}")
                elif doc.claims.get(i) == doc.umpire:
                    doc.conn.release(i)
                    done.append(i)
                elif i in doc.claims:
                    refused.append(f"{names[i]} is umpire {doc.claims[i]}'s to release")
            doc.read_claims()
        except ClubError as exc:
            refused.append(str(exc))
        text = "; ".join(refused)
        self.panel.show_note(text)
        verb = "Claimed" if take else "Released"
        said = f"{verb} {', '.join(names[i] for i in done)}" if done else ""
        self.show_status("; ".join(t for t in (said, text) if t), 10_000)
        return done

    def context_entries(self, menu: QMenu, node_id: str | None) -> None:
        """Claim / Release entries of the order of battle's context menu in a club game."""
        doc = self.doc
        if doc is None or node_id is None or doc.scenario.record(node_id) is None:
            return
        name = doc.scenario.record(node_id).name
        held = doc.claims.get(node_id)
        menu.addSeparator()
        if held == doc.umpire:
            a = menu.addAction(f"Release {name}")
            a.triggered.connect(lambda: self.release([node_id]))
        elif held is None:
            a = menu.addAction(f"Claim {name} as Umpire")
            a.triggered.connect(lambda: self.claim([node_id]))
        else:
            a = menu.addAction(f"Held by umpire {held}")
            a.setEnabled(False)

    # -- the phase ----------------------------------------------------------------------
    def refresh(self) -> None:
        """Read who is busy in the open phase; show it in the dock and the Game toolbar."""
        doc = self.doc
        if doc is None:
            return
        self._key = doc.session.key if doc.session is not None and doc.session.started else None
        try:
            self.busy = doc.busy()
            present = doc.conn.present()
        except ClubError as exc:
            self.show_status(str(exc), 10_000)
            present = []
        self.panel.refresh(self.busy, present)
        from battlestudio.session.club import busy_text

        said = busy_text(self.busy, doc.umpire)
        mine = sum(1 for u in doc.claims.values() if u == doc.umpire)
        text = f"<b>Club</b> · umpire {html.escape(doc.umpire)} ({mine} claim{'s' if mine != 1 else ''})" + (
            f" · <b style='color:#b00020'>{html.escape(said)}</b>" if said else ""
        )
        self.strip.setText(text)
        self.status_label.setText(text + " · scenario locked")
        self.status_label.setToolTip(LOCKED)


def _shown(url: str) -> str:
    """``url`` without its password (as the recent list and messages show it)."""
    try:
        return str(ClubURL.parse(url))
    except ClubError:
        return re.sub(r"//([^:/@]*):[^@/]*@", r"//\1@", url)
