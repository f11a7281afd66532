"""What the umpire enters by hand while recording: arrivals, and rolls made on the umpire's own
table where the ruleset's tables are missing (a formation following its general is
``rules.following``).

Pure functions from a state to battle events; ``GameSession`` stamps them with the open phase
and records them. Torden over Europa's fire, melee and morale tables (Tables 2–12) are missing
from the seed, so combat outcomes are the umpire's rulings: either decided outright or rolled
with ``umpire_roll`` against a threshold the umpire names, recorded with the roll. Also holds
``SessionError``, the one error of the session package.
"""

from __future__ import annotations

from collections.abc import Sequence


from battlestudio.model.geometry import Point
from battlestudio.replay.flow_events import ReinforcementArrived
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource, DiceSpec, Modifier, RollRecord


class SessionError(ValueError):
    """A recording step that is not possible now (game not started, wrong phase, event refused)."""


def arrival_event(
    state: GameState,
    reinforcement_id: str,
    formation: str,
    *,
    turn: int,
    side: str,
    phase: str,
    offset: Point = (0.0, 0.0),
) -> ReinforcementArrived:
    """The arrival of ``formation`` (a ``Reinforcement``'s commander or lone unit and everything
    below it that is still off table), each record placed where it waits shifted by ``offset``.

    Raises
    ------
    ValueError
        when nothing of the formation is off table (it has arrived already).
    """
    nodes = [formation] + list(state.oob.all_subordinates(formation))
    rows = []
    for node in nodes:
        if node not in state.off_table:
            continue
        rec = state.record(node)
        if rec is None:
            continue
        rows.append((node, rec.position[0] + offset[0], rec.position[1] + offset[1], rec.facing))
    if not rows:
        raise ValueError(f"reinforcement {reinforcement_id!r}: {formation!r} has no units or commanders off table")
    return ReinforcementArrived(turn=turn, side=side, phase=phase, reinforcement=reinforcement_id, arrivals=tuple(rows))


def umpire_roll(
    dice: DiceSource,
    purpose: str,
    label: str,
    spec: DiceSpec,
    *,
    threshold: int | None = None,
    modifiers: Sequence[tuple[int, str]] = (),
    threshold_source: str = "umpire's ruling",
    passes: str = "passes",
    fails: str = "fails",
) -> RollRecord:
    """One roll on the umpire's table, through the game's dice (seeded in play).

    ``threshold`` None makes it a table roll (no pass/fail; ``outcome`` left for the caller).
    ``modifiers`` as ``(value, source)``.
    """
    raw = dice.roll(purpose, spec)
    mods = tuple(Modifier(int(v), str(s)) for v, s in modifiers)
    total = sum(raw) + sum(m.value for m in mods)
    ok = None if threshold is None else total >= threshold
    outcome = "" if ok is None else (passes if ok else fails)
    return RollRecord(
        purpose=purpose,
        label=label,
        dice=spec,
        raw=tuple(raw),
        modifiers=mods,
        threshold=threshold,
        threshold_source=threshold_source if threshold is not None else "",
        outcome=outcome,
        success=ok,
    )
