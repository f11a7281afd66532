"""From historical strengths to Torden over Europa's table scale.

Owns the conversions of Torden over Europa 1.1 and 1.3 (digest §2 and §4):

* ground: 1 m on the table is 3 km of ground, 30 m per table cm (1.1, ``ground_scale_m_per_cm``
  in toe.toml): ``table_cm`` of a real distance, ``ground_distance_cm`` between two places;
* figures from men: ≈ 100 men per infantry figure, ≈ 80 per cavalry figure (1.1);
* gun models from batteries and real guns: one third of the batteries of each gun category
  (12-pounder, horse, other foot) of a corps or army, counted with ordinary rounding, and at most
  24 real guns per gun model (1.3, worked example: 3 French batteries of 12 guns = 36 guns →
  2 gun models of 6 pieces each; digest A40 for the reading);
* echelons: the source's echelons mapped onto Figure 1 (a Prussian brigade acts as a division,
  its regiments as brigades, 1.3; the seed gives no period, ``PRUSSIAN_BRIGADE_YEARS``);
* footprints: figure frontage and depth per arm, so ``Unit.rect()`` gives the footprint.

Base sizes (Table 12 / Appendix 1) are missing from the seed: the per-arm figure sizes used here
are placeholders recorded as scenario parameters, never silent rule values.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any
from collections.abc import Mapping

from battlestudio.model.scenario import Scenario, ScenarioInfo
from battlestudio.model.units import DEFAULT_FIGURE_SIZE, Arm, Echelon, Formation, Subtype, Unit

MEN_PER_INFANTRY_FIGURE = 100
"""Torden over Europa 1.1: an infantry figure is about 100 men."""
MEN_PER_CAVALRY_FIGURE = 80
"""Torden over Europa 1.1: a cavalry figure is about 80 men."""
FIGURES_PER_BASE: dict[str, int] = {"infantry": 6, "cavalry": 3}
"""Placeholder figures per republique5 base, by arm, for sources that give bases but no men.
A republique5 base is "roughly a battalion/regiment-sized block" (shared/data/oob/SOURCES.md §2;
``13eme Legere - 3 bases`` is the three field battalions of the 13e Léger): an infantry base is
taken as a battalion of about 600 men (6 figures of 100), a cavalry base as two squadrons of
about 240 (3 figures of 80). Written as ``toe.placeholder.figures_per_base.<arm>``."""
MAX_REAL_GUNS_PER_MODEL = 24
"""Torden over Europa 1.3: a gun model represents at most 24 real guns."""
BATTERY_FRACTION = 1 / 3
"""Torden over Europa 1.3: one third of all batteries is represented on the table."""

GUN_CATEGORIES = ("12pdr", "horse", "foot")
"""Torden over Europa 1.3's gun categories: 12-pounder, horse, and other (6-pounder) batteries."""

BATTERY_CATEGORY: Mapping[Subtype, str] = {
    Subtype.HEAVY_ARTILLERY: "12pdr",
    Subtype.HORSE_ARTILLERY: "horse",
    Subtype.FOOT_ARTILLERY: "foot",
}
"""Artillery subtype → gun category."""

_ORDER = [e.value for e in Echelon]


GROUND_UNITS_M: Mapping[str, float] = {"m": 1.0, "km": 1000.0, "yd": 0.9144, "mile": 1609.344}
"""Metres in one unit of a source's real distance (``table_cm``). Paces are not among them: a
pace's length differs by army and period, so a source's paces are converted to metres first."""


def ground_scale_m_per_cm(parameters: Mapping[str, Any] | None = None) -> float:
    """Metres of ground per table cm: Torden over Europa 1.1 "1m. på terrænet ... svarer til 3 km"
    = 3000 m / 100 cm = 30 (``ground_scale_m_per_cm`` in toe.toml, a scenario may override it).

    Raises
    ------
    RuleRefused
        naming the parameter for a value that is not a number above 0.
    """
    from battlestudio.rules.params import RuleParameters, RuleRefused

    p = RuleParameters.for_ruleset("toe", parameters or {})
    value = p.get("ground_scale_m_per_cm")
    try:
        scale = float(value)
    except (TypeError, ValueError):
        scale = math.nan
    if not math.isfinite(scale) or scale <= 0:
        raise RuleRefused(f"parameter ground_scale_m_per_cm must be metres per table cm above 0, got {value!r} (1.1)")
    return scale


