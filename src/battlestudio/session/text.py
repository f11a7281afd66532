"""The game log as readable text, and "turn:side:phase" places in it.

``log_lines`` renders one line per event (names instead of ids, rolls with their explanation,
distances in cm) for ``battlestudio log``; ``parse_at`` and ``position_at`` turn a place
(``AT_GRAMMAR``, e.g. ``14:prussian:fire:start``) into a position in the log, for the CLI's
``--at`` and the Replay dock's Go to box alike; ``at_text`` writes a position back.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, NamedTuple, cast
from collections.abc import Iterator, Mapping

from battlestudio.model.names import display_names
from battlestudio.replay.battle import Battle
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState
from battlestudio.session.turns import game_time


def _name(state: GameState, node: str) -> str:
    rec = state.record(node)
    return rec.name if rec is not None and rec.name else node


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` with its noun in the right number: ``count(1, "figure")`` is "1 figure",
    ``count(3, "man", "men")`` is "3 men"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _pt(p: object) -> str:
    x, y = cast("Iterable[float]", p)  # a pair, or a list read from a file
    return f"({x:.0f}, {y:.0f})"


def _plain_value(v: Any, n: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return ", ".join(_plain_value(x, n) for x in v) if v else "none"
    if isinstance(v, str):
        return str(n(v))
    if isinstance(v, Mapping):
        return "; ".join(f"{str(key).replace('_', ' ')} {_plain_value(x, n)}" for key, x in v.items())
    return str(v)


def _state_value(value: Any, old: Any, n: Any) -> str:
    """A command state's value in words: for a mapping, the entries that differ from ``old``
    (all of them the first time), "unchanged" when none does; ids become names."""
    if not isinstance(value, Mapping):
        return _plain_value(value, n)
    prev = old if isinstance(old, Mapping) else {}
    changed = {k: v for k, v in value.items() if k not in prev or prev[k] != v}
    return _plain_value(changed, n) if changed else "unchanged"


def describe(event: BattleEvent, before: GameState, names: Mapping[str, str] | None = None) -> str:
    """One readable sentence for ``event``, names read from the state ``before`` it, or from
    ``names`` (id → name shown, e.g. ``model.names.display_names``) where it has them."""
    e: Any = event  # its fields depend on its kind, read below

    def n(node: str) -> str:
        shown = names.get(node) if names is not None else None
        return shown if shown else _name(before, node)

    k = e.kind
    if k == "phase_started":
        return f"phase begins: {getattr(e, 'name', '') or e.phase}"
    if k == "turn_ended":
        return f"turn {e.turn} ends"
    if k == "moved":
        path = e.path
        rec = before.record(e.id)
        start = rec.position if rec is not None else path[0]
        pts = (start,) + tuple(path)
        dist = sum(math.dist(a, b) for a, b in zip(pts, pts[1:], strict=False))
        face = "" if e.facing is None else f", facing {e.facing:.0f}°"
        return f"{n(e.id)} moves {dist:.1f} cm to {_pt(path[-1])}{face}"
    if k == "rotated":
        return f"{n(e.id)} turns to face {e.facing:.0f}°"
    if k == "formation_changed":
        return f"{n(e.unit)} forms {e.formation}"
    if k == "order_state_changed":
        why = f" ({e.reason})" if e.reason else ""
        return f"{n(e.unit)} is now {e.state}{why}"
    if k == "reinforcement_arrived":
        heads = [a[0] for a in e.arrivals if a[0] in before.commanders] or [a[0] for a in e.arrivals[:1]]
        verb = "arrives" if len(heads) == 1 else "arrive"
        k_in = count(len(e.arrivals), "unit or general", "units and generals")
        return f"{', '.join(n(h) for h in heads)} {verb}: {k_in} {'enters' if len(e.arrivals) == 1 else 'enter'}"
    if k == "unit_removed":
        return f"{n(e.id)} leaves the game: {e.reason}"
    if k == "annotation":
        head = f"[{e.title}] " if e.title else ""
        return f"note: {head}{e.text}"
    if k == "order_written":
        obj = "" if e.objective is None else f", objective {_pt(e.objective)}"
        cost = f", {e.cost} OAS" if e.cost else ""
        return f"order {e.order_id} written: {n(e.issuer)} → {n(e.recipient)}: {e.order_type}{obj}{cost}"
    if k == "command_roll":
        return f"roll for {e.order_id}: {e.explanation}" if e.order_id else f"roll: {e.explanation}"
    if k in ("order_delivered", "order_failed", "order_cancelled", "order_completed"):
        o = before.orders.get(e.order_id)
        who = f" ({n(o.recipient)}, {o.order_type})" if o is not None else ""
        why = getattr(e, "reason", "")
        return f"order {e.order_id}{who} {k.split('_')[1]}{': ' + why if why else ''}"
    if k == "cancellation_written":
        return f"{n(e.issuer)} writes the cancellation of {e.order_id}"
    if k == "command_state_changed":
        val = "cleared" if e.value is None else _state_value(e.value, before.flags.get(f"{e.state}:{e.subject}"), n)
        label = e.state.replace("_", " ")
        return f"{n(e.subject)}: {label} {val}{' (' + e.reason + ')' if e.reason else ''}"
    if k == "detached":
        return f"{n(e.node)} detached from {n(e.superior_before)} by {e.order_id}"
    if k == "attached":
        return f"{n(e.node)} placed under {n(e.superior)}"
    if k == "general_move_bought":
        return f"{n(e.issuer)} spends {e.cost} OAS to move {n(e.commander)} to {_pt(e.end)}"
    if k == "casualties":
        nouns = (("men", "man"), ("horses", "horse"), ("guns", "gun"))
        extra = ", ".join(count(getattr(e, f), one, f) for f, one in nouns if getattr(e, f))
        cause = f" ({e.cause})" if e.cause else ""
        return f"{n(e.unit)} loses {count(e.figures, 'figure')}{' (' + extra + ')' if extra else ''}{cause}"
    if k == "melee":

        def side(ids: Iterable[str]) -> str:
            return ", ".join(n(i) for i in ids)

        attackers, defenders = list(e.attackers), list(e.defenders)
        outcome = {
            "attacker": f"{side(attackers)} win{'s' if len(attackers) == 1 else ''}",
            "defender": f"{side(defenders)} win{'s' if len(defenders) == 1 else ''}",
            "draw": "a draw",
        }.get(e.winner or "", "undecided" if not e.winner else f"{str(e.winner).replace('_', ' ')} wins")
        return f"melee: {side(attackers)} against {side(defenders)}: {outcome}" + (
            f". {e.explanation}" if e.explanation else ""
        )
    if k == "morale_test":
        res = "passes" if e.passed else "fails"
        return f"morale test of {n(e.unit)} {res}: {e.result}" + (f". {e.explanation}" if e.explanation else "")
    if k == "fired":
        return f"{n(e.unit)} fires at {n(e.target)}: {e.result}" + (f". {e.explanation}" if e.explanation else "")
    if k == "ammunition_used":
        return f"{n(e.unit)} spends {e.rounds} rounds"
    if k == "ammunition_resupplied":
        return f"{n(e.unit)} resupplied to {e.ammunition} rounds"
    # a ruleset's own event: its explanation where it has one, else its fields in words
    fields = {f: v for f, v in e.to_dict().items() if f not in ("kind", "turn", "side", "phase")}
    label = k.replace("_", " ")
    said = next((str(fields[f]) for f in ("explanation", "reason", "text") if fields.get(f)), "")
    who = next(
        (str(fields.pop(f)) for f in ("unit", "subject", "id", "formation") if isinstance(fields.get(f), str)), ""
    )
    head = f"{n(who)}: {label}" if who else label
    if said:
        return f"{head}: {said}"
    return f"{head} {_plain_value(fields, n)}" if fields else head


def log_lines(battle: Battle, turn: int | None = None) -> Iterator[str]:
    """One line per event: ``"T12 08:45 french    movement           | Lannes moves 25.0 cm …"``;
    only ``turn``'s events when given.

    Raises
    ------
    ValueError
        when the events cannot be replayed (naming the first bad one).
    """
    log = GameLog.from_battle(battle)
    info = battle.scenario.info
    state = log.initial
    names = display_names(state)  # names are the scenario's: a game does not rename
    for e in log.events:
        if turn is None or e.turn == turn:
            where = f"T{e.turn:<2} {game_time(info, e.turn)} {e.side or '-':<9} {e.phase or '-':<18}"
            yield f"{where} | {describe(e, state, names)}"
        state = e.apply(state)


AT_GRAMMAR = "TURN[:SIDE[:PHASE]][:start|:end] or TURN:SIDE:PHASE:EVENT"
"""The one syntax of a place in a game (``--at`` and the Replay dock's Go to box)."""

AT_MEANING = (
    "start (or 0: the deployment) and end (the whole game); TURN, TURN:SIDE (the side's id or 1, 2 "
    "for the first, second side to play that turn) and TURN:SIDE:PHASE mean the end of that turn, "
    "player-turn or phase (every event applied); add :start for where it has begun (its first "
    "event applied: where the phase and turn steps stop) or :end; TURN:SIDE:PHASE:N is after its "
    "Nth event"
)
"""What the places of ``AT_GRAMMAR`` mean, in words (for help texts and tooltips)."""


class At(NamedTuple):
    """A parsed place: ``turn``, ``side`` and ``phase`` (None: any), ``mark`` ``"start"``,
    ``"end"`` or a 1-based event number within the phase."""

    turn: int
    side: str | None = None
    phase: str | None = None
    mark: str | int = "end"


def parse_at(text: str) -> At:
    """``"12"``, ``"12:prussian"``, ``"12:2:fire:start"``, ``"12:prussian:fire:3"`` → ``At``.

    Raises
    ------
    ValueError
        naming the text when the turn is not a positive whole number, a part is empty, or an
        event number is given without a phase.
    """
    parts = [p.strip() for p in text.split(":")]
    mark: str | int = "end"
    if len(parts) > 1 and parts[-1].lower() in ("start", "end"):
        mark = parts.pop().lower()
    elif len(parts) == 4:
        if not parts[3].isdigit() or int(parts[3]) < 1:
            raise ValueError(f"--at {text!r}: the event {parts[3]!r} is not start, end or a number from 1")
        mark = int(parts.pop())
    if len(parts) > 3 or any(not p for p in parts):
        raise ValueError(f"--at {text!r}: expected {AT_GRAMMAR}, e.g. 12, 12:prussian:fire or 12:prussian:fire:start")
    try:
        turn = int(parts[0])
    except ValueError:
        raise ValueError(f"--at {text!r}: the turn {parts[0]!r} is not a whole number") from None
    if turn < 1:
        raise ValueError(f"--at {text!r}: turns are numbered from 1")
    side = parts[1] if len(parts) > 1 else None
    phase = parts[2] if len(parts) > 2 else None
    return At(turn, side, phase, mark)


def position_at(log: GameLog, text: str | int) -> int:
    """The log position named by ``text`` (``AT_GRAMMAR``, meaning ``AT_MEANING``): the one
    syntax of ``replay``, ``export-map``, ``export`` and the Replay dock's Go to box.

    Raises
    ------
    ValueError
        naming the text and, for a point the log does not hold, what it holds.
    """
    word = str(text).strip().lower()
    if word == "start":
        return 0
    if word == "end":
        return len(log)
    if word == "0":
        return 0
    try:
        at = parse_at(str(text))
    except ValueError as exc:
        raise ValueError(f"{exc}; or start, end, 0 (the deployment)") from None
    try:
        return position_for(log, *at)
    except ValueError as exc:
        raise ValueError(f"--at {text}: {exc}") from None


def _side_id(log: GameLog, turn: int, side: str) -> str:
    """``side`` as the log names it: its id (any case) or its order of play in ``turn`` (1, 2)."""
    played = list(dict.fromkeys(k.side for k in log.phases() if k.turn == turn))
    if side.isdigit() and 1 <= int(side) <= len(played):
        return played[int(side) - 1]
    for s in played:
        if s.lower() == side.lower():
            return s
    return side


def _phase_id(log: GameLog, phase: str) -> str:
    """``phase`` as the log names it: its id in any case, spaces for underscores."""
    want = phase.lower().replace(" ", "_")
    for k in log.phases():
        if k.phase.lower() == want:
            return k.phase
    return phase


def position_for(
    log: GameLog, turn: int, side: str | None = None, phase: str | None = None, mark: str | int = "end"
) -> int:
    """The log position in ``turn`` (its ``side``'s player-turn, that ``phase``, where given):
    at its ``"end"`` every event of the matching phases applied; at its ``"start"`` the first
    event of the first matching phase applied (where the window's phase and turn steps stop);
    at event ``N`` (a phase named) the first N events of the phase applied.

    Raises
    ------
    ValueError
        when no recorded phase matches, naming what the log holds; for an event number the
        phase does not have.
    """
    if side is not None:
        side = _side_id(log, turn, side)
    if phase is not None:
        phase = _phase_id(log, phase)
    ranges = [
        log.phase_range(k)
        for k in log.phases()
        if k.turn == turn and (side is None or k.side == side) and (phase is None or k.phase == phase)
    ]
    if not ranges:
        turns = log.turns()
        span = f"turns {turns[0]}–{turns[-1]}" if turns else "no turns"
        sides = sorted({k.side for k in log.phases()})
        phases = list(dict.fromkeys(k.phase for k in log.phases()))
        want = ":".join(str(v) for v in (turn, side, phase) if v is not None)
        raise ValueError(
            f"the game log has no phase at {want}; it holds {span}, sides {', '.join(sides) or '-'}, "
            f"phases {', '.join(phases) or '-'}"
        )
    if mark == "start":
        return ranges[0][0] + 1
    if mark == "end":
        return max(end for _, end in ranges)
    if isinstance(mark, int) and side is not None and phase is not None:
        start, end = ranges[0]
        if not 1 <= mark <= end - start:
            raise ValueError(f"turn {turn}, {side}, {phase} has {count(end - start, 'event')}; no event {mark}")
        return start + mark
    raise ValueError(f"an event number needs a turn, side and phase, e.g. {turn}:{side or 'SIDE'}:PHASE:{mark}")


def at_text(log: GameLog, pos: int) -> str:
    """The ``AT_GRAMMAR`` text of position ``pos``: ``"start"``, or ``TURN:SIDE:PHASE:N``
    (``position_at`` of it is ``pos``)."""
    if pos == 0:
        return "start"
    c = log.cursor_at(pos)
    return f"{c.turn}:{c.side}:{c.phase}:{c.index + 1}"


def phase_label(key: PhaseKey) -> str:
    """``"turn 14, prussian, fire"``: a phase as the track's tooltip names it."""
    return f"turn {key.turn}, {key.side or 'both sides'}, {key.phase.replace('_', ' ')}"
