"""A unit's move checked against a ruleset's movement rules: the record a ruleset's optional
``move_check`` returns, for the umpire who drags a unit and for order execution.

The check never forbids what the umpire records (his rulings are final, Torden over Europa 1.1
"Dommerens afgørelser er indiskutable"): it says whether the move is legal, how far the unit may
go and why, and the consequences the rules attach (e.g. leaving the table loses the unit).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from battlestudio.model.geometry import Point
from battlestudio.model.terrain import TerrainFeature, TownZone


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A unit's move: ``unit`` id, the ``path`` of its position (cm; first point where it
    stands, last where it ends), its ``facing`` at the end (degrees, None = unchanged), the
    scenario's ``terrain``, the ``table`` (width, height cm) and its town zones (``towns``)."""

    unit: str
    path: tuple[Point, ...]
    facing: float | None = None
    terrain: Sequence[TerrainFeature] = ()
    table: tuple[float, float] | None = None
    towns: Sequence[TownZone] = ()


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """Whether a move keeps the rules.

    ``legal``; ``used_cm`` the distance of the figure with farthest to go, ``allowed_cm`` the
    march length this move may use (None when the rules give no number, e.g. a missing
    supplement value); ``problems`` each broken rule in words with its section; ``notes`` the
    readings and deductions applied; ``leaves_table`` when the unit ends off the table (lost);
    ``immobile`` when the unit may not make this kind of move at all (a square, a unit in
    complete disorder, an unlimbered battery beyond its pivot), however short;
    ``assumed`` the assumed readings used."""

    unit: str
    legal: bool
    used_cm: float
    allowed_cm: float | None
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    leaves_table: bool = False
    assumed: tuple[str, ...] = ()
    immobile: bool = False

    @property
    def explanation(self) -> str:
        """One paragraph: legal or not, how far of how far, the problems and notes."""
        far = f"{self.used_cm:.1f} cm" + (f" of {self.allowed_cm:.1f} cm" if self.allowed_cm is not None else "")
        head = f"Move {far}: " + ("legal." if self.legal else "not legal:")
        return " ".join([head, *self.problems, *self.notes])
