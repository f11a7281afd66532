"""Command reach and who is out of command in Torden over Europa (2.2–2.5, 3.2, 4.9).

C-in-C and army generals reach with three zones (Table 1, missing: scenario parameter
``zones_cm.<echelon>``, "60+" = open outer zone); a corps general has one command distance
(scenario ``corps_command_distance_cm``); a division general 10–20 cm. Division generals and
independent units of a corps must stay within the corps general's distance, units of a division
within the division general's; only detached or routed ones may be outside, and cavalry on an
attack outside command distance (4.9).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from battlestudio.model.command_geometry import command_distances, within_command_many
from battlestudio.model.geometry import TINY
from battlestudio.model.units import Arm, Commander, Echelon
from battlestudio.replay.order_events import oas_spent
from battlestudio.replay.state import GameState
from battlestudio.rules.params import MissingParameterError, RuleParameters, RuleRefused
from battlestudio.rules.protocol import CommandReach, OutOfCommandFinding, ZoneBand
from battlestudio.rules.toe.common import (
    CHIEFS, base_of, commander, corps_command_distance, division_command_distance, is_detached, is_fled,
    name_of, order_capacity, shape_of,
)


def fmt_cm(d: float) -> str:
    """A distance in cm for text: up to two decimals, no trailing zeros (15, 15.01)."""
    return f"{d:.2f}".rstrip("0").rstrip(".")


def parse_zones(value: object, key: str) -> tuple[ZoneBand, ...]:
    """Table 1 zone bounds ``[z1, z2, z3]`` (cm; the last may be ``"60+"``) as three bands.

    "60+" makes zone 3 open-ended from the zone 2 bound outwards (2.2, A4).

    Raises
    ------
    RuleRefused
        naming ``key`` for anything but three increasing non-negative bounds.
    """
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise RuleRefused(f"scenario parameter {key} must list 3 zone bounds in cm, e.g. [20, 40, \"60+\"], got {value!r}")
    bounds: list[float] = []
    open_ended = False
    for i, v in enumerate(value):
        text = str(v).strip()
        if text.endswith("+"):
            if i != 2:
                raise RuleRefused(f"scenario parameter {key}: only zone 3 may be open-ended ('+'), got {value!r}")
            open_ended, text = True, text[:-1]
        try:
            bounds.append(float(text))
        except ValueError:
            raise RuleRefused(f"scenario parameter {key}: zone bound {v!r} is not a number of cm") from None
    if bounds[0] < 0 or not bounds[0] < bounds[1] < bounds[2]:
        raise RuleRefused(f"scenario parameter {key}: zone bounds must increase from >= 0 cm, got {value!r}")
    return (ZoneBand(1, 0.0, bounds[0]), ZoneBand(2, bounds[0], bounds[1]),
            ZoneBand(3, bounds[1], None if open_ended else bounds[2]))


def zones_for(p: RuleParameters, c: Commander) -> tuple[ZoneBand, ...]:
    """Zone bands of a C-in-C or army general (Table 1 via ``zones_cm.<echelon>``)."""
    key, value = p.require("zones_cm", f"zones_cm.{c.nation}.{c.echelon}", f"zones_cm.{c.echelon}")
    return parse_zones(value, key)


def command_reach(state: GameState, cid: str, p: RuleParameters) -> CommandReach:
    """What a commander reaches and how (Protocol method 2; 2.2–2.5, 3.2).

    Unknown values are reported in ``unknown`` (value → scenario parameter) instead of raising.
    """
    c = commander(state, cid)
    if c.echelon in CHIEFS:
        try:
            zones = zones_for(p, c)
        except MissingParameterError as exc:
            return CommandReach(cid, "zones", measured_to="the receiving general's base or tactical unit's nearest point",
                                unknown={"zones": exc.parameter}, rule="2.2, 2.3, 3.2, Table 1")
        return CommandReach(cid, "zones", zones=zones,
                            measured_to="the receiving general's base or tactical unit's nearest point",
                            rule="2.2, 2.3, 3.2, Table 1")
    if c.echelon == Echelon.CORPS.value:
        try:
            r = corps_command_distance(p, c)
        except MissingParameterError as exc:
            return CommandReach(cid, "radius", measured_to="division generals and the corps' independent units",
                                unknown={"corps command distance": exc.parameter}, rule="2.4, 2.5")
        return CommandReach(cid, "radius", radius=r, measured_to="division generals and the corps' independent units",
                            rule="2.4, 2.5")
    if c.echelon == Echelon.DIVISION.value:
        r = division_command_distance(p, c)
        default = c.command_distance is None and p.lookup(f"division_command_distance_cm.{c.nation}") is None \
            and not p.overridden("division_command_distance_cm")
        assumed = tuple(a for a in p.assumptions() if a.startswith("assumed division_command_distance_cm")) \
            if default else ()
        return CommandReach(cid, "radius", radius=r, measured_to="each unit of his division (nearest point)",
                            secondary={"division range min": 10.0, "division range max": 20.0},
                            assumed=assumed, rule="2.5")
    return CommandReach(cid, "none", rule="1.4")


def required_reach(state: GameState, superior: str, p: RuleParameters) -> float | None:
    """The command distance a subordinate of ``superior`` must keep, or None when the rules
    bind it to none (subordinates of a C-in-C or army general receive orders instead)."""
    c = state.commanders.get(superior)
    if c is None:
        return None
    if c.echelon == Echelon.CORPS.value:
        return corps_command_distance(p, c)
    if c.echelon == Echelon.DIVISION.value:
        return division_command_distance(p, c)
    return None


@dataclass(frozen=True, slots=True)
class CommandReport:
    """Findings for every subject checked, plus the refusals (one per distinct message) of the
    subjects whose command distance is missing."""

    findings: tuple[OutOfCommandFinding, ...]
    refusals: tuple[RuleRefused, ...]


def check_command(state: GameState, p: RuleParameters, side: str | None = None,
                  positions: dict[str, tuple[float, float]] | None = None) -> CommandReport:
    """Every division general and unit against its superior's command distance (2.4–2.5, 4.9).

    ``positions`` optionally moves generals (id → cm) before measuring, e.g. to see who must
    close up after a corps general's move.
    """
    if positions:
        commanders = dict(state.commanders)
        for cid, pos in positions.items():
            commanders[cid] = commanders[cid].moved(pos)
        state = state.evolve(commanders=commanders)
    measure = p.get("command_measure")
    how = "centre" if measure == "centre" else "nearest"
    refusals: list[RuleRefused] = []
    subjects = [c for c in state.commanders.values() if c.echelon == Echelon.DIVISION.value]
    subjects += list(state.units.values())
    # Measured superior by superior, every subordinate at once (one vectorised distance per
    # general): the same numbers as one at a time, ~10x faster on a thousand units.
    groups: dict[str, list[str]] = {}
    for rec in subjects:
        if rec.id in state.off_table or (side is not None and rec.side != side):
            continue
        if getattr(rec, "state", "") == "eliminated":
            continue
        sup = state.oob.superior(rec.id)
        if sup is None or sup in state.off_table:
            continue
        groups.setdefault(sup, []).append(rec.id)
    measured: list[tuple[str, float, Any, list[str], list[Any]]] = []  # superior, reach, base, nodes, shapes
    for sup, nodes in groups.items():
        try:
            reach = required_reach(state, sup, p)
        except RuleRefused as exc:
            if str(exc) not in {str(r) for r in refusals}:
                refusals.append(exc)
            continue
        if reach is not None:
            measured.append((sup, reach, base_of(state.commanders[sup]), nodes, [shape_of(state, n) for n in nodes]))
    found: dict[str, OutOfCommandFinding] = {}
    if measure == "nearest" and measured:  # every pair in one vectorised call
        shapes = np.asarray([g for m in measured for g in m[4]], dtype=object)
        bases = np.asarray([m[2] for m in measured for _ in m[3]], dtype=object)
        reaches = np.asarray([m[1] for m in measured for _ in m[3]], dtype=float)
        dists = shapely.distance(shapes, bases)
        inside = dists <= reaches + TINY
        k = 0
        for sup, reach, _, nodes, _ in measured:
            for node in nodes:
                found[node] = _finding(state, p, node, sup, float(dists[k]), reach, bool(inside[k]))
                k += 1
    else:
        for sup, reach, base, nodes, shapes in measured:
            ds = command_distances(base, shapes, how)
            ins = within_command_many(base, shapes, reach, measure)
            for node, d, ok in zip(nodes, ds, ins):
                found[node] = _finding(state, p, node, sup, float(d), reach, bool(ok))
    findings = [found[rec.id] for rec in subjects if rec.id in found]
    return CommandReport(tuple(findings), tuple(refusals))


def _finding(state: GameState, p: RuleParameters, node: str, sup: str, d: float, reach: float,
             inside: bool) -> OutOfCommandFinding:
    who, chief = name_of(state, node), name_of(state, sup)
    raid = state.flags.get(f"raid:{node}")
    exemption, consequence, rule = "", "", "2.4, 2.5"
    if inside:
        text = f"{who} is within {chief}'s command distance ({fmt_cm(d)} ≤ {reach:g} cm)"
        if raid:
            consequence, rule = "back-in-command", "4.9"
            text += "; back in command after its attack outside command distance (4.9)"
        return OutOfCommandFinding(node, sup, d, reach, True, "", consequence, text, rule)
    unit = state.units.get(node)
    if is_detached(state, node):
        exemption = "detached"
        text = f"{who} is {fmt_cm(d)} cm from {chief} (command distance {reach:g} cm) but detached (2.4, 2.11)"
    elif unit is not None and is_fled(unit, p):
        exemption = "fled"
        text = f"{who} is {fmt_cm(d)} cm from {chief} (command distance {reach:g} cm) but routed (2.4)"
    elif unit is not None and unit.arm == Arm.CAVALRY and raid and not raid.get("returning"):
        exemption, rule = "cavalry-attack", "4.9"
        text = (f"{who} is {fmt_cm(d)} cm from {chief} (command distance {reach:g} cm) on an attack outside command "
                f"distance since turn {raid.get('left_turn')}: it must attack at least one enemy unit each turn (4.9)")
    elif unit is not None and raid:
        consequence, rule = "must-return-facing-chief", "4.9"
        text = (f"{who} is {fmt_cm(d)} cm from {chief} (command distance {reach:g} cm) and no longer attacking: it must "
                f"move at once towards {chief}'s command distance, facing him (4.9)")
    else:
        consequence = "must-return"
        text = (f"{who} is {fmt_cm(d)} cm from {chief}, outside his command distance of {reach:g} cm: it must move back "
                f"inside in its movement phase, changing to a faster formation if that gets it there, and if terrain "
                f"prevents it make its maximum move towards him (2.4, 2.5, 2.7)")
    return OutOfCommandFinding(node, sup, d, reach, False, exemption, consequence, text, rule)


def oas_budget(state: GameState, p: RuleParameters, cid: str) -> tuple[int, int, int]:
    """``(capacity, spent, left)`` order-capacity points of a chief this turn (2.12)."""
    c = commander(state, cid)
    cap = order_capacity(p, c)
    spent = oas_spent(state, cid)
    return cap, spent, cap - spent
