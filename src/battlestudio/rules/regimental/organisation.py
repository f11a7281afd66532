"""Regimental organisation and bases (1.1-1.2): a scenario's units at the Regimental scale.

1.2: one figure is 75 men; infantry 2 bases a battalion and 4-6 bases a regiment, 5-6 figures a
base (assumed 6, ``figures_per_base``); cavalry one base of 2 figures a squadron, 4 a regiment;
a brigade is 2 regiments, a division 2 brigades or 4 regiments, a corps 2 divisions, every
brigade and division with its own general. 1.1: infantry bases 5-6 × 2 cm (assumed 6 × 2,
``base_size_cm``), skirmisher bases 2 × 2 cm, cavalry 4 × 3.5 cm; artillery bases are not in the
text (Ambiguity 1): a battery keeps the bases the scenario gives, else the rules refuse it by name.

``convert_units`` is what the ruleset switch applies (``rules.switch``): the changed units and
one note per change; nothing else in the scenario changes. ``convert_import`` is what every
import into a Regimental scenario applies (``rules.switch.conform_import``): the same conversion
of the units not yet at this scale (``SCALE``), and a brigade-sized unit split into regiments
(1.2: "2 полка любого типа составляют бригаду"; ``split_brigades``), with a warning for each unit
it cannot convert or split. Men another ruleset estimated (``men_estimated``) are not a strength:
the source's bases are counted instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from collections.abc import Iterable

from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Arm, Unit
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.common import is_skirmishers


@dataclass(frozen=True, slots=True)
class Conversion:
    """The units changed by the conversion (id → new unit) and the notes saying what and why;
    ``warnings`` name what the seed's organisation asks for and the scenario does not have."""

    units: dict[str, Unit] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def _kind(u: Unit) -> str:
    if u.arm is Arm.CAVALRY:
        return "cavalry"
    if is_skirmishers(u):
        return "skirmishers"
    return "infantry"


UNIT_STATES = ("normal", "disorganised", "withdrawing", "broken")
"""The Regimental unit states (the ruleset's ``unit`` state machine); ``normal`` is a unit's
state at the start of a game."""
SCALE = "regimental"
"""``Unit.attributes["scale"]`` of a unit this conversion made: an import leaves it as it is."""


def regimental_unit(u: Unit, p: RuleParameters) -> tuple[Unit, str]:
    """``u`` at 75 men a figure with its bases and base size (1.1-1.2), and a note; the unit
    itself and ``""`` when nothing changes (artillery, or no men and no bases to count from).
    Men marked ``men_estimated`` (another ruleset's guess from the source's bases) are replaced
    by the bases' figures × 75, and so are men not given (marked ``men_estimated`` then)."""
    if u.arm is Arm.ARTILLERY:
        return u, ""
    men_per = int(p.get("men_per_figure"))
    kind = _kind(u)
    per_base = int(p.get("figures_per_base")["cavalry" if kind == "cavalry" else "infantry"])
    size = p.get("base_size_cm")[kind]
    width, depth = float(size[0]), float(size[1])
    estimated = bool(u.attributes.get("men_estimated")) and bool(u.bases)
    attrs: dict[str, Any] = {**u.attributes, "base_size_cm": [width, depth], "scale": SCALE}
    men = u.men
    if u.men > 0 and not estimated:
        figures = max(1, round(u.men / men_per))
        how = f"{u.men} men / {men_per} = {figures} figures"
    elif u.bases:
        figures = int(u.bases) * per_base
        given = "men estimated, not given" if estimated else "no men given"
        how = f"{given}: {u.bases} base{'s' if u.bases != 1 else ''} × {per_base} figures"
        if estimated or men == 0:  # no head count: the bases' figures at the scale's men a figure
            men = figures * men_per
            attrs["men_estimated"] = True
            attrs["men_estimate"] = (
                f"{u.bases} bases × {per_base} figures (regimental figures_per_base) × {men_per} men"
            )
    else:
        return u, ""
    bases = max(1, math.ceil(figures / per_base))
    # a line is drawn in 2 ranks (model.geometry.grid_shape): a base's figures stand in 2 ranks
    fw, fd = width * 2 / per_base, depth / 2
    new = replace(u, figures=figures, bases=bases, men=men, figure_width=fw, figure_depth=fd, attributes=attrs)
    if new == u:
        return u, ""
    what = ("squadron" if kind == "cavalry" else "base") + ("s" if bases != 1 else "")
    return new, (
        f"{u.name or u.id}: {how}, {bases} {what} of {per_base} on {width:g} × {depth:g} cm (1.1-1.2; was "
        f"{u.figures} figures{'' if u.bases is None else f', {u.bases} bases'})"
    )


