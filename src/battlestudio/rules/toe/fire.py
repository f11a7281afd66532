"""Torden over Europa: Fire (6.1) and ammunition (6.2) as actions (``rules.actions.ActionHandler``).

``fire``: a unit of the side not on the move fires in the active side's fire phase (1.2 phase 5
"Passiv sides skydning"; 6.1 "Skydning kan kun foretages i modstanderens træk") at one enemy
unit (``target``), once a turn ("kun en skydning i hvert træk ... kun kan beskyde et mål"),
except a square or a unit in a town, which fires from each of its four sides with at most ¼ of
its figures ("maksimalt ... 1/4 af de i karren/byzonen placerede figurer. Enheden kan således
foretage 4 selvstændige skydninger"; parameter ``side``).

Who may not fire (6.1 "Begrænsninger i skydning"): "enhed i FU, enheder der har erklæret angreb,
enheder der har forsøgt reaktion på angreb, påprodset artilleri, enheder i fortsat nærkamp, ...
enheder i marchkolonne"; a battery out of ammunition (6.2); cavalry (no fire rule for it, assumed
``cavalry_fires`` false). Declared attacks, reactions and continued melee are read from the state
flags ``attack_declared:<unit>``, ``reaction_attempted:<unit>`` and ``continued_melee:<unit>``
(any value but None: set by the attack/melee actions, cleared by them). "Enheder i fortsat
nærkamp kan ikke beskydes"; infantry "kan ikke beskyde byer" (4.8.4).

Geometry (arcs, range, line of fire, the safety corridor, firing over units, flank fire) is in
``fire_geometry``; coordination of artillery fire: "Batterier fra forskellige korps kan ikke
beskyde den samme enhed ... Max. 2 batterier", lifted when "et mål er det eneste mål der kan
beskydes" (judged per battery, A23) and for "Batterier under en artillerichef" (a battery with a
commander in its chain of command whose record has ``attributes["artillery_chief"]``; they do not
count towards the two, A23).

Tables 5 (modifiers) and 6 (losses by range zone) are lost: they are the scenario parameters
``fire_table.<arm>`` and ``fire_modifiers.<arm>`` (or ``.<nation>.<arm>``; shapes in
``resources/rulesets/toe.toml``). Without them the spec names them in ``umpire_table`` and the
umpire enters the figures lost; with them the program rolls 1d10 (0-9, A1) plus the Table 5
modifiers and reads Table 6 ("En tisidet terning kastes og resultatet reguleres med de faktorer
som er vist i tabel 5, tab aflæses i tabel [6]"). A shot records ``Fired``, then ``Casualties``,
``OrderStateChanged`` to eliminated when no figure is left, for a battery ``AmmunitionUsed``
(preceded, for a battery not counted yet, by ``AmmunitionResupplied`` to its full allowance),
and the phase's bookkeeping flag. The morale test after fire (8.2) is lost with chapter 8.

Towns: a unit in a town is marked by ``attributes["town_zone"]`` (the zone's id); with the
scenario's town zones (the request's ``towns``) the range to it is measured to the zone (6.1 "Ved
beskydning af byer måles afstanden til byzonen") and a battery in a town is fired at only by a line
of fire through its side of the town (4.8.6); the target lists the spec offers are measured without
them (the preview and the roll refuse). Not computed, for want of data in ``GameState``:
terrain levels (``attributes["height_level"]``, A22). ``fire_arcs`` gives the map the ground a
unit may fire at, one shapely polygon per side.
"""

from __future__ import annotations

import shapely

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any
from collections.abc import Mapping, Sequence

from shapely.geometry import Polygon
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from battlestudio.model.geometry import EPS, TINY, EdgeName
from battlestudio.model.terrain import TownZone
from battlestudio.model.units import Arm, Formation, OrderState, Unit
from battlestudio.replay.combat_events import AmmunitionResupplied, AmmunitionUsed, Fired
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import OrderStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, DiceSpec, Modifier, RollRecord, distribution
from battlestudio.rules.losses import loss_event
from battlestudio.rules.params import MissingParameterError, RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.toe import fire_ammunition as ammo
from battlestudio.rules.toe import fire_geometry as geo
from battlestudio.rules.toe import march
from battlestudio.rules.toe.common import corps_of, name_of, on_table_units
from battlestudio.rules.toe.table_index import table_index
from battlestudio.rules.toe.fire_ammunition import FIRE_PHASE, phase_record, record_event, stamp

ATTACK_DECLARED = "attack_declared"
REACTION_ATTEMPTED = "reaction_attempted"
CONTINUED_MELEE = "continued_melee"
"""State flags (``flags["<name>:<unit>"]``) the attack and melee actions set; fire reads them."""

