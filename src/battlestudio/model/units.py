"""Troops and commanders as frozen records, with the enums that classify them.

Rulesets differ in their grades and order states, so ``quality`` and ``state`` are plain strings
validated by the ruleset; the enums here name the values the bundled rulesets share.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any
from collections.abc import Mapping, Sequence

import numpy as np
import shapely
from shapely.geometry import Polygon

from battlestudio.model.geometry import Point, UnitRect, normalize_angle, unit_rect


class Arm(StrEnum):
    """Arm of service."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    OTHER = "other"


class Subtype(StrEnum):
    """The rulesets' subtypes of an arm (Torden over Europa 1.3; General d'Armée; Regimental)."""

    LINE_INFANTRY = "line_infantry"
    LIGHT_INFANTRY = "light_infantry"
    SKIRMISHERS = "skirmishers"
    GRENADIERS = "grenadiers"
    LIGHT_CAVALRY = "light_cavalry"
    MEDIUM_CAVALRY = "medium_cavalry"
    HEAVY_CAVALRY = "heavy_cavalry"
    FOOT_ARTILLERY = "foot_artillery"
    HORSE_ARTILLERY = "horse_artillery"
    HEAVY_ARTILLERY = "heavy_artillery"


SUBTYPE_ARM: Mapping[Subtype, Arm] = {
    Subtype.LINE_INFANTRY: Arm.INFANTRY,
    Subtype.LIGHT_INFANTRY: Arm.INFANTRY,
    Subtype.SKIRMISHERS: Arm.INFANTRY,
    Subtype.GRENADIERS: Arm.INFANTRY,
    Subtype.LIGHT_CAVALRY: Arm.CAVALRY,
    Subtype.MEDIUM_CAVALRY: Arm.CAVALRY,
    Subtype.HEAVY_CAVALRY: Arm.CAVALRY,
    Subtype.FOOT_ARTILLERY: Arm.ARTILLERY,
    Subtype.HORSE_ARTILLERY: Arm.ARTILLERY,
    Subtype.HEAVY_ARTILLERY: Arm.ARTILLERY,
}
"""Which arm each subtype belongs to."""


class Quality(StrEnum):
    """Troop grade, best first. Rulesets map these to their own classes."""

    GUARD = "guard"
    ELITE = "elite"
    VETERAN = "veteran"
    CRACK = "crack"
    REGULAR = "regular"
    CONSCRIPT = "conscript"
    MILITIA = "militia"
    RABBLE = "rabble"


class Formation(StrEnum):
    """Formations (Torden over Europa 1.7; ``none`` is the FU mob with no front)."""

    LINE = "line"
    COLUMN = "column"
    MARCH_COLUMN = "march_column"
    SQUARE = "square"
    SKIRMISH = "skirmish"
    LIMBERED = "limbered"
    UNLIMBERED = "unlimbered"
    NONE = "none"


class OrderState(StrEnum):
    """Torden over Europa's unit order states (orden, 1.6).

    ``O`` in order, ``U`` disorder (uorden), ``FU`` complete disorder (fuldstændig uorden),
    ``eliminated``. Other rulesets keep their own state strings in ``Unit.state``.
    """

    O = "O"  # noqa: E741 - the ruleset's own letter
    U = "U"
    FU = "FU"
    ELIMINATED = "eliminated"


class Echelon(StrEnum):
    """Command echelons, highest first (Torden over Europa 1.4, Figure 1)."""

    C_IN_C = "c_in_c"
    ARMY = "army"
    CORPS = "corps"
    DIVISION = "division"
    BRIGADE = "brigade"


ECHELON_RANK: Mapping[str, int] = {e.value: i for i, e in enumerate(Echelon)}
"""Depth of each echelon: 0 for the commander-in-chief, growing downwards."""


