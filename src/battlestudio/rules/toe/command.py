"""Command reach and who is out of command in Torden over Europa (2.2–2.5, 3.2, 4.9).

C-in-C and army generals reach with three zones (Table 1, missing: scenario parameter
``zones_cm.<echelon>``, "60+" = open outer zone); a corps general has one command distance
(scenario ``corps_command_distance_cm``); a division general 10–20 cm. Division generals and
independent units of a corps must stay within the corps general's distance, units of a division
within the division general's; only detached or routed ones may be outside, and cavalry on an
attack outside command distance (4.9). The findings are worded in ``findings``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import shapely

from battlestudio.model.command_geometry import command_distances, within_command_many
from battlestudio.model.geometry import TINY
from battlestudio.model.units import Arm, Commander, Echelon, OrderState, Unit, footprints
from battlestudio.replay.order_events import oas_spent
from battlestudio.replay.state import GameState
from battlestudio.rules.moves import MoveCheck, MoveRequest
from battlestudio.rules.params import MissingParameterError, RuleParameters, RuleRefused
from battlestudio.rules.protocol import Budget, CommandReach, OutOfCommandFinding, ZoneBand
from battlestudio.rules.toe.common import (
    CHIEFS,
    base_of,
    bases_of,
    commander,
    corps_command_distance,
    division_command_distance,
    RatingOutOfRange,
    is_chief,
    is_detached,
    issuing_echelon,
    order_capacity,
)
from battlestudio.rules.toe.findings import Chief, chief_for, fled_state, fmt_cm, plain_finding, word_finding


def parse_zones(value: object, key: str) -> tuple[ZoneBand, ...]:
    """Table 1 zone bounds ``[z1, z2, z3]`` (cm; the last may be ``"60+"``) as three bands.

    "60+" makes zone 3 open-ended from the zone 2 bound outwards (2.2, A4).

    Raises
    ------
    RuleRefused
        naming ``key`` for anything but three increasing non-negative bounds.
    """
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise RuleRefused(
            f'scenario parameter {key} must list 3 zone bounds in cm, e.g. [20, 40, "60+"], got {value!r}'
        )
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
    return (
        ZoneBand(1, 0.0, bounds[0]),
        ZoneBand(2, bounds[0], bounds[1]),
        ZoneBand(3, bounds[1], None if open_ended else bounds[2]),
    )


def zones_for(p: RuleParameters, c: Commander) -> tuple[ZoneBand, ...]:
    """Zone bands of a C-in-C or army general (Table 1 via ``zones_cm.<echelon>``); an acting
    army chief reaches with an army general's (2.3, ``zones_cm.army``)."""
    ech = issuing_echelon(p, c)
    key, value = p.require("zones_cm", f"zones_cm.{c.nation}.{ech}", f"zones_cm.{ech}")
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
            return CommandReach(
                cid,
                "zones",
                measured_to="the receiving general's base or tactical unit's nearest point",
                unknown={"zones": exc.parameter},
                rule="2.2, 2.3, 3.2, Table 1",
            )
        return CommandReach(
            cid,
            "zones",
            zones=zones,
            measured_to="the receiving general's base or tactical unit's nearest point",
            rule="2.2, 2.3, 3.2, Table 1",
        )
    if c.echelon == Echelon.CORPS.value:
        try:
            r = corps_command_distance(p, c)
        except MissingParameterError as exc:
            return CommandReach(
                cid,
                "radius",
                measured_to="division generals and the corps' independent units",
                unknown={"corps command distance": exc.parameter},
                rule="2.4, 2.5",
            )
        return CommandReach(
            cid, "radius", radius=r, measured_to="division generals and the corps' independent units", rule="2.4, 2.5"
        )
    if c.echelon == Echelon.DIVISION.value:
        r = division_command_distance(p, c)
        default = (
            c.command_distance is None
            and p.lookup(f"division_command_distance_cm.{c.nation}") is None
            and not p.overridden("division_command_distance_cm")
        )
        assumed = (
            tuple(a for a in p.assumptions() if a.startswith("assumed division_command_distance_cm")) if default else ()
        )
        return CommandReach(
            cid,
            "radius",
            radius=r,
            measured_to="each unit of his division (nearest point)",
            secondary={"division range min": 10.0, "division range max": 20.0},
            assumed=assumed,
            rule="2.5",
        )
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