def table_cm(distance: float, unit: str = "m", parameters: Mapping[str, Any] | None = None) -> float:
    """A real distance (``distance`` in ``unit``: m, km, yd or mile) as table cm at the ground
    scale (1.1: 3 km → 100 cm).

    Raises
    ------
    ValueError
        for a unit not in ``GROUND_UNITS_M`` or a distance that is not a finite number >= 0.
    """
    if unit not in GROUND_UNITS_M:
        raise ValueError(f"unknown distance unit {unit!r}; use one of {', '.join(GROUND_UNITS_M)}")
    d = float(distance)
    if not math.isfinite(d) or d < 0:
        raise ValueError(f"a distance must be a number >= 0, got {distance!r}")
    return d * GROUND_UNITS_M[unit] / ground_scale_m_per_cm(parameters)


def ground_distance_cm(
    a: tuple[float, float], b: tuple[float, float], parameters: Mapping[str, Any] | None = None
) -> float:
    """The table cm between two places ``a`` and ``b`` (WGS84 lon, lat degrees): their geodesic
    distance on the WGS84 ellipsoid (pyproj) at the ground scale (1.1)."""
    from pyproj import Geod

    metres = float(Geod(ellps="WGS84").inv(a[0], a[1], b[0], b[1])[2])
    return table_cm(metres, "m", parameters)


class ConversionWarning(str):
    """A conversion note a user must see as a warning: a source row or command the conversion
    took off the order of battle (a battery regrouped into gun models, an emptied artillery
    command), naming it, its men and why."""


_HORSE_RE = re.compile(r"\b(horse|cheval|reitende|rha|ha|mounted)\b", re.I)
_FOOT_RE = re.compile(r"\b(foot|fuss|à pied|a pied)\b", re.I)
_HEAVY_RE = re.compile(r"\b(12\s*-?\s*(pdr|pd|pounder|lb|pf)s?|position|reserve 12)\b", re.I)


def battery_category(u: Unit) -> str:
    """A battery's gun category (1.3): its ``gun_category`` attribute, else its subtype, else
    its name (``Horse``, ``à cheval``, ``reitende``, ``RHA`` → horse, unless it says foot too;
    ``12-pdr`` → 12pdr), else foot."""
    if u.attributes.get("gun_category"):
        return str(u.attributes["gun_category"])
    if u.subtype is not None and u.subtype in BATTERY_CATEGORY:
        return BATTERY_CATEGORY[u.subtype]
    if _HORSE_RE.search(u.name) and not _FOOT_RE.search(u.name):  # "1/2 foot battery + 1 horse battery": foot
        return "horse"
    if _HEAVY_RE.search(u.name):
        return "12pdr"
    return "foot"


def _source_of(attrs: Mapping[str, Any]) -> str:
    """Where a record came from, as its attributes say (``row 12``, ``Austrian-3-Corps.oob:40``)."""
    if "source_line" in attrs:
        return f"{attrs.get('source_file', 'line')}:{attrs['source_line']}"
    if "source_row" in attrs:
        return f"row {attrs['source_row']}"
    return ""


def round_half_up(x: float) -> int:
    """Ordinary rounding ("efter gængse regler", Torden over Europa 1.3): 0.5 rounds up."""
    return int(math.floor(x + 0.5))


def figures_from_men(
    men: int,
    arm: Arm | str,
    men_per_infantry: int = MEN_PER_INFANTRY_FIGURE,
    men_per_cavalry: int = MEN_PER_CAVALRY_FIGURE,
) -> int:
    """Figures for ``men`` soldiers of ``arm`` (Torden over Europa 1.1).

    Ordinary rounding, at least 1 figure for any men > 0. Artillery and other arms return 0
    (guns become gun models, see ``gun_models``).

    Raises
    ------
    ValueError
        for negative ``men``.
    """
    if men < 0:
        raise ValueError(f"men must be >= 0, got {men}")
    arm = Arm(arm)
    per = {Arm.INFANTRY: men_per_infantry, Arm.CAVALRY: men_per_cavalry}.get(arm)
    if per is None or men == 0:
        return 0
    return max(1, round_half_up(men / per))