DEFAULT_FIGURE_SIZE: Mapping[Arm, tuple[float, float]] = {
    Arm.INFANTRY: (2.0, 1.5),
    Arm.CAVALRY: (2.5, 3.0),
    Arm.ARTILLERY: (3.0, 4.0),
    Arm.OTHER: (2.0, 2.0),
}
"""Frontage and rank depth of one figure in cm, per arm, used when a scenario gives none.

Torden over Europa's Appendix 1 / Table 12 (base sizes) is missing from the seed, so these are
placeholders a scenario overrides through its parameters.
"""


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the table: a brigade in Torden over Europa, a battalion in Belle Alliance.

    Attributes
    ----------
    id, name : str
        stable identifier and display name.
    side : str
        id of the ``Side`` it fights for.
    nation : str
        e.g. ``"France"``.
    arm : Arm
    subtype : Subtype | None
    quality : str
        a ``Quality`` value or a ruleset's own grade.
    figures : int
        figure count (≈100 infantry / 80 cavalry men each, Torden over Europa 1.1).
    bases : int | None
        number of bases, when the source counts bases rather than figures.
    men, horses, guns : int
        historical strength; ``guns`` are real pieces.
    position : Point
        midpoint of the front edge, table cm.
    facing : float
        degrees counter-clockwise from +x, in [0, 360).
    formation : Formation
    state : str
        order state: an ``OrderState`` value or a ruleset's own.
    ammunition : int | None
        rounds left where the ruleset counts them (artillery), else None.
    figure_width, figure_depth : float
        frontage per figure and depth per rank, cm.
    column_ranks : int
        3 or 4 ranks when in column.
    attributes : Mapping[str, Any]
        ruleset- or source-specific extras (JSON-compatible values).
    """

    id: str
    name: str
    side: str
    nation: str = ""
    arm: Arm = Arm.INFANTRY
    subtype: Subtype | None = None
    quality: str = Quality.REGULAR.value
    figures: int = 0
    bases: int | None = None
    men: int = 0
    horses: int = 0
    guns: int = 0
    position: Point = (0.0, 0.0)
    facing: float = 90.0
    formation: Formation = Formation.LINE
    state: str = OrderState.O.value
    ammunition: int | None = None
    figure_width: float = 2.0
    figure_depth: float = 1.5
    column_ranks: int = 3
    attributes: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # a formation, arm or subtype given as its string value (a Qt combo, a hand-written
        # file) becomes the enum here, so drawing and measuring never meet a plain string
        if type(self.formation) is not Formation:
            object.__setattr__(self, "formation", _member(Formation, self.formation, self, "formation"))
        if type(self.arm) is not Arm:
            object.__setattr__(self, "arm", _member(Arm, self.arm, self, "arm"))
        if self.subtype is not None and type(self.subtype) is not Subtype:
            object.__setattr__(self, "subtype", _member(Subtype, self.subtype, self, "subtype"))

    def rect(self) -> UnitRect:
        """The unit's footprint rectangle for its formation and facing (glossary §1.4)."""
        return unit_rect(
            self.position,
            self.facing,
            self.formation.value,
            self.figures,
            self.figure_width,
            self.figure_depth,
            self.column_ranks,
        )

    def footprint(self) -> Polygon:
        """The unit's footprint polygon in table cm.

        Records are immutable, so the polygon is cached per record object (command checks and
        overlays measure the same unchanged units again and again; building one costs ~25 µs).
        """
        hit = _FOOTPRINTS.get(id(self))
        if hit is not None and hit[0] is self:
            return hit[1]
        poly = self.rect().polygon()
        if len(_FOOTPRINTS) >= FOOTPRINT_CACHE_SIZE:
            _FOOTPRINTS.clear()
        _FOOTPRINTS[id(self)] = (self, poly)
        return poly

    def moved(self, position: Point, facing: float | None = None) -> Unit:
        """A copy at ``position`` (cm) and, if given, ``facing`` (degrees)."""
        return replace(
            self,
            position=(float(position[0]), float(position[1])),
            facing=self.facing if facing is None else normalize_angle(facing),
        )


class UnitValueError(ValueError):
    """A unit field holds a value its enum does not have; the message names unit, field and
    the values allowed."""


