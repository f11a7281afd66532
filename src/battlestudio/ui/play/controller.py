"""PlayView: play and replay in the main window — Game menu and toolbar, Replay dock, map marks.

``PlayView(map_view, docks, show_status, document)`` is made once by the ``MainWindow``, which
wires its signals (messages up) and hands it each new document. It adds the Game menu and toolbar
(Start Game, Next Phase Ctrl+Return, Issue Order, Roll Initiative, Command Rolls, Choose
Activation, Umpire Entry, Annotate, Record from the End, Back to Scenario Editor) with a phase
strip naming the turn, game time, side and the ruleset's phases with the current one marked;
the Replay dock (``ReplayPanel``); the Actions dock (``ActionPanel``: the ruleset's actions for
the selected unit, their odds, Roll or the umpire's entry; Game ▸ Actions Panel, Ctrl+Shift+T),
shown while a game is open; the trails, change halos and annotation pins on the map
(``ReplayMarks``); and replay keys on the map (Left/Right, Shift/Ctrl+Left/Right,
PageUp/PageDown, Home/End, Space released without panning).

Roll Initiative, Command Rolls and Choose Activation are enabled by what the ruleset declares
for the open phase (``PhaseSpec.methods``: ``initiative``, ``command_check`` with checks due,
``next_activation`` with formations to choose from); the phase's automatic steps
(``PhaseSpec.automatic``, e.g. the initiative roll) run as it opens, in the same undo step as
Next Phase or Start Game, and their events show in the Replay dock.

A document whose battle holds a recorded game opens as a ``PlayDocument`` (``wrap``): at the
start of a finished game, at the end of one still being played. The window's views then follow
the state at the cursor because they read the ``PlayDocument``. Its game log is built lazily
(``GameLog.lazy``): only what the opening cursor needs is replayed before the first frame; the
rest of the game is checked in idle slices once the map has painted (``idle_check``), and an
event that cannot be replayed then brings the same warning as at opening and shows the scenario
without the game; the Replay dock then says the game (its size) cannot be replayed and why, and
the Problems dock lists it as an error (``play.problems.game_problems``).
"""

from __future__ import annotations

import html
import weakref
from typing import TYPE_CHECKING
from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMessageBox

from battlestudio.document import Document
from battlestudio.play.document import PlayDocument
from battlestudio.play.problems import game_problems, keyframe_problems, unplayable_text
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.game import GameLog
from battlestudio.replay.recorded import RecordedEvents
from battlestudio.rules import UnknownRuleset
from battlestudio.session import GameSession, SessionError
from battlestudio.session.turns import game_time
from battlestudio.ui.play.action_panel import ActionPanel
from battlestudio.ui.play.idle_check import IdleCheck
from battlestudio.ui.play.glide import UnitGlide
from battlestudio.ui.play.map_marks import ReplayMarks
from battlestudio.ui.play.order_dialog import OrderDialog
from battlestudio.ui.play.phase_dialogs import ActivationDialog, CommandRollDialog
from battlestudio.ui.play.pick import pick_point
from battlestudio.ui.play.replay_panel import ReplayPanel
from battlestudio.ui.play.timeline_bar import handle_key
from battlestudio.ui.play.umpire_dialog import AnnotationDialog, UmpireDialog

if TYPE_CHECKING:
    from battlestudio.ui.dock_host import DockHost
    from battlestudio.ui.map_view import MapView

ACTION_PANEL_KEYS = "Ctrl+Shift+T"
"""Game ▸ Actions Panel; not Ctrl+Shift+A, which is Deselect in the X11 (xcb) key table."""

ARROWS = (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down)


def _last_turn(events: Sequence[BattleEvent]) -> int:
    """The turn of the last of ``events`` (0 for none), without building a file's events."""
    if isinstance(events, RecordedEvents):
        return events.head_at(-1)[0] if len(events) else 0
    return events[-1].turn if events else 0


