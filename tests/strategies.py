"""Hypothesis strategies for realistic scenarios and battles (shared by every test package).

``scenarios()`` builds a Scenario with a valid order of battle per side (commander-in-chief →
corps → divisions → brigade-sized units), units deployed in their side's half of the table,
terrain features of every ``TerrainKind`` (polygons with holes, multi-polygons, lines,
multi-lines, points), non-overlapping town zones, objectives, deployment zones, reinforcements,
standing orders and sources. ``battles()`` adds a game log with events of every registered
kind, filled from their type hints.

Bulk data comes from a ``random.Random`` seeded by hypothesis (so hundreds of records do not
exhaust hypothesis's buffer); sizes, seeds and a few edge values (unicode names, extreme
floats) are drawn by hypothesis itself, so failures shrink and replay.

Usage::

    from tests.strategies import battles, scenarios

    @given(scenarios(min_units=100, max_units=400))
    def test_something(scenario): ...
"""

from __future__ import annotations

import dataclasses
import math
import random
import types
import typing
from typing import Any

from hypothesis import strategies as st
from shapely.geometry import LineString, MultiLineString, MultiPolygon, Point, Polygon, box

from battlestudio.model.formations import arm_formation_problem
from battlestudio.model import (
    Arm,
    Commander,
    DeploymentZone,
    Echelon,
    Formation,
    Objective,
    Order,
    OrderStatus,
    Reinforcement,
    Scenario,
    ScenarioInfo,
    Side,
    Source,
    Subtype,
    TerrainFeature,
    TerrainKind,
    TownZone,
    Unit,
    default_town_polygon,
)
from battlestudio.model.units import SUBTYPE_ARM
from battlestudio.replay.battle import Battle
from battlestudio.replay.events import BattleEvent, event_kinds

SIDES = [
    ("french", "Grande Armée", ("France", "Bavaria"), "#2040c0"),
    ("prussian", "Prussian Army", ("Prussia", "Saxony"), "#303030"),
    ("austrian", "Austrian Army", ("Austria",), "#e0e0e0"),
]
NAMES = [
    "Lannes",
    "Soult",
    "Ney",
    "Augereau",
    "Murat",
    "Davout",
    "Hohenlohe",
    "Rüchel",
    "Tauentzien",
    "Grawert",
    "Holtzendorff",
    "Suchet",
    "Gazan",
    "Saint-Hilaire",
    "Leval",
]
PLACES = [
    ("Jena", "1806-10-14"),
    ("Auerstedt", "1806-10-14"),
    ("Leipzig", "1813-10-16"),
    ("Elchingen", "1805-10-14"),
    ("Waterloo", "1815-06-18"),
]
QUALITIES = ["guard", "elite", "veteran", "regular", "conscript", "militia", "landwehr"]
STATES = ["O", "U", "FU", "eliminated", "steady", "hesitant"]
PHASES = ["command", "movement", "firing", "melee", "morale", "rally", "end"]

_edge_text = st.text(st.characters(codec="utf-8"), max_size=30)
_edge_float = st.floats(allow_nan=False, allow_infinity=False)


def _blob(rng: random.Random, cx: float, cy: float, r: float, n: int | None = None) -> list[tuple[float, float]]:
    """A star-shaped (hence valid) ring of 5–12 vertices around (cx, cy), radius ≤ r cm."""
    n = n or rng.randint(6, 12)
    step = 2 * math.pi / n
    angles = [k * step + rng.uniform(0, 0.8 * step) for k in range(n)]  # gaps < π: a simple ring
    radii = [r * rng.uniform(0.5, 1.0) for _ in angles]
    return [(cx + d * math.cos(a), cy + d * math.sin(a)) for a, d in zip(angles, radii, strict=True)]


def _line(rng: random.Random, w: float, h: float) -> LineString:
    pts = [(rng.uniform(0, w), rng.uniform(0, h))]
    for _ in range(rng.randint(1, 9)):
        x, y = pts[-1]
        pts.append((x + rng.uniform(5, 30), y + rng.uniform(-15, 15)))
    return LineString(pts)