def _member(enum: type[StrEnum], value: Any, unit: Unit, attr: str) -> Any:
    """``value`` as a member of ``enum``.

    Raises
    ------
    UnitValueError
        when ``value`` is none of the enum's values.
    """
    try:
        return enum(value)
    except ValueError:
        known = ", ".join(m.value for m in enum)
        raise UnitValueError(f"unit {unit.id!r}: {attr} {value!r} is not one of {known}") from None


FOOTPRINT_CACHE_SIZE = 1 << 16
"""Unit records whose footprint polygon is kept (the cache is emptied when it fills)."""
_FOOTPRINTS: dict[int, tuple[Unit, Polygon]] = {}  # id(record) -> (record, polygon); the record keeps the id taken


def cached_split(items: Sequence[Any], cache: dict[int, tuple[Any, Any]]) -> tuple[list[Any], list[int]]:
    """Look ``items`` up in an identity cache (``id(item) -> (item, value)``, the item kept so a
    reused id is never mistaken for it): the cached value or None per item, and the indices of
    the items not cached, for a caller that builds those in one vectorised call."""
    out: list[Any] = []
    missing: list[int] = []
    get = cache.get
    for k, item in enumerate(items):
        hit = get(id(item))
        if hit is not None and hit[0] is item:
            out.append(hit[1])
        else:
            out.append(None)
            missing.append(k)
    return out, missing


def footprints(units: Sequence[Unit]) -> list[Polygon]:
    """``[u.footprint() for u in units]`` (table cm), the polygons not cached yet built in one
    vectorised call and cached: ~3 µs a unit instead of ~13 µs, for checks of a whole army
    after most records changed (a far jump in a replay).

    The polygons have exactly the coordinates ``Unit.footprint`` gives (the same corners,
    ring FL, RL, RR, FR). Raises what ``Unit.rect`` raises for the first unit that cannot
    be drawn.
    """
    out, missing = cached_split(units, _FOOTPRINTS)
    if missing:
        rings = []
        for k in missing:
            fl, fr, rr, rl = units[k].rect().corners()
            rings.append((fl, rl, rr, fr))
        polys = shapely.polygons(np.asarray(rings, dtype=float))
        if len(_FOOTPRINTS) + len(missing) > FOOTPRINT_CACHE_SIZE:
            _FOOTPRINTS.clear()
        for k, poly in zip(missing, polys.tolist(), strict=True):
            u = units[k]
            _FOOTPRINTS[id(u)] = (u, poly)
            out[k] = poly
    return out


@dataclass(frozen=True, slots=True)
class Commander:
    """A general and his staff (Torden over Europa 1.4).

    Attributes
    ----------
    id, name : str
    side : str
        id of his ``Side``.
    nation : str
    echelon : str
        an ``Echelon`` value.
    position : Point
        base centre in table cm: the centre of his formation's operating area.
    facing : float
        degrees counter-clockwise from +x (matters only for returning cavalry, T-30).
    figures : int
        figures on his base (6 C-in-C, 4 army, 3 corps, 2 division in Torden over Europa).
    order_capacity : int | None
        OAS, orders he can issue per turn (Torden over Europa 2.12); None when not rated.
    command_ability : int | None
        KE, his modifier on command rolls (Torden over Europa 2.12).
    command_distance : float | None
        his command radius in cm, where his ruleset rates it per general; None = ruleset default.
    attributes : Mapping[str, Any]
        other ruleset attributes (e.g. General d'Armée ADCs, Regimental adjutants).
    """

    id: str
    name: str
    side: str
    nation: str = ""
    echelon: str = Echelon.CORPS.value
    position: Point = (0.0, 0.0)
    facing: float = 90.0
    figures: int = 2
    order_capacity: int | None = None
    command_ability: int | None = None
    command_distance: float | None = None
    attributes: Mapping[str, Any] = field(default_factory=dict)

    def moved(self, position: Point) -> Commander:
        """A copy at ``position`` (cm)."""
        return replace(self, position=(float(position[0]), float(position[1])))