RULE = "6.1 'Begrænsninger i skydning'"


def _flag(state: GameState, name: str, uid: str) -> bool:
    """Whether the flag is set; a declaration or reaction (a mapping with ``turn`` and ``side``,
    ``reactions``) counts only in the player-turn that set it."""
    v = state.flags.get(f"{name}:{uid}")
    if isinstance(v, dict) and "turn" in v and "side" in v:
        return bool(v["turn"] == state.turn and v["side"] == state.side)
    return v is not None


def arm_key(u: Unit) -> str:
    """``infantry``, ``cavalry`` or ``artillery``: the Table 5-6 column (small arms / artillery)."""
    return u.arm.value


def is_artillery(u: Unit) -> bool:
    return u.arm == Arm.ARTILLERY


def under_artillery_chief(state: GameState, u: Unit) -> bool:
    """Whether a commander in ``u``'s chain of command is marked ``artillery_chief`` (6.1)."""
    return any(
        bool(c.attributes.get("artillery_chief"))
        for c in (state.commanders.get(n) for n in state.oob.chain_of_command(u.id))
        if c is not None
    )


# -- Tables 5 and 6 (scenario parameters) -----------------------------------------------------
@dataclass(frozen=True, slots=True)
class FireTable:
    """Table 6 for one arm as the scenario gives it: ``zones_cm`` upper bounds of range zones
    1..n (the last is the maximum range) and ``losses[z-1][t]`` figures lost in zone ``z`` for
    a modified d10 total ``t`` (clamped to the row); ``key`` the parameter it came from."""

    key: str
    zones_cm: tuple[float, ...]
    losses: tuple[tuple[int, ...], ...]

    def zone(self, range_cm: float) -> int | None:
        for i, bound in enumerate(self.zones_cm, start=1):
            if range_cm <= bound + TINY:
                return i
        return None

    def lost(self, zone: int, total: int) -> int:
        row = self.losses[zone - 1]
        return row[max(0, min(len(row) - 1, total))]


def fire_table(p: RuleParameters, u: Unit) -> FireTable | None:
    """Table 6 for ``u``'s arm, None while the scenario lacks it.

    Raises
    ------
    RuleRefused
        when the parameter has the wrong shape (naming it).
    """
    arm = arm_key(u)
    try:
        key, value = p.require("fire_table", f"fire_table.{u.nation}.{arm}", f"fire_table.{arm}")
    except MissingParameterError:
        return None
    try:
        zones = tuple(float(b) for b in value["zones_cm"])
        losses = tuple(tuple(int(v) for v in row) for row in value["losses"])
    except (KeyError, TypeError, ValueError):
        raise RuleRefused(
            f"scenario parameter {key} must be {{'zones_cm': [bounds], 'losses': [[figures per d10 total], ...]}}, "
            f"got {value!r}"
        ) from None
    if not zones or len(losses) != len(zones) or any(not row for row in losses):
        raise RuleRefused(f"scenario parameter {key}: one losses row per range zone is needed, got {value!r}")
    return FireTable(key, zones, losses)


def fire_modifiers(p: RuleParameters, u: Unit) -> tuple[str, Mapping[str, int]] | None:
    """Table 5 for ``u``'s arm (name → value; ``{}`` says none apply), None while missing."""
    arm = arm_key(u)
    try:
        key, value = p.require("fire_modifiers", f"fire_modifiers.{u.nation}.{arm}", f"fire_modifiers.{arm}")
    except MissingParameterError:
        return None
    if not isinstance(value, Mapping):
        raise RuleRefused(f"scenario parameter {key} must map a Table 5 factor to its value, got {value!r}")
    try:
        return key, {str(k): int(v) for k, v in value.items()}
    except (TypeError, ValueError):
        raise RuleRefused(f"scenario parameter {key} must hold whole numbers, got {value!r}") from None


def missing_tables(p: RuleParameters, u: Unit) -> str:
    """The ``umpire_table`` text while Table 5 or 6 for ``u``'s arm is missing ("" when both are given)."""
    arm = arm_key(u)
    lacking = []
    if fire_modifiers(p, u) is None:
        lacking.append(f"Table 5 (fire modifiers), scenario parameter fire_modifiers.{arm}")
    if fire_table(p, u) is None:
        lacking.append(f"Table 6 (fire losses by range zone), scenario parameter fire_table.{arm}")
    return "; ".join(lacking)


# -- who may fire ---------------------------------------------------------------------------
def _on_table(state: GameState, u: Unit) -> bool:
    return u.id not in state.off_table and u.state != OrderState.ELIMINATED.value


