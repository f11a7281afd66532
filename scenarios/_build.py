"""Shared helpers of the bundled-scenario build scripts (``build_*.py`` beside this file).

Owns: laying units out in a row from an anchor point (front edges aligned, footprints from
figures), placing commanders behind their troops, and the named placeholder parameters for the
Torden over Europa values the seed does not give (Table 1, the national supplements). Nothing
here is a rule value: every number a scenario needs but the rules lack is a ``toe.placeholder.*``
parameter, listed in ``toe.unknown``.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Sequence

from battlestudio.model.geometry import forward, right_of
from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Formation

HERE = Path(__file__).resolve().parent
OOB_DATA = Path(os.environ.get("BATTLESTUDIO_OOB_DATA", "/work/shared/data/oob"))
"""Where the source data lives (the development checkout's shared data unless
``BATTLESTUDIO_OOB_DATA`` names another copy of it)."""

GAP_CM = 2.0
"""Interval left between neighbouring units in a row, cm (a layout choice, not a rule)."""

TOE_UNKNOWN = (
    "Torden over Europa leaves these values to tables and supplements missing from the seed: "
    "Table 1 (command-control zone distances, success thresholds and modifiers), the general "
    "supplements (OAS and KE per general, corps command distance), the national supplements "
    "(march lengths, infantry classes) and Tables 2-12. Each toe.placeholder.* parameter below "
    "stands in for one of them so the scenario can be played; none is a rule value. "
    "KE is taken from the fogofwar command rating (toe.assumed.command_ability_from)."
)


def toe_placeholders(order_capacity: dict[str, int]) -> dict[str, Any]:
    """Torden over Europa's unknown values, under the engine's own parameter names.

    Every value here is a placeholder chosen by the scenario, not a rule value; ``toe.placeholders``
    lists their keys and each ``toe.note.*`` says why the value was chosen. ``order_capacity`` maps
    commander id → OAS placeholder for the C-in-C and army generals (or a corps general acting as
    his side's senior general), kept as ``toe.placeholder.order_capacity.<id>``;
    ``apply_order_capacity`` copies it onto the commander records, where the engine reads OAS.
    """
    values: dict[str, Any] = {
        "toe.zones_cm.c_in_c": [20, 40, "60+"],
        "toe.zones_cm.army": [20, 40, "60+"],
        "toe.command_thresholds": [4, 6, 8],
        "toe.command_modifiers": {},
        "toe.corps_command_distance_cm": 30,
        "toe.division_command_distance_cm": 15,
        "toe.march_length_cm.infantry": 30,
        "toe.march_length_cm.artillery": 30,
        "toe.march_length_cm.cavalry": 45,
        "toe.march_length_cm.other": 30,
    }
    p: dict[str, Any] = {
        "toe.unknown": TOE_UNKNOWN,
        **values,
        "toe.placeholders": sorted(values)
        + [f"toe.placeholder.order_capacity.{cid}" for cid in sorted(order_capacity)],
        "toe.note.zones_cm": "Table 1 is missing: zones of 20/40 cm with an open-ended third zone, "
        "following the text's own example entry '60+' (2.2)",
        "toe.note.command_thresholds": "Table 1 is missing: a modified d10 (read 0-9) of 4/6/8 passes in "
        "zone 1/2/3, so a KE 0 order passes 60/40/20 % of the time",
        "toe.note.command_modifiers": "Table 1's situational modifiers are missing: none are applied",
        "toe.note.corps_command_distance": "the national supplement's value is missing: 30 cm (900 m) "
        "keeps a corps' divisions within about a kilometre",
        "toe.note.division_command_distance": "rule 2.5 gives the range 10-20 cm; its middle, 15 cm, is used",
        "toe.note.march_length": "the national supplements are missing: about 1 km per 15 minutes for foot "
        "and guns (30 cm), half as much again for horse (45 cm)",
    }
    for cid, n in order_capacity.items():
        p[f"toe.placeholder.order_capacity.{cid}"] = n
    return p


def apply_order_capacity(sc: Scenario) -> None:
    """Copy each ``toe.placeholder.order_capacity.<commander id>`` onto its commander's OAS."""
    prefix = "toe.placeholder.order_capacity."
    for key, value in sc.info.parameters.items():
        if key.startswith(prefix):
            cid = key[len(prefix) :]
            sc.commanders[cid] = replace(sc.commanders[cid], order_capacity=int(value))


def deploy_row(
    sc: Scenario,
    unit_ids: Sequence[str],
    start: tuple[float, float],
    facing: float,
    formation: Formation | str = Formation.LINE,
    gap: float = GAP_CM,
) -> tuple[float, float]:
    """Place units side by side, front edges on one line, starting at ``start`` (cm).

    The row runs to the units' right from ``start`` (the left end of the first front edge);
    each unit's frontage comes from its figures and formation. Artillery is unlimbered.
    Returns the point where a next unit would start.
    """
    rx, ry = right_of(facing)
    x, y = start
    for uid in unit_ids:
        u = sc.units[uid]
        form = Formation.UNLIMBERED if u.arm.value == "artillery" else Formation(formation)
        if form is Formation.COLUMN and u.figures < 6:
            form = Formation.LINE  # too small for column (digest A42)
        u = replace(u, formation=form, facing=float(facing) % 360.0)
        w = replace(u, position=(0.0, 0.0)).rect().width
        pos = (x + rx * w / 2.0, y + ry * w / 2.0)
        sc.units[uid] = replace(u, position=(round(pos[0], 2), round(pos[1], 2)))
        x, y = x + rx * (w + gap), y + ry * (w + gap)
    return (x, y)


def stage(
    sc: Scenario,
    unit_ids: Sequence[str],
    start: tuple[float, float],
    facing: float,
    length: float,
    formation: Formation | str = Formation.COLUMN,
    gap: float = GAP_CM,
) -> None:
    """Lay units out in rows of at most ``length`` cm, rows stepping forward from ``start``.

    Used for reinforcements waiting at their entry point on a table edge: the first row's
    rear edge lies on the line through ``start``, later rows stand in front of it.
    """
    fx, fy = forward(facing)
    row: list[str] = []
    used = 0.0
    depth_so_far = 0.0

    def flush(row: list[str]) -> float:
        depth = 0.0
        for uid in row:
            u = sc.units[uid]
            form = Formation.UNLIMBERED if u.arm.value == "artillery" else Formation(formation)
            if form is Formation.COLUMN and u.figures < 6:
                form = Formation.LINE
            depth = max(depth, replace(u, formation=form).rect().depth)
        origin = (start[0] + fx * (depth_so_far + depth), start[1] + fy * (depth_so_far + depth))
        deploy_row(sc, row, origin, facing, formation, gap)
        return depth

    for uid in unit_ids:
        u = sc.units[uid]
        form = Formation.UNLIMBERED if u.arm.value == "artillery" else Formation(formation)
        if form is Formation.COLUMN and u.figures < 6:
            form = Formation.LINE
        w = replace(u, formation=form).rect().width
        if row and used + w > length:
            depth_so_far += flush(row) + gap
            row, used = [], 0.0
        row.append(uid)
        used += w + gap
    if row:
        flush(row)


DIVISION_REACH_CM = 15.0
"""Division command distance of the bundled scenarios (``toe.division_command_distance_cm``)."""
CORPS_REACH_CM = 30.0
"""Corps command distance of the bundled scenarios (``toe.corps_command_distance_cm``)."""


def cover_point(shapes: Sequence[Any]) -> tuple[tuple[float, float], float]:
    """The point (cm) from which the farthest of ``shapes`` is nearest, and that distance (cm).

    Distances run to each shape's nearest point, as the engine measures command distance
    (``command_measure`` "nearest", A3). The farthest distance is a convex function of the
    point, so a grid search that narrows around its best point finds the minimum
    (deterministic; to about 0.01 cm).
    """
    from shapely.geometry import Point as SPoint
    from shapely.ops import unary_union

    x0, y0, x1, y1 = unary_union(list(shapes)).bounds
    best = ((x0 + x1) / 2.0, (y0 + y1) / 2.0)

    def worst(p: tuple[float, float]) -> float:
        q = SPoint(p)
        return max(sh.distance(q) for sh in shapes)

    span = max(x1 - x0, y1 - y0) / 2.0 + 1.0
    for _ in range(14):
        pts = [(best[0] + span * i / 5.0, best[1] + span * j / 5.0) for i in range(-5, 6) for j in range(-5, 6)]
        best = min(pts, key=lambda p: (round(worst(p), 6), p))
        span /= 2.5
    best = (round(best[0], 2), round(best[1], 2))
    return best, worst(best)


def place_commanders(sc: Scenario, roots: Iterable[str], behind: float = 6.0) -> None:
    """Put every commander at the centre of his units' footprints, ``behind`` cm to the rear.

    Works bottom-up, so a corps commander sits behind the centre of his divisions. A division
    or corps general who would not reach every subordinate from there (division
    ``DIVISION_REACH_CM``, corps ``CORPS_REACH_CM``; Torden over Europa 2.4-2.5) goes instead
    to the point that covers them best (``cover_point``), so the scenario starts with everyone
    in command wherever the deployment allows it. Positions are kept 1 cm inside the table.
    """
    from shapely.geometry import Point as SPoint

    for root in roots:
        order = [n for n, _ in sc.oob.walk(root) if n in sc.commanders]
        for cid in reversed(order):
            pts = []
            shapes = []
            facing = 90.0
            for sub in sc.oob.subordinates(cid):
                rec = sc.record(sub)
                if rec is None:
                    continue
                if sub in sc.units:
                    c = sc.units[sub].footprint().centroid
                    pts.append((c.x, c.y))
                    shapes.append(sc.units[sub].footprint())
                    facing = sc.units[sub].facing
                else:
                    pts.append(rec.position)
                    shapes.append(SPoint(rec.position))
                    facing = rec.facing
            if not pts:
                continue
            cx = sum(p[0] for p in pts) / len(pts)
            cy = sum(p[1] for p in pts) / len(pts)
            fx, fy = forward(facing)
            x = min(max(cx - fx * behind, 1.0), sc.info.table_width - 1.0)
            y = min(max(cy - fy * behind, 1.0), sc.info.table_height - 1.0)
            pos = (round(x, 2), round(y, 2))
            reach = {"division": DIVISION_REACH_CM, "corps": CORPS_REACH_CM}.get(sc.commanders[cid].echelon)
            if reach is not None and max(sh.distance(SPoint(pos)) for sh in shapes) > reach:
                pos, _ = cover_point(shapes)
            sc.commanders[cid] = replace(sc.commanders[cid], position=pos, facing=facing)


def by_name(sc: Scenario, commander_id: str, *names: str) -> list[str]:
    """Ids of the units directly under ``commander_id`` whose names are ``names``, in that order.

    Raises
    ------
    KeyError
        naming the missing unit, so a change in the data breaks the build loudly.
    """
    subs = {sc.units[u].name: u for u in sc.oob.subordinates(commander_id) if u in sc.units}
    missing = [n for n in names if n not in subs]
    if missing:
        raise KeyError(f"{commander_id}: no unit named {missing}; has {sorted(subs)}")
    return [subs[n] for n in names]


def units_under(sc: Scenario, commander_id: str) -> list[str]:
    """Ids of the units directly under ``commander_id``, in order of battle order."""
    return [u for u in sc.oob.subordinates(commander_id) if u in sc.units]


def write(scenario: Scenario, name: str) -> Path:
    """Save ``scenario`` as ``scenarios/<name>`` with ``battlestudio.store.save``."""
    from battlestudio import store
    from battlestudio.replay.battle import Battle

    out = HERE / name
    store.save(Battle(scenario), out)
    return out


def main_for(build, name: str) -> None:
    """Command-line entry of a build script: build, validate, write, report."""
    sc = build()
    problems = sc.validate_oob()
    if problems:
        for p in problems:
            print(f"OOB problem: {p}", file=sys.stderr)
        raise SystemExit(1)
    out = write(sc, name)
    print(f"wrote {out}: {len(sc.units)} units, {len(sc.commanders)} commanders")


# ----------------------------------------------------------------- stated strengths shared out

LEVEL_SHARES = {0: 8.0, 1: 4.0, 2: 2.0, 3: 1.0}
"""Shares of a leaf row by its level below the army (corps 4, division 2, brigade 1): a
corps or division with no brigade rows stands for that many brigades."""
ARM_SHARES = {"infantry": 1.0, "cavalry": 0.5}
"""Shares by arm: a cavalry brigade counts half an infantry brigade (artillery crews are not shared)."""


def _largest_remainder(total: int, weights: Sequence[float]) -> list[int]:
    """``total`` split in proportion to ``weights`` into integers that add up to it."""
    wsum = sum(weights)
    if total <= 0 or wsum <= 0:
        return [0 for _ in weights]
    raw = [total * w / wsum for w in weights]
    out = [int(r) for r in raw]
    order = sorted(range(len(raw)), key=lambda i: (-(raw[i] - out[i]), i))
    for i in order[: total - sum(out)]:
        out[i] += 1
    return out


def share_stated_strengths(
    sc: Scenario, battery_guns: dict[str, tuple[int, int]], levels: dict[str, int] | None = None
) -> list[str]:
    """Fill the units a table gives no strength with its stated totals; returns one note per step.

    For a table whose men and guns are stated on formations (the importer keeps them as the
    commanders' ``stated_men``/``stated_guns``) and only partly on the units below them:

    * men: a formation's stated men, less what its rows below state (a sub-formation with its
      own stated total counts with that total), are shared among its units with no men, by
      ``LEVEL_SHARES`` × ``ARM_SHARES`` (the level of a unit's row from ``levels``, unit id →
      0 army … 3 brigade, else its depth below the army); a formation with stated men and no
      unit to carry them gets one infantry unit named after it; where the rows below state more
      than the formation, theirs are kept;
    * guns: a formation's stated guns, less those stated below, go to the artillery units
      directly under it with no guns if it has any, else to its sub-formations in proportion to
      their men, down to the formations with no sub-formation, which get batteries (a row one
      level below the army that stands as one unit, such as a cavalry corps, takes its share
      beside the formations); an army with no stated guns gets them at its stating formations'
      guns per man. Every artillery unit with guns is then laid out as batteries of
      ``battery_guns[army]`` = (foot, horse) guns (army = the id of the top commander above it;
      horse for the guns of cavalry formations; Torden over Europa 1.3 counts batteries), its
      crews shared among them.

    Every unit given men or guns this way carries ``strength_estimated`` (how), so the scenario
    says which figures are the data's and which were shared out.
    """
    from battlestudio.model.units import Arm, Unit

    notes: list[str] = []
    roots = [r for r in sc.oob.roots() if r in sc.commanders]
    depth: dict[str, int] = {}
    for r in roots:
        for n, d in sc.oob.walk(r):
            depth[n] = d

    def stated(n: str, key: str) -> int:
        c = sc.commanders.get(n)
        return int(c.attributes.get(f"stated_{key}", 0)) if c else 0

    def mark(uid: str, how: str) -> None:
        u = sc.units[uid]
        prev = u.attributes.get("strength_estimated")
        sc.units[uid] = replace(u, attributes={**u.attributes, "strength_estimated": f"{prev}; {how}" if prev else how})

    def name(n: str) -> str:
        c = sc.commanders[n]
        return str(c.attributes.get("formation", c.name))

    # ---- men
    def men_mass(n: str) -> int:
        if n in sc.units:
            return sc.units[n].men
        inner = sum(men_mass(s) for s in sc.oob.subordinates(n))
        return max(stated(n, "men"), inner)

    def open_parts(n: str) -> tuple[list[str], list[str], int]:
        """(leaf units with no men, closed sub-formations, men known elsewhere) under ``n``."""
        leaves: list[str] = []
        closed: list[str] = []
        known = 0
        for s in sc.oob.subordinates(n):
            if s in sc.units:
                u = sc.units[s]
                if u.men == 0 and u.arm.value in ARM_SHARES:
                    leaves.append(s)
                else:
                    known += u.men
            elif stated(s, "men"):
                closed.append(s)
                known += men_mass(s)
            else:
                lv, cl, kn = open_parts(s)
                leaves, closed, known = leaves + lv, closed + cl, known + kn
        return leaves, closed, known

    def fill_men(n: str) -> None:
        leaves, closed, known = open_parts(n)
        target = stated(n, "men")
        if target:
            rest = target - known
            if rest < 0:
                notes.append(
                    f"{name(n)}: the rows below state {known:,} men, more than its {target:,}; theirs are kept"
                )
            elif leaves:
                level = levels or depth
                weights = [LEVEL_SHARES.get(level.get(u, 3), 1.0) * ARM_SHARES[sc.units[u].arm.value] for u in leaves]
                for u, m in zip(leaves, _largest_remainder(rest, weights), strict=True):
                    sc.units[u] = replace(sc.units[u], men=m)
                    mark(u, f"men: share of {name(n)}'s stated {target:,} less the {known:,} stated below it")
                notes.append(f"{name(n)}: {rest:,} of its {target:,} men shared among {len(leaves)} units with no men")
            elif rest > 0 and not closed and not any(s in sc.units for s in sc.oob.all_subordinates(n)):
                c = sc.commanders[n]
                uid = f"{n}-troops"
                sc.units[uid] = Unit(uid, name(n), c.side, c.nation, arm=Arm.INFANTRY, men=rest)
                sc.oob.add(n, uid)
                mark(uid, f"men: {name(n)}'s stated {rest:,}, all arms as one infantry unit (no rows below it)")
                notes.append(f"{name(n)}: no rows below it; its {rest:,} men made one unit")
            elif rest > 0:
                notes.append(f"{name(n)}: {rest:,} stated men that no unit below it lacks are not carried")
        for s in closed:
            fill_men(s)

    for r in roots:
        fill_men(r)

    # ---- guns
    def guns_mass(n: str) -> int:
        if n in sc.units:
            return sc.units[n].guns
        inner = sum(guns_mass(s) for s in sc.oob.subordinates(n))
        return max(stated(n, "guns"), inner)

    def empty_batteries(n: str) -> list[str]:
        return [
            s
            for s in sc.oob.subordinates(n)
            if s in sc.units and sc.units[s].arm is Arm.ARTILLERY and not sc.units[s].guns
        ]

    def give_guns(n: str, g: int, why: str) -> None:
        """Place ``g`` guns under formation ``n`` (which states none of them)."""
        if g <= 0:
            return
        bats = empty_batteries(n)
        if bats:
            for b, k in zip(bats, _largest_remainder(g, [1.0] * len(bats)), strict=True):
                sc.units[b] = replace(sc.units[b], guns=k)
                mark(b, f"guns: {why}")
            return
        subs = [s for s in sc.oob.subordinates(n) if s in sc.commanders and not stated(s, "guns")]
        # a corps-level row standing as one unit takes its share beside the formations
        lone = [
            s
            for s in sc.oob.subordinates(n)
            if s in sc.units and depth.get(s, 9) <= 1 and sc.units[s].arm.value in ARM_SHARES
        ]
        holders = subs + lone
        if not holders or all(s in sc.units for s in sc.oob.subordinates(n)) and not lone:
            _add_guns(n, g, why)
            return
        shares = _largest_remainder(g, [float(max(men_mass(s), 1)) for s in holders])
        for s, k in zip(holders, shares, strict=True):
            if s in sc.units:
                _add_guns(n, k, why, for_unit=s)
            else:
                give_guns(s, k, why)

    def _add_guns(n: str, g: int, why: str, for_unit: str | None = None) -> None:
        if g <= 0:
            return
        c = sc.commanders[n]
        under = [sc.units[s] for s in sc.oob.subordinates(n) if s in sc.units]
        label = sc.units[for_unit].name if for_unit else name(n)
        horse = (
            (sc.units[for_unit].arm is Arm.CAVALRY)
            if for_unit
            else bool(under) and all(u.arm is Arm.CAVALRY for u in under)
        )
        uid = f"{for_unit or n}-artillery"
        sc.units[uid] = Unit(
            uid,
            f"{label} artillery",
            c.side,
            c.nation,
            arm=Arm.ARTILLERY,
            guns=g,
            attributes={"gun_category": "horse" if horse else "foot"},
        )
        sc.oob.add(n, uid)
        mark(uid, f"guns: {why}")

    def fill_guns(n: str, target: int) -> None:
        subs = sc.oob.subordinates(n)
        closed = [s for s in subs if s in sc.commanders and stated(s, "guns")]
        known = sum(guns_mass(s) for s in subs if s not in closed) + sum(guns_mass(s) for s in closed)
        rest = target - known
        if rest < 0:
            notes.append(f"{name(n)}: the rows below state {known} guns, more than its {target}; theirs are kept")
        elif rest:
            notes.append(f"{name(n)}: {rest} of its {target} guns shared out below it")
            give_guns(n, rest, f"share of {name(n)}'s stated {target} guns less the {known} stated below it")
        for s in closed:
            fill_guns(s, stated(s, "guns"))

    for r in roots:
        target = stated(r, "guns")
        if not target:
            closed = [s for s in sc.oob.all_subordinates(r) if s in sc.commanders and stated(s, "guns")]
            top = [s for s in closed if not any(a in closed for a in sc.oob.chain_of_command(s)[1:])]
            g, m = sum(stated(s, "guns") for s in top), sum(men_mass(s) for s in top)
            rest_men = men_mass(r) - m
            if not m:
                continue
            target = g + round(rest_men * g / m)
            notes.append(f"{name(r)}: no stated guns; {target} at its stating formations' {g} guns per {m:,} men")
        fill_guns(r, target)

    # ---- batteries
    for uid in [u for u in sc.units if sc.units[u].arm is Arm.ARTILLERY and sc.units[u].guns > 0]:
        u = sc.units[uid]
        foot, horse = battery_guns[sc.oob.chain_of_command(uid)[-1]]
        size = horse if u.attributes.get("gun_category") == "horse" else foot
        n_bat = -(-u.guns // size)
        if n_bat <= 1:
            continue
        parent = sc.oob.superior(uid)
        guns = _largest_remainder(u.guns, [1.0] * n_bat)
        men = _largest_remainder(u.men, [1.0] * n_bat)
        sc.oob.remove(uid)
        del sc.units[uid]
        for i in range(n_bat):
            bid = f"{uid}-battery-{i + 1}"
            if bid in sc.all_ids():
                raise ValueError(f"battery id {bid} is taken")
            how = f"{u.guns} guns laid out as {n_bat} batteries of about {size}"
            prev = u.attributes.get("strength_estimated")
            sc.units[bid] = replace(
                u,
                id=bid,
                name=f"{u.name} {i + 1}/{n_bat}",
                guns=guns[i],
                men=men[i],
                attributes={**u.attributes, "strength_estimated": f"{prev}; {how}" if prev else how},
            )
            if parent:
                sc.oob.add(parent, bid)
        notes.append(f"{u.name}: {u.guns} guns laid out as {n_bat} batteries")
    return notes
