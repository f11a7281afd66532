"""Battle events only Belle Alliance needs (seed 001, 4.1.1–4.1.5): an attack announced, an
attack settled, and the after-melee status carried for the rest of this and all the next turn.

All three keep their record in ``GameState.flags``: ``ba:attack:<attacker>`` (the announcement,
with ``resolved``/``cancelled``), ``ba:melee:<unit>`` (role and FU bonus with the last turn they
hold) and ``ba:continue:<unit>`` (the right to a continued attack, 4.1.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

from battlestudio.replay.events import BattleEvent, EventError, register
from battlestudio.replay.state import GameState


def _flags(state: GameState, **changes: Any) -> GameState:
    flags = dict(state.flags)
    for k, v in changes.items():
        if v is None:
            flags.pop(k, None)
        else:
            flags[k] = v
    return state.evolve(flags=flags)


@register
@dataclass(frozen=True, slots=True)
class AttackAnnounced(BattleEvent):
    """4.1.1: ``attacker`` announces its attack on ``target`` (as on its order sheet), with or
    without ``storm``, against the unit or its ``position`` (the target's footprint corners when
    announced, 4.1.2); ``continued`` for a continued attack (4.1.4); ``start``: where the
    attacker and its target stood when it was announced, ``id -> (x, y, facing)``, for the flank
    test at the start of the movement (4.1.8, A1)."""

    kind = "ba_attack_announced"
    attacker: str = ""
    target: str = ""
    storm: bool = False
    against_position: bool = False
    position: tuple[tuple[float, float], ...] = ()
    continued: bool = False
    start: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "position", tuple((float(x), float(y)) for x, y in self.position))
        object.__setattr__(
            self, "start", {k: (float(v[0]), float(v[1]), float(v[2])) for k, v in dict(self.start).items()}
        )

    def apply(self, state: GameState) -> GameState:
        if self.attacker not in state.units:
            raise EventError(self, f"no unit {self.attacker!r}")
        rec: Mapping[str, Any] = {
            "target": self.target,
            "storm": self.storm,
            "against_position": self.against_position,
            "position": [list(p) for p in self.position],
            "continued": self.continued,
            "start": {k: list(v) for k, v in self.start.items()},
            "turn": self.turn,
            "resolved": False,
            "cancelled": "",
        }
        return _flags(state, **{f"ba:attack:{self.attacker}": rec})

    def touched(self) -> tuple[str, ...]:
        return (self.attacker,)


@register
@dataclass(frozen=True, slots=True)
class AttackSettled(BattleEvent):
    """The announced attack of ``attacker`` is over: fought (``cancelled`` "") or lost
    (``cancelled`` says why, e.g. attacked in the flank, 4.1.1)."""

    kind = "ba_attack_settled"
    attacker: str = ""
    cancelled: str = ""

    def apply(self, state: GameState) -> GameState:
        key = f"ba:attack:{self.attacker}"
        rec = state.flags.get(key)
        if rec is None:
            raise EventError(self, f"{self.attacker!r} announced no attack")
        return _flags(state, **{key: {**rec, "resolved": True, "cancelled": self.cancelled}})

    def touched(self) -> tuple[str, ...]:
        return (self.attacker,)


@register
@dataclass(frozen=True, slots=True)
class MeleeStatus(BattleEvent):
    """4.1.1 (skema 8): ``unit`` took part in a melee as ``role`` (``attacker`` or
    ``defender``) and, with ``fu_bonus``, put an opponent in FU; both hold for the rest of this
    and all the next turn (``until_turn`` = turn + 1). ``continued_attack``: it may use its
    continued advance for a continued attack (4.1.4)."""

    kind = "ba_melee_status"
    unit: str = ""
    role: str = "attacker"
    fu_bonus: bool = False
    continued_attack: bool = False
    until_turn: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.role not in ("attacker", "defender"):
            raise ValueError(f"event 'ba_melee_status': role must be attacker or defender, got {self.role!r}")

    def apply(self, state: GameState) -> GameState:
        if self.unit not in state.units:
            raise EventError(self, f"no unit {self.unit!r}")
        key = f"ba:melee:{self.unit}"
        old = dict(state.flags.get(key) or {})
        rec = {**old, f"{self.role}_until": self.until_turn}
        if self.fu_bonus:
            rec["fu_bonus_until"] = self.until_turn
        changes: dict[str, Any] = {key: rec}
        if self.continued_attack:
            changes[f"ba:continue:{self.unit}"] = {"turn": self.turn, **dict(self.extra)}
        return _flags(state, **changes)

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


EVENT_TYPES: tuple[type[BattleEvent], ...] = (AttackAnnounced, AttackSettled, MeleeStatus)