def sides_used(state: GameState, uid: str) -> list[str]:
    return [str(s.get("from", "front")) for s in phase_record(state, uid).get("shots", ())]


def cannot_fire(state: GameState, p: RuleParameters, u: Unit) -> str:
    """Why ``u`` may not fire now at all ("" when it may), naming the rule."""
    if u.state == OrderState.FU.value:
        return f"{u.name} is in complete disorder (FU): 'enhed i FU' cannot fire ({RULE}, 1.6)"
    if is_artillery(u) and u.formation == Formation.LIMBERED:
        return f"{u.name} is limbered: 'påprodset artilleri' cannot fire ({RULE})"
    if u.formation == Formation.MARCH_COLUMN:
        return f"{u.name} is in march column: 'enheder i marchkolonne' cannot fire ({RULE})"
    if u.arm == Arm.CAVALRY and not p.get("cavalry_fires"):
        return (
            f"{u.name} is cavalry: the rules give fire only to small arms (infantry) and artillery "
            "(6.1, Table 5; cavalry_fires, assumed)"
        )
    if _flag(state, ATTACK_DECLARED, u.id):
        return f"{u.name} has declared an attack: 'enheder der har erklæret angreb' cannot fire ({RULE})"
    if _flag(state, REACTION_ATTEMPTED, u.id):
        return f"{u.name} has attempted a reaction to an attack: it cannot fire ({RULE}, 5.3)"
    if _flag(state, CONTINUED_MELEE, u.id):
        return f"{u.name} is in continued melee: 'enheder i fortsat nærkamp' cannot fire ({RULE})"
    if is_artillery(u) and geo.in_town(u):
        town = u.attributes.get(geo.TOWN_ATTRIBUTE)
        if any(
            _flag(state, CONTINUED_MELEE, o.id)
            for o in on_table_units(state)
            if o.attributes.get(geo.TOWN_ATTRIBUTE) == town
        ):
            return f"{u.name}: there is continued melee in its town, so the battery cannot fire (4.8.6)"
    used = sides_used(state, u.id)
    if used and not geo.fires_from_sides(u):
        return f"{u.name} has already fired this turn: a unit fires once a turn, at one target (6.1)"
    if geo.fires_from_sides(u) and len(used) >= len(geo.fronts(u)):
        return f"{u.name} has fired from all four sides this turn (6.1 'Skydning fra by/karré')"
    rec = phase_record(state, u.id)
    if rec.get("resupply") and p.get("resupply_excludes_fire"):
        return f"{u.name} has tried to resupply in this fire phase: a battery fires or resupplies, not both (6.2, A24)"
    if is_artillery(u):
        left, _ = ammo.rounds_left(u, p)
        if left < int(p.get("ammunition_per_shot")):
            return (
                f"{u.name} has no ammunition left: 'Det koster en sats at foretage en skydning' (6.2); "
                "resupply it first"
            )
    return ""


# -- one shot ---------------------------------------------------------------------------------
@dataclass
class Shot:
    """A legal shot as measured: firer, target, the side fired from, ``range_cm``, the arc's
    half-angle used (``close``: the 45° zone-1 arc of artillery), the range ``zone`` (None while
    Table 6 is missing), ``flank`` fire, ``figures`` firing, ``clauses`` of the explanation."""

    firer: Unit
    target: Unit
    side: EdgeName
    range_cm: float
    half_angle: float
    close: bool
    zone: int | None
    flank: bool
    figures: int
    line: BaseGeometry
    clauses: list[str] = field(default_factory=list)
    in_town: bool = False


def zone1_bound(p: RuleParameters, u: Unit) -> tuple[float, str]:
    """Upper bound of zone 1 in cm for ``u``: Table 6's first zone when the scenario gives it,
    else the assumed ``artillery_zone1_max_cm`` (A29, inferred from 4.8.5)."""
    table = fire_table(p, u)
    if table is not None:
        return table.zones_cm[0], f"Table 6 zone 1 (≤ {table.zones_cm[0]:g} cm, {table.key})"
    z1 = float(p.get("artillery_zone1_max_cm"))
    return z1, f"zone 1 read as ≤ {z1:g} cm (artillery_zone1_max_cm, assumed A29)"