def _warnings(scenario: Scenario, uid: str, u: Unit, p: RuleParameters, size: bool = True) -> list[str]:
    """What the seed's organisation asks of unit ``u`` (``uid`` in ``scenario``) and it lacks
    (``size``: its bases against a regiment's too): a regiment's 4-6 bases (cavalry 4), a
    battery's bases, a brigade or divisional general above it, and for skirmishers no more bases
    than the battalions (2 bases each, 1.2) of the infantry of their formation (1.1)."""
    lo, hi = (int(v) for v in p.get("regiment_bases")["infantry"])
    cav = int(p.get("regiment_bases")["cavalry"])
    name = u.name or uid
    out: list[str] = []
    if u.arm is Arm.ARTILLERY:
        if u.bases is None:
            out.append(f"{name}: artillery bases are not in the text (Ambiguity 1): set its bases")
    elif not size:
        pass
    elif _kind(u) == "infantry" and u.bases is not None and not lo <= u.bases <= hi:
        out.append(f"{name}: {u.bases} bases, a regiment has {lo}-{hi} (1.1)")
    elif _kind(u) == "cavalry" and u.bases is not None and u.bases != cav:
        n = u.bases
        out.append(f"{name}: {n} squadron{'s' if n != 1 else ''}, a cavalry regiment has {cav} (1.2)")
    sup = scenario.oob.superior(uid)
    c = scenario.commanders.get(sup) if sup else None
    if c is None or c.echelon not in ("brigade", "division"):
        out.append(f"{name}: no brigade or divisional general above it (1.2)")
    elif _kind(u) == "skirmishers" and u.bases:
        line = [scenario.units[i] for i in scenario.oob.all_subordinates(c.id) if i in scenario.units]
        battalions = sum((v.bases or 0) // 2 for v in line if v.arm is Arm.INFANTRY and _kind(v) == "infantry")
        if u.bases > battalions:
            out.append(
                f"{name}: {u.bases} skirmisher bases, and {c.name or c.id}'s infantry has {battalions} "
                f"battalion{'s' if battalions != 1 else ''}: one base a battalion (1.1)"
            )
    return out


def convert_units(scenario: Scenario, params: RuleParameters | None = None) -> Conversion:
    """Every infantry, skirmisher and cavalry unit of ``scenario`` at the Regimental scale, with
    warnings for regiments outside 4-6 bases (cavalry 4), batteries without bases (Ambiguity 1)
    and units without a brigade or divisional general above them (1.2)."""
    p = params or RuleParameters.for_ruleset("regimental", scenario.info.parameters)
    units: dict[str, Unit] = {}
    notes: list[str] = []
    warns: list[str] = []
    for uid, u in sorted(scenario.units.items()):
        new, note = regimental_unit(u, p)
        if note:
            units[uid] = new
            notes.append(note)
        warns += _warnings(scenario, uid, new, p)
    return Conversion(units, tuple(notes), tuple(warns))


def regiment_sizes(u: Unit, p: RuleParameters) -> tuple[list[int], str]:
    """The bases of the regiments brigade-sized ``u`` splits into (1.1-1.2), and why not when
    it does not: ``([], "")`` for a unit of one regiment or less (or not infantry or cavalry).

    Infantry of more than 6 bases: the fewest regiments of 4-6 bases, the bases shared out
    evenly (7 bases fit neither one regiment nor two). Cavalry of more than 4 squadrons: whole
    regiments of 4 when the squadrons divide by 4, else kept."""
    n = u.bases or 0
    kind = _kind(u)
    if u.arm is Arm.ARTILLERY or kind == "skirmishers":
        return [], ""
    if kind == "cavalry":
        cav = int(p.get("regiment_bases")["cavalry"])
        if n <= cav:
            return [], ""
        if n % cav:
            return [], f"{n} squadrons are no whole number of {cav}-squadron regiments (1.2)"
        return [cav] * (n // cav), ""
    lo, hi = (int(v) for v in p.get("regiment_bases")["infantry"])
    if n <= hi:
        return [], ""
    k = math.ceil(n / hi)
    if n < lo * k:
        return [], f"{n} bases fit neither {k - 1} regiment{'s' if k > 2 else ''} of {lo}-{hi} bases nor {k} (1.1)"
    return [n // k + (1 if i < n % k else 0) for i in range(k)], ""


def _shares(total: int, sizes: list[int]) -> list[int]:
    """``total`` shared out in proportion to ``sizes``, the remainder to the first."""
    n = sum(sizes)
    out = [total * s // n for s in sizes]
    for i in range(total - sum(out)):
        out[i % len(out)] += 1
    return out


def _split(u: Unit, sizes: list[int], p: RuleParameters, ids: list[str]) -> list[Unit]:
    """``u`` as regiments of ``sizes`` bases with ``ids``, side by side along its front."""
    figs, men, horses = _shares(u.figures, sizes), _shares(u.men, sizes), _shares(u.horses, sizes)
    width = float(p.get("base_size_cm")[_kind(u)][0])
    along = math.radians(u.facing - 90.0)  # the front edge runs across the facing, first on the left
    ax, ay = math.cos(along), math.sin(along)
    total = width * sum(sizes)
    out: list[Unit] = []
    at = -total / 2
    for i, (uid, b) in enumerate(zip(ids, sizes, strict=True)):
        mid = at + width * b / 2
        at += width * b
        pos = (u.position[0] + ax * mid, u.position[1] + ay * mid)
        attrs = {**u.attributes, "split_from": u.id}
        name = f"{u.name or u.id} ({i + 1} of {len(sizes)})"
        out.append(
            replace(
                u,
                id=uid,
                name=name,
                bases=b,
                figures=figs[i],
                men=men[i],
                horses=horses[i],
                position=pos,
                attributes=attrs,
            )
        )
    return out


def convert_import(
    scenario: Scenario, params: RuleParameters | None = None, only: Iterable[str] | None = None
) -> tuple[Scenario, Conversion]:
    """``scenario`` (an importer's result, or records pasted) with its units at the Regimental
    scale (1.1-1.2): a copy, and what changed. Units already converted (``SCALE``) are left alone;
    ``only`` limits the work to those unit ids. A brigade-sized unit is split into regiments
    (``regiment_sizes``) that take its place under its superior, unless ``split_brigades`` is
    overridden to false or a deployment zone or reinforcement names it; each unit that cannot
    be converted or split is warned about by name; a unit in a state the Regimental rules do not
    have (Torden over Europa's order ``O``) starts ``normal``. ``Conversion.units`` holds the new and
    changed units (id → unit)."""
    p = params or RuleParameters.for_ruleset("regimental", scenario.info.parameters)
    split_on = bool(p.get("split_brigades"))
    sc = scenario.copy()
    wanted = set(scenario.units if only is None else only) & set(scenario.units)
    named = {
        getattr(r, "formation", None)
        for kind in ("deployment_zones", "reinforcements")
        for r in getattr(sc, kind).values()
    }
    used = sc.all_ids()
    units: dict[str, Unit] = {}
    notes: list[str] = []
    warns: list[str] = []
    restated: list[str] = []
    for uid in sorted(wanted):
        u = sc.units[uid]
        if u.attributes.get("scale") == SCALE:
            continue
        new, note = regimental_unit(u, p)
        if note:
            notes.append(note)
        if new.state.lower() not in UNIT_STATES:  # another ruleset's state (Torden over Europa's order 'O')
            new = replace(new, state=UNIT_STATES[0])
            restated.append(uid)
        sizes, why = regiment_sizes(new, p)
        name = new.name or uid
        if sizes and not split_on:
            sizes, why = [], f"{new.bases} bases make a brigade, and split_brigades is off"
        if sizes and uid in named:
            sizes, why = [], f"{new.bases} bases make a brigade, but a deployment zone or reinforcement names it"
        if not sizes:
            sc.units[uid] = new
            if new != u:
                units[uid] = new
            warns += [f"{name}: {why}; kept as one unit"] if why else []
            warns += _warnings(sc, uid, new, p, size=not why)
            continue
        ids = []
        for i in range(len(sizes)):
            cand, n = f"{uid}-{i + 1}", 2
            while cand in used:
                cand, n = f"{uid}-{i + 1}-{n}", n + 1
            used.add(cand)
            ids.append(cand)
        parts = _split(new, sizes, p, ids)
        sup = sc.oob.superior(uid)
        del sc.units[uid]
        sc.oob.remove(uid)
        for part in parts:
            sc.units[part.id] = part
            units[part.id] = part
            if sup is not None:
                sc.oob.add(sup, part.id)
            else:
                sc.oob.add_node(part.id)
        notes.append(
            f"{name}: {new.bases} {'squadrons' if _kind(new) == 'cavalry' else 'bases'} are a brigade (1.2: two "
            f"regiments a brigade): split into {len(sizes)} regiments of {', '.join(map(str, sizes))}"
        )
        for part in parts:
            warns += _warnings(sc, part.id, part, p)
    if restated:
        notes.append(
            f"{len(restated)} unit{'s' if len(restated) != 1 else ''} given the Regimental initial state "
            f"{UNIT_STATES[0]!r} (their state {', '.join(sorted({scenario.units[u].state for u in restated}))!r} "
            "is not a Regimental unit state)"
        )
    return sc, Conversion(units, tuple(notes), tuple(warns))
