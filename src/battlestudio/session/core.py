"""GameSession: recording a game phase by phase through the ruleset, Qt-free.

The session owns nothing the file does not hold: the game log is ``GameLog.from_battle`` and
every event it records is appended both to the log and to ``battle.events``, so saving the
battle saves the game. Where the game stands (turn, side, phase) is read from the log, so undo
and resuming a saved game need no other state. Every event is stamped with the open phase and
refused (nothing recorded) if it cannot apply.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

from battlestudio.replay.battle import Battle
from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import PhaseStarted, TurnEnded
from battlestudio.replay.game import GameLog
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules import get_ruleset
from battlestudio.rules.dice import DiceSource, SeededDice
from battlestudio.rules.fingerprint import fingerprint
from battlestudio.rules.params import RuleRefused
from battlestudio.rules.protocol import (
    CheckResult,
    InitiativeResult,
    OrderOutcome,
    OrderRequest,
    OrderTypeSpec,
    Ruleset,
)
from battlestudio.session.odds import OrderPreview, preview_order
from battlestudio.session.turns import PhaseStep, game_time, initiative_for, phase_sequence, side_order
from battlestudio.session.entries import EventT, UmpireEntries
from battlestudio.session.initiative import InitiativeEntries
from battlestudio.session.actions import ActionEntries, IssueResult
from battlestudio.rules.following import follow_moves, held_to_march
from battlestudio.session.umpire import SessionError


class GameSession(UmpireEntries, InitiativeEntries, ActionEntries):
    """Record a game of ``battle`` under ``ruleset``.

    Parameters
    ----------
    battle : Battle
        scenario plus the events recorded so far (resumed where they end); its ``events`` list
        is kept equal to the log.
    ruleset : Ruleset | None
        default: the registered ruleset named by ``scenario.info.ruleset``.
    dice : DiceSource | None
        where every roll comes from; default ``SeededDice(seed)``.
    seed : int | str | None
        seed of the default dice.
    params : Mapping | None
        parameters laid over ``scenario.info.parameters`` (house rules for this game); the
        session adds ``table_cm`` (table width, height) beneath both.
    log : GameLog | None
        the game log of ``battle``, when the caller built it already (e.g. ``GameLog.lazy``, so
        opening a long game does not replay it first); default ``GameLog.from_battle(battle)``.

    Raises
    ------
    ValueError
        if the battle's recorded events cannot be replayed (naming the first bad one);
        ``rules.UnknownRuleset`` for a ruleset that is not installed.
    """

    def __init__(
        self,
        battle: Battle,
        ruleset: Ruleset | None = None,
        *,
        dice: DiceSource | None = None,
        seed: int | str | None = None,
        params: Mapping[str, Any] | None = None,
        keyframe_every: int = 64,
        log: GameLog | None = None,
    ) -> None:
        self.battle = battle
        self.ruleset = ruleset if ruleset is not None else get_ruleset(battle.scenario.info.ruleset)
        self.dice: DiceSource = dice if dice is not None else SeededDice(seed)
        info = battle.scenario.info
        # the table size, for rules that keep a point on the table (the game state does not hold it)
        self.params: dict[str, Any] = {"table_cm": [info.table_width, info.table_height], **info.parameters}
        self.params.update(params or {})
        self.log = log if log is not None else GameLog.from_battle(battle, keyframe_every=keyframe_every)
        self._steps: dict[int, list[PhaseStep]] = {}
        self.march_notes: list[str] = []  # what the movement rules held back in the last executed order
        self.reroll_outcomes: list[OrderOutcome] = []  # failed orders rolled again as the last order phase closed

    # -- where the game stands ------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The state after the last event recorded."""
        return self.log.head

    @property
    def started(self) -> bool:
        return len(self.log) > 0

    @property
    def key(self) -> PhaseKey:
        """The open phase (turn, side, phase).

        Raises
        ------
        SessionError
            before ``start``.
        """
        if not len(self.log):
            raise SessionError("the game has not started; call start() first")
        c = self.log.cursor_at(len(self.log))  # the last event's phase, found by bisection
        return PhaseKey(c.turn, c.side, c.phase)

    @property
    def sides(self) -> list[str]:
        return list(self.battle.scenario.sides)

    @property
    def table(self) -> tuple[float, float]:
        """Table width and height, cm."""
        info = self.battle.scenario.info
        return (info.table_width, info.table_height)

    def stamped(self, cls: type[EventT], **fields: Any) -> EventT:
        """An event of kind ``cls`` in the open phase (turn, side, phase filled in), not yet
        recorded: for events the umpire builds himself (e.g. a scenario-given order)."""
        return cls(**self._stamp(), **fields)

    def clock(self, turn: int | None = None) -> str:
        """Game time ``HH:MM`` at the start of ``turn`` (default: the open one)."""
        return game_time(self.battle.scenario.info, self.key.turn if turn is None else turn)

    def steps(self, turn: int) -> list[PhaseStep]:
        """Every phase of game turn ``turn`` in order, the side with the initiative first.

        For a turn already in the log the side order is the one recorded; otherwise the
        ruleset decides the initiative (Torden over Europa 1.2: agreed, the scenario choice
        ``toe.scenario.initiative``); each side plays one player-turn of the turn.
        """
        if getattr(self.ruleset, "turn_by_phase", False) and self._initiative_phase() is not None:
            return self._steps_by_phase(turn)
        if turn not in self._steps:
            recorded = list(dict.fromkeys(k.side for k in self.log.phases() if k.turn == turn))
            if not recorded and self._initiative_phase() is not None:
                # the ruleset rolls initiative in a phase of its own (General d'Armée after the
                # command rolls, Regimental 2.1): play the turn in the last holder's order and
                # let ``initiative`` record the roll in that phase
                holder = str(self.state.flags.get("initiative:holder") or (self.sides[0] if self.sides else ""))
                until = self._initiative_phase()
                init = InitiativeResult(holder, f"{holder} holds the initiative until the {until} phase")
                steps = phase_sequence(self.ruleset, self.state, turn, self.sides, init)
                self._steps[turn] = steps
                return steps
            if recorded:
                first = recorded[0]
                init = initiative_for(self.ruleset, self.state, self.params, self.dice, self.sides)
                order = recorded + [s for s in self.sides if s not in recorded]
                init = type(init)(first, init.explanation, init.rolls)
                steps = [
                    PhaseStep(turn, side, spec) for side in order for spec in self.ruleset.turn_sequence(self.state)
                ]
            else:
                init = initiative_for(self.ruleset, self.state.evolve(turn=turn), self.params, self.dice, self.sides)
                steps = phase_sequence(self.ruleset, self.state, turn, self.sides, init)
            self._steps[turn] = steps
        return self._steps[turn]

    def _steps_by_phase(self, turn: int) -> list[PhaseStep]:
        """The steps of ``turn`` for a ruleset that plays its turn phase by phase
        (``turn_by_phase``): each phase by both sides, the holder of the initiative at the
        turn's start first up to the initiative phase (played once), the winner of this turn's
        roll first after it. Kept once the roll is recorded (an undo drops it)."""
        cached = self._steps.get(turn)
        if cached is not None:
            return cached
        recorded = [k.side for k in self.log.phases() if k.turn == turn]
        holder = recorded[0] if recorded else str(self.state.flags.get("initiative:holder") or "")
        before = side_order(self.sides, holder or (self.sides[0] if self.sides else ""))
        winner = self._initiative_winner(turn)
        after = side_order(self.sides, winner) if winner else before
        steps: list[PhaseStep] = []
        rolled = False
        for spec in self.ruleset.turn_sequence(self.state):
            if "initiative" in spec.methods:
                steps.append(PhaseStep(turn, before[0], spec))
                rolled = True
                continue
            steps += [PhaseStep(turn, side, spec) for side in (after if rolled else before)]
        if winner:
            self._steps[turn] = steps
        return steps

    def _initiative_winner(self, turn: int) -> str:
        """The side the initiative roll of ``turn`` made active ("" before it is rolled)."""
        for e in reversed(self.battle.events):
            if e.turn > turn:
                continue
            if e.turn < turn:
                break
            if isinstance(e, CommandStateChanged) and e.subject == "holder" and e.state == "initiative":
                return str(e.value)
        return ""

    def step(self) -> PhaseStep:
        """The open phase as a ``PhaseStep`` (with the ruleset's phase spec)."""
        k = self.key
        for s in self.steps(k.turn):
            if (s.side, s.phase) == (k.side, k.phase):
                return s
        raise SessionError(f"{k} is not a phase of ruleset {self.ruleset.id!r}")

    def next_step(self) -> PhaseStep:
        """The phase ``next_phase`` would open."""
        if not self.started:
            return self.steps(1)[0]
        k = self.key
        steps = self.steps(k.turn)
        i = next((i for i, s in enumerate(steps) if (s.side, s.phase) == (k.side, k.phase)), None)
        if i is None:
            raise SessionError(
                f"the open phase {k} is not a phase of ruleset {self.ruleset.id!r}: the game was recorded "
                "under another ruleset"
            )
        return steps[i + 1] if i + 1 < len(steps) else self.steps(k.turn + 1)[0]

    # -- the sequence ---------------------------------------------------------------------
    def start(self) -> PhaseStep:
        """Start the game: open turn 1's first phase. The battle keeps the rule numbers in force
        (``Battle.ruleset_record``, ``rules.fingerprint``) unless it holds them already.

        Raises
        ------
        SessionError
            when the game has already started.
        """
        if self.started:
            raise SessionError(f"the game has already started ({self.key})")
        if self.battle.ruleset_record is None:
            try:
                self.battle.ruleset_record = fingerprint(self.ruleset.id, self.battle.scenario.info.parameters)
            except RuleRefused:  # a ruleset without a numbers file: nothing to fingerprint
                pass
        return self._open(self.steps(1)[0])

    def next_phase(self) -> PhaseStep:
        """Close the open phase and open the next; after a turn's last phase a ``TurnEnded``
        closes the turn first (once: after undoing the next turn's first phase, the recorded
        ``TurnEnded`` and the ruleset's end-of-turn events stand and are not recorded again).

        Raises
        ------
        SessionError
            before ``start`` or past the scenario's last turn.
        """
        if not self.started:
            raise SessionError("the game has not started; call start() first")
        nxt = self.next_step()
        self._reroll_failed_orders(self.step())  # closing an order phase
        last = self.battle.scenario.info.turns
        if nxt.turn != self.key.turn:
            if last and nxt.turn > last:
                raise SessionError(
                    f"the scenario lasts {last} turns; turn {nxt.turn} cannot start. To play on, raise the "
                    "scenario's number of turns (in the window: Game ▸ Back to Scenario Editor, the scenario's "
                    "Properties ▸ Turns, then Game ▸ Resume Game)"
                )
            if not self._turn_ended():
                ending = getattr(self.ruleset, "end_turn", None)
                closing = self._restamped(ending(self.state, self.params)) if ending is not None else []
                self._record(closing + [TurnEnded(*self.key)])
            # else: "next phase" was undone after the turn ended; its end (sealed in the log
            # with the phase it closed) stands and is not recorded twice
        return self._open(nxt)

    def _turn_ended(self) -> bool:
        """Whether the log's last event is the ``TurnEnded`` of the open phase's turn."""
        events = self.battle.events  # the log's events, kept in step by _record and undo
        return bool(events) and isinstance(events[-1], TurnEnded) and events[-1].turn == self.key.turn

    def advance_to(self, phase: str, side: str | None = None) -> PhaseStep:
        """Go through ``next_phase`` until ``phase`` (of ``side``, default any) is open; stays
        when it already is.

        Raises
        ------
        SessionError
            for a phase id the ruleset does not have.
        """
        if phase not in {s.id for s in self.ruleset.turn_sequence(self.state)}:
            raise SessionError(f"ruleset {self.ruleset.id!r} has no phase {phase!r}")
        if not self.started:
            self.start()
        while not (self.key.phase == phase and (side is None or self.key.side == side)):
            self.next_phase()
        return self.step()

    def _open(self, step: PhaseStep) -> PhaseStep:
        self._record([PhaseStarted(step.turn, step.side, step.phase, name=step.spec.name)])
        return step

    def _reroll_failed_orders(self, step: PhaseStep) -> None:
        """Closing an order phase rolls the active side's failed orders of earlier turns again
        that its declarations did not roll, cancel or replace, as the ruleset's
        ``reroll_pending`` says (Torden over Europa A6: after every declaration, 3.3); each roll
        is an event with its explanation, recorded in the phase as part of "next phase", and
        the outcomes are kept in ``reroll_outcomes``."""
        reroll = getattr(self.ruleset, "reroll_pending", None)
        self.reroll_outcomes = []
        if reroll is None or "issue_order" not in step.spec.methods:
            return
        out = reroll(self.state, self.params, self.dice)
        self._record(list(out.events))
        self.reroll_outcomes = list(out.outcomes)

    # -- recording ------------------------------------------------------------------------
    def record(self, event: EventT) -> EventT:
        """Record one event in the open phase (it must carry the open phase's turn, side, phase).

        Raises
        ------
        SessionError
            if the event belongs to another phase or cannot apply; nothing is recorded.
        """
        self._record([event])
        return event

    def record_all(self, events: Sequence[BattleEvent]) -> None:
        """Record several events of the open phase, all or none (see ``record``)."""
        self._record(list(events))

    def _record(self, events: list[BattleEvent]) -> None:
        if not events:
            return
        k = None if isinstance(events[0], PhaseStarted) else self.key
        for e in events:  # each event in the open phase, or in the one a PhaseStarted before it opens
            if isinstance(e, PhaseStarted):
                k = PhaseKey(e.turn, e.side, e.phase)
            elif k is None or (e.turn, e.side, e.phase) != tuple(k):
                raise SessionError(
                    f"event {e.kind!r} belongs to turn {e.turn}, side {e.side or '-'}, phase "
                    f"{e.phase or '-'}, but the open phase is {k}"
                )
        done = 0
        try:
            for e in events:
                self.log.append(e)
                self.battle.events.append(e)
                done += 1
        except ValueError as exc:
            if done:
                self.undo(done)
            raise SessionError(str(exc)) from None

    def _stamp(self) -> dict[str, Any]:
        k = self.key
        return {"turn": k.turn, "side": k.side, "phase": k.phase}

    def undo(self, count: int = 1) -> list[BattleEvent]:
        """Take back the last ``count`` events, newest first; a phase's own start counts, and
        taking it back reopens the phase before, whose events come next (so "next phase" with
        the turn's end it recorded is taken back as one). Returns them, oldest first.

        Raises
        ------
        SessionError
            for fewer than 1 or more events than the game holds; nothing is taken back.
        """
        if not 1 <= count <= len(self.log):
            raise SessionError(f"can undo 1 to {len(self.log)} event(s), not {count}")
        removed: list[BattleEvent] = []
        while len(removed) < count:
            removed[:0] = self.log.undo(min(count - len(removed), self.log.undoable))
        del self.battle.events[len(self.battle.events) - len(removed) :]
        if getattr(self.ruleset, "turn_by_phase", False):  # an initiative roll taken back reorders its turn
            for turn in {e.turn for e in removed}:
                self._steps.pop(turn, None)
        n = len(self.battle.events)  # a stored keyframe past the events kept is of another game now
        self.battle.keyframes = [k for k in self.battle.keyframes if k.position <= n]
        return removed

    @property
    def undoable(self) -> int:
        """How many events of the open phase ``undo`` takes back before reopening the one before."""
        return self.log.undoable

    # -- orders through the ruleset -------------------------------------------------------
    def order_types(self, issuer: str, recipient: str) -> Sequence[OrderTypeSpec]:
        """Order types ``issuer`` may give ``recipient`` now, each with why not if unavailable."""
        return self.ruleset.order_types(self.state, issuer, recipient, self.params)

    def preview(self, request: OrderRequest) -> OrderPreview:
        """Legality, zone, distance, modifiers and exact odds of ``request``; rolls nothing."""
        return preview_order(self.ruleset, self.state, request, self.params)

    def _order_phase_check(self) -> None:
        spec = self.step().spec
        if "issue_order" not in spec.methods:
            where = [s.id for s in self.ruleset.turn_sequence(self.state) if "issue_order" in s.methods]
            raise SessionError(
                f"orders are issued in the {', '.join(where) or '?'} phase; the open phase is "
                f"{spec.id} ({spec.name}, {spec.rule})"
            )

    def issue_order(self, request: OrderRequest) -> IssueResult:
        """Issue one order through the ruleset: it checks legality, rolls through the session's
        dice and returns the outcome with its explanation; its events are recorded.

        A refused order records nothing (``status == "refused"``, the reason in ``explanation``).

        Raises
        ------
        SessionError
            outside the ruleset's order phase, or when its events cannot be recorded.
        rules.RuleRefused
            (``MissingParameterError``) when the scenario lacks a value the rule needs.
        """
        self._order_phase_check()
        out = self.ruleset.issue_order(self.state, request, self.params, self.dice)
        if out.status != "refused":
            self._record(list(out.events))
        return IssueResult(out, tuple(r.probability() for r in out.rolls))

    def issue_orders(self, requests: Sequence[OrderRequest], reroll_pending: bool = True) -> list[IssueResult]:
        """A whole order phase: every declaration first, then the rolls (Torden over Europa 3.3),
        and with ``reroll_pending`` the earlier failed orders of the active side rolled again (A6);
        those it leaves are rolled when the phase closes (``next_phase``).

        Uses the ruleset's ``order_phase`` where it has one, else ``issue_order`` per request.
        """
        self._order_phase_check()
        phase = getattr(self.ruleset, "order_phase", None)
        if phase is None:
            return [self.issue_order(r) for r in requests]
        params = dict(self.params)
        if not reroll_pending:
            params["failed_orders_persist"] = False
        out = phase(self.state, requests, params, self.dice)
        self._record(list(out.events))
        return [IssueResult(o, tuple(r.probability() for r in o.rolls)) for o in out.outcomes]

    def command_check(self, formation: str) -> CheckResult:
        """The ruleset's per-turn command check of ``formation``; its events are recorded."""
        out = self.ruleset.command_check(self.state, formation, self.params, self.dice)
        self._record(list(out.events))
        return out

    def legal_move(self, commander_id: str) -> Any:
        """The ruleset's order-execution help: this turn's legal move of a general under his
        standing order (Torden over Europa 2.7–2.11), with the events of the longest legal move.

        Raises
        ------
        SessionError
            when the ruleset offers no such help.
        """
        helper = getattr(self.ruleset, "legal_move", None)
        if helper is None:
            raise SessionError(f"ruleset {self.ruleset.id!r} gives no order-execution help")
        return helper(self.state, commander_id, self.params)

    def execute_order(
        self,
        commander_id: str,
        *,
        with_troops: bool = True,
        skip: Sequence[str] = (),
        keep_off_cm: float | None = None,
        keep_apart_cm: float | None = None,
        wheel: bool = False,
    ) -> Any:
        """Carry out ``commander_id``'s standing order this turn: record the ruleset's longest
        legal move (and the engaged flag or completion it brings) and, with ``with_troops``,
        move every unit and general under him by the same displacement (except ``skip`` and
        detached formations; each stays on the table, with ``keep_off_cm`` halts that far
        from the enemy, with ``keep_apart_cm`` that far from other friendly formations, and with
        ``wheel`` turns to face the move first; see ``umpire.follow_moves``).

        Returns the ruleset's move help (its ``explanation`` says how far and why).
        """
        help_ = self.legal_move(commander_id)
        events = list(help_.events)
        if with_troops and help_.events:
            d = (help_.end[0] - help_.start[0], help_.end[1] - help_.start[1])
            events += follow_moves(
                self.state,
                commander_id,
                d,
                skip=skip,
                keep_off_cm=keep_off_cm,
                table=self.table,
                keep_apart_cm=keep_apart_cm,
                wheel=wheel,
                **self._stamp(),
            )
            events = self._within_march(events)
        self._record(events)
        return help_

    def _within_march(self, events: list[BattleEvent]) -> list[BattleEvent]:
        """``rules.following.held_to_march`` with the ruleset's ``move_check``; what was held
        back goes to ``march_notes``."""
        info = self.battle.scenario.info
        out, self.march_notes = held_to_march(
            self.state,
            events,
            lambda req: self.ruleset.move_check(self.state, req, self.params),
            (info.table_width, info.table_height),
            tuple(self.battle.scenario.terrain.values()),
        )
        return out