def _blocking(
    state: GameState, p: RuleParameters, firer: Unit, target: Unit, line: BaseGeometry
) -> tuple[str, list[str]]:
    """Why the line of fire is blocked ("" when clear) and clauses about units fired over."""
    notes: list[str] = []
    idx = table_index(state)
    if is_artillery(firer):
        frac, minimum = float(p.get("safety_distance_fraction")), float(p.get("safety_distance_min_cm"))
        reach = geo.safety_corridor(firer, target, frac, minimum)[0].union(geo.line_of_fire(firer, target))
    else:
        reach = line
    # only units whose footprint meets the line or corridor can block it (the exact test is below);
    # a footprint whose bounding box misses the reach's misses the reach
    slots = idx.near_box(idx.on_table, reach.bounds, 0.0)
    hits = shapely.intersects(reach, idx.shapes[slots]).tolist() if len(slots) else []
    others: list[Unit] = [
        o
        for o, hit in zip((idx.units[i] for i in slots.tolist()), hits, strict=True)
        if hit and o is not None and o.id not in (firer.id, target.id)
    ]
    if is_artillery(firer):
        frac, minimum = float(p.get("safety_distance_fraction")), float(p.get("safety_distance_min_cm"))
        corridor, length, h = geo.safety_corridor(firer, target, frac, minimum)
        lof = geo.line_of_fire(firer, target)
        near, far = float(p.get("overshoot_min_from_gun_cm")), float(p.get("overshoot_min_to_target_cm"))
        for o in others:
            friendly = o.side == firer.side
            if friendly and geo.attached_to(firer, o, EPS):
                continue  # the unit the battery is attached to (A21)
            hit = geo.crosses(corridor, o) if friendly else geo.crosses(lof, o)
            if not hit:
                continue
            if not friendly and not p.get("line_of_fire_blocked_by_units"):
                continue
            higher = geo.level(firer) > geo.level(o)
            if not higher:
                what = (
                    f"is inside the safety corridor ({h:g} cm each side of the {length:.1f} cm line of fire: "
                    f"10 %, at least 1.5 cm, 6.1 'Skydning sikkerhedsafstand')"
                    if friendly
                    else "stands on the line of fire (T-28; line_of_fire_blocked_by_units, assumed)"
                )
                return (
                    f"{o.name} {what}, and {firer.name} is not on a higher level to fire over it "
                    f"(6.1 'Overskydning med artilleri': levels {geo.level(firer)} / {geo.level(o)})"
                ), notes
            if friendly:
                d_gun = float(o.footprint().distance(firer.footprint()))
                d_target = float(o.footprint().distance(target.footprint()))
                if d_gun < near - TINY or d_target < far - TINY:
                    return (
                        f"{firer.name} may fire over {o.name} only if it is at least {near:g} cm from the gun "
                        f"({d_gun:.1f} cm) and {far:g} cm from the target ({d_target:.1f} cm) (6.1 'Overskydning')"
                    ), notes
            notes.append(f"fires over {o.name} from a higher level (6.1 'Overskydning')")
        return "", notes
    if not p.get("line_of_fire_blocked_by_units"):
        return "", notes
    for o in others:
        if geo.crosses(line, o):
            return (
                f"{o.name} stands between {firer.name} and {target.name}: only artillery on higher ground fires over "
                f"units (6.1 'Overskydning'; line_of_fire_blocked_by_units, assumed)"
            ), notes
    return "", notes


def plan(
    state: GameState,
    p: RuleParameters,
    firer: Unit,
    target_id: str,
    side: str | None = None,
    towns: Sequence[TownZone] = (),
) -> Shot:
    """Measure a shot of ``firer`` at ``target_id`` from ``side`` (a square's or town unit's side;
    None: the first side that can), everything but artillery coordination. ``towns`` are the
    scenario's town zones: at a unit in one the range is measured to the zone (6.1), and a
    battery, which stands on one side of the town (4.8.6), is fired at only through that side and
    measured to its gun; a battery whose front points into its own town does not fire (4.6.3);
    without the zones all three are the umpire's.

    Raises
    ------
    RuleRefused
        naming the rule that forbids it.
    """
    target = state.units.get(target_id)
    if target is None or not _on_table(state, target):
        raise RuleRefused(f"no enemy unit {target_id!r} on the table")
    if target.side == firer.side:
        raise RuleRefused(f"{target.name} is a friendly unit: fire is at the enemy (6.1)")
    if _flag(state, CONTINUED_MELEE, target.id):
        raise RuleRefused(
            f"{target.name} is in continued melee: 'Enheder i fortsat nærkamp kan ikke beskydes' ({RULE})"
        )
    zone = geo.town_zone(target, towns)
    in_town = zone is not None or geo.in_town(target)
    if not is_artillery(firer) and in_town:
        raise RuleRefused(f"{target.name} is in a town: 'infanteri kan ikke beskyde byer' (4.8.4, {RULE})")
    facing_in = march.faces_its_town(firer, towns) if towns else ""
    if facing_in:
        raise RuleRefused(facing_in)
    if zone is not None and is_artillery(target):
        edge, outward = geo.town_side(zone, target)
        if not geo.beyond_side(edge, outward, geo.gun_front_centre(firer)):
            raise RuleRefused(
                f"{target.name} stands on the {outward:.0f}° side of {zone.name}: it can be fired at only by a line "
                f"of fire through that side of the town, and {firer.name} is not beyond it "
                "(4.8.6 'Batteriet kan kun beskydes, hvis en fjendtlige enheds skydelinie går igennem den side af "
                "byen/byzonen hvor batteriet er placeret')"
            )
    fronts = geo.fronts(firer)
    used = sides_used(state, firer.id)
    if side is not None:
        if side not in fronts:
            raise RuleRefused(f"{firer.name} fires from {', '.join(fronts)}, not from {side!r} (6.1)")
        if side in used:
            raise RuleRefused(
                f"{firer.name} has already fired from its {side} side this turn (6.1 'Skydning fra by/karré')"
            )
        candidates = [fronts[side]]
    else:
        candidates = [f for n, f in fronts.items() if n not in used]
    wide = float(p.get("fire_arc_half_angle_close_deg"))
    narrow = float(p.get("fire_arc_half_angle_deg"))
    why = ""
    for front in candidates:
        try:
            shot = _aim(state, p, firer, target, front, wide, narrow, None if is_artillery(target) else zone, in_town)
        except RuleRefused as exc:
            why = why or str(exc)
            continue
        return shot
    raise RuleRefused(why or f"{firer.name} has no side left to fire from this turn (6.1)")


