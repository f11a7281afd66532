"""What ``battlestudio check`` reports about a loaded battle: problems a file can hold even
though every value in it has the right type.

Checks: empty ids and ids shared by two records; the order of battle
(``Scenario.validate_oob``); references to sides, commanders and units that do not exist
(orders, reinforcements, deployment zones, objectives, units, commanders); units and
commanders off the table (except those of a reinforcement, which wait off-table); reinforcement
windows and probabilities; invalid or empty geometries; overlapping town zones (Torden over
Europa 4.8: a town zone is a separate area); a ruleset that is not installed, and unit states
its ruleset has no name for (warnings: the file still opens); the game log, replayed from the
start, up to its first event that cannot apply. Each problem says what is wrong and where.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from shapely import STRtree
from shapely.geometry import Point
from shapely.validation import explain_validity

from battlestudio.model.geometry import EPS
from battlestudio.model.scenario import Scenario
from battlestudio.replay.battle import Battle

MIN_OVERLAP_CM2 = EPS * EPS
"""Town zones sharing less than this area (cm²) only touch."""

CONTAINERS = ("sides", "units", "commanders", "terrain", "towns", "objectives", "deployment_zones",
              "reinforcements", "orders")


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: ``what`` is wrong, ``where`` in the document (e.g. ``orders['o-1'].issuer``)."""

    what: str
    where: str

    def __str__(self) -> str:
        return f"{self.what}: {self.where}"


def check_battle(battle: Battle) -> list[Problem]:
    """Every problem found in ``battle``'s scenario, in a stable order (empty = fine)."""
    s = battle.scenario
    out: list[Problem] = []
    out += _ids(s)
    out += [Problem(p.message, "oob" + (f" ({', '.join(p.ids)})" if p.ids else "")) for p in s.validate_oob()]
    out += _references(s)
    out += _off_table(s)
    out += _empty_units(s)
    out += _geometries(s)
    out += _town_overlaps(s)
    if s.info.table_width <= 0 or s.info.table_height <= 0:
        out.append(Problem(f"table size {s.info.table_width} × {s.info.table_height} cm is not positive", "info"))
    if s.info.turns < 1:
        out.append(Problem(f"the scenario lasts {s.info.turns} turns", "info.turns"))
    out += _game_log(battle)
    return out


def ruleset_problems(s: Scenario) -> list[Problem]:
    """Terms the scenario's ruleset does not know: a ruleset id that is not installed, unit
    states its unit state machine has no name for. These are warnings for ``battlestudio
    check``; the file still opens (a third-party ruleset's files, a state a later version
    names)."""
    return list(_ruleset_terms(s))


def _ruleset_terms(s: Scenario) -> Iterable[Problem]:
    from battlestudio.rules import RuleRefused, available_rulesets, resolve_ruleset_id

    try:
        installed = available_rulesets()
    except RuleRefused as exc:
        yield Problem(f"the installed rulesets cannot be listed: {exc}", "info.ruleset")
        return
    rid = resolve_ruleset_id(s.info.ruleset)
    if rid not in installed:
        known = ", ".join(sorted(installed)) or "none"
        yield Problem(f"ruleset {rid!r} is not installed (known: {known})", "info.ruleset")
        return
    rs = installed[rid]
    yield from _qualities(s, rid)
    machine = next((m for m in rs.describe().state_machines if m.id.startswith("unit")), None)
    if machine is None:
        return
    states = {x.lower() for x in machine.states} | {str(k).lower() for k in getattr(rs, "state_aliases", {})}
    for uid in sorted(s.units):
        state = s.units[uid].state
        if state and state.lower() not in states:
            yield Problem(f"state {state!r} is not a unit state of ruleset {rid!r} "
                          f"(known: {', '.join(sorted(machine.states))})", f"units[{uid!r}].state")


def _qualities(s: Scenario, rid: str) -> Iterable[Problem]:
    """Unit qualities the ruleset's ``quality_aliases`` (e.g. General d'Armée's grades) do not
    map; a ruleset without that parameter takes any quality."""
    from battlestudio.rules import RuleParameters

    try:
        aliases = RuleParameters.for_ruleset(rid, s.info.parameters).get("quality_aliases")
    except Exception:  # noqa: BLE001 - no parameter file, no such entry, an unset entry: nothing to check
        return
    if not isinstance(aliases, dict) or not aliases:
        return
    known = {str(k).lower() for k in aliases}
    for uid in sorted(s.units):
        quality = s.units[uid].quality
        if quality and quality.lower() not in known:
            yield Problem(f"quality {quality!r} is not a quality of ruleset {rid!r} "
                          f"(known: {', '.join(sorted(known))}; rules.quality_aliases)", f"units[{uid!r}].quality")


def _game_log(battle: Battle) -> Iterable[Problem]:
    """The recorded game replayed from the start; its first event that cannot apply."""
    if not battle.events:
        return
    from battlestudio.replay.game import GameLog

    try:
        GameLog.from_battle(battle)
    except ValueError as exc:
        yield Problem(" ".join(str(exc).split()), "events")