def check_command(
    state: GameState,
    p: RuleParameters,
    side: str | None = None,
    positions: dict[str, tuple[float, float]] | None = None,
) -> CommandReport:
    """Every division general and unit against its superior's command distance (2.4–2.5, 4.9).

    ``positions`` optionally moves generals (id → cm) before measuring, e.g. to see who must
    close up after a corps general's move.

    Subjects are the division generals (in the order of ``state.commanders``) then the units
    (order of ``state.units``); one not on the table, eliminated, of another ``side``, without
    a superior, or under a general with no command distance (C-in-C, army) gets no finding. A
    superior whose distance is missing gives a refusal (once per message) instead of findings.

    Cost: one pass over the subjects and one per superior (his reach, base and the parts of
    the sentences that name him); with ``command_measure`` "nearest" every (subject,
    superior) pair is measured by one vectorised ``shapely.distance``; the findings within
    command distance or that must simply move back inside are worded when their ``text`` is
    first read (``findings.LazyFinding``) and are kept: while neither the subject's record
    nor his superior's (nor the reach) changes, the next check reuses them without measuring
    (a replay step or a drag changes few records).
    """
    if positions:
        moved = dict(state.commanders)
        for cid, pos in positions.items():
            moved[cid] = moved[cid].moved(pos)
        state = state.evolve(commanders=moved)
    measure = p.get("command_measure")
    commanders, units, off = state.commanders, state.units, state.off_table
    pred = state.oob.graph._pred  # networkx's predecessor dicts: superior(n) = first key of pred[n]
    division = Echelon.DIVISION.value
    eliminated = OrderState.ELIMINATED.value
    cmd_ids = set(commanders)
    bases_of(commanders.values())  # every general's base cached, the new ones made in one call
    refusals: list[RuleRefused] = []
    chiefs: dict[str, Chief | None] = {}
    reach_memo: dict[tuple[str, str, float | None], float] = {}
    # Per included subject: id, record, chief (parallel lists, in the findings' order).
    ids: list[str] = []
    recs: list[Any] = []
    sups: list[Chief] = []
    clash = False  # some unit shares its id with a commander (lookups by id then prefer the commander)
    rec: Any
    for rec in [c for c in commanders.values() if c.echelon == division]:
        rid = rec.id
        if rid in off or (side is not None and rec.side != side):
            continue
        ps = pred.get(rid)
        if not ps:
            continue
        sup = next(iter(ps))
        if sup in off:
            continue
        chief = chiefs[sup] if sup in chiefs else _chief(state, p, sup, refusals, reach_memo, chiefs)
        if chief is None:
            continue
        ids.append(rid)
        recs.append(rec)
        sups.append(chief)  # noqa: E702
    generals = len(ids)  # the division generals come first
    for rec in units.values():
        rid = rec.id
        if rid in cmd_ids:
            clash = True
        if rid in off or (side is not None and rec.side != side) or rec.state == eliminated:
            continue
        ps = pred.get(rid)
        if not ps:
            continue
        sup = next(iter(ps))
        if sup in off:
            continue
        chief = chiefs[sup] if sup in chiefs else _chief(state, p, sup, refusals, reach_memo, chiefs)
        if chief is None:
            continue
        ids.append(rid)
        recs.append(rec)
        sups.append(chief)  # noqa: E702
    n = len(ids)
    # A plain finding (no exemption, no raid) depends only on the subject's and the superior's
    # records and the reach: measured by nearest points it is reused while both are unchanged.
    reuse = measure == "nearest" and plain_finding is not None and not clash
    known: list[OutOfCommandFinding | None] = [None] * n
    if reuse:
        get = _KNOWN.get
        for k, rec in enumerate(recs):
            hit = get(id(rec))
            if hit is not None and hit[0] is rec and hit[1] is sups[k]:
                known[k] = hit[2]
    todo = [k for k in range(n) if known[k] is None]
    ds: list[float] = [0.0] * n
    ins: list[bool] = [False] * n
    if todo:
        new_units = [recs[k] for k in todo if k >= generals]
        if clash:
            shapes = [base_of(commanders[r.id]) if r.id in cmd_ids else r.footprint() for r in new_units]
        else:
            shapes = footprints(new_units)  # the ones not cached yet in one vectorised call
        shapes[:0] = [base_of(recs[k]) for k in todo if k < generals]
        if measure == "nearest":
            dists = shapely.distance(
                np.asarray(shapes, dtype=object), np.asarray([sups[k].base for k in todo], dtype=object)
            )
            inside = (dists <= np.asarray([sups[k].reach for k in todo], dtype=float) + TINY).tolist()
            for k, d, ok in zip(todo, dists.tolist(), inside, strict=True):
                ds[k], ins[k] = d, ok
        else:  # superior by superior, as command_geometry measures one general's subordinates
            how: Literal["centre", "nearest"] = "centre" if measure == "centre" else "nearest"
            members: dict[str, list[int]] = {}
            for j, k in enumerate(todo):
                members.setdefault(sups[k].id, []).append(j)
            for js in members.values():
                chief = sups[todo[js[0]]]
                group = [shapes[j] for j in js]
                for j, d, ok in zip(
                    js,
                    command_distances(chief.base, group, how),
                    within_command_many(chief.base, group, chief.reach, measure),
                    strict=True,
                ):
                    ds[todo[j]], ins[todo[j]] = float(d), bool(ok)
    flags = state.flags
    fled: list[Any] = []  # fled_state's memo
    findings: list[OutOfCommandFinding] = []
    add = findings.append
    if len(_KNOWN) + n > 1 << 16:
        _KNOWN.clear()
    for rid, rec, chief, f, d, ok in zip(ids, recs, sups, known, ds, ins, strict=True):
        if f is not None:
            d, ok = f.distance, f.within
        if (
            plain_finding is None
            or clash
            or flags
            and ("raid:" + rid in flags or not ok and "detached:" + rid in flags)
        ):
            add(word_finding(state, p, fled, rid, rec, chief, d, ok, clash))
        elif not ok and type(rec) is Unit and rec.state == (fled[0] if fled else fled_state(p, fled)):
            add(word_finding(state, p, fled, rid, rec, chief, d, ok))
        elif f is not None:
            add(f)
        else:  # no raid, not detached, not routed: within, or must move back inside, worded when read
            f = plain_finding(rid, chief, rec.name or rid, d, ok)
            if reuse:
                _KNOWN[id(rec)] = (rec, chief, f)
            add(f)
    if clash:  # as keyed by id: both records of a shared id get the commander's finding
        found = dict(zip(ids, findings, strict=True))
        subjects = [c for c in commanders.values() if c.echelon == division] + list(units.values())
        findings = [found[rec.id] for rec in subjects if rec.id in found]
    return CommandReport(tuple(findings), tuple(refusals))