def _aim(
    state: GameState,
    p: RuleParameters,
    firer: Unit,
    target: Unit,
    front: geo.Front,
    wide: float,
    narrow: float,
    town: TownZone | None = None,
    in_town: bool = False,
) -> Shot:
    clauses: list[str] = []
    aimed: BaseGeometry = town.polygon if town is not None else target.footprint()
    part_wide = geo.in_arc_part(front, aimed, wide)
    if is_artillery(firer):
        z1, z1_text = zone1_bound(p, firer)
        part_narrow = geo.in_arc_part(front, aimed, narrow)
        if part_wide is None:
            raise RuleRefused(
                f"{target.name} is outside {firer.name}'s arc ({narrow:g}°, {wide:g}° at zone 1, "
                "from its front; 6.1, A2)"
            )
        r_wide, line_wide = geo.range_from(firer, front, part_wide)
        if r_wide <= z1 + TINY:
            rng, line, half, close = r_wide, line_wide, wide, True
            clauses.append(f"zone 1 shot within the {wide:g}° arc: {z1_text}")
        elif part_narrow is not None:
            rng, line = geo.range_from(firer, front, part_narrow)
            half, close = narrow, False
        else:
            raise RuleRefused(
                f"{target.name} is within {wide:g}° of {firer.name}'s front only, and at {r_wide:.1f} cm it is no "
                f"zone 1 shot ({z1_text}): artillery fires within {narrow:g}° (6.1, A2)"
            )
        to = (
            f"the town zone {town.name} ({target.name} is in it; 6.1 'Ved beskydning af byer måles afstanden til "
            "byzonen')"
            if town is not None
            else f"{target.name} in the arc (6.1 'Rækkevidde')"
        )
        clauses.append(f"range {rng:.1f} cm from the gun centre to the nearest point of {to}")
    else:
        if part_wide is None:
            raise RuleRefused(f"{target.name} is outside {firer.name}'s {wide:g}° arc from its {front.name} (6.1, A2)")
        rng, line = geo.range_from(firer, front, part_wide)
        half, close = wide, False
        clauses.append(f"range {rng:.1f} cm between the nearest points, within the {wide:g}° arc (6.1 'Rækkevidde')")
    table = fire_table(p, firer)
    zone: int | None = None
    if table is not None:
        zone = table.zone(rng)
        if zone is None:
            raise RuleRefused(
                f"{target.name} is {rng:.1f} cm away, beyond {firer.name}'s range "
                f"({table.zones_cm[-1]:g} cm, Table 6, {table.key})"
            )
        if is_artillery(firer) and in_town and target.arm == Arm.INFANTRY and zone == 1:
            zone = min(int(p.get("town_zone1_counts_as_zone")), len(table.zones_cm))
            clauses.append(f"infantry in a town: a zone 1 shot counts as zone {zone} (4.8.5)")
        clauses.append(f"zone {zone} of Table 6 ({table.key})")
    else:
        clauses.append("range zones are in Table 6, which the rules text lost: the umpire judges range and losses")
    blocked, notes = _blocking(state, p, firer, target, line)
    if blocked:
        raise RuleRefused(blocked)
    clauses.extend(notes)
    flank = geo.flank_fire(firer, target)
    if flank:
        clauses.append(f"flank fire: {firer.name} has figures behind {target.name}'s extended front (6.1.8)")
    if geo.fires_from_sides(firer):
        n = max(
            int(firer.figures * float(p.get("square_town_fire_fraction"))), int(p.get("square_town_min_firing_figures"))
        )
        n = min(n, firer.figures)
        where = "square" if firer.formation == Formation.SQUARE else "town"
        clauses.append(
            f"{n} of {firer.figures} figures fire from the {front.name} side of the {where} "
            "(¼, 6.1 'Skydning fra by/karré', A27)"
        )
    else:
        n = firer.figures
        if not is_artillery(firer):
            clauses.append(f"all {n} figures fire: one figure in range lets the whole unit fire (6.1)")
    return Shot(firer, target, front.name, rng, half, close, zone, flank, n, line, clauses, in_town)


