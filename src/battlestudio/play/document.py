"""PlayDocument: a battle shown at the replay cursor, and recorded when the cursor is at its end.

Every view of the main window (map, order of battle, properties, problems) reads
``document.scenario``; a ``PlayDocument`` answers with a *view* of the game state at its
``Timeline``'s cursor (units, commanders and order of battle at that moment, everything else
from the scenario), kept in step with the cursor by announcing only the records that changed.
So the views show the state at the cursor, never the base scenario, with no code of their own.

While recording (a ``GameSession`` exists and the cursor is at the end of the log), the
gestures of the map tools and the Properties dock (``Document``'s verbs ``move``, ``rotate``,
``set_fields``, ``place``) become battle events (``play.events``): a drag is one ``Moved`` per
record from where the drag began, and a call continuing a gesture (the same merge key) replaces
the gesture's events so far. Any edit ``push``-ed is the scenario's business and refused, as is
every gesture while replaying; ``refused`` says why. Undo and redo work on the events of the
game, one user action at a time; taking back "Next phase" reopens the phase it closed, whose
actions come next. ``battle`` is the real battle (base scenario plus every event), so saving it
saves the game. A ``.battle`` file is never written before Save: the events of each phase as it
closes go to its journal (``store.journal``), which Save and Discard remove and which the next
open offers if the program died.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable, Mapping

from psygnal import Signal

from battlestudio.rules.moves import MoveCheck, MoveRequest
from battlestudio.model.formations import arm_formation_problem
from battlestudio.document import Document, OnDisk
from battlestudio.edits import Change, Edit
from battlestudio.edits.moves import move_text, rotate_text, turned
from battlestudio.edits.place import place_text, placed_records
from battlestudio.model.formations import FormationChange
from battlestudio.model.geometry import Point
from battlestudio.model.names import display_names
from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Unit
from battlestudio.play.events import PLAY_KINDS, Piece, events_for, move_events
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import Annotation
from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState
from battlestudio.replay.timeline import Timeline
from battlestudio.rules.params import RuleRefused
from battlestudio.session import GameSession, SessionError
from battlestudio.store.errors import BattleFileError
from battlestudio.store.file_identity import FileIdentity, FileReplaced
from battlestudio.store.journal import JournalWriter

Build = Callable[[GameState], list[BattleEvent]]
"""Makes a gesture's events from the state they start from (the end of the log)."""