@dataclass(frozen=True, slots=True)
class GunModels:
    """Result of converting one gun category of one corps or army (Torden over Europa 1.3).

    Attributes
    ----------
    models : int
        gun models (in-game batteries) on the table.
    real_guns : tuple[int, ...]
        real guns each model stands for (sums to the real guns converted; empty when 0 models).
    pieces : float | None
        pieces each model is rated at: one third of the real guns shared among the models
        (None when the real gun count is unknown).
    unrepresented_guns : int
        real guns left off the table because the battery count rounded to 0 models.
    """

    models: int
    real_guns: tuple[int, ...]
    pieces: float | None
    unrepresented_guns: int = 0


GUN_PIECES_READINGS = ("fraction", "rounded")
"""Readings of a gun model's rating beyond 1.3's worked example (ERRATA 5, assumed
``gun_pieces``): ``fraction`` keeps one third of the real guns shared among the models exactly
(9 batteries of 12 = 108 guns → 5 models of 7.2 pieces); ``rounded`` rounds each model's
rating to whole pieces by ordinary rounding (5 models of 7). The worked example (36 guns → 2
models of 6) is the same under both."""


def gun_models(batteries: int, real_guns: int | None = None, pieces: str = "fraction") -> GunModels:
    """Gun models for ``batteries`` batteries with ``real_guns`` guns of one category.

    One third of the batteries is represented, by ordinary rounding; when that leaves any
    battery, the number of models is raised so no model stands for more than 24 real guns;
    each model is rated at one third of the real guns divided among the models (Torden over
    Europa 1.3 and its worked example; digest §4.6 and A40).

    Parameters
    ----------
    batteries : int
        real batteries of the category in the corps or army, ≥ 0.
    real_guns : int | None
        their real guns (pieces), ≥ 0; None when the source does not give them.
    pieces : str
        the reading of the rating, one of ``GUN_PIECES_READINGS`` (assumed ``fraction``).

    Returns
    -------
    GunModels

    Raises
    ------
    ValueError
        for a negative count or an unknown ``pieces`` reading.
    """
    if pieces not in GUN_PIECES_READINGS:
        raise ValueError(f"gun_pieces must be one of {', '.join(GUN_PIECES_READINGS)}, got {pieces!r}")
    if batteries < 0 or (real_guns is not None and real_guns < 0):
        raise ValueError(f"batteries and guns must be >= 0, got {batteries} batteries, {real_guns} guns")
    represented = round_half_up(batteries * BATTERY_FRACTION)
    if represented == 0:
        return GunModels(0, (), None, real_guns or 0)
    if real_guns is None or real_guns == 0:
        return GunModels(represented, tuple(0 for _ in range(represented)), None)
    models = max(represented, math.ceil(real_guns / MAX_REAL_GUNS_PER_MODEL))
    base, extra = divmod(real_guns, models)
    shares = tuple(base + (1 if i < extra else 0) for i in range(models))
    rating = real_guns * BATTERY_FRACTION / models
    return GunModels(models, shares, float(round_half_up(rating)) if pieces == "rounded" else rating)


PRUSSIAN_BRIGADE_YEARS: tuple[int, int] | None = None
"""Years in which a Prussian brigade acts as a division (1.3). The seed names the Prussian brigade
as its example with no period, so by default every year does (``None``); a scenario build or an
importer passes ``years=(first, last)`` to keep the reading to a period (toe.toml
``prussian_brigade_years``, assumed)."""