def coordination(state: GameState, p: RuleParameters, shot: Shot) -> tuple[str, str]:
    """6.1 'Koordinering af artilleriild' for a battery's shot: (refusal, note)."""
    firer, target = shot.firer, shot.target
    if not is_artillery(firer):
        return "", ""
    if under_artillery_chief(state, firer):
        return "", "under an artillery chief: not bound by the coordination limits (6.1, A23)"
    mine = corps_of(state, firer.id)
    others = []
    for key, rec in state.flags.items():
        if not key.startswith(f"{ammo.FIRE_FLAG}:") or not isinstance(rec, dict):
            continue
        uid = key.split(":", 1)[1]
        if uid == firer.id or rec.get("turn") != state.turn or rec.get("side") != state.side or rec.get("chief"):
            continue
        if any(s.get("target") == target.id for s in rec.get("shots", ())) and rec.get("artillery"):
            others.append((uid, rec.get("corps")))
    if not others:
        return "", ""
    limit = int(p.get("max_batteries_per_target"))
    why = ""
    foreign = [u for u, c in others if c != mine]
    if foreign:
        why = (
            f"{name_of(state, foreign[0])} of another corps has fired at {target.name} in this fire phase: "
            f"'Batterier fra forskellige korps kan ikke beskyde den samme enhed i samme skydefase' (6.1)"
        )
    elif len(others) >= limit:
        why = f"{len(others)} batteries have fired at {target.name} in this fire phase: 'Max. {limit} batterier' (6.1)"
    if not why:
        return "", ""
    if len(legal_targets(state, p, firer)) == 1:
        return "", f"the coordination limits are lifted: {target.name} is the only target it can fire at (6.1, A23)"
    return why, ""


def legal_targets(state: GameState, p: RuleParameters, firer: Unit) -> list[str]:
    """Enemy units ``firer`` may fire at now by arc, range and line of fire (not coordination)."""
    out = []
    for e in on_table_units(state):
        if e.side == firer.side:
            continue
        try:
            plan(state, p, firer, e.id)
        except RuleRefused:
            continue
        out.append(e.id)
    return out


# -- the action -------------------------------------------------------------------------------
def _firer(state: GameState, subject: str) -> Unit | None:
    u = state.units.get(subject)
    if u is None or not _on_table(state, u) or u.side == state.side:
        return None
    return u


def fire_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """``fire`` offered to every unit of the side not on the move in the fire phase (1.2, 6.1)."""
    if state.phase != FIRE_PHASE:
        return None
    u = _firer(state, subject)
    if u is None or u.arm == Arm.OTHER:
        return None
    why = cannot_fire(state, p, u)
    targets = [] if why else legal_targets(state, p, u)
    if not why and not targets:
        why = f"{u.name} has no enemy unit it may fire at{_range_note(p, u)}" + _nearest_refusal(state, p, u)
    params: list[ParameterSpec] = [ParameterSpec("target", "enemy_unit", choices=tuple(targets), label="target")]
    if geo.fires_from_sides(u):
        free = tuple(n for n in geo.fronts(u) if n not in sides_used(state, u.id))
        params.append(ParameterSpec("side", "choice", required=False, choices=free, label="side fired from"))
    most = max((state.units[t].figures for t in targets), default=0)
    return ActionSpec(
        "fire",
        "Fire",
        term="skydning",
        rule="6.1",
        parameters=tuple(params),
        umpire_result=(
            ParameterSpec(
                "figures", "int", minimum=0, maximum=most, label="figures lost (Table 6), at most the target's"
            ),
        ),
        unavailable=why,
        umpire_table="" if why else missing_tables(p, u),
    )