SCENARIO_ONLY = (
    "changes the scenario, not the game; it cannot be recorded. "
    "Use Game ▸ Back to Scenario Editor to change the scenario."
)
"""Why an edit or a gesture on terrain, towns or objectives is refused while recording."""


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
    explained(str)
        the rules a recorded gesture followed (a formation change: its anchor and cost).
    file_replaced(str)
        the ``.battle`` file was changed or replaced by another writer since it was opened or
        last saved, so the closed phases are not journaled beside it; the text says so.
    """

    file_replaced = Signal(str)
    refused = Signal(str)
    recorded = Signal()
    explained = Signal(str)

    def __init__(
        self,
        base: Document,
        session: GameSession | None = None,
        position: int | None = None,
        log: GameLog | None = None,
    ) -> None:
        super().__init__(base.battle, base.path)
        self.base = base
        self.session = session
        self.log: GameLog = (
            session.log if session is not None else log if log is not None else GameLog.from_battle(base.battle)
        )
        self.timeline = Timeline(self.log, position)
        s = base.scenario
        self._view = Scenario(
            info=s.info,
            sides=s.sides,
            terrain=s.terrain,
            towns=s.towns,
            objectives=s.objectives,
            deployment_zones=s.deployment_zones,
            reinforcements=s.reinforcements,
            orders=s.orders,
            sources=s.sources,
            oob=s.oob,
        )
        self._shown: GameState | None = None
        self._held = 0  # > 0: a gesture is replacing events; the view syncs once at its end
        self._actions: list[Action] = []
        self._redo: list[Action] = []
        self._dirty = False
        self._journal: JournalWriter | None = None
        self._journaled = 0  # the log's events before this position are in the file or the journal
        self._start_journal(not base.is_modified)
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
        if not self._held:
            self._sync()

    def _on_bounds(self, _lo: int, _hi: int) -> None:
        self.history_changed.emit()

    def _sync(self) -> list[Change]:
        """Bring the view scenario to the state at the cursor; announce what changed (and
        return it)."""
        state = self.timeline.state
        last = self._shown
        changes: list[Change] = []
        presence = False  # a record came onto or left the table
        for kind in PLAY_KINDS:
            records = getattr(state, kind)
            target: dict[str, Any] = getattr(self._view, kind)
            if last is None:
                ids = set(records) | set(target)
            else:
                ids = (
                    set(records.changed_keys(getattr(last, kind)))
                    if hasattr(records, "changed_keys")
                    else set(records) | set(target)
                )
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
        return changes

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

    def side_on_the_move(self) -> str | None:
        """The side id whose units move in the open phase while recording: the phase's side when
        only the active side acts in it (Torden over Europa 1.2, 4.2: the active side's movement;
        Regimental activations); None when both sides may act, in the past, or not recording."""
        session = self.session
        if not self.recording or session is None:
            return None
        try:
            step = session.step()
        except SessionError:
            return None
        return step.side if step.spec.who == "active" else None

    def why_not_moving(self, ids: Iterable[str]) -> str:
        """Why moving the units and commanders ``ids`` needs the umpire's word ("" when it does
        not): they belong to a side not on the move (``side_on_the_move``), e.g. "39e Ligne
        belongs to Austria, which is not on the move." Unknown ids are ignored."""
        moving = self.side_on_the_move()
        if moving is None:
            return ""
        s = self.scenario
        names = display_names(s)
        others: dict[str, list[str]] = {}
        for i in dict.fromkeys(ids):
            rec = s.units.get(i) or s.commanders.get(i)
            if rec is not None and rec.side != moving:
                others.setdefault(rec.side, []).append(names.get(i, i))
        if not others:
            return ""
        parts = []
        for side, who in others.items():
            side_name = s.sides[side].name if side in s.sides else side or "no side"
            listed = who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]
            if len(who) > 4:
                listed = f"{', '.join(who[:3])} and {len(who) - 3} more"
            parts.append(f"{listed} {'belongs' if len(who) == 1 else 'belong'} to {side_name}")
        return f"{'; '.join(parts)}, which is not on the move."

    def run(self, text: str, do: Callable[[GameSession], Any], merge_key: object = None, starting: bool = False) -> Any:
        """Do one recording action through the session as one undo step; return what ``do``
        returned (True for None), or None when it was refused (``refused`` says why).

        ``do`` is called with the session; every event it records is this action's. With
        ``starting`` it may run before the game has started (``GameSession.start``).
        """
        why = self.why_not_recording(starting)
        session = self.session
        if why or session is None:
            self._refuse(why)
            return None
        before = len(self.log)
        try:
            result = do(session)
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

    def _start_journal(self, file_holds_game: bool) -> None:
        """Journal the phases closed from now on when the ``.battle`` file holds the game as
        it stands (just opened or saved, the scenario unedited); else Save writes them."""
        self._journal = None
        if file_holds_game and self._is_database() and self.path is not None:
            disk = self.disk
            identity = disk if isinstance(disk, FileIdentity) else None
            self._journal = JournalWriter(self.path, len(self.log), identity)
            self._journaled = len(self.log)

    @property
    def journal_path(self) -> Path | None:
        """The journal this document writes beside its ``.battle`` file (None if none)."""
        return self._journal.path if self._journal is not None else None

    def _write_closed(self) -> None:
        """Keep the journal equal to the game up to the open phase: the events of phases closed
        since the last write, or a shorter game after an undo took journaled events back."""
        j = self._journal
        if j is None or self.base.is_modified:
            return
        n = len(self.log)
        sealed = n - self.log.undoable
        try:
            if n < self._journaled:
                j.write(n, [])
                self._journaled = n
            if sealed > self._journaled:
                j.write(self._journaled, self.log.events[self._journaled : sealed])
                self._journaled = sealed
        except FileReplaced as exc:  # another writer's file: Save asks before it is overwritten
            self._journal = None
            self._refuse(str(exc))
            self.file_replaced.emit(str(exc))
        except BattleFileError as exc:  # the events stay in memory (and the autosave) and go out with Save
            self._journal = None
            self._refuse(f"{exc} — the game will be written on Save")

    def discard_journal(self) -> None:
        """Forget the unsaved phases on disk (Discard): the file stays as it was."""
        if self._journal is not None:
            self._journal.remove()

    def push(self, edit: Edit) -> list[Change]:
        """Refuse ``edit``: while playing, the map and the docks change the game through the
        gestures (``move``, ``rotate``, ``set_fields``, ``place``); an edit is the scenario's."""
        self._refuse(self.why_not_recording() or f"{edit.text or 'This edit'} {SCENARIO_ONLY}")
        return []

    # -- gestures as battle events ------------------------------------------------------------
    def move(self, ids: Iterable[str], dx: float, dy: float, key: object = None, verb: str = "Move") -> list[Change]:
        """Record the units and commanders ``ids`` moved by (dx, dy) cm from where they stood at
        the gesture's start: one ``Moved`` each, replacing the events of the gesture so far.
        Refused (``refused``) when not recording or when terrain, a town or an objective is among
        them. Returns the changes shown."""
        start = self.gesture_start(ids, key)
        if not start:
            return []
        text = move_text(start, verb)
        if any(kind not in PLAY_KINDS for kind, _ in start.values()):
            self._refuse(self.why_not_recording() or f"{text} {SCENARIO_ONLY}")
            return []

        def build(state: GameState) -> list[BattleEvent]:
            out: list[BattleEvent] = []
            for rid, (kind, rec) in start.items():
                to = (rec.position[0] + dx, rec.position[1] + dy)
                out += move_events(rid, getattr(state, kind)[rid], to, None, self._stamped)
            return out

        # the table as the drag found it: the moved units where they stood at its start
        before = self.timeline.state.with_records(
            [rec for kind, rec in start.values() if kind in ("units", "commanders")]
        )
        changes = self._record_gesture(text, key, build)
        units = [rid for rid, (kind, _rec) in start.items() if kind in ("units", "commanders")]
        self._last_move = (before, units, (dx, dy)) if changes else None  # none: the drag was taken back
        return changes

    def explain_move(self) -> None:
        """Say how the last recorded move stands against the movement rules (``explained``):
        the broken rules of each unit that breaks one, else how far of how far for one unit.
        The select tool calls it once a drag ends (not on every mouse move: each check
        measures the way swept against every friend and terrain feature)."""
        last, self._last_move = self._last_move, None
        if last is not None and last[2] != (0.0, 0.0):  # (0, 0): the drag was taken back
            self._explain_moves(*last)

    _last_move: tuple[GameState, list[str], Point] | None = None

    MOVE_CHECK_LIMIT = 12
    """At most this many units of one drag are checked against the movement rules."""

    def move_checks(self, state: GameState, ids: Iterable[str], delta: Point) -> list[MoveCheck]:
        """The ruleset's movement check (``move_check``, e.g. Torden over Europa 4.1-4.7, 2.4 for
        a general) of the units and generals ``ids`` moved by ``delta`` cm from where they stand
        in ``state``, each with the other generals of the drag moved; empty when not recording or
        the ruleset has no movement rules."""
        session = self.session
        if session is None:
            return []
        info = self.base.scenario.info
        terrain = tuple(self.base.scenario.terrain.values())
        out = []
        ids = list(ids)
        generals = [g for g in ids if g in state.commanders]
        for uid in ids:
            u = state.units.get(uid) or state.commanders.get(uid)  # a general's drag too (ToE 2.4)
            if u is None:
                continue
            if uid in state.commanders and state.oob.superior(uid) in generals:
                continue  # dragged with his superior: no distance to him changes
            at = state  # the generals dragged along stand where the drag takes them
            others = [state.commanders[g] for g in generals if g != uid]
            if others:
                at = state.with_records(c.moved((c.position[0] + delta[0], c.position[1] + delta[1])) for c in others)
            req = MoveRequest(
                uid,
                (u.position, (u.position[0] + delta[0], u.position[1] + delta[1])),
                None,
                terrain,
                (info.table_width, info.table_height),
                tuple(self.base.scenario.towns.values()),
            )
            try:
                found = session.ruleset.move_check(at, req, session.params)
            except RuleRefused:
                continue
            if found is not None:
                out.append(found)
        return out

    def _explain_moves(self, before: GameState, ids: list[str], delta: Point) -> None:
        """Say how the drag stands against the movement rules (``explained``): the broken rules
        of each unit that breaks one, else how far of how far for a single unit."""
        if not ids or len(ids) > self.MOVE_CHECK_LIMIT:
            return
        checks = self.move_checks(before, ids, delta)
        names = {u: r.name for u in ids if (r := before.units.get(u) or before.commanders.get(u)) is not None}
        bad = [c for c in checks if not c.legal or c.leaves_table]
        if bad:
            said = " ".join(f"{names.get(c.unit, c.unit)}: {c.explanation}" for c in bad)
            noted = self._note_in_log(said, tuple(c.unit for c in bad if not c.legal))
            self.explained.emit(said + noted)
        elif len(checks) == 1:
            c = checks[0]
            self.explained.emit(f"{names.get(c.unit, c.unit)}: {c.explanation}")

    BEYOND_THE_RULES = "Move beyond the rules"
    """Title of the log's note on a drag the movement rules refuse, recorded on the umpire's word."""

    def _note_in_log(self, said: str, units: tuple[str, ...]) -> str:
        """Pin ``said`` (why the rules refuse the last drag of ``units``) to the log as an
        ``Annotation`` in the drag's own undo step, so the log and its replay show that the move
        was recorded on the umpire's authority; the clause to add to the status bar ("" when
        nothing was noted: no refused unit, or the drag is no longer the last step)."""
        session, top = self.session, self._actions[-1] if self._actions else None
        if not units or session is None or top is None or top.merge_key is None or top.count > self.log.undoable:
            return ""
        try:
            note = self._stamped(Annotation, text=said, ids=units, title=self.BEYOND_THE_RULES)
            session.record_all([note])
        except (SessionError, ValueError):
            return ""
        self._actions[-1] = replace(top, count=top.count + 1, merge_key=None)
        self._sync()
        self._after_record()
        return " Recorded on the umpire's authority and noted in the log (Undo takes the move back)."

    def rotate(self, ids: Iterable[str], delta: float, key: object = None) -> list[Change]:
        """Record the units among ``ids`` turned by ``delta`` degrees CCW about their footprint's
        centre from their facing at the gesture's start: a ``Moved`` with the new facing each."""
        units: dict[str, Any] = {i: rec for i, (_, rec) in self.gesture_start(ids, key, ("units",)).items()}
        if not units:
            return []

        def build(state: GameState) -> list[BattleEvent]:
            out: list[BattleEvent] = []
            for uid, u in units.items():
                position, facing = turned(u, u.facing + delta)
                out += move_events(uid, state.units[uid], position, facing, self._stamped)
            return out

        return self._record_gesture(rotate_text(units), key, build)

    def set_fields(
        self, kind: str, fields: Mapping[str, Mapping[str, Any]], text: str, key: object = None
    ) -> list[Change]:
        """Record fields set in the Properties dock (id → {field: value}) as the events that do
        the same (``events_for``: facing, position, formation, order state, losses); a field of
        the scenario (a name, a side, a gain) is refused naming it."""
        if not self.fields_set(kind, fields):
            return []
        if kind not in PLAY_KINDS:
            self._refuse(self.why_not_recording() or f"{text} {SCENARIO_ONLY}")
            return []

        notes: list[str] = []

        def build(state: GameState) -> list[BattleEvent]:
            records: Mapping[str, Piece] = getattr(state, kind)
            before = {i: records[i] for i in fields}
            notes.clear()
            after = {i: self._with_fields(state, r, fields[i], notes) for i, r in before.items()}
            return events_for(before, after, self._stamped)

        changes = self._record_gesture(text, key, build)
        if changes and notes:
            self.explained.emit(" ".join(notes))
        return changes

    def _with_fields(self, state: GameState, rec: Piece, values: Mapping[str, Any], notes: list[str]) -> Piece:
        """``rec`` with ``values`` set; a unit's new formation (or column ranks) placed and
        checked by the ruleset's ``formation_change`` where it has one (Torden over Europa 4.5:
        the front-edge midpoint stays), its explanation added to ``notes``.

        Raises
        ------
        SessionError
            when the ruleset refuses the change (naming the rule); ``ValueError`` for a value
            the record cannot hold.
        """
        new = replace(rec, **values)
        if not isinstance(rec, Unit) or not isinstance(new, Unit):
            return new
        if (new.formation, new.column_ranks) == (rec.formation, rec.column_ranks):
            return new
        wrong_arm = arm_formation_problem(new.arm, new.formation)
        if wrong_arm is not None:
            raise SessionError(f"{rec.name}: {wrong_arm}")
        rules = getattr(self.session.ruleset, "formation_change", None) if self.session is not None else None
        if rules is None or self.session is None:
            return new  # no rules of its own: the front-edge midpoint and facing are kept
        ranks = new.column_ranks if new.column_ranks != rec.column_ranks else None
        try:
            info = self.base.scenario.info
            change: FormationChange = rules(
                state,
                rec.id,
                new.formation.value,
                self.session.params,
                ranks,
                terrain=tuple(self.base.scenario.terrain.values()),
                table=(info.table_width, info.table_height),
            )
        except RuleRefused as exc:
            raise SessionError(str(exc)) from None
        notes.append(change.explanation)
        rest = {k: v for k, v in values.items() if k not in ("formation", "column_ranks")}
        return replace(change.unit, **rest)

    def place(self, ids: Iterable[str], point: Point) -> list[str]:
        """Record the units and commanders ``ids`` dropped at ``point`` (cm) as the events that
        put them in the drop's line (moves, facing, default formation). Returns the ids placed."""
        placed = placed_records(self.scenario, ids, point)

        def build(state: GameState) -> list[BattleEvent]:
            before = {i: getattr(state, kind)[i] for kind, recs in placed.items() for i in recs}
            return events_for(before, {i: r for recs in placed.values() for i, r in recs.items()}, self._stamped)

        if not placed or not self._record_gesture(place_text(placed), None, build):
            return []
        return [i for recs in placed.values() for i in recs]

    def _stamped(self, cls: type, **fields: Any) -> BattleEvent:
        if self.session is None:
            raise SessionError(self.why_not_recording())
        return self.session.stamped(cls, **fields)

    def _record_gesture(self, text: str, key: object, build: Build) -> list[Change]:
        """Record one gesture's events (``build`` from the state at the end of the log) as one undo
        step; a gesture continued with the ``key`` of the last step replaces that step's events.
        Refusals (not recording, ``NotAnEvent``, ``SessionError``) go to ``refused`` and leave the
        game as it was. Returns the changes shown."""
        why = self.why_not_recording()
        session = self.session
        if why or session is None:
            self._refuse(why)
            return []
        top = self._actions[-1] if self._actions else None
        again = key is not None and top is not None and top.merge_key == key and top.count <= self.log.undoable
        self._held += 1  # the view follows once, after the events are replaced
        try:
            replaced = session.undo(top.count) if again and top is not None else []
            if replaced:
                self._actions.pop()
            try:
                events = build(self.timeline.state)
                session.record_all(events)
            except (SessionError, ValueError) as exc:  # NotAnEvent is a ValueError
                if replaced and top is not None:  # put the gesture so far back
                    session.record_all(replaced)
                    self._actions.append(top)
                self._refuse(str(exc))
                events = []
        finally:
            self._held -= 1
            changes = self._sync()
        if events:
            self._actions.append(Action(text, len(events), key))
            self._redo.clear()
        if events or replaced:
            self._after_record()
        return changes if events else []

    # -- undo / redo -------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        """An action recorded here can be taken back (reaching back into the phases it closed), or
        an event of the open phase recorded before (e.g. read from the file)."""
        return self.session is not None and (bool(self._actions) or self.log.undoable > 0)

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
        """Events of the open phase (those undone before the phase before is reopened)."""
        return self.log.undoable

    def undo(self) -> list[Change]:
        """Take back the last recording action (its events). "Next phase" is one action: taking
        it back reopens the phase it closed, whose actions can then be taken back in turn."""
        session = self.session
        if session is None or not self.can_undo:
            return []
        top = self._actions.pop() if self._actions else Action(f"event {len(self.log)}", 1)
        removed = session.undo(top.count)
        self._redo.append(Action(top.text, len(removed), top.merge_key, list(removed)))
        self._after_record()
        return []

    def redo(self) -> list[Change]:
        """Record again the events of the last action taken back."""
        session = self.session
        if session is None or not self.can_redo:
            return []
        act = self._redo.pop()
        try:
            session.record_all(act.events)
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
    def disk(self) -> OnDisk | None:
        """The editor document's: one file, opened once."""
        return self.base.disk

    @disk.setter
    def disk(self, value: OnDisk | None) -> None:
        self.base.disk = value

    @property
    def is_modified(self) -> bool:
        return self.base.is_modified or self._dirty

    def mark_saved(self, path: Path | None = None) -> None:
        self.base.mark_saved(path)
        if self.base.path != self.path:
            self.path = self.base.path
            self.path_changed.emit()
        self._dirty = False
        if self._journal is not None:
            self._journal.remove()  # the file holds everything now
        self._start_journal(True)
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