def _ids(s: Scenario) -> Iterable[Problem]:
    owner: dict[str, str] = {}
    for key in CONTAINERS:
        for rid, rec in getattr(s, key).items():
            if not rid.strip():
                yield Problem("empty id", f"{key}[{rid!r}]")
            if getattr(rec, "id", rid) != rid:
                yield Problem(f"stored under {rid!r} but its id is {rec.id!r}", f"{key}[{rid!r}]")
            if rid in owner:
                yield Problem(f"id {rid!r} is used by both {owner[rid]} and {key}", f"{key}[{rid!r}]")
            else:
                owner[rid] = key


def _references(s: Scenario) -> Iterable[Problem]:
    def need(ok: bool, what: str, where: str) -> Iterable[Problem]:
        return () if ok else (Problem(what, where),)

    sides, cmd, units = s.sides, s.commanders, s.units
    for key in ("units", "commanders", "deployment_zones", "reinforcements", "objectives"):
        for rid, rec in getattr(s, key).items():
            if rec.side or key != "objectives":
                yield from need(rec.side in sides, f"unknown side {rec.side!r}", f"{key}[{rid!r}].side")
    for oid, o in s.orders.items():
        yield from need(o.issuer in cmd, f"issuer {o.issuer!r} is not a commander", f"orders[{oid!r}].issuer")
        yield from need(o.recipient in cmd or o.recipient in units,
                        f"recipient {o.recipient!r} is not a commander or unit", f"orders[{oid!r}].recipient")
    for rid, r in s.reinforcements.items():
        where = f"reinforcements[{rid!r}]"
        yield from need(r.formation in cmd or r.formation in units,
                        f"formation {r.formation!r} is not a commander or unit", f"{where}.formation")
        yield from need(1 <= r.earliest_turn <= r.latest_turn,
                        f"arrival window turns {r.earliest_turn}–{r.latest_turn} is empty or before turn 1", f"{where}.earliest_turn")
        yield from need(0.0 <= r.probability <= 1.0, f"probability {r.probability} is not between 0 and 1", f"{where}.probability")
        yield from need(s.table().covers(Point(r.entry_point)), f"entry point {r.entry_point} is off the table", f"{where}.entry_point")
    for zid, z in s.deployment_zones.items():
        if z.formation:
            yield from need(z.formation in cmd, f"formation {z.formation!r} is not a commander", f"deployment_zones[{zid!r}].formation")


def _off_table(s: Scenario) -> Iterable[Problem]:
    table = s.table()
    waiting: set[str] = set()
    for r in s.reinforcements.values():
        waiting.add(r.formation)
        waiting.update(s.oob.all_subordinates(r.formation))
    for key in ("units", "commanders"):
        for rid, rec in getattr(s, key).items():
            if rid not in waiting and not table.covers(Point(rec.position)):
                w, h = s.info.table_width, s.info.table_height
                yield Problem(f"off the table ({rec.position[0]:g}, {rec.position[1]:g} cm; table is {w:g} × {h:g} cm)",
                              f"{key}[{rid!r}].position")


def _empty_units(s: Scenario) -> Iterable[Problem]:
    """Units with no men, no figures, no bases and no guns: nothing to put on the table (an import
    from a source that gave no strength for them)."""
    for uid in sorted(s.units):
        u = s.units[uid]
        if u.men == 0 and u.figures == 0 and not u.bases and u.guns == 0:
            yield Problem("unit with 0 men and 0 figures (no strength given)", f"units[{uid!r}].men")


def _geometries(s: Scenario) -> Iterable[Problem]:
    shapes: list[tuple[str, Any]] = []
    shapes += [(f"terrain[{i!r}].geometry", t.geometry) for i, t in s.terrain.items()]
    shapes += [(f"towns[{i!r}].polygon", t.polygon) for i, t in s.towns.items()]
    shapes += [(f"objectives[{i!r}].geometry", o.geometry) for i, o in s.objectives.items()]
    shapes += [(f"deployment_zones[{i!r}].polygon", z.polygon) for i, z in s.deployment_zones.items()]
    for where, geom in shapes:
        if geom.is_empty:
            yield Problem(f"empty {geom.geom_type}", where)
        elif not geom.is_valid:
            yield Problem(f"invalid {geom.geom_type}: {explain_validity(geom)}", where)


def _town_overlaps(s: Scenario) -> Iterable[Problem]:
    ids = sorted(i for i, t in s.towns.items() if t.polygon.is_valid and not t.polygon.is_empty)
    polys = [s.towns[i].polygon for i in ids]
    if len(polys) < 2:
        return
    tree = STRtree(polys)
    for a, b in zip(*tree.query(polys, predicate="intersects")):
        if a < b:
            area = polys[a].intersection(polys[b]).area
            if area > MIN_OVERLAP_CM2:
                yield Problem(f"town zones {ids[a]!r} and {ids[b]!r} overlap by {area:.1f} cm²", f"towns[{ids[a]!r}].polygon")