def fire_request_spec(state: GameState, p: RuleParameters, request: ActionRequest) -> ActionSpec | None:
    """``fire`` as far as one request needs it: offered and legal for its firer (``cannot_fire``)
    and the missing tables; the target is measured by ``plan`` when the shot is resolved, so
    no other target is measured (6.1). A battery facing into its town is refused (4.6.3)."""
    if state.phase != FIRE_PHASE:
        return None
    u = _firer(state, request.subject)
    if u is None or u.arm == Arm.OTHER:
        return None
    why = cannot_fire(state, p, u) or march.faces_its_town(u, request.towns)
    return ActionSpec(
        "fire", "Fire", term="skydning", rule="6.1", unavailable=why, umpire_table="" if why else missing_tables(p, u)
    )


def _nearest_refusal(state: GameState, p: RuleParameters, u: Unit) -> str:
    """Why ``u`` may not fire at the nearest enemy unit, as a clause (6.1)."""
    fp = u.footprint()
    enemies = sorted((e for e in on_table_units(state) if e.side != u.side), key=lambda e: fp.distance(e.footprint()))
    if not enemies:
        return " (6.1)"
    try:
        plan(state, p, u, enemies[0].id)
    except RuleRefused as exc:
        return f"; at the nearest, {enemies[0].name}: {exc}"
    return " (6.1)"


def _range_note(p: RuleParameters, u: Unit) -> str:
    table = fire_table(p, u)
    return f" within {table.zones_cm[-1]:g} cm ({table.key})" if table is not None else ""


def _shot(state: GameState, request: ActionRequest, p: RuleParameters) -> tuple[Shot, str]:
    u = state.units[request.subject]
    target = request.parameters.get("target")
    if not isinstance(target, str) or not target:
        raise RuleRefused("fire needs a target: an enemy unit (6.1)")
    side = request.parameters.get("side") or None
    shot = plan(state, p, u, target, str(side) if side else None, request.towns)
    refusal, note = coordination(state, p, shot)
    if refusal:
        raise RuleRefused(refusal)
    if note:
        shot.clauses.append(note)
    return shot, note


def _modifiers(p: RuleParameters, shot: Shot) -> tuple[list[Modifier], str]:
    found = fire_modifiers(p, shot.firer)
    if found is None:
        return [], ""
    key, table = found
    t = shot.target
    formation = "column" if t.state == OrderState.FU.value else t.formation.value  # FU counts as column (1.6)
    factors = [
        ("flank", shot.flank, "flank fire (6.1.8)"),
        (f"target_{formation}", True, f"target in {formation.replace('_', ' ')}"),
    ]
    factors += [
        ("target_in_town", shot.in_town, "target in a town"),
        ("firer_disorder", shot.firer.state == OrderState.U.value, "firer in disorder (U)"),
    ]
    mods = [Modifier(table[name], f"{text} (Table 5, {key})") for name, on, text in factors if on and table.get(name)]
    return mods, key


def _dice(p: RuleParameters) -> DiceSpec:
    return DiceSpec(1, 10, bool(p.get("d10_zero_based")))


def fire_preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    shot, _ = _shot(state, request, p)
    text = f"{shot.firer.name} fires at {shot.target.name}: " + "; ".join(shot.clauses)
    table = fire_table(p, shot.firer)
    missing = missing_tables(p, shot.firer)
    if missing or table is None or shot.zone is None:
        return ActionPreview(
            request.action,
            request.subject,
            True,
            reason=missing,
            explanation=f"{text}. Enter the result: {missing}",
            umpire_entry=True,
        )
    mods, _ = _modifiers(p, shot)
    bonus = sum(m.value for m in mods)
    dist: dict[int, Fraction] = {}
    for face, pr in distribution(_dice(p)).items():
        lost = min(table.lost(shot.zone, face + bonus), shot.target.figures)
        dist[lost] = dist.get(lost, Fraction(0)) + pr
    outcomes = tuple((f"{k} figure{'s' if k != 1 else ''} lost", v) for k, v in sorted(dist.items()))
    mtext = ", ".join(f"{m.value:+d} {m.source}" for m in mods) or "no Table 5 modifier"
    return ActionPreview(request.action, request.subject, True, explanation=f"{text}; 1d10 {mtext}", outcomes=outcomes)


