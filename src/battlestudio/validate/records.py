"""Checks of a scenario's records as data: ids, references between records, the table and the
number of turns, reinforcement windows, unit strengths.

Every check returns ``Problem`` records naming the field (``orders['o-1'].issuer``) and its value.
"""

from __future__ import annotations

from collections.abc import Iterable

from battlestudio.model.formations import arm_formation_problem
from battlestudio.model.scenario import Scenario
from battlestudio.validate.problem import Problem, error, warning

CONTAINERS = (
    "sides",
    "units",
    "commanders",
    "terrain",
    "towns",
    "objectives",
    "deployment_zones",
    "reinforcements",
    "orders",
)
"""The scenario's record containers, keyed by id; an id is unique across all of them."""

EDGE_CM = 1.0
"""A reinforcement's entry point within this distance (cm) of a table edge is on that edge."""


def ids(s: Scenario) -> Iterable[Problem]:
    """Empty ids, records stored under another id, ids used by two records."""
    owner: dict[str, str] = {}
    for key in CONTAINERS:
        for rid, rec in getattr(s, key).items():
            where = f"{key}[{rid!r}]"
            if not rid.strip():
                yield error("id.empty", f"{where}: the id is empty", rid)
            if getattr(rec, "id", rid) != rid:
                yield error("id.mismatch", f"{where}.id: {rec.id!r}, but the record is stored under {rid!r}", rid)
            if rid in owner:
                yield error("id.duplicate", f"{where}: id {rid!r} is also used in {owner[rid]}", rid)
            else:
                owner[rid] = key


def references(s: Scenario) -> Iterable[Problem]:
    """Sides, commanders and units named by a record that do not exist."""
    sides, cmd, units = s.sides, s.commanders, s.units
    for key, kind in (
        ("units", "unit"),
        ("commanders", "commander"),
        ("deployment_zones", "deployment_zone"),
        ("reinforcements", "reinforcement"),
        ("objectives", "objective"),
    ):
        for rid, rec in getattr(s, key).items():
            if (rec.side or key != "objectives") and rec.side not in sides:
                yield error(f"{kind}.unknown_side", f"{key}[{rid!r}].side: side {rec.side!r} does not exist", rid)
    for oid, o in s.orders.items():
        if o.issuer not in cmd:
            yield error("order.unknown_issuer", f"orders[{oid!r}].issuer: commander {o.issuer!r} does not exist", oid)
        if o.recipient not in cmd and o.recipient not in units:
            yield error(
                "order.unknown_recipient",
                f"orders[{oid!r}].recipient: no commander or unit {o.recipient!r} exists",
                oid,
            )
    for rid, r in s.reinforcements.items():
        if r.formation not in cmd and r.formation not in units:
            yield error(
                "reinforcement.unknown_formation",
                f"reinforcements[{rid!r}].formation: no commander or unit {r.formation!r} exists",
                rid,
            )
    for zid, z in s.deployment_zones.items():
        if z.formation and z.formation not in cmd:
            yield error(
                "deployment_zone.unknown_formation",
                f"deployment_zones[{zid!r}].formation: commander {z.formation!r} does not exist",
                zid,
            )


def info(s: Scenario) -> Iterable[Problem]:
    """The table size and the number of turns."""
    w, h = s.info.table_width, s.info.table_height
    if w <= 0 or h <= 0:
        yield error("table.size", f"info.table_width × table_height: {w:g} × {h:g} cm is not a table")
    if s.info.turns < 1:
        yield error("info.turns", f"info.turns: {s.info.turns}; a scenario lasts at least 1 turn")


def reinforcements(s: Scenario) -> Iterable[Problem]:
    """Arrival windows, probabilities and entry points: on the table (error), on one of its
    edges (warning), and an arrival before the last turn (warning: it never comes)."""
    w, h = s.info.table_width, s.info.table_height
    for rid, r in s.reinforcements.items():
        where = f"reinforcements[{rid!r}]"
        if not 1 <= r.earliest_turn <= r.latest_turn:
            yield error(
                "reinforcement.window",
                f"{where}.earliest_turn: turns {r.earliest_turn}–{r.latest_turn} is empty or starts before turn 1",
                rid,
            )
        elif r.earliest_turn > s.info.turns:
            yield warning(
                "reinforcement.after_last_turn",
                f"{where}.earliest_turn: {r.earliest_turn}, after the last turn ({s.info.turns}); it never arrives",
                rid,
            )
        if not 0.0 <= r.probability <= 1.0:
            yield error(
                "reinforcement.probability", f"{where}.probability: {r.probability:g} is not between 0 and 1", rid
            )
        x, y = r.entry_point
        if not (0.0 <= x <= w and 0.0 <= y <= h):
            yield error(
                "reinforcement.entry_off_table",
                f"{where}.entry_point: ({x:g}, {y:g}) cm is off the {w:g} × {h:g} cm table",
                rid,
            )
        elif min(x, y, w - x, h - y) > EDGE_CM:
            yield warning(
                "reinforcement.entry_not_on_edge",
                f"{where}.entry_point: ({x:g}, {y:g}) cm is {min(x, y, w - x, h - y):g} cm from the nearest table edge",
                rid,
            )


def unit_strengths(s: Scenario) -> Iterable[Problem]:
    """Units with nothing to put on the table (no men, figures, bases or guns: an import that gave
    no strength), and units counted in bases but with no figures (their footprint is a point)."""
    for uid in sorted(s.units):
        u = s.units[uid]
        if u.figures != 0:
            continue
        if u.bases:
            yield error(
                "unit.bases_without_figures",
                f"units[{uid!r}].figures: 0, but the unit has {u.bases} bases ({u.name})",
                uid,
            )
        elif u.men == 0 and u.guns == 0:
            yield error(
                "unit.no_strength",
                f"units[{uid!r}].men: 0, with 0 figures and no guns ({u.name}): no strength given",
                uid,
            )


def formations(s: Scenario) -> Iterable[Problem]:
    """Units in a formation their arm cannot take (a square of guns, limbered infantry)."""
    for uid in sorted(s.units):
        u = s.units[uid]
        why = arm_formation_problem(u.arm, u.formation)
        if why is not None:
            yield error(
                "unit.formation_arm", f"units[{uid!r}].formation: {u.formation.value!r} — {why} ({u.name})", uid
            )
