"""Torden over Europa: artillery ammunition (6.2 "Artilleri ammunition") and the ``resupply``
action, complete in the seed.

* Allowance: "8 satser for 6 pundige batterier, 10 satser for 12 pundige batterier 12 satser for
  fransk garde artilleri" (``ammunition_rounds``); "Det koster en sats at foretage en skydning i
  et træk" (``ammunition_per_shot``).
* Resupply ("Genforsyning"): a battery "uden for 50 cm afstand af hvilken som helst fjendtlig
  enhed" (strictly more than 50 cm from every enemy unit, nearest points, generals excluded),
  "i egen eller modstanderens skydefase" (any fire phase), on 1d10 "0-4" — restored to the full
  allowance (A24). Assumed (A24): once per fire phase, and a battery fires or resupplies in a
  fire phase, not both (``resupply_excludes_fire``).

Battery type, read from the unit record: ``attributes["battery_type"]`` (``6pdr``, ``12pdr``,
``french_guard``) when set; else French Guard artillery (nation France, quality ``guard`` or
``attributes["guard"]``); else 12-pdr for subtype ``heavy_artillery`` or
``attributes["gun_category"] == "12pdr"``; else 6-pdr for ``gun_category`` ``6pdr``; any other
battery (foot or horse of unstated calibre) takes ``ammunition_unstated_calibre`` (assumed
6-pdr, A24). ``Unit.ammunition`` None means the battery has not been counted yet: it has its
full allowance, and the explanation says so.

The fire phase's bookkeeping (who fired at what, who tried to resupply) is the state flag
``toe_fire:<unit>`` (``CommandStateChanged``), valid for one turn, side and phase.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from battlestudio.model.geometry import TINY
from battlestudio.model.units import Arm, OrderState, Subtype, Unit
from battlestudio.replay.combat_events import AmmunitionResupplied
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, DiceSpec, RollRecord
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.toe.common import enemies_of

FIRE_PHASE = "fire"
FIRE_FLAG = "toe_fire"
"""``CommandStateChanged`` state of the fire phase's bookkeeping: ``flags["toe_fire:<unit>"]``
= ``{"turn", "side", "shots": [{"target", "from"}], "resupply": bool, "corps", "chief"}``."""

BATTERY_TYPES = ("6pdr", "12pdr", "french_guard")


def stamp(state: GameState) -> dict[str, Any]:
    return {"turn": state.turn, "side": state.side, "phase": state.phase}


def phase_record(state: GameState, uid: str) -> dict[str, Any]:
    """This fire phase's record of ``uid`` (``{}`` when it has done nothing in it)."""
    v = state.flags.get(f"{FIRE_FLAG}:{uid}")
    if isinstance(v, dict) and v.get("turn") == state.turn and v.get("side") == state.side:
        return dict(v)
    return {}


def record_event(state: GameState, uid: str, reason: str, **changes: Any) -> CommandStateChanged:
    """The flag event updating ``uid``'s record of this fire phase with ``changes``."""
    rec = phase_record(state, uid) or {"turn": state.turn, "side": state.side, "shots": [], "resupply": False}
    shots = list(rec.get("shots", ()))
    if "shot" in changes:
        shots.append(changes.pop("shot"))
    rec.update(changes, shots=shots)
    return CommandStateChanged(**stamp(state), subject=uid, state=FIRE_FLAG, value=rec, reason=reason)


def battery_type(u: Unit, p: RuleParameters) -> tuple[str, str]:
    """The battery's type for 6.2 and how it was read (see the module docstring)."""
    given = u.attributes.get("battery_type")
    if given in BATTERY_TYPES:
        return str(given), "its record's battery_type"
    if u.nation == "France" and (u.quality == "guard" or u.attributes.get("guard")):
        return "french_guard", "French Guard artillery"
    category = str(u.attributes.get("gun_category", ""))
    if u.subtype == Subtype.HEAVY_ARTILLERY or category == "12pdr":
        return "12pdr", "a 12-pounder battery"
    if category == "6pdr":
        return "6pdr", "a 6-pounder battery"
    unstated = str(p.get("ammunition_unstated_calibre"))
    if unstated not in BATTERY_TYPES:
        raise RuleRefused(f"ammunition_unstated_calibre must be one of {', '.join(BATTERY_TYPES)}, got {unstated!r}")
    return (
        unstated,
        f"a {u.subtype.value.replace('_', ' ') if u.subtype else 'battery'} of unstated calibre, "
        f"read as {unstated} (A24)",
    )


def allowance(u: Unit, p: RuleParameters) -> tuple[int, str]:
    """Full allowance of rounds (6.2) and a clause saying which type gave it."""
    kind, how = battery_type(u, p)
    rounds = p.get("ammunition_rounds")
    try:
        n = int(rounds[kind])
    except (KeyError, TypeError, ValueError):
        raise RuleRefused(f"ammunition_rounds has no whole number for {kind!r}: {rounds!r}") from None
    return n, f"{n} rounds for {how} (6.2)"


def rounds_left(u: Unit, p: RuleParameters) -> tuple[int, str]:
    """Rounds the battery has now and, when it was not counted yet, the clause saying it has
    its full allowance."""
    if u.ammunition is not None:
        return u.ammunition, ""
    n, why = allowance(u, p)
    return n, f"ammunition not counted yet: full allowance, {why}"


