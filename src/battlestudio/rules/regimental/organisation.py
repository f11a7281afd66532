"""Regimental organisation and bases (1.1-1.2): a scenario's units at the Regimental scale.

1.2: one figure is 75 men; infantry 2 bases a battalion and 4-6 bases a regiment, 5-6 figures a
base (assumed 6, ``figures_per_base``); cavalry one base of 2 figures a squadron, 4 a regiment;
a brigade is 2 regiments, a division 2 brigades or 4 regiments, a corps 2 divisions, every
brigade and division with its own general. 1.1: infantry bases 5-6 × 2 cm (assumed 6 × 2,
``base_size_cm``), skirmisher bases 2 × 2 cm, cavalry 4 × 3.5 cm; artillery bases are not in the
text (Ambiguity 1): a battery keeps the bases the scenario gives, else the rules refuse it by name.

``convert_units`` is what the ruleset switch applies (``rules.switch``): the changed units and
one note per change; nothing else in the scenario changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

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


def regimental_unit(u: Unit, p: RuleParameters) -> tuple[Unit, str]:
    """``u`` at 75 men a figure with its bases and base size (1.1-1.2), and a note; the unit
    itself and ``""`` when nothing changes (artillery, or no men and no bases to count from)."""
    if u.arm is Arm.ARTILLERY:
        return u, ""
    men_per = int(p.get("men_per_figure"))
    kind = _kind(u)
    per_base = int(p.get("figures_per_base")["cavalry" if kind == "cavalry" else "infantry"])
    size = p.get("base_size_cm")[kind]
    width, depth = float(size[0]), float(size[1])
    if u.men > 0:
        figures = max(1, round(u.men / men_per))
        how = f"{u.men} men / {men_per} = {figures} figures"
    elif u.bases:
        figures = int(u.bases) * per_base
        how = f"no men given: {u.bases} bases × {per_base} figures"
    else:
        return u, ""
    bases = max(1, math.ceil(figures / per_base))
    attrs: dict[str, Any] = {**u.attributes, "base_size_cm": [width, depth]}
    # a line is drawn in 2 ranks (model.geometry.grid_shape): a base's figures stand in 2 ranks
    fw, fd = width * 2 / per_base, depth / 2
    new = replace(u, figures=figures, bases=bases, figure_width=fw, figure_depth=fd, attributes=attrs)
    if new == u:
        return u, ""
    what = "squadrons" if kind == "cavalry" else "bases"
    return new, (
        f"{u.name or u.id}: {how}, {bases} {what} of {per_base} on {width:g} × {depth:g} cm (1.1-1.2; was "
        f"{u.figures} figures{'' if u.bases is None else f', {u.bases} bases'})"
    )


def convert_units(scenario: Scenario, params: RuleParameters | None = None) -> Conversion:
    """Every infantry, skirmisher and cavalry unit of ``scenario`` at the Regimental scale, with
    warnings for regiments outside 4-6 bases (cavalry 4), batteries without bases (Ambiguity 1)
    and units without a brigade or divisional general above them (1.2)."""
    p = params or RuleParameters.for_ruleset("regimental", scenario.info.parameters)
    units: dict[str, Unit] = {}
    notes: list[str] = []
    warns: list[str] = []
    lo, hi = (int(v) for v in p.get("regiment_bases")["infantry"])
    cav = int(p.get("regiment_bases")["cavalry"])
    for uid, u in sorted(scenario.units.items()):
        new, note = regimental_unit(u, p)
        if note:
            units[uid] = new
            notes.append(note)
        if new.arm is Arm.ARTILLERY:
            if new.bases is None:
                warns.append(f"{u.name or uid}: artillery bases are not in the text (Ambiguity 1): set its bases")
        elif _kind(new) == "infantry" and new.bases is not None and not lo <= new.bases <= hi:
            warns.append(f"{u.name or uid}: {new.bases} bases, a regiment has {lo}-{hi} (1.1)")
        elif _kind(new) == "cavalry" and new.bases is not None and new.bases != cav:
            n = new.bases
            warns.append(f"{u.name or uid}: {n} squadron{'s' if n != 1 else ''}, a cavalry regiment has {cav} (1.2)")
        sup = scenario.oob.superior(uid)
        c = scenario.commanders.get(sup) if sup else None
        if c is None or c.echelon not in ("brigade", "division"):
            warns.append(f"{u.name or uid}: no brigade or divisional general above it (1.2)")
    return Conversion(units, tuple(notes), tuple(warns))