_BOUND = (Echelon.CORPS.value, Echelon.DIVISION.value)
"""Echelons whose subordinates must keep within a command distance (2.4, 2.5)."""

_KNOWN: dict[int, tuple[Any, Chief, OutOfCommandFinding]] = {}
"""Plain findings by ``id(subject record)``: (record, chief, finding); the record keeps the id taken."""


def _chief(
    state: GameState,
    p: RuleParameters,
    sup: str,
    refusals: list[RuleRefused],
    memo: dict[tuple[str, str, float | None], float],
    chiefs: dict[str, Chief | None],
) -> Chief | None:
    """``sup`` as a ``Chief`` (also stored in ``chiefs``), or None when he binds no command
    distance (C-in-C, army, unknown) or his distance is refused (noted once per message)."""
    chiefs[sup] = None
    c = state.commanders.get(sup)
    if c is None or c.echelon not in _BOUND:
        return None
    key = (c.echelon, c.nation, c.command_distance)  # what the reach depends on besides p
    reach = memo.get(key)
    if reach is None:
        try:
            found = required_reach(state, sup, p)
        except RatingOutOfRange as exc:  # reported, and his own troops measured with his rating
            if str(exc) not in {str(r) for r in refusals}:
                refusals.append(exc)
            chiefs[sup] = chief_for(c, exc.value)
            return chiefs[sup]
        except RuleRefused as exc:  # names the general, so never memoised
            if str(exc) not in {str(r) for r in refusals}:
                refusals.append(exc)
            return None
        if found is None:  # an echelon the rules bind to no distance
            return None
        memo[key] = reach = found
    chief = chiefs[sup] = chief_for(c, reach)
    return chief


