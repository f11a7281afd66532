"""Dice with an audit trail: seeded in play, recorded values in replay, exact odds without rolling.

Every random number a ruleset uses comes from a ``DiceSource``. ``SeededDice`` draws from a
seeded generator and keeps what it drew; ``ReplayDice`` hands back recorded values in order and
refuses if the purpose asked for differs from the one recorded, so a replay that drifts from
the game is caught at the first roll. A ``RollRecord`` is what the game log keeps of one roll:
purpose, dice, raw values, modifiers with their sources, threshold or table row, outcome, and
``explain()`` renders it as one plain sentence. ``success_probability`` gives the exact chance of
a roll with its modifiers as a ``Fraction``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Protocol
from collections.abc import Iterable, Mapping, Sequence


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """Which dice are thrown: ``count`` dice of ``sides`` faces.

    ``zero_based`` dice read ``0 … sides-1`` (Torden over Europa's d10 read 0–9, digest A1);
    otherwise ``1 … sides``.
    """

    count: int
    sides: int
    zero_based: bool = False

    def __post_init__(self) -> None:
        if self.count < 1 or self.sides < 2:
            raise ValueError(f"dice need count >= 1 and sides >= 2, got {self.count}d{self.sides}")

    @property
    def low(self) -> int:
        """Lowest face."""
        return 0 if self.zero_based else 1

    @property
    def high(self) -> int:
        """Highest face."""
        return self.sides - 1 if self.zero_based else self.sides

    def __str__(self) -> str:
        n = "" if self.count == 1 else str(self.count)
        return f"{n}d{self.sides}"

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "sides": self.sides, "zero_based": self.zero_based}


@dataclass(frozen=True, slots=True)
class Modifier:
    """One modifier on a roll: ``value`` and the ``source`` that grants it (plain words plus
    the rule section, e.g. ``"command ability (KE) of Davout, 2.12"``)."""

    value: int
    source: str


@dataclass(frozen=True, slots=True)
class RollRecord:
    """Everything about one roll, enough to explain and re-check it.

    Attributes
    ----------
    purpose : str
        stable key, e.g. ``"toe-command-control:o-3:t2"``; replay checks it.
    label : str
        human context, e.g. ``"Command control, Davout → III Corps, zone 2 at 47 cm"``.
    dice : DiceSpec
    raw : tuple[int, ...]
        the faces thrown.
    modifiers : tuple[Modifier, ...]
    threshold : int | None
        the modified total must be ``>= threshold`` to succeed (None: no pass/fail, table roll).
    threshold_source : str
        where the threshold or table row comes from, e.g. ``"scenario Table 1 value"``.
    outcome : str
        what happened, in words: ``"order passes"``.
    success : bool | None
        pass/fail, None for a table roll.
    at_most : bool
        the roll succeeds when the modified total is ``<= threshold`` instead (a "roll under"
        test, e.g. Regimental morale 2D6 ≤ 8).
    """

    purpose: str
    label: str
    dice: DiceSpec
    raw: tuple[int, ...]
    modifiers: tuple[Modifier, ...] = ()
    threshold: int | None = None
    threshold_source: str = ""
    outcome: str = ""
    success: bool | None = None
    at_most: bool = False

    @property
    def natural(self) -> int:
        """Sum of the raw faces."""
        return sum(self.raw)

    @property
    def total(self) -> int:
        """Raw sum plus every modifier."""
        return self.natural + sum(m.value for m in self.modifiers)

    def probability(self) -> Fraction | None:
        """Exact chance this roll succeeds with its modifiers (None for a table roll)."""
        if self.threshold is None:
            return None
        mod = sum(m.value for m in self.modifiers)
        if self.at_most:
            return 1 - success_probability(self.dice, mod, self.threshold + 1)
        return success_probability(self.dice, mod, self.threshold)

    def explain(self) -> str:
        """One plain sentence, e.g. ``"Command control, Davout → III Corps, zone 2 at 47 cm:
        d10 = 7, +1 command ability = 8 ≥ 6 (scenario Table 1 value): order passes"``."""
        faces = "+".join(str(v) for v in self.raw) if len(self.raw) > 1 else str(self.raw[0])
        parts = [f"{self.dice} = {faces}"]
        for m in self.modifiers:
            parts.append(f"{m.value:+d} {m.source}")
        text = ", ".join(parts)
        if self.modifiers or len(self.raw) > 1:
            text += f" = {self.total}"
        if self.threshold is not None:
            if self.at_most:
                rel = "≤" if self.total <= self.threshold else ">"
            else:
                rel = "≥" if self.total >= self.threshold else "<"
            text += f" {rel} {self.threshold}"
        if self.threshold_source:
            text += f" ({self.threshold_source})"
        head = f"{self.label}: " if self.label else ""
        tail = f": {self.outcome}" if self.outcome else ""
        return f"{head}{text}{tail}"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-compatible data (what a command-roll event carries)."""
        return {
            "purpose": self.purpose,
            "label": self.label,
            "dice": self.dice.to_dict(),
            "raw": list(self.raw),
            "modifiers": [{"value": m.value, "source": m.source} for m in self.modifiers],
            "threshold": self.threshold,
            "threshold_source": self.threshold_source,
            "outcome": self.outcome,
            "success": self.success,
            **({"at_most": True} if self.at_most else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RollRecord:
        """Inverse of ``to_dict``.

        Raises
        ------
        ValueError
            when a field is missing or has the wrong type.
        """
        try:
            d = data["dice"]
            return cls(
                purpose=str(data["purpose"]),
                label=str(data.get("label", "")),
                dice=DiceSpec(int(d["count"]), int(d["sides"]), bool(d.get("zero_based", False))),
                raw=tuple(int(v) for v in data["raw"]),
                modifiers=tuple(Modifier(int(m["value"]), str(m["source"])) for m in data.get("modifiers", ())),
                threshold=None if data.get("threshold") is None else int(data["threshold"]),
                threshold_source=str(data.get("threshold_source", "")),
                outcome=str(data.get("outcome", "")),
                success=data.get("success"),
                at_most=bool(data.get("at_most", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad roll record {dict(data)!r}: {exc}") from None


class DiceReplayError(RuntimeError):
    """A replayed game asked for a roll the record does not hold (or for another purpose)."""


class DiceSource(Protocol):
    """Where rolls come from. Rules call ``roll`` and never touch ``random`` themselves."""

    def roll(self, purpose: str, dice: DiceSpec) -> tuple[int, ...]:
        """Faces for ``dice`` thrown for ``purpose`` (a stable key)."""
        ...


@dataclass
class SeededDice:
    """Play mode: seeded pseudo-random faces; ``drawn`` keeps ``(purpose, faces)`` in order."""

    seed: int | str | None = None
    drawn: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def roll(self, purpose: str, dice: DiceSpec) -> tuple[int, ...]:
        faces = tuple(self._rng.randint(dice.low, dice.high) for _ in range(dice.count))
        self.drawn.append((purpose, faces))
        return faces


class ReplayDice:
    """Replay mode: returns recorded faces in order, checking each purpose.

    Build it from ``SeededDice.drawn`` pairs or from ``RollRecord``s (``from_records``).

    Raises
    ------
    DiceReplayError
        from ``roll`` when the record is exhausted, the purpose differs, or the faces do not fit
        the dice asked for.
    """

    def __init__(self, draws: Iterable[tuple[str, Sequence[int]]]) -> None:
        self._draws = [(p, tuple(int(v) for v in faces)) for p, faces in draws]
        self._next = 0

    @classmethod
    def from_records(cls, records: Iterable[RollRecord]) -> ReplayDice:
        return cls((r.purpose, r.raw) for r in records)

    @property
    def remaining(self) -> int:
        """Recorded rolls not yet used."""
        return len(self._draws) - self._next

    def roll(self, purpose: str, dice: DiceSpec) -> tuple[int, ...]:
        if self._next >= len(self._draws):
            raise DiceReplayError(
                f"replay asked for roll {purpose!r} but the record holds only {len(self._draws)} rolls"
            )
        rec_purpose, faces = self._draws[self._next]
        if rec_purpose != purpose:
            raise DiceReplayError(
                f"replay roll {self._next + 1}: the game asks for {purpose!r}, the record holds {rec_purpose!r}"
            )
        if len(faces) != dice.count or any(not dice.low <= v <= dice.high for v in faces):
            raise DiceReplayError(f"replay roll {purpose!r}: recorded faces {faces} do not fit {dice}")
        self._next += 1
        return faces


@lru_cache(maxsize=64)
def _distribution(count: int, sides: int, zero_based: bool) -> tuple[tuple[int, Fraction], ...]:
    low = 0 if zero_based else 1
    dist: dict[int, int] = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for s, ways in dist.items():
            for face in range(low, low + sides):
                nxt[s + face] = nxt.get(s + face, 0) + ways
        dist = nxt
    total = sides**count
    return tuple((s, Fraction(w, total)) for s, w in sorted(dist.items()))


def distribution(dice: DiceSpec) -> dict[int, Fraction]:
    """Exact probability of each natural total of ``dice`` (faces summed, no modifiers)."""
    return dict(_distribution(dice.count, dice.sides, dice.zero_based))


def success_probability(dice: DiceSpec, modifier: int, threshold: int) -> Fraction:
    """Exact chance that ``dice`` + ``modifier`` ≥ ``threshold``.

    Examples: a zero-based d10 with +1 against 6 succeeds on faces 5–9, ``Fraction(1, 2)``.
    """
    return sum(
        (p for s, p in _distribution(dice.count, dice.sides, dice.zero_based) if s + modifier >= threshold), Fraction(0)
    )