def map_echelon(
    source: str,
    nation: str = "",
    year: int | None = None,
    parent_echelon: str | None = None,
    years: tuple[int, int] | None = PRUSSIAN_BRIGADE_YEARS,
) -> tuple[str, str]:
    """Map a source echelon onto Torden over Europa's Figure 1 (1.3–1.4).

    A Prussian brigade that is not already under a division acts as a division (its regiments
    are the brigades; 1.3 gives no period: ``years`` limits it to ``(first, last)``, and then a
    source without a year keeps its brigade), and a commander always sits strictly below his
    superior.

    Returns
    -------
    (echelon, note) : tuple[str, str]
        the ``Echelon`` value and a note saying what was changed ("" when nothing was).
    """
    ech, notes = source, []
    above_division = parent_echelon is None or (
        parent_echelon in _ORDER and _ORDER.index(parent_echelon) < _ORDER.index(Echelon.DIVISION.value)
    )
    in_period = years is None or (year is not None and years[0] <= year <= years[1])
    if source == Echelon.BRIGADE.value and nation == "Prussia" and in_period and above_division:
        ech = Echelon.DIVISION.value
        notes.append("Prussian brigade acts as a division (Torden over Europa 1.3)")
    if parent_echelon in _ORDER and ech in _ORDER and _ORDER.index(ech) <= _ORDER.index(parent_echelon):
        below = _ORDER[min(_ORDER.index(parent_echelon) + 1, len(_ORDER) - 1)]
        notes.append(f"source echelon {ech} is not below its superior's ({parent_echelon}); read as {below}")
        ech = below
    return ech, "; ".join(notes)


BRIGADE_YEARS_PARAMETER = "prussian_brigade_years"
"""The assumed reading of 1.3's period (toe.toml), overridable per scenario."""