def _terrain_geometry(rng: random.Random, kind: TerrainKind, w: float, h: float) -> Any:
    cx, cy = rng.uniform(10, w - 10), rng.uniform(10, h - 10)
    if kind in (TerrainKind.RIVER, TerrainKind.STREAM, TerrainKind.ROAD, TerrainKind.HEDGE, TerrainKind.WALL):
        if rng.random() < 0.2:
            return MultiLineString([_line(rng, w, h), _line(rng, w, h)])
        return _line(rng, w, h)
    if kind in (TerrainKind.FORD, TerrainKind.BRIDGE):
        return Point(cx, cy) if rng.random() < 0.5 else box(cx - 1.5, cy - 3, cx + 1.5, cy + 3)
    r = rng.uniform(5, 25)
    roll = rng.random()
    if roll < 0.15:
        return MultiPolygon([Polygon(_blob(rng, cx, cy, r / 2)), Polygon(_blob(rng, cx + 2 * r, cy, r / 2))])
    ring = _blob(rng, cx, cy, r)
    if roll < 0.3:
        hole = [(cx + r * 0.1 * math.cos(a), cy + r * 0.1 * math.sin(a)) for a in (0.0, 2.1, 4.2)]
        holed = Polygon(ring, [hole])
        if holed.is_valid:
            return holed
    return Polygon(ring)


@st.composite
def scenarios(
    draw: st.DrawFn, min_units: int = 0, max_units: int = 300, max_terrain: int = 60, edge_cases: bool = True
) -> Scenario:
    """A realistic Scenario with ``min_units``–``max_units`` units (valid order of battle).

    ``edge_cases`` puts hypothesis-drawn unicode text and extreme finite floats into a few
    names and attributes (never into ids, positions or the OOB, so the scenario stays valid).
    """
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    n_units = draw(st.integers(min_units, max_units))
    n_terrain = draw(st.integers(min(12, max_terrain), max_terrain))
    place, date = rng.choice(PLACES)
    w, h = rng.choice([(180.0, 120.0), (240.0, 180.0), (360.0, 180.0), (rng.uniform(100, 600), rng.uniform(80, 300))])
    info = ScenarioInfo(
        title=f"{place} {date[:4]}",
        date=date,
        place=place,
        ruleset=rng.choice(["toe", "belle-alliance", "gda", "regimental"]),
        parameters={
            "command_distance_cm": rng.choice([20, 25.5, 30]),
            "table1": [rng.randint(1, 10) for _ in range(4)],
            "house_rules": {"fog_turns": rng.randint(0, 8), "note": "fog until 09:00"},
        },
        table_width=w,
        table_height=h,
        ground_scale=rng.choice([30.0, 25.0, rng.uniform(10, 50)]),
        turn_minutes=rng.choice([15, 20, 30]),
        first_turn=f"{rng.randint(5, 9):02d}:00",
        turns=rng.randint(8, 48),
        description=draw(_edge_text) if edge_cases else "A historical scenario.",
    )
    sc = Scenario(info=info)
    side_count = 3 if rng.random() < 0.15 else 2
    sides = SIDES[:side_count]
    for sid, name, nations, colour in sides:
        sc.sides[sid] = Side(sid, name, nations, colour)
    _build_armies(sc, rng, n_units, sides)
    _build_terrain(sc, rng, n_terrain)
    _build_extras(sc, rng, sides)
    if edge_cases and sc.units:
        uid = rng.choice(sorted(sc.units))
        u = sc.units[uid]
        sc.units[uid] = dataclasses.replace(
            u,
            name=draw(_edge_text),
            attributes={
                "extreme": draw(_edge_float),
                "tiny": 5e-324,
                "neg_zero": -0.0,
                "big": 2**62,
                "flag": True,
                "list": [draw(_edge_float), None, "x"],
                "nested": {"é": [1, 2.5]},
            },
        )
    return sc


