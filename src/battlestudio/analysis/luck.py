"""Command rolls observed against expected: the luck of each side and each chief.

Every ``CommandRolled`` event carries its full roll record (dice, modifiers, threshold), so the
exact chance of success of each roll is known (``RollRecord.probability``). Over a set of rolls
the expected number of successes is the sum of those chances and its variance the sum of
``p (1 − p)``; "luck" is observed minus expected, and ``z`` that difference in standard
deviations. Table rolls (no pass/fail) are left out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from collections.abc import Callable

from battlestudio.replay.game import GameLog
from battlestudio.replay.order_events import CommandRolled, OrderWritten
from battlestudio.rules.dice import RollRecord


@dataclass(frozen=True, slots=True)
class RollSeen:
    """One pass/fail command roll: where it is in the log (``position`` after it), its
    ``side`` and issuing ``chief`` ("" when the roll belongs to no order), its exact chance
    ``p`` and whether it ``passed``."""

    position: int
    turn: int
    side: str
    chief: str
    p: Fraction
    passed: bool
    label: str


@dataclass(frozen=True, slots=True)
class LuckRow:
    """Luck of one ``group`` (a side id, or a chief's id) over its ``rolls``.

    ``expected`` successes (exact), ``observed`` successes, ``luck`` = observed − expected,
    ``sd`` the standard deviation of the successes, ``z`` = luck / sd (0 when sd is 0).
    """

    group: str
    side: str
    rolls: int
    observed: int
    expected: Fraction
    variance: Fraction

    @property
    def luck(self) -> float:
        return float(self.observed - self.expected)

    @property
    def sd(self) -> float:
        return math.sqrt(float(self.variance))

    @property
    def z(self) -> float:
        return self.luck / self.sd if self.variance > 0 else 0.0


def command_rolls(log: GameLog) -> list[RollSeen]:
    """Every pass/fail command roll of the game, in log order.

    The chief is the issuer of the roll's order (from its ``OrderWritten``); the side is the
    chief's side, else the side whose player-turn it was.

    Raises
    ------
    ValueError
        when a command roll event holds a malformed roll record (names the event's place).
    """
    issuer: dict[str, str] = {}
    side_of = {cid: c.side for cid, c in log.initial.commanders.items()}
    out: list[RollSeen] = []
    for pos, e in enumerate(log.events, start=1):
        if isinstance(e, OrderWritten):
            issuer[e.order_id] = e.issuer
        elif isinstance(e, CommandRolled):
            try:
                rec = RollRecord.from_dict(e.roll)
            except ValueError as exc:
                raise ValueError(f"command roll at {e.where()}: {exc}") from None
            p = rec.probability()
            if p is None or rec.success is None:
                continue
            chief = issuer.get(e.order_id, "")
            out.append(RollSeen(pos, e.turn, side_of.get(chief, e.side), chief, p, bool(rec.success), rec.label))
    return out


def _rows(rolls: list[RollSeen], key: Callable[[RollSeen], str]) -> list[LuckRow]:
    acc: dict[str, list[Any]] = {}  # side, rolls, successes, expected, variance
    for r in rolls:
        g = key(r)
        a = acc.setdefault(g, [r.side, 0, 0, Fraction(0), Fraction(0)])
        a[1] += 1
        a[2] += int(r.passed)
        a[3] += r.p
        a[4] += r.p * (1 - r.p)
    return [LuckRow(g, *v) for g, v in sorted(acc.items())]


def command_luck(log: GameLog, by: str = "side") -> list[LuckRow]:
    """Observed against expected command-roll successes per side (``by="side"``) or per chief
    (``by="chief"``; rolls with no order go under ""), sorted by group.

    Raises
    ------
    ValueError
        for ``by`` other than ``"side"`` or ``"chief"``.
    """
    if by not in ("side", "chief"):
        raise ValueError(f"luck is grouped by 'side' or 'chief', got {by!r}")
    rolls = command_rolls(log)
    return _rows(rolls, (lambda r: r.side) if by == "side" else (lambda r: r.chief))