def brigade_years(parameters: Mapping[str, Any] | None = None) -> tuple[int, int] | None:
    """The years ``prussian_brigade_years`` gives in ``parameters`` (a scenario's, plain or
    ``toe.``-prefixed) or in toe.toml: None for ``[]`` (every year, the default).

    Raises
    ------
    ValueError
        naming the parameter and its value when it is not ``[]`` or ``[first, last]`` years.
    """
    from battlestudio.rules.params import RuleParameters

    value = RuleParameters.for_ruleset("toe", parameters or {}).get(BRIGADE_YEARS_PARAMETER)
    if value in (None, [], ()):
        return None
    try:
        first, last = (int(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(
            f"scenario parameter toe.{BRIGADE_YEARS_PARAMETER} = {value!r}: give [] (every year) or "
            "[first, last], e.g. [1806, 1813] (Torden over Europa 1.3)"
        ) from None
    if first > last:
        raise ValueError(f"scenario parameter toe.{BRIGADE_YEARS_PARAMETER} = {value!r}: {first} is after {last}")
    return (first, last)


def year_of(date: str | None) -> int | None:
    """The year of an ISO date (``ScenarioInfo.date``, "1815-06-18" → 1815), None without one."""
    m = re.match(r"\s*(\d{3,4})", date or "")
    return int(m.group(1)) if m else None


def read_prussian_brigades(
    sc: Scenario,
    year: int | None = None,
    years: tuple[int, int] | None = PRUSSIAN_BRIGADE_YEARS,
    only: set[str] | None = None,
) -> tuple[Scenario, list[str]]:
    """``sc`` with 1.3's Prussian-brigade reading applied again with ``years`` (``map_echelon``),
    to every commander an importer mapped (its ``source_echelon`` attribute), superiors first.

    A commander's own ``year`` attribute (the source's date) wins over ``year`` (the scenario's,
    ``year_of(ScenarioInfo.date)``). ``only`` limits it to those commander ids. Returns the
    scenario (the same object when nothing changes) and one note a commander changed.
    """
    notes: list[str] = []
    cmds = dict(sc.commanders)
    changed = False
    for root in sc.oob.roots():
        for cid, _depth in sc.oob.walk(root):
            c = cmds.get(cid)
            src = c.attributes.get("source_echelon") if c is not None else None
            if c is None or not src or (only is not None and cid not in only):
                continue
            sup = sc.oob.superior(cid)
            parent = cmds[sup].echelon if sup in cmds else None
            own = c.attributes.get("year")
            when = int(own) if isinstance(own, int) or (isinstance(own, str) and own.isdigit()) else year
            ech, note = map_echelon(str(src), c.nation, when, parent, years)
            if ech != c.echelon:
                cmds[cid] = replace(c, echelon=ech)
                changed = True
                why = note or (
                    f"a Prussian brigade of {when if when is not None else 'no stated year'} stays a brigade: "
                    f"toe.{BRIGADE_YEARS_PARAMETER} keeps the reading to {years[0]}-{years[1]} (1.3)"
                    if years is not None
                    else "re-read (1.3)"
                )
                notes.append(f"{c.name}: {c.echelon} → {ech}: {why}")
    if not changed:
        return sc, notes
    return replace(sc, commanders=cmds), notes


def read_prussian_brigades_for(
    sc: Scenario, info: ScenarioInfo, only: set[str] | None = None
) -> tuple[Scenario, list[str]]:
    """``read_prussian_brigades`` with the reading of the scenario ``info`` describes: its
    year (``info.date``) and its ``prussian_brigade_years`` (``info.parameters`` or toe.toml).
    Raises ``ValueError`` as ``brigade_years``."""
    return read_prussian_brigades(sc, year_of(info.date), brigade_years(info.parameters), only)


@dataclass(frozen=True, slots=True)
class ScaleParameters:
    """The numbers a conversion uses; written into the scenario's ``info.parameters``.

    ``figure_size`` (frontage, depth in cm per figure and arm) is a placeholder: Table 12
    is missing from the seed. ``men_per_base`` converts base-only sources (republique5) and has
    no default because the source says a base is not a head count. ``gun_pieces`` is the
    assumed reading of a gun model's rating (``GUN_PIECES_READINGS``; written only when it is
    not the default).
    """

    men_per_infantry_figure: int = MEN_PER_INFANTRY_FIGURE
    men_per_cavalry_figure: int = MEN_PER_CAVALRY_FIGURE
    figure_size: Mapping[str, tuple[float, float]] = field(
        default_factory=lambda: {a.value: s for a, s in DEFAULT_FIGURE_SIZE.items()}
    )
    men_per_base: Mapping[str, int] | None = None
    figures_per_base: Mapping[str, int] = field(default_factory=lambda: dict(FIGURES_PER_BASE))
    gun_pieces: str = "fraction"

    def as_parameters(self) -> dict[str, Any]:
        """Scenario parameters naming each value and its status."""
        p: dict[str, Any] = {
            "toe.scale.men_per_infantry_figure": self.men_per_infantry_figure,
            "toe.scale.men_per_cavalry_figure": self.men_per_cavalry_figure,
            "toe.scale.max_real_guns_per_gun_model": MAX_REAL_GUNS_PER_MODEL,
            "toe.scale.battery_fraction": "1/3",
        }
        if self.gun_pieces != "fraction":
            p["toe.scale.gun_pieces"] = self.gun_pieces
        for arm, (w, d) in self.figure_size.items():
            p[f"toe.placeholder.figure_size_cm.{arm}"] = [w, d]
        if self.men_per_base:
            for arm, n in self.men_per_base.items():
                p[f"toe.placeholder.men_per_base.{arm}"] = n
        for arm, n in self.figures_per_base.items():
            p[f"toe.placeholder.figures_per_base.{arm}"] = n
        return p


def _group_of(sc: Scenario, unit_id: str) -> str | None:
    """The corps (or higher) commander whose guns this battery counts with; else the root."""
    chain = sc.oob.chain_of_command(unit_id)
    for cid in chain:
        c = sc.commanders.get(cid)
        if c and _ORDER.index(c.echelon) <= _ORDER.index(Echelon.CORPS.value):
            return cid
    return chain[-1] if chain else None


def convert_to_toe(
    scenario: Scenario, params: ScaleParameters | None = None, warnings: list[ConversionWarning] | None = None
) -> tuple[Scenario, list[str]]:
    """A copy of ``scenario`` at Torden over Europa's scale (1.1, 1.3).

    Infantry and cavalry get figures from men (or from bases with ``params.men_per_base``) and
    per-arm figure sizes; batteries are regrouped per corps (or army) and gun category into gun
    models (``gun_models``), attached to the batteries' common commander or else to the corps
    commander; guns left off by the one-third rounding are recorded on the corps commander as
    ``unrepresented_guns`` (and their crews as ``unrepresented_men``); artillery commands left
    empty are removed. Units keep their historical ``men`` and real ``guns``.

    ``warnings``, when given, receives one ``ConversionWarning`` per source record taken off the
    order of battle: each battery row regrouped into gun models and each artillery command
    removed, naming it, where it came from, its men and why.

    Returns
    -------
    (scenario, notes) : tuple[Scenario, list[str]]
        the converted copy and one note per change a user should know about.
    """
    p = params or ScaleParameters()
    report: list[ConversionWarning] = warnings if warnings is not None else []
    sc = scenario.copy()
    notes: list[str] = []
    for uid, u in list(sc.units.items()):
        if u.arm in (Arm.INFANTRY, Arm.CAVALRY):
            men = u.men
            attrs = u.attributes
            if men == 0 and u.bases and p.men_per_base and u.arm.value in p.men_per_base:
                men = u.bases * p.men_per_base[u.arm.value]
                notes.append(f"{uid}: {u.bases} bases × {p.men_per_base[u.arm.value]} men (placeholder) = {men} men")
            if men == 0 and u.bases and u.arm.value in p.figures_per_base:
                figs = u.bases * p.figures_per_base[u.arm.value]
                per = p.men_per_infantry_figure if u.arm is Arm.INFANTRY else p.men_per_cavalry_figure
                men = figs * per
                attrs = {
                    **attrs,
                    "men_estimated": True,
                    "men_estimate": f"{u.bases} bases × {figs // u.bases} "
                    f"figures (toe.placeholder.figures_per_base.{u.arm.value}) × {per} men per figure",
                }
                notes.append(
                    f"{uid}: {u.bases} bases × {p.figures_per_base[u.arm.value]} figures per base "
                    f"(placeholder) = {figs} figures; men estimated as {men} ({per} per figure)"
                )
                w, d = p.figure_size.get(u.arm.value, DEFAULT_FIGURE_SIZE[u.arm])
                sc.units[uid] = replace(u, figures=figs, men=men, figure_width=w, figure_depth=d, attributes=attrs)
                continue
            figs = figures_from_men(men, u.arm, p.men_per_infantry_figure, p.men_per_cavalry_figure)
            if attrs.get("source_figures"):  # the source counts figures: kept
                figs = int(attrs["source_figures"])
            if figs == 0:
                notes.append(f"{uid}: no strength in the source; 0 figures")
            w, d = p.figure_size.get(u.arm.value, DEFAULT_FIGURE_SIZE[u.arm])
            sc.units[uid] = replace(u, figures=figs, figure_width=w, figure_depth=d)
    groups: dict[tuple[str | None, str], list[Unit]] = {}
    for u in sc.units.values():
        if u.arm is Arm.ARTILLERY:
            cat = battery_category(u)
            groups.setdefault((_group_of(sc, u.id), cat), []).append(u)
    emptied: dict[str, None] = {}  # ordered, so the notes come out in the same order every run
    crews_of: dict[str, int] = {}  # command → men of the batteries taken from under it
    for group in groups.values():
        for b in group:
            above = sc.oob.superior(b.id) or ""
            crews_of[above] = crews_of.get(above, 0) + b.men
    for (gid, cat), batteries in groups.items():
        known = all(b.guns > 0 for b in batteries)
        real = sum(b.guns for b in batteries)
        gm = gun_models(len(batteries), real if known else None, p.gun_pieces)
        parents = {sc.oob.superior(b.id) for b in batteries}
        attach = parents.pop() if len(parents) == 1 else gid
        group_name = sc.commanders[gid].attributes.get("formation", sc.commanders[gid].name) if gid else "army"
        for b in batteries:
            emptied[sc.oob.superior(b.id) or ""] = None
            sc.oob.remove(b.id)
            del sc.units[b.id]
            where = _source_of(b.attributes)
            what = (
                f"regrouped with the {len(batteries)} {_CAT_NAME[cat]} batteries of {group_name} into "
                f"{gm.models} gun model(s), which carry its men and guns"
                if gm.models
                else f"its {len(batteries)} {_CAT_NAME[cat]} batteries of {group_name} make no gun model; "
                f"its guns and men are recorded as unrepresented on {group_name}"
            )
            report.append(
                ConversionWarning(
                    f"{b.name} ({b.id}{', ' + where if where else ''}; {b.men:,} men, {b.guns:,} guns): battery row "
                    f"removed: {what} (Torden over Europa 1.3: one battery in three on the table)"
                )
            )
        notes.append(
            f"{group_name}: {len(batteries)} {cat} batteries, {real if known else 'unknown'} guns → "
            f"{gm.models} gun model(s)" + (f" of {gm.pieces:.2f} pieces" if gm.pieces else "")
        )
        crews = sum(b.men for b in batteries)
        if (gm.unrepresented_guns or (crews and gm.models == 0)) and gid:
            c = sc.commanders[gid]
            attrs = dict(c.attributes)
            for key, n in (
                ("unrepresented_guns", gm.unrepresented_guns),
                ("unrepresented_men", crews if not gm.models else 0),
            ):
                if n:
                    un = dict(attrs.get(key, {}))
                    un[cat] = un.get(cat, 0) + n
                    attrs[key] = un
            sc.commanders[gid] = replace(c, attributes=attrs)
        men_base, men_extra = divmod(crews, gm.models) if gm.models else (0, 0)
        first = batteries[0]
        w, d = p.figure_size.get("artillery", DEFAULT_FIGURE_SIZE[Arm.ARTILLERY])
        for i in range(gm.models):
            # each model names its share of the batteries (all of them on every model made an
            # import of many batteries quadratic in size: 600 batteries, 200 models, 120,000 names)
            lo = i * len(batteries) // gm.models
            share = batteries[lo : max(lo + 1, (i + 1) * len(batteries) // gm.models)]
            mid = f"{gid or 'army'}-{cat}-guns-{i + 1}"
            model = replace(
                first,
                id=mid,
                name=f"{group_name} {_CAT_NAME[cat]}" + (f" {i + 1}/{gm.models}" if gm.models > 1 else ""),
                figures=1,
                bases=1,
                men=men_base + (1 if i < men_extra else 0),
                guns=gm.real_guns[i],
                formation=Formation.LIMBERED,
                figure_width=w,
                figure_depth=d,
                attributes={
                    "gun_category": cat,
                    "pieces": None if gm.pieces is None else round(gm.pieces, 2),
                    "source_batteries": [b.name for b in share],
                    "source_ids": [b.attributes.get("source_id", b.id) for b in share],
                },
            )
            sc.units[mid] = model
            if attach:
                sc.oob.add(attach, mid)
    for cid in emptied:
        emptied_command = sc.commanders.get(cid)
        if (
            emptied_command
            and not sc.oob.subordinates(cid)
            and _is_artillery_command(emptied_command.attributes.get("formation", emptied_command.name))
        ):
            sup = sc.oob.superior(cid)
            moved = ""
            if sup in sc.commanders:  # its unrepresented guns and men go up, not out
                up = dict(sc.commanders[sup].attributes)
                for key in ("unrepresented_guns", "unrepresented_men"):
                    for gcat, n in emptied_command.attributes.get(key, {}).items():
                        up[key] = {**up.get(key, {}), gcat: up.get(key, {}).get(gcat, 0) + n}
                        moved = f"; its unrepresented guns and men moved to {sc.commanders[sup].name}"
                sc.commanders[sup] = replace(sc.commanders[sup], attributes=up)
            sc.oob.remove(cid)
            del sc.commanders[cid]
            attrs = emptied_command.attributes
            crews = crews_of.get(cid, 0)
            where = _source_of(attrs)
            stated = f", {attrs['stated_men']:,} men stated" if attrs.get("stated_men") else ""
            notes.append(f"{cid}: artillery command left without batteries; removed")
            report.append(
                ConversionWarning(
                    f"{attrs.get('formation', emptied_command.name)} ({cid}{', ' + where if where else ''}; "
                    f"{crews:,} men in its batteries{stated}): artillery command removed, left without batteries "
                    f"once they were regrouped into gun models (Torden over Europa 1.3){moved}"
                )
            )
    sc.info = replace(sc.info, ruleset="toe", parameters={**sc.info.parameters, **p.as_parameters()})
    return sc, notes


_CAT_NAME = {"12pdr": "12-pdr artillery", "horse": "horse artillery", "foot": "foot artillery"}


def _is_artillery_command(name: str) -> bool:
    n = name.lower()
    return "artill" in n or "bty" in n or "battery" in n