def _build_armies(sc: Scenario, rng: random.Random, n_units: int, sides: list[tuple]) -> None:
    h = sc.info.table_height
    per_side = [n_units // len(sides) + (1 if i < n_units % len(sides) else 0) for i in range(len(sides))]
    for s_i, ((sid, _, nations, _), count) in enumerate(zip(sides, per_side, strict=True)):
        y0, y1 = (0.0, h / 2) if s_i % 2 == 0 else (h / 2, h)
        _build_side(sc, rng, sid, nations, count, (y0, y1), 90.0 if s_i % 2 == 0 else 270.0)


def _build_side(
    sc: Scenario,
    rng: random.Random,
    sid: str,
    nations: tuple[str, ...],
    count: int,
    ys: tuple[float, float],
    facing: float,
) -> None:
    """One side's chain of command and ``count`` units, placed at random in the band ``ys`` (cm)."""
    w = sc.info.table_width
    y0, y1 = ys

    def place() -> tuple[float, float]:
        return (rng.uniform(0, w), rng.uniform(y0, y1))

    def commander(cid: str, echelon: Echelon, figures: int) -> str:
        sc.commanders[cid] = Commander(
            cid,
            f"{rng.choice(NAMES)} ({echelon.value})",
            sid,
            nation=nations[0],
            echelon=echelon.value,
            position=place(),
            facing=facing,
            figures=figures,
            order_capacity=rng.choice([None, 1, 2, 3]),
            command_ability=rng.choice([None, -1, 0, 1, 2]),
            command_distance=rng.choice([None, 20.0, rng.uniform(10, 40)]),
            attributes={"adcs": rng.randint(0, 3)} if rng.random() < 0.3 else {},
        )
        return cid

    chief = commander(f"{sid}-cinc", Echelon.C_IN_C, 6)
    sc.oob.add_node(chief)
    divisions: list[str] = []
    for c in range(max(1, min(6, count // 12 + 1))):
        corps = commander(f"{sid}-c{c + 1}", Echelon.CORPS, 3)
        sc.oob.add(chief, corps)
        for d in range(rng.randint(1, 3)):
            div = commander(f"{sid}-c{c + 1}-d{d + 1}", Echelon.DIVISION, 2)
            sc.oob.add(corps, div)
            divisions.append(div)
    for u in range(count):
        subtype = rng.choice([*Subtype, None])
        arm = SUBTYPE_ARM[subtype] if subtype else rng.choice(list(Arm))
        figures = rng.randint(1, 40)  # a unit with no figures is a problem `check` reports
        uid = f"{sid}-u{u + 1:04d}"
        sc.units[uid] = Unit(
            uid,
            f"{u + 1}e brigade",
            sid,
            nation=rng.choice(nations),
            arm=arm,
            subtype=subtype,
            quality=rng.choice(QUALITIES),
            figures=figures,
            bases=rng.choice([None, figures // 4]),
            men=figures * rng.randint(60, 110),
            horses=figures * 80 if arm is Arm.CAVALRY else 0,
            guns=rng.randint(4, 12) if arm is Arm.ARTILLERY else 0,
            position=place(),
            facing=(facing + rng.uniform(-45, 45)) % 360.0,
            formation=rng.choice([f for f in Formation if arm_formation_problem(arm, f) is None]),
            state=rng.choice(STATES),
            ammunition=rng.choice([None, rng.randint(0, 12)]) if arm is Arm.ARTILLERY else None,
            figure_width=rng.choice([2.0, 2.5, 3.0]),
            figure_depth=rng.choice([1.5, 2.0, 3.0, 4.0]),
            column_ranks=rng.choice([3, 4]),
            attributes={"source_row": rng.randint(1, 999), "colonel": rng.choice(NAMES)} if rng.random() < 0.3 else {},
        )
        sc.oob.add(rng.choice(divisions), uid)


def _build_terrain(sc: Scenario, rng: random.Random, n_terrain: int) -> None:
    w, h = sc.info.table_width, sc.info.table_height
    kinds = list(TerrainKind)
    for i in range(n_terrain):
        kind = kinds[i] if i < len(kinds) else rng.choice(kinds)
        tid = f"t-{kind.value}-{i + 1:03d}"
        sc.terrain[tid] = TerrainFeature(
            tid,
            kind,
            _terrain_geometry(rng, kind, w, h),
            name=f"{rng.choice(['Dornberg', 'Landgrafenberg', 'Mühltal', 'Saale'])} {i}",
            level=rng.randint(1, 3) if kind is TerrainKind.HILL else None,
            width=rng.choice([1.0, 2.5, rng.uniform(0.5, 6)])
            if kind in (TerrainKind.RIVER, TerrainKind.ROAD, TerrainKind.STREAM)
            else None,
            properties={"passable_by": rng.choice(["all", "infantry", "none"])} if rng.random() < 0.4 else {},
        )
    step = 20.0
    cols, rows = int(w // step), int(h // step)
    cells = rng.sample([(c, r) for c in range(cols) for r in range(rows)], k=min(rng.randint(0, 12), cols * rows))
    for n, (c, r) in enumerate(cells):
        centre = (c * step + step / 2, r * step + step / 2)
        poly = (
            default_town_polygon(centre)
            if rng.random() < 0.6
            else box(
                centre[0] - rng.uniform(3, 9),
                centre[1] - rng.uniform(3, 9),
                centre[0] + rng.uniform(3, 9),
                centre[1] + rng.uniform(3, 9),
            )
        )
        zid = f"town-{n + 1:02d}"
        sc.towns[zid] = TownZone(
            zid,
            rng.choice(["Closewitz", "Cospeda", "Vierzehnheiligen", "Isserstedt", "Krippendorf"]),
            poly,
            capacity=rng.randint(1, 3),
        )


def _build_extras(sc: Scenario, rng: random.Random, sides: list[tuple]) -> None:
    w, h = sc.info.table_width, sc.info.table_height
    for n in range(rng.randint(0, 5)):
        geom = (
            Point(rng.uniform(0, w), rng.uniform(0, h)) if rng.random() < 0.5 else Polygon(_blob(rng, w / 2, h / 2, 10))
        )
        sc.objectives[f"obj-{n + 1}"] = Objective(
            f"obj-{n + 1}",
            f"Objective {n + 1}",
            geom,
            side=rng.choice(["", *[s[0] for s in sides]]),
            value=rng.randint(1, 5),
        )
    corps = [c for c in sc.commanders.values() if c.echelon == Echelon.CORPS.value]
    for s_i, (sid, *_rest) in enumerate(sides):
        band = box(0, 0, w, h / 5) if s_i % 2 == 0 else box(0, h * 4 / 5, w, h)
        sc.deployment_zones[f"dz-{sid}"] = DeploymentZone(f"dz-{sid}", sid, f"{sid} deployment", band)
    for n, c in enumerate(rng.sample(corps, k=min(len(corps), rng.randint(0, 3)))):
        early = rng.randint(2, min(20, sc.info.turns))  # arrives within the game
        edge = rng.choice(
            [(0.0, rng.uniform(0, h)), (w, rng.uniform(0, h)), (rng.uniform(0, w), 0.0), (rng.uniform(0, w), h)]
        )
        sc.reinforcements[f"rf-{n + 1}"] = Reinforcement(
            f"rf-{n + 1}",
            c.side,
            c.id,
            early,
            early + rng.randint(0, 6),
            edge,
            probability=rng.choice([1.0, 0.5, rng.random()]),
            note="arrives by the road",
        )
        zone = box(max(0, edge[0] - 10), max(0, edge[1] - 10), min(w, edge[0] + 10), min(h, edge[1] + 10))
        sc.deployment_zones[f"dz-{c.id}"] = DeploymentZone(
            f"dz-{c.id}", c.side, f"{c.name} entry", zone, formation=c.id
        )
    for n, c in enumerate(rng.sample(corps, k=min(len(corps), rng.randint(0, 6)))):
        objective = (rng.uniform(0, w), rng.uniform(0, h)) if rng.random() < 0.8 else None
        sc.orders[f"ord-{n + 1}"] = Order(
            f"ord-{n + 1}",
            f"{c.side}-cinc",
            c.id,
            rng.choice("AHTMD"),
            objective,
            rng.choice(list(OrderStatus)),
            0,
            {"route": "by Lützeroda"} if rng.random() < 0.3 else {},
        )
    for n in range(rng.randint(1, 3)):
        sc.sources.append(
            Source(
                f"Order of battle source {n + 1}",
                f"https://example.org/oob/{n + 1}",
                rng.choice(["CC-BY-4.0", "public domain", ""]),
                "brigade strengths",
            )
        )


# -- events -----------------------------------------------------------------------------------
def _value(rng: random.Random, name: str, hint: Any, sc: Scenario) -> Any:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return None if rng.random() < 0.3 else _value(rng, name, inner[0], sc)
    units, commanders = sorted(sc.units) or ["u-none"], sorted(sc.commanders) or ["c-none"]
    if hint is str:
        if name in ("unit", "id", "target", "subject", "node"):
            return rng.choice(units)
        if name in ("issuer", "recipient", "commander", "superior", "superior_before", "superior_after"):
            return rng.choice(commanders)
        if name == "formation":
            return rng.choice(list(Formation)).value
        if name == "state":
            return rng.choice(STATES)
        if name == "order_id":
            return f"ord-{rng.randint(1, 40)}"
        return rng.choice(["", "fog", "Lannes presses on Closewitz", "3 hits", "retires 10 cm"])
    if hint is bool:
        return rng.random() < 0.5
    if hint is int:
        return rng.randint(3, 4) if name == "column_ranks" else rng.randint(0, 12)
    if hint is float:
        return rng.uniform(0, 360)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(rng, name, args[0], sc) for _ in range(rng.randint(1, 4)))
        if all(a is float for a in args):
            return tuple(rng.uniform(0, sc.info.table_width) for _ in args)
        return tuple(_value(rng, name, a, sc) for a in args)
    # Mapping[str, Any] and Any: a recorded die roll
    return {
        "die": "d10",
        "raw": [rng.randint(1, 10)],
        "modifiers": [{"source": "KE", "value": rng.randint(-1, 2)}],
        "threshold": rng.randint(2, 9),
        "p": rng.random(),
        "outcome": rng.choice(["delivered", "failed"]),
    }


def make_event(
    rng: random.Random, cls: type[BattleEvent], sc: Scenario, turn: int, side: str, phase: str
) -> BattleEvent | None:
    """An event of ``cls`` with plausible field values, or None if its hints are unknown."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - a kind whose hints cannot be resolved is skipped
        return None
    kwargs = {
        f.name: _value(rng, f.name, hints[f.name], sc)
        for f in dataclasses.fields(cls)
        if f.name not in ("turn", "side", "phase")
    }
    if cls.kind == "reinforcement_arrived":
        kwargs["arrivals"] = tuple(
            (rng.choice(sorted(sc.units) or ["u"]), rng.uniform(0, 100), 0.0, 90.0) for _ in range(2)
        )
    try:
        return cls(turn=turn, side=side, phase=phase, **kwargs)
    except (TypeError, ValueError):
        return None


@st.composite
def battles(
    draw: st.DrawFn, scenario: st.SearchStrategy[Scenario] | None = None, min_events: int = 0, max_events: int = 300
) -> Battle:
    """A Battle: a scenario from ``scenario`` (default ``scenarios()``) and a game log of
    ``min_events``–``max_events`` events of every registered kind, turn by turn, side by side,
    phase by phase (turns ascending)."""
    sc = draw(scenario if scenario is not None else scenarios())
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(min_events, max_events))
    kinds = sorted(event_kinds().items())
    sides = sorted(sc.sides) or [""]
    events: list[BattleEvent] = []
    turn, step = 1, 0
    while len(events) < n:
        side, phase = sides[(step // len(PHASES)) % len(sides)], PHASES[step % len(PHASES)]
        for _ in range(rng.randint(0, 4)):
            _, cls = kinds[(len(events) + rng.randint(0, len(kinds))) % len(kinds)]
            ev = make_event(rng, cls, sc, turn, side, phase)
            if ev is not None and len(events) < n:
                events.append(ev)
        step += 1
        if step % (len(PHASES) * len(sides)) == 0:
            turn += 1
    return Battle(scenario=sc, events=events)


# -- comparing ----------------------------------------------------------------------------
def differences(a: Battle, b: Battle, limit: int = 10) -> list[str]:
    """Where two battles differ, as short readable lines (for assertion messages).

    Geometries compare exactly (``equals_exact(other, 0)`` and same type); floats compare
    by value. An empty list means ``a == b``.
    """
    out: list[str] = []
    sa, sb = a.scenario, b.scenario
    if sa.info != sb.info:
        out += [
            f"info.{f.name}: {getattr(sa.info, f.name)!r} != {getattr(sb.info, f.name)!r}"
            for f in dataclasses.fields(sa.info)
            if getattr(sa.info, f.name) != getattr(sb.info, f.name)
        ]
    for key in (
        "sides",
        "units",
        "commanders",
        "terrain",
        "towns",
        "objectives",
        "deployment_zones",
        "reinforcements",
        "orders",
    ):
        da, db = getattr(sa, key), getattr(sb, key)
        for rid in sorted(set(da) ^ set(db)):
            out.append(f"{key}[{rid!r}] only in {'first' if rid in da else 'second'}")
        for rid in sorted(set(da) & set(db)):
            if da[rid] != db[rid]:
                out += [
                    f"{key}[{rid!r}].{f.name}: {getattr(da[rid], f.name)!r} != {getattr(db[rid], f.name)!r}"
                    for f in dataclasses.fields(da[rid])
                    if getattr(da[rid], f.name) != getattr(db[rid], f.name)
                ]
    if sa.sources != sb.sources:
        out.append(f"sources: {sa.sources!r} != {sb.sources!r}")
    if sa.oob != sb.oob:
        ga, gb = sa.oob.graph, sb.oob.graph
        out.append(
            f"oob: nodes only in one {sorted(set(ga.nodes) ^ set(gb.nodes))}, "
            f"edges only in one {sorted(set(ga.edges) ^ set(gb.edges))}"
        )
    if len(a.events) != len(b.events):
        out.append(f"events: {len(a.events)} != {len(b.events)}")
    out += [f"events[{i}]: {x!r} != {y!r}" for i, (x, y) in enumerate(zip(a.events, b.events, strict=False)) if x != y]
    return out[:limit]