def make_play_document(
    doc: Document,
    position: int | None = None,
    seed: int | str | None = None,
    lazy: bool = False,
    use_keyframe: bool = False,
) -> PlayDocument:
    """A ``PlayDocument`` over ``doc``'s battle, recording when its ruleset is installed.

    With ``lazy`` its log is ``GameLog.lazy``: events are replayed (and checked) only as far as
    the cursor needs; ``PlayView`` checks the rest in idle time. With ``use_keyframe`` too, the
    log starts from the battle's last stored keyframe (``Battle.keyframes``), which the idle
    check verifies.

    Raises
    ------
    ValueError
        when the recorded events cannot be replayed (naming the first bad one) — with ``lazy``
        only those out of phase order, or any up to ``position``.
    """
    log = GameLog.lazy_from_battle(doc.battle, use_keyframe=use_keyframe) if lazy else None
    try:
        session = GameSession(doc.battle, seed=seed, log=log)
    except UnknownRuleset:
        session = None
    return PlayDocument(doc, session, position, log=log)


class PlayView(QObject):
    """Game recording and replay on ``map_view`` (see the module docstring).

    It adds the Replay dock, the Game menu and toolbar to ``docks`` (a ``DockHost``), says what
    happens through ``show_status(text, ms)``, and shows ``document`` until ``document_set``
    (the window connects its ``document_changed`` there). It never shows a document itself: it
    asks (``document_requested``) and the window answers with ``document_changed``.

    Signals
    -------
    document_requested(object)
        show this ``Document`` in the window (a game started, back to the editor, a game found
        unplayable): the map keeps its zoom and scroll.
    centre_requested(str)
        centre the map on this record (a unit picked in the Replay dock).
    problems_found(object, list)
        a ``Document`` and the problems of its recorded game (``game_problems``), for the Problems dock.
    frame_pending(), frame_done()
        a game is shown and the map has not painted yet / has: views that replay the whole game
        (the Analysis charts) wait in between (``IdleCheck``).
    """

    document_requested = Signal(object)
    centre_requested = Signal(str)
    problems_found = Signal(object, list)
    frame_pending = Signal()
    frame_done = Signal()

    def __init__(
        self,
        map_view: MapView,
        docks: DockHost,
        show_status: Callable[[str, int], None],
        document: Document,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.map_view = map_view
        self.show_status = show_status
        self.doc: Document | None = None
        self.seed: int | str | None = None  # dice seed of new sessions (None: random)
        self._editor_docs: weakref.WeakSet[Document] = weakref.WeakSet()
        # warned about already: why each document's game cannot be replayed
        self._unplayable_docs: weakref.WeakKeyDictionary[Document, Exception] = weakref.WeakKeyDictionary()
        self.order_dialog: OrderDialog | None = None
        self.umpire_dialog: UmpireDialog | None = None
        self.annotation_dialog: AnnotationDialog | None = None
        self.command_dialog: CommandRollDialog | None = None
        self.activation_dialog: ActivationDialog | None = None
        self.panel = ReplayPanel()
        self.dock = docks.add_dock("dock_replay", "Replay", self.panel, Qt.DockWidgetArea.BottomDockWidgetArea)
        docks.tabify("dock_problems", self.dock, raise_anchor=False)
        self.action_panel = ActionPanel(map_view)
        self.action_panel.status.connect(show_status)
        self.action_dock = docks.add_dock(
            "dock_actions", "Actions", self.action_panel, Qt.DockWidgetArea.RightDockWidgetArea
        )
        try:  # in a tab behind Properties, full height; in front while a game is shown
            docks.tabify("dock_properties", self.action_dock, raise_anchor=False)
        except KeyError:
            pass  # a window without a Properties dock
        self.action_dock.hide()
        self.marks = ReplayMarks(map_view.map_scene, self.side_colour)
        self.glide = UnitGlide(map_view.map_scene)  # units glide between steps while playing
        self.panel.unit_requested.connect(self.show_units)
        self.panel.trail_turns_changed.connect(self.marks.set_trail_turns)
        self.panel.highlight_changed.connect(self.marks.set_highlight)
        self._build_actions(docks)
        self._space_down = self._space_used = False
        self._viewport = map_view.viewport()
        self.check = IdleCheck(self._viewport, self)  # a lazily opened game: checked after the first frame
        self.check.frame_pending.connect(self.frame_pending)
        self._keyframe_later: weakref.WeakSet[PlayDocument] = weakref.WeakSet()  # finished games opened at their start
        self.check.frame_done.connect(self._seat_keyframe_later)  # before the views that follow the check
        self.check.frame_done.connect(self.frame_done)
        self.check.unplayable.connect(self.game_unplayable)
        self.check.keyframe_rejected.connect(self.keyframe_rejected)
        self.check.keyframe_checked.connect(self._keyframe_checked)
        map_view.installEventFilter(self)
        self._viewport.installEventFilter(self)
        self.document_set(document)

    def side_colour(self, side: str) -> str:
        """Colour of ``side`` in the shown scenario (grey when it has none)."""
        sides = self.doc.scenario.sides if self.doc is not None else {}
        return sides[side].colour if side in sides else "#606060"

    # -- actions ------------------------------------------------------------------------------
    def _build_actions(self, docks: DockHost) -> None:
        self.actions: dict[str, QAction] = {}

        def make(name: str, text: str, slot, keys: str | None = None, tip: str = "") -> QAction:
            a = QAction(text, self)
            a.setObjectName(f"action_game_{name}")
            if keys:
                a.setShortcut(QKeySequence(keys))
            a.setStatusTip(tip or text.replace("&", "").rstrip("…"))
            a.setToolTip(f"{text.replace('&', '').rstrip('…')}{' (' + keys + ')' if keys else ''}")
            a.triggered.connect(lambda _c=False: slot())
            self.actions[name] = a
            return a

        make("start", "&Start Game", self.start_game, None, "Switch to play: record the game turn by turn")
        make("next_phase", "&Next Phase", self.next_phase, "Ctrl+Return", "Close this phase and open the next")
        make(
            "order",
            "Issue &Order…",
            self.open_order_dialog,
            "Ctrl+Shift+O",
            "Write an order through the ruleset: zone, modifiers, exact odds, roll",
        )
        make(
            "initiative",
            "Roll &Initiative",
            self.roll_initiative,
            None,
            "Roll this turn's initiative, as the ruleset's initiative phase asks",
        )
        make(
            "command_rolls",
            "&Command Rolls…",
            self.open_command_rolls,
            None,
            "Roll the command checks due in this phase, one by one or all, with their odds",
        )
        make(
            "activation",
            "Choose &Activation…",
            self.open_activation_dialog,
            None,
            "Choose the brigade or division that activates next",
        )
        make(
            "umpire", "&Umpire Entry…", self.open_umpire_dialog, "Ctrl+Shift+U", "Casualties, melee and morale outcomes"
        )
        make("annotate", "&Annotate…", self.annotate, "Ctrl+Shift+N", "Pin a note to this moment and a place")
        make(
            "action_panel",
            "Ac&tions Panel",
            self.show_action_panel,
            ACTION_PANEL_KEYS,
            "Show the Actions dock: what the ruleset lets the selected unit do now, its odds, the roll",
        )
        make("resume", "&Record from the End", self.resume, None, "Go to the end of the game to go on recording")
        make(
            "editor",
            "&Back to Scenario Editor",
            self.back_to_editor,
            None,
            "Edit the scenario itself (the recorded game is kept)",
        )
        self.menu = docks.add_menu("&Game", "menu_game")
        a = self.actions
        self.menu.addActions([a["start"], a["next_phase"]])
        self.menu.addSeparator()
        self.menu.addActions([a["order"], a["initiative"], a["command_rolls"], a["activation"], a["action_panel"]])
        self.menu.addSeparator()
        self.menu.addActions([a["umpire"], a["annotate"]])
        self.menu.addSeparator()
        self.menu.addActions([a["resume"], a["editor"]])
        self.panel.add_to_menu(self.menu, self.side_colour, lambda: self.play)  # Go To…, bookmarks (Replay dock)
        bar = docks.add_toolbar("Game", "toolbar_game", new_row=True)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        bar.addActions(
            [
                a["start"],
                a["next_phase"],
                a["order"],
                a["initiative"],
                a["command_rolls"],
                a["activation"],
                a["umpire"],
                a["annotate"],
            ]
        )
        self.strip = QLabel()
        self.strip.setObjectName("phase_strip")
        self.strip.setTextFormat(Qt.TextFormat.RichText)
        self.strip.setContentsMargins(8, 0, 8, 0)
        bar.addSeparator()
        bar.addWidget(self.strip)
        self.toolbar = bar

    # -- documents ------------------------------------------------------------------------------
    def wrap(self, doc: Document) -> Document:
        """``doc`` as a ``PlayDocument`` ready to replay when its battle holds a game (at the
        start of a finished game, else at its end); ``doc`` itself otherwise, or when it was
        explicitly taken back to the editor, or when its game cannot be replayed (said once per
        document in a warning naming the file and the first bad event, and in the status bar)."""
        if isinstance(doc, PlayDocument) or doc in self._editor_docs or not doc.battle.events:
            return doc
        if doc in self._unplayable_docs:  # warned about already (maybe found after opening)
            return doc
        play = None
        try:
            # a keyframe the file stored holds for the file's game only: not once the scenario is
            # edited; a finished game opens at its start, so its keyframe is read after the first frame
            info = doc.scenario.info
            finished = bool(info.turns) and _last_turn(doc.battle.events) >= info.turns
            use_keyframe = not doc.is_modified
            play = make_play_document(doc, 0, self.seed, lazy=True, use_keyframe=use_keyframe and not finished)
            if finished and use_keyframe:
                self._keyframe_later.add(play)
            if not finished:
                play.timeline.to_end()  # replays (checks) the whole game now
        except ValueError as exc:
            if play is not None:
                play.close()
            self._unplayable(doc, exc)
            return doc
        return play

    def _seat_keyframe_later(self) -> None:
        """The first frame of a finished game is shown: its log runs from the file's last stored
        keyframe now (a jump to the end need not replay the game), which the idle check verifies."""
        play = self.play
        if play is not None and play in self._keyframe_later:
            self._keyframe_later.discard(play)
            play.log.seat_stored_keyframe(play.battle)

    @property
    def checking(self) -> bool:
        """True while the shown game's events are still being checked in idle time."""
        return self.check.checking

    def game_unplayable(self, play: PlayDocument, exc: Exception) -> None:
        """The idle check found a bad event in ``play``: warn, and show its scenario without
        the game (as opening a file with that event does)."""
        base = play.base
        self._unplayable(base, exc)
        if self.play is play:  # the warning's event loop may have moved on already
            play.close()
            self._switch(base)

    def keyframe_rejected(self, play: PlayDocument, text: str) -> None:
        """The idle check found that the keyframe ``play`` opened from does not match the replay,
        which replaced it: say so (status bar, Problems dock) and show the replayed game."""
        self.show_status(f"Stored keyframe not used: {text}", 15_000)
        self.problems_found.emit(play, keyframe_problems(text))
        if self.play is play:
            play.timeline.position_changed.emit(play.timeline.position)  # the views read the replay now

    def _keyframe_checked(self, play: PlayDocument) -> None:
        """The events before the keyframe ``play`` opened from are replayed: the trails, which
        started at the keyframe meanwhile, are drawn whole."""
        if self.play is play and self.marks.trail_turns:
            self.marks.refresh(changed=frozenset())

    def _on_unreplayable(self, exc: Exception) -> None:
        """A jump reached a bad event before the idle check did: the same warning, once the
        control that asked for the jump has returned."""
        play = self.play
        if play is not None:
            QTimer.singleShot(0, lambda: self.game_unplayable(play, exc))

    def _unplayable(self, doc: Document, exc: Exception) -> None:
        """Say (in the status bar, and once per document in a warning) that ``doc``'s game
        cannot be replayed, naming the first bad event."""
        self.show_status(f"The recorded game cannot be replayed: {exc}", 15_000)
        if doc not in self._unplayable_docs:
            self._unplayable_docs[doc] = exc
            self.problems_found.emit(doc, game_problems(doc, exc))
            if self.doc is doc:
                self._show_unplayable(doc)
            QMessageBox.warning(self.map_view, "Recorded game not replayed", unplayable_text(doc, exc))

    def _show_unplayable(self, doc: Document) -> None:
        exc = self._unplayable_docs.get(doc)
        if exc is not None:
            self.panel.show_unreplayable(len(doc.battle.events), str(exc))
        elif doc.battle.events:
            self.panel.show_kept_game(len(doc.battle.events))

    def document_set(self, doc: Document) -> None:
        """The window shows ``doc`` now: bind the Replay dock, the marks, the Game actions."""
        old = self.doc
        if isinstance(old, PlayDocument) and old is not doc:
            old.refused.disconnect(self._on_refused)
            old.explained.disconnect(self._on_refused)
            old.recorded.disconnect(self.update)
            old.timeline.position_changed.disconnect(self._on_position)
            old.timeline.unreplayable.disconnect(self._on_unreplayable)
        for dlg in (
            self.order_dialog,
            self.umpire_dialog,
            self.annotation_dialog,
            self.command_dialog,
            self.activation_dialog,
        ):
            if dlg is not None:
                dlg.close()
        self.doc = doc
        if isinstance(doc, PlayDocument):
            doc.refused.connect(self._on_refused)
            doc.explained.connect(self._on_refused)  # the rules a gesture met: status bar too
            doc.recorded.connect(self.update)
            doc.timeline.position_changed.connect(self._on_position)
            doc.timeline.unreplayable.connect(self._on_unreplayable)
            info = doc.base.scenario.info
            self.panel.bar.clock_of = lambda turn: game_time(info, turn) if turn else ""
            self.panel.set_timeline(doc.timeline)
            self.marks.bind(doc.timeline)
            self.glide.bind(doc.timeline)
            self.dock.show()
            self.dock.raise_()
            self.action_dock.show()
            self.action_dock.raise_()
            self.check.show(doc)
        else:
            self.check.show(None)
            self.panel.set_timeline(None)
            self._show_unplayable(doc)
            self.marks.bind(None)
            self.glide.bind(None)
            self.action_dock.hide()
        self.action_panel.set_document(doc)
        self.update()

    def _switch(self, doc: Document) -> None:
        """Ask the window to show ``doc`` (``document_requested``), keeping the map's zoom and scroll."""
        v = self.map_view
        transform, h, vv = v.transform(), v.horizontalScrollBar().value(), v.verticalScrollBar().value()
        auto_fit = v.auto_fit
        self.document_requested.emit(doc)
        v.setTransform(transform)
        v.horizontalScrollBar().setValue(h)
        v.verticalScrollBar().setValue(vv)
        v.auto_fit = auto_fit
        v.refresh_zoom()

    # -- state of the actions and the strip -------------------------------------------------------
    @property
    def play(self) -> PlayDocument | None:
        return self.doc if isinstance(self.doc, PlayDocument) else None

    def _on_position(self, _pos: int) -> None:
        self.update()

    def update(self) -> None:
        """Enable the actions that make sense now and redraw the phase strip."""
        p = self.play
        rec = p is not None and p.recording
        a = self.actions
        a["start"].setEnabled(p is None or (p.session is not None and not p.session.started))
        a["start"].setText("&Resume Game" if self.doc and self.doc.battle.events else "&Start Game")
        for n in ("next_phase", "order", "umpire", "annotate"):
            a[n].setEnabled(rec)
        self._update_phase_actions(p if rec else None)
        a["resume"].setEnabled(p is not None and p.session is not None and not p.timeline.at_end)
        locked = getattr(p, "scenario_locked", "")  # a club game: the scenario is the server's
        a["editor"].setEnabled(p is not None and not locked)
        a["editor"].setToolTip(locked or a["editor"].text().replace("&", ""))
        a["action_panel"].setEnabled(p is not None)
        self.strip.setText(self._strip_text())

    def _update_phase_actions(self, p: PlayDocument | None) -> None:
        """Enable Roll Initiative, Command Rolls and Choose Activation when the ruleset's open
        phase has them (its ``methods``) and they have something to do; the tip says why not."""
        a = self.actions
        tips = {
            "initiative": "No initiative roll in this phase",
            "command_rolls": "No command checks in this phase",
            "activation": "No activations in this phase",
        }
        on = dict.fromkeys(tips, False)
        s = p.session if p is not None else None
        if s is not None and s.started:
            try:
                methods = s.step().spec.methods
            except SessionError:
                methods = ()
            if "initiative" in methods:
                k = s.initiative_rolled()
                on["initiative"] = k is None
                if k is not None:
                    tips["initiative"] = f"The initiative of turn {k.turn} is rolled ({k.side}, {k.phase})"
            if "command_check" in methods:
                on["command_rolls"] = bool(s.checks_due())
                tips["command_rolls"] = "Every command check of this phase is rolled"
            if "next_activation" in methods:
                on["activation"] = bool(s.activation_choices())
                tips["activation"] = "No formation of this side may activate any more this turn"
        for n, tip in tips.items():
            a[n].setEnabled(on[n])
            base = a[n].text().replace("&", "").rstrip("…")
            a[n].setToolTip(base if on[n] else f"{base}: {tip}")

    def _strip_text(self) -> str:
        p = self.play
        if p is None:
            return "<i>Editing the scenario</i>"
        t = p.timeline
        c = t.cursor
        mode = "<b style='color:#b00020'>● REC</b>" if p.recording else "<b>▶ Replay</b>"
        if t.position == 0:
            return f"{mode} · start of the game"
        info = p.base.scenario.info
        side = p.base.scenario.sides.get(c.side)
        ruleset = p.session.ruleset if p.session is not None else None
        phases = (
            [(s.id, s.name) for s in ruleset.turn_sequence(t.state)]
            if ruleset is not None
            else [(k.phase, k.phase) for k in p.log.phases() if k.turn == c.turn and k.side == c.side]
        )
        parts, current = [], c.phase
        for i, (pid, name) in enumerate(phases, 1):
            short = html.escape(pid.replace("_", " ").capitalize())  # names from the file: plain text
            if pid == c.phase:
                current = name
                parts.append(f"<b style='background:#3d7ad6;color:white'>&nbsp;{i} {short}&nbsp;</b>")
            else:
                parts.append(f"<span style='color:gray'>{i} {short}</span>")
        self.strip.setToolTip(html.escape(f"Turn {c.turn}, {c.side}: {current}"))
        last = f"/{info.turns}" if info.turns else ""
        return (
            f"{mode} · <b>Turn {c.turn}{last}</b> {game_time(info, c.turn)} · "
            f"<b>{html.escape(side.name.split(':')[0] if side else c.side)}</b> · " + " ".join(parts)
        )

    def _on_refused(self, text: str) -> None:
        self.show_status(text, 10_000)

    # -- commands ---------------------------------------------------------------------------------
    def start_game(self) -> PlayDocument | None:
        """Switch the document to play: start the game (turn 1's first phase), or go on with a
        game already recorded from its end."""
        doc = self.doc
        if isinstance(doc, PlayDocument):
            play = doc
        else:
            try:
                play = make_play_document(doc, None, self.seed)
            except ValueError as exc:
                self._on_refused(f"The recorded game cannot be replayed: {exc}")
                return None
        if play.session is None:
            self._on_refused(play.why_not_recording())
            return None
        if not play.session.started:
            entry = play.run("Start game", lambda s: (s.start(), s.phase_entry())[1], starting=True)
            if entry is not None and entry is not True and entry.text:
                self.show_status(entry.text, 10_000)
        if play is not doc:
            self._editor_docs.discard(doc)
            self._switch(play)
        play.timeline.to_end()
        self.update()
        return play

    def next_phase(self) -> None:
        p = self.play
        close = getattr(p, "close_phase", None)  # a club game: advances once every umpire has closed it
        if close is not None and not close():
            self.update()
            return
        entry = None if p is None else p.run("Next phase", lambda s: (s.next_phase(), s.phase_entry())[1])
        if p is not None and entry is not None:
            k = p.session.key
            said = f" — {entry.text}" if entry is not True and entry.text else ""
            self.show_status(f"Now {k} ({p.session.clock()}){said}", 10_000)

    def roll_initiative(self) -> object:
        """Roll this turn's initiative (the ruleset's initiative phase); its rolls show in the
        Replay dock and its explanation in the status bar."""
        p = self.play
        if p is None:
            return None
        res = p.run("Roll initiative", lambda s: s.initiative())
        if res is not None and res is not True:
            self.show_status(res.explanation, 15_000)
        return res

    def _recording(self) -> PlayDocument | None:
        p = self.play
        if p is None or not p.recording:
            self._on_refused(p.why_not_recording() if p else "Start the game first (Game ▸ Start Game).")
            return None
        return p

    def open_command_rolls(self) -> CommandRollDialog | None:
        """Show the command checks due in this phase (``CommandRollDialog``)."""
        p = self._recording()
        if p is None:
            return None
        if self.command_dialog is not None:
            self.command_dialog.close()
        self.command_dialog = CommandRollDialog(p, self.map_view)
        self.command_dialog.finished.connect(self._window_back)
        self.command_dialog.show()
        return self.command_dialog

    def open_activation_dialog(self) -> ActivationDialog | None:
        """Show the formations that may activate next (``ActivationDialog``)."""
        p = self._recording()
        if p is None:
            return None
        if self.activation_dialog is not None:
            self.activation_dialog.close()
        self.activation_dialog = ActivationDialog(p, self.map_view)
        self.activation_dialog.finished.connect(self._window_back)
        self.activation_dialog.show()
        return self.activation_dialog

    def open_order_dialog(self) -> OrderDialog | None:
        p = self.play
        if p is None or not p.recording:
            self._on_refused(p.why_not_recording() if p else "Start the game first (Game ▸ Start Game).")
            return None
        if self.order_dialog is not None:
            self.order_dialog.close()
        self.order_dialog = OrderDialog(p, self.map_view, self.map_view)
        self.order_dialog.finished.connect(self._window_back)
        self.order_dialog.show()
        return self.order_dialog

    def open_umpire_dialog(self, tab: str = "casualties") -> UmpireDialog | None:
        p = self.play
        if p is None or not p.recording:
            self._on_refused(p.why_not_recording() if p else "Start the game first (Game ▸ Start Game).")
            return None
        self.umpire_dialog = UmpireDialog(p, tab, self.map_view)
        self.umpire_dialog.finished.connect(self._window_back)
        self.umpire_dialog.show()
        return self.umpire_dialog

    def annotate(self) -> None:
        """Click a place on the map, then write the note pinned there (Esc: no place)."""
        p = self.play
        if p is None or not p.recording:
            self._on_refused(p.why_not_recording() if p else "Start the game first (Game ▸ Start Game).")
            return
        pick_point(self.map_view, "Click where the note belongs; Esc pins it to no place", self.open_annotation)

    def open_annotation(self, at) -> AnnotationDialog | None:
        p = self.play
        if p is None or not p.recording:
            return None
        self.annotation_dialog = AnnotationDialog(p, at, self.map_view)
        self.annotation_dialog.finished.connect(self._window_back)
        self.annotation_dialog.show()
        return self.annotation_dialog

    def show_action_panel(self) -> ActionPanel:
        """Show the Actions dock in front, the subject chooser focused."""
        self.action_dock.show()
        self.action_dock.raise_()
        self.action_panel.subject.setFocus()
        return self.action_panel

    def _window_back(self, _result: int = 0) -> None:
        """A game dialog closed: the window takes the keyboard back, so its shortcuts (Ctrl+O,
        the replay keys) work at once without a click (a window manager may not do it)."""
        w = self.map_view.window()
        w.activateWindow()
        self.map_view.setFocus()

    def resume(self) -> None:
        if self.play is not None:
            self.play.timeline.to_end()

    def back_to_editor(self) -> None:
        """Show the scenario itself again (its own undo history); the game stays in the battle."""
        p = self.play
        if p is None:
            return
        if getattr(p, "scenario_locked", ""):
            self._on_refused(p.scenario_locked)
            return
        base = p.base
        if p.is_modified and not base.is_modified:
            base.mark_unsaved()
        self._editor_docs.add(base)
        p.close()
        self._switch(base)

    def show_units(self, ids: list[str]) -> None:
        """Select ``ids`` (those on the table at the cursor) and centre the map on the first."""
        doc = self.doc
        if doc is None:
            return
        here = [i for i in ids if doc.scenario.record(i) is not None]
        if here:
            doc.set_selection(here)
            self.centre_requested.emit(here[0])

    # -- replay keys on the map -------------------------------------------------------------------
    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        et = event.type()
        if obj is self._viewport and et == QEvent.Type.Paint:
            self.check.painted()
        p = self.play
        if p is None:
            return False
        if obj is self._viewport:
            if et == QEvent.Type.MouseButtonPress and self._space_down:
                self._space_used = True
            return False
        if et == QEvent.Type.KeyPress:
            key = event.key()
            if key == Qt.Key.Key_Space:
                if not event.isAutoRepeat():
                    self._space_down, self._space_used = True, False
                return False
            if (
                key in ARROWS
                and p.recording
                and p.selection
                and not event.modifiers() & Qt.KeyboardModifier.ControlModifier
            ):
                return False  # nudging the selection is a move
            if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                return False
            if handle_key(p.timeline, event):
                return True
        elif et == QEvent.Type.KeyRelease and event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            if self._space_down and not self._space_used:
                p.timeline.toggle_play()
            self._space_down = False
        return False