def nearest_enemy(state: GameState, u: Unit) -> tuple[Unit | None, float]:
    """The nearest enemy tactical unit (footprints, nearest points) and its distance in cm."""
    best: tuple[Unit | None, float] = (None, float("inf"))
    fp = u.footprint()
    for e in enemies_of(state, u.side):
        d = float(fp.distance(e.footprint()))
        if d < best[1]:
            best = (e, d)
    return best


def resupply_dice(p: RuleParameters) -> DiceSpec:
    """The d10 of resupply, read 0-9 (assumed ``d10_zero_based``, A1)."""
    return DiceSpec(1, 10, bool(p.get("d10_zero_based")))


def resupply_success(p: RuleParameters, face: int) -> bool:
    """Whether ``face`` resupplies: "et resultat på 0-4" (a 1-10 die reads its 10 as 0, A1)."""
    faces = {int(f) for f in p.get("resupply_faces")}
    dice = resupply_dice(p)
    read = 0 if (not dice.zero_based and face == 10) else face
    return read in faces


def resupply_odds(p: RuleParameters) -> Fraction:
    dice = resupply_dice(p)
    hits = sum(1 for f in range(dice.low, dice.high + 1) if resupply_success(p, f))
    return Fraction(hits, dice.sides)


def _battery(state: GameState, subject: str) -> Unit | None:
    u = state.units.get(subject)
    if u is None or u.arm != Arm.ARTILLERY or u.id in state.off_table or u.state == OrderState.ELIMINATED.value:
        return None
    return u


def resupply_unavailable(state: GameState, p: RuleParameters, u: Unit) -> str:
    """Why battery ``u`` may not try to resupply now ("" when it may)."""
    rec = phase_record(state, u.id)
    if rec.get("resupply"):
        return f"{u.name} has already tried to resupply in this fire phase (6.2; once a fire phase, A24)"
    if rec.get("shots") and p.get("resupply_excludes_fire"):
        return f"{u.name} has fired in this fire phase: a battery fires or resupplies, not both (6.2, A24)"
    have, _ = rounds_left(u, p)
    full, why = allowance(u, p)
    if have >= full:
        return f"{u.name} has its full allowance ({why})"
    limit = float(p.get("resupply_min_enemy_distance_cm"))
    enemy, d = nearest_enemy(state, u)
    if enemy is not None and d <= limit + TINY:
        return (
            f"{enemy.name} is {d:.1f} cm from {u.name}: a battery is resupplied only more than "
            f"{limit:g} cm from every enemy unit (6.2, 'Der kan ikke genforsynes inden for 50 cm af fjenden')"
        )
    return ""


def resupply_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """``resupply`` offered to every battery of either side in a fire phase (6.2: "i egen eller
    modstanderens skydefase")."""
    if state.phase != FIRE_PHASE:
        return None
    u = _battery(state, subject)
    if u is None:
        return None
    return ActionSpec(
        "resupply",
        "Resupply ammunition",
        term="genforsyning",
        rule="6.2",
        unavailable=resupply_unavailable(state, p, u),
        note=f"1d10: 0-4 restores the full allowance ({allowance(u, p)[1]})",
    )


def resupply_preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    u = state.units[request.subject]
    full, why = allowance(u, p)
    odds = resupply_odds(p)
    have, note = rounds_left(u, p)
    text = (
        f"{u.name} has {have} rounds{f' ({note})' if note else ''}; 1d10 0-4 resupplies it to {full} ({why}): "
        f"{odds.numerator}/{odds.denominator} (6.2)"
    )
    return ActionPreview(request.action, request.subject, True, explanation=text, odds=(("resupplied", odds),))


def resupply_resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    u = state.units[request.subject]
    full, why = allowance(u, p)
    spec = resupply_dice(p)
    purpose = f"toe-resupply:{u.id}:t{state.turn}:{state.side}"
    face = dice.roll(purpose, spec)[0]
    ok = resupply_success(p, face)
    faces = sorted({int(f) for f in p.get("resupply_faces")})
    under = spec.zero_based and faces == list(range(0, faces[-1] + 1))  # "0-4" is a roll of at most 4
    roll = RollRecord(
        purpose,
        f"Resupply of {u.name}",
        spec,
        (face,),
        threshold=faces[-1] if under else None,
        at_most=under,
        threshold_source="6.2: a result of 0-4 resupplies",
        outcome=f"resupplied to {full} rounds" if ok else "not resupplied",
        success=ok,
    )
    text = roll.explain() + (f" ({why})" if ok else "")
    events: list[BattleEvent] = []
    if ok:
        events.append(AmmunitionResupplied(**stamp(state), unit=u.id, ammunition=full))
    events.append(record_event(state, u.id, text, resupply=True, resupply_roll=roll.to_dict()))
    return ActionOutcome("resolved", text, tuple(events), (roll,))


RESUPPLY = ActionHandler("resupply", resupply_spec, resupply_preview, resupply_resolve)
HANDLERS: tuple[ActionHandler, ...] = (RESUPPLY,)