def fire_resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    shot, _ = _shot(state, request, p)
    firer, target = shot.firer, shot.target
    st = stamp(state)
    rolls: list[RollRecord] = []
    roll_dict: dict[str, Any] | None = None
    if request.umpire_result is not None:
        lost = request.umpire_result.get("figures")
        if not isinstance(lost, int) or isinstance(lost, bool):
            raise RuleRefused(f"the umpire's entry needs 'figures' lost as a whole number, got {lost!r}")
        source = "entered by the umpire (Table 6)"
    else:
        table = fire_table(p, firer)
        if table is None or shot.zone is None:
            raise RuleRefused(f"fire: {missing_tables(p, firer)} is not in the rules text; enter the table's result")
        mods, _ = _modifiers(p, shot)
        spec = _dice(p)
        purpose = f"toe-fire:{firer.id}:{shot.side}:{target.id}:t{state.turn}:{state.side}"
        face = dice.roll(purpose, spec)[0]
        total = face + sum(m.value for m in mods)
        lost = min(table.lost(shot.zone, total), target.figures)
        roll = RollRecord(
            purpose,
            f"Fire of {firer.name} at {target.name}, zone {shot.zone}",
            spec,
            (face,),
            tuple(mods),
            threshold_source=f"Table 6 zone {shot.zone}, {table.key}",
            outcome=f"{lost} figure{'s' if lost != 1 else ''} lost",
        )
        rolls.append(roll)
        roll_dict = roll.to_dict()
        source = roll.explain()
    events: list[BattleEvent] = []
    clauses = list(shot.clauses)
    ammo_events: list[BattleEvent] = []
    if is_artillery(firer):
        have, note = ammo.rounds_left(firer, p)
        cost = int(p.get("ammunition_per_shot"))
        if note:
            clauses.append(note)
            ammo_events.append(AmmunitionResupplied(**st, unit=firer.id, ammunition=have))
        ammo_events.append(AmmunitionUsed(**st, unit=firer.id, rounds=cost))
        clauses.append(f"{cost} round spent, {have - cost} left (6.2)")
    casualties = loss_event(state, target.id, lost, "fire", st)  # validates the umpire's entry too
    result = f"{lost} figure{'s' if lost != 1 else ''} lost"
    explanation = f"{firer.name} fires at {target.name}: " + "; ".join(clauses) + f". {source}"
    events.append(
        Fired(
            **st,
            unit=firer.id,
            target=target.id,
            range_cm=round(shot.range_cm, 2),
            roll=roll_dict,
            result=result,
            explanation=explanation,
        )
    )
    if lost:
        events.append(casualties)
    if lost and lost >= target.figures:
        events.append(
            OrderStateChanged(
                **st, unit=target.id, state=OrderState.ELIMINATED.value, reason="all its figures lost to fire (6.1)"
            )
        )
    events.extend(ammo_events)
    events.append(
        record_event(
            state,
            firer.id,
            f"fired at {target.name} (6.1)",
            shot={"target": target.id, "from": shot.side},
            corps=corps_of(state, firer.id),
            artillery=is_artillery(firer),
            chief=under_artillery_chief(state, firer),
        )
    )
    return ActionOutcome("resolved", explanation, tuple(events), tuple(rolls))


FIRE = ActionHandler("fire", fire_spec, fire_preview, fire_resolve, fire_request_spec)


# -- for the map ------------------------------------------------------------------------------
def fire_arcs(state: GameState, p: RuleParameters, unit_id: str) -> dict[str, Polygon]:
    """The ground ``unit_id`` may fire at, one polygon per side it fires from (cm): its arc
    (6.1, A2; for artillery the 30° arc plus the 45° arc out to zone 1) cut to its maximum range
    when Table 6 is given (else to 10 m of table). The map may draw these; targets still need a
    clear line of fire (``plan``).

    Raises
    ------
    RuleRefused
        for an unknown unit.
    """
    u = state.units.get(unit_id)
    if u is None:
        raise RuleRefused(f"no unit {unit_id!r} on the table")
    table = fire_table(p, u)
    reach = table.zones_cm[-1] if table is not None else 1000.0
    wide = float(p.get("fire_arc_half_angle_close_deg"))
    narrow = float(p.get("fire_arc_half_angle_deg"))
    out: dict[str, Polygon] = {}
    for name, front in geo.fronts(u).items():
        if is_artillery(u):
            origin: BaseGeometry = ShapelyPoint(geo.gun_centre(u))
            z1, _ = zone1_bound(p, u)
            shape = (
                geo.arc_region(front, narrow)
                .intersection(origin.buffer(reach))
                .union(geo.arc_region(front, wide).intersection(origin.buffer(z1)))
            )
        else:
            near: BaseGeometry = front.segment if geo.fires_from_sides(u) else u.footprint()
            shape = geo.arc_region(front, wide).intersection(near.buffer(reach))
        if isinstance(shape, Polygon):
            out[name] = shape
        else:
            out[name] = Polygon(shape.convex_hull) if not shape.is_empty else Polygon()
    return out


HANDLERS: tuple[ActionHandler, ...] = (FIRE, *ammo.HANDLERS)
