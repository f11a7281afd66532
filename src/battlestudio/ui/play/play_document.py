"""PlayDocument: a battle shown at the replay cursor, and recorded when the cursor is at its end.

Every view of the main window (map, order of battle, properties, problems) reads
``document.scenario``; a ``PlayDocument`` answers with a *view* of the game state at its
``Timeline``'s cursor (units, commanders and order of battle at that moment, everything else
from the scenario), kept in step with the cursor by announcing only the records that changed.
So the views show the state at the cursor, never the base scenario, with no code of their own.

While recording (a ``GameSession`` exists and the cursor is at the end of the log), an edit the
map tools or the Properties dock push becomes battle events (``translate.events_for``): a drag
is a ``Moved``, a drag continued with the same merge key replaces the events of the drag so
far. Undo and redo work on the events of the open phase (``GameLog.undo``), one user action at a
time. ``battle`` is the real battle (base scenario plus every event), so saving it saves the
game; events of closed phases are appended to a ``.battle`` file as soon as the phase closes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from psygnal import Signal

from battlestudio import store
from battlestudio.document import Document
from battlestudio.edits import Change, Edit
from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.scenario import Scenario
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState
from battlestudio.replay.timeline import Timeline
from battlestudio.session import GameSession, SessionError
from battlestudio.ui.play.translate import PLAY_KINDS, NotAnEvent, events_for, playable


@dataclass
class Action:
    """One undo step of recording: ``text`` (shown as "Undo <text>"), ``count`` events, and the
    ``merge_key`` of the drag that made it (None for other actions)."""

    text: str
    count: int
    merge_key: object = None
    events: list[BattleEvent] = field(default_factory=list)


class PlayDocument(Document):
    """The battle of ``base`` at a replay cursor, recording through ``session``.

    Parameters
    ----------
    base : Document
        the editor's document (its battle, path and scenario history are kept for going back).
    session : GameSession | None
        records the game; None for a replay only (e.g. the ruleset is not installed).
    position : int | None
        where the cursor starts (None = the end of the log).
    log : GameLog | None
        the game log to replay when there is no session (default ``GameLog.from_battle``);
        with a session, the session's log.

    Raises
    ------
    ValueError
        (from ``GameLog``) when the battle's events cannot be replayed, naming the first bad one.

    Signals
    -------
    refused(str)
        an edit or action was refused; the text says why.
    recorded()
        events were recorded or taken back.
    """

    refused = Signal(str)
    recorded = Signal()

    def __init__(self, base: Document, session: GameSession | None = None, position: int | None = None,
                 log: GameLog | None = None) -> None:
        super().__init__(base.battle, base.path)
        self.base = base
        self.session = session
        self.log: GameLog = session.log if session is not None else log if log is not None else \
            GameLog.from_battle(base.battle)
        self.timeline = Timeline(self.log, position)
        s = base.scenario
        self._view = Scenario(info=s.info, sides=s.sides, terrain=s.terrain, towns=s.towns, objectives=s.objectives,
                              deployment_zones=s.deployment_zones, reinforcements=s.reinforcements,
                              orders=s.orders, sources=s.sources, oob=s.oob)
        self._shown: GameState | None = None
        self._actions: list[Action] = []
        self._redo: list[Action] = []
        self._dirty = False
        self._written = len(self.log) if self._is_database() and not base.is_modified else -1
        self._sync()
        self.timeline.position_changed.connect(self._on_position)
        self.timeline.bounds_changed.connect(self._on_bounds)

    # -- what the views read --------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        """The scenario as it stands at the cursor (units, commanders, order of battle)."""
        return self._view

    @property
    def state(self) -> GameState:
        """The game state at the cursor."""
        return self.timeline.state

    @property
    def recording(self) -> bool:
        """True when edits become events: a started session and the cursor at the log's end."""
        return self.session is not None and self.session.started and self.timeline.at_end

    def _on_position(self, _pos: int) -> None:
        self._sync()

    def _on_bounds(self, _lo: int, _hi: int) -> None:
        self.history_changed.emit()

    def _sync(self) -> None:
        """Bring the view scenario to the state at the cursor; announce what changed."""
        state = self.timeline.state
        last = self._shown
        changes: list[Change] = []
        presence = False  # a record came onto or left the table
        for kind in PLAY_KINDS:
            records = getattr(state, kind)
            target: dict = getattr(self._view, kind)
            if last is None:
                ids = set(records) | set(target)
            else:
                ids = set(records.changed_keys(getattr(last, kind))) if hasattr(records, "changed_keys") else \
                    set(records) | set(target)
                ids |= {i for i in last.off_table ^ state.off_table if i in records}
            for i in ids:
                rec = records.get(i)
                if rec is None or i in state.off_table:
                    presence |= target.pop(i, None) is not None
                else:
                    presence |= i not in target
                    target[i] = rec
            if ids:
                changes.append(Change(kind, frozenset(ids)))
        if last is None or state.oob is not last.oob or presence:
            old = set(self._view.oob.graph.edges)
            self._view.oob = _on_table(state)
            nodes = {v for _, v in old ^ set(self._view.oob.graph.edges)}
            if last is None or nodes:
                changes.append(Change("oob", frozenset(nodes)))
        self._shown = state
        if changes and last is not None:
            self.changed.emit(changes)
            self._prune_selection()

    # -- recording --------------------------------------------------------------------------
    def _refuse(self, text: str) -> None:
        self.refused.emit(text)

    def why_not_recording(self, starting: bool = False) -> str:
        """Why edits are not recorded now ("" while recording; with ``starting``, "" when the
        game may be started or resumed)."""
        if self.session is None:
            return "This game is replayed only: its ruleset is not available for recording."
        if not self.session.started and not starting:
            return "The game has not started: Game ▸ Start Game."
        if not self.timeline.at_end:
            return "Replaying: the map shows the past. Go to the end of the game (End) to record."
        return ""

    def run(self, text: str, do: Callable[[GameSession], Any], merge_key: object = None,
            starting: bool = False) -> Any:
        """Do one recording action through the session as one undo step; return what ``do``
        returned (True for None), or None when it was refused (``refused`` says why).

        ``do`` is called with the session; every event it records is this action's. With
        ``starting`` it may run before the game has started (``GameSession.start``).
        """
        why = self.why_not_recording(starting)
        if why:
            self._refuse(why)
            return None
        before = len(self.log)
        try:
            result = do(self.session)
        except (SessionError, ValueError) as exc:
            self._refuse(str(exc))
            return None
        n = len(self.log) - before
        if n:
            self._actions.append(Action(text, n, merge_key))
            self._redo.clear()
            self._after_record()
        return True if result is None else result

    def _after_record(self) -> None:
        self._dirty = True
        self.revision += 1
        self._write_closed()
        self.recorded.emit()
        self.history_changed.emit()

    def _is_database(self) -> bool:
        return self.path is not None and str(self.path).lower().endswith(".battle")

    def _write_closed(self) -> None:
        """Append the events no undo can take back any more to the ``.battle`` file."""
        if self._written < 0 or self.base.is_modified or not self._is_database():
            return
        sealed = len(self.log) - self.log.undoable
        if sealed <= self._written:
            return
        try:
            self._written = store.append_events(self.path, self.log.events[self._written:sealed], after=self._written)
        except Exception as exc:  # noqa: BLE001 - the events stay in memory and go out with Save
            self._written = -1
            self._refuse(f"{exc} — the game will be written on Save")

    def push(self, edit: Edit) -> list[Change]:
        """Record ``edit`` (a move, turn, formation, order-state change or loss made on the map
        or in the Properties dock) as battle events; refuse anything else.

        A push with the merge key of the last action replaces that action's events (a drag is
        one ``Moved`` from where it started). Returns the changes shown (empty when refused).
        """
        why = self.why_not_recording()
        if why:
            self._refuse(why)
            return []
        if not playable(edit):
            self._refuse(f"{edit.text or 'This edit'} changes the scenario, not the game; it cannot be recorded. "
                         "Use Game ▸ Back to Scenario Editor to change the scenario.")
            return []
        key = getattr(edit, "merge_key", None)
        top = self._actions[-1] if self._actions else None
        replaced: Action | None = None
        if key is not None and top is not None and top.merge_key == key and top.count <= self.log.undoable:
            replaced = Action(top.text, top.count, key, self.session.undo(top.count))
            self._actions.pop()
        changes = edit.do(self._view)
        touched = {(c.kind, i) for c in changes for i in c.ids}
        after = {i: getattr(self._view, k)[i] for k, i in touched if k in PLAY_KINDS and i in getattr(self._view, k)}
        edit.undo(self._view)
        before = {i: self._view.record(i) for i in after}
        try:
            events = events_for(before, after, self.session.stamped)
        except NotAnEvent as exc:
            events = []
            self._refuse(str(exc))
        done = bool(events) and self.run(edit.text or "Move", lambda s: s.record_all(events), key) is not None
        if not done and replaced is not None:  # put the drag so far back
            self.session.record_all(replaced.events)
            self._actions.append(Action(replaced.text, replaced.count, key))
        if replaced is not None and not done:
            self._after_record()
        return changes if done else []

    # -- undo / redo of the open phase -------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return self.session is not None and self.log.undoable > 0

    @property
    def can_redo(self) -> bool:
        return self.session is not None and bool(self._redo)

    @property
    def undo_text(self) -> str:
        if not self.can_undo:
            return ""
        return self._actions[-1].text if self._actions else f"event {len(self.log)}"

    @property
    def redo_text(self) -> str:
        return self._redo[-1].text if self.can_redo else ""

    @property
    def undo_count(self) -> int:
        return self.log.undoable

    def undo(self) -> list[Change]:
        """Take back the last recording action (its events), within the open phase."""
        if not self.can_undo:
            return []
        top = self._actions.pop() if self._actions else Action(f"event {len(self.log)}", 1)
        removed = self.session.undo(min(top.count, self.log.undoable))
        self._redo.append(Action(top.text, len(removed), top.merge_key, list(removed)))
        self._after_record()
        return []

    def redo(self) -> list[Change]:
        """Record again the events of the last action taken back."""
        if not self.can_redo:
            return []
        act = self._redo.pop()
        try:
            self.session.record_all(act.events)
        except SessionError as exc:
            self._redo.clear()
            self._refuse(f"Cannot redo {act.text}: {exc}")
            self.history_changed.emit()
            return []
        self._actions.append(Action(act.text, len(act.events)))
        self._after_record()
        return []

    # -- saved state --------------------------------------------------------------------------
    @property
    def is_modified(self) -> bool:
        return self.base.is_modified or self._dirty

    def mark_saved(self, path: Path | None = None) -> None:
        self.base.mark_saved(path)
        if self.base.path != self.path:
            self.path = self.base.path
            self.path_changed.emit()
        self._dirty = False
        self._written = len(self.log) if self._is_database() else -1
        self.history_changed.emit()

    def mark_unsaved(self) -> None:
        self._dirty = True
        self.history_changed.emit()

    def close(self) -> None:
        """Stop following the log (when the window drops this document)."""
        self.timeline.pause()
        self.timeline.position_changed.disconnect(self._on_position)
        self.timeline.bounds_changed.disconnect(self._on_bounds)
        self.timeline.close()


def _on_table(state: GameState) -> OrderOfBattle:
    """The order of battle of what is on the table: formations still to arrive and units
    removed from the game left out (the state's own graph when there are none)."""
    gone = [n for n in state.oob.graph if n in state.off_table or (n not in state.units and n not in state.commanders)]
    if not gone:
        return state.oob
    oob = state.oob.copy()
    oob.graph.remove_nodes_from(gone)
    return oob