def oas_budget(state: GameState, p: RuleParameters, cid: str) -> tuple[int, int, int]:
    """``(capacity, spent, left)`` order-capacity points of a chief this turn (2.12)."""
    c = commander(state, cid)
    cap = order_capacity(p, c)
    spent = oas_spent(state, cid)
    return cap, spent, cap - spent


def order_budget(state: GameState, p: RuleParameters, cid: str) -> Budget | None:
    """A chief's OAS this turn as a ``Budget`` (2.12); None for a corps or division general
    (an acting army chief has one)."""
    c = state.commanders[cid]
    if not is_chief(p, c):
        return None
    cap = order_capacity(p, c)
    spent = oas_spent(state, cid)
    return Budget("OAS", cap, spent, cap - spent)


def general_move_check(state: GameState, p: RuleParameters, req: MoveRequest) -> MoveCheck:
    """A general's drag (``req.unit`` a commander id) checked against 2.4: a general of a corps
    within the corps general's command distance "må ikke frivilligt forlade korpsgeneralens
    kommandoafstand" — he may not leave it voluntarily; measured base to base (cm). Not judged
    for a detached general (2.11), the general of cavalry only (4.9), one already outside, or a
    corps general (2.1: he may move away from his subordinates). ``allowed_cm`` is None: no
    march length binds a general. Raises ``RuleRefused`` for an unknown commander, a path of
    fewer than 2 points or a missing corps command distance."""
    c = state.commanders.get(req.unit)
    if c is None:
        raise RuleRefused(f"no general {req.unit!r} on the table")
    if len(req.path) < 2:
        raise RuleRefused(f"{c.name}: a move needs a path of at least 2 points")
    used = sum(math.dist(a, b) for a, b in zip(req.path, req.path[1:], strict=False))
    problems: list[str] = []
    sup = state.oob.superior(c.id)
    chief = state.commanders.get(sup) if sup is not None else None
    if (
        chief is not None
        and chief.echelon == Echelon.CORPS.value
        and sup not in state.off_table
        and c.echelon != Echelon.CORPS.value
        and not is_detached(state, c.id)
        and not _cavalry_only(state, c.id)
    ):
        reach = required_reach(state, chief.id, p)
        if reach is not None:
            at = base_of(chief)
            was, now = at.distance(base_of(c)), at.distance(base_of(c.moved(req.path[-1])))
            if was <= reach + TINY and now > reach + TINY:
                problems.append(
                    f"{c.name} would leave {chief.name}'s command distance ({now:.1f} cm, {reach:g} cm allowed): "
                    "generals of a corps may not leave it voluntarily (2.4 'må ikke frivilligt forlade "
                    "korpsgeneralens kommandoafstand')."
                )
    return MoveCheck(c.id, not problems, used, None, tuple(problems))


def _cavalry_only(state: GameState, cid: str) -> bool:
    """Whether every tactical unit under ``cid`` is cavalry (and he has some): 4.9's exception."""
    units = [state.units[n] for n in state.oob.all_subordinates(cid) if n in state.units]
    return bool(units) and all(u.arm is Arm.CAVALRY for u in units)


__all__ = [
    "CommandReport",
    "check_command",
    "command_reach",
    "fmt_cm",
    "general_move_check",
    "oas_budget",
    "order_budget",
    "parse_zones",
    "required_reach",
    "zones_for",
]
