"""Torden over Europa: melee (7.1-7.3) and the winner's follow-up (7.3.1) as actions.

``melee`` (phase ``attack``, 1.2 step 6.2): the subject attacks an enemy in base contact
(5.1 "i brikkontakt"), optionally with a support unit (7.1 "Støtteenhed"). "Begge spillere
kaster 2 sekssidede terninger. Terningkastet reguleres med de faktorer der er vist i tabel 7"
(7.2.1); losses and the loser's morale deduction come from Table 8. Both tables are lost: they
are the scenario parameters ``melee_modifiers`` / ``melee_odds_modifiers`` (Table 7) and
``melee_losses.<arm>`` (Table 8), and until the scenario gives them the umpire enters the
winner and the figures each side lost. Everything around the tables is computed: who may
attack, the support conditions, artillery at 1/3 in the odds, sheltering and overrun batteries,
towns without flank or rear, continued melee (both defender), the exact odds of the opposed 2d6.

``advance`` (7.3.1 "Rømmet territorium"): an infantry attacker in column or a cavalry attacker
that won "skal ... rykke op til 5 cm frem, besætte bygning eller foretage fortsat angreb".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any
from collections.abc import Mapping

from battlestudio.model.terrain import TerrainKind
import shapely

from battlestudio.model.units import Arm, Commander, Echelon, Formation, OrderState, Unit
from battlestudio.replay.combat_events import Melee
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import OrderStateChanged, UnitRemoved
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, DiceSpec, Modifier, RollRecord
from battlestudio.rules.losses import loss_event
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.toe.combat_marks import CombatMarked, mark_of, melee_count, this_turn
from battlestudio.rules.toe import after_melee
from battlestudio.rules.toe.common import corps_of, order_in_force_for
from battlestudio.rules.toe.contact import (
    CONTACT_SLACK_CM,
    DECLARED,
    PHASE,
    attack_cancelled,
    enemies_in_contact,
    in_contact,
    on_table,
    sheltered_in,
    stamp_of,
    this_player_turn,
    units_near,
)

WINNERS = ("attacker", "defender", "undecided")


def aspect_of(attacker: Unit, defender: Unit) -> str:
    """Where ``attacker`` stands against ``defender``: ``front``, ``flank`` or ``rear``, from
    the attacker's footprint centre in the defender's frame (behind its extended front: flank;
    behind its rear and within its width: rear). 5.3.2 judges by where the move started, so the
    request may say otherwise."""
    r = defender.rect()
    c = attacker.footprint().centroid
    s, lat = r.local((c.x, c.y))
    if s >= 0:
        return "front"
    if s <= -r.depth and abs(lat) <= r.width / 2:
        return "rear"
    return "flank"


def support_problems(state: GameState, p: RuleParameters, supported: Unit, sup: Unit) -> list[str]:
    """The 7.1 support conditions ``sup`` fails for ``supported`` (empty: it may support).

    "Den støttede enhed er fra eget korps, ... af samme våbenart, Den støttende enhed er bagved
    den støttede enhed bagerste geled, ... maksimalt 10 cm fra den støttede enhed. Den støttende
    enhed er i ordren". ``support_reading`` (ERRATA 1) reads the last condition: ``order`` (under
    the same standing order as the supported unit, the literal "i ordren"), ``O`` (in order, the
    emendation "i orden") or ``both``.
    """
    out = []
    if sup.side != supported.side:
        out.append(f"{sup.name} is not a friendly unit")
        return out
    if sup.id == supported.id:
        return [f"{sup.name} cannot support itself"]
    ca, cb = corps_of(state, supported.id), corps_of(state, sup.id)
    if ca is None or ca != cb:
        out.append(f"{sup.name} is not of {supported.name}'s corps (7.1 'fra eget korps')")
    if sup.arm != supported.arm:
        out.append(
            f"{sup.name} ({sup.arm.value}) is not of the same arm as {supported.name} ({supported.arm.value}) "
            "(7.1 'samme våbenart')"
        )
    r = supported.rect()
    pts = list(sup.footprint().exterior.coords)
    front_most = max(r.s(q) for q in pts)
    if front_most > -r.depth + 1e-6:
        out.append(
            f"{sup.name} is not behind {supported.name}'s rearmost rank "
            "(7.1 'bagved den støttede enhed bagerste geled')"
        )
    elif bool(p.get("support_requires_lateral_overlap")):
        lats = [r.lat(q) for q in pts]
        if max(lats) < -r.width / 2 or min(lats) > r.width / 2:
            out.append(
                f"{sup.name} is not behind {supported.name} but beside its rear (support_requires_lateral_overlap)"
            )
    gap = sup.footprint().distance(supported.footprint())
    limit = float(p.get("support_max_distance_cm"))
    if gap > limit + 1e-9:
        out.append(f"{sup.name} is {gap:.1f} cm from {supported.name}, more than {limit:g} cm (7.1 'maksimalt 10 cm')")
    reading = str(p.get("support_reading"))
    if reading in ("order", "both"):
        a, _ = order_in_force_for(state, supported.id)
        b, _ = order_in_force_for(state, sup.id)
        if (a.id if a else None) != (b.id if b else None):
            out.append(
                f"{sup.name} is not under {supported.name}'s order (7.1 'i ordren', support_reading {reading!r})"
            )
    if reading in ("O", "both") and sup.state != OrderState.O.value:
        out.append(f"{sup.name} is in {sup.state}, not in order O (7.1 read as 'i orden', support_reading {reading!r})")
    return out


def attached_to(state: GameState, p: RuleParameters, battery: Unit) -> Unit | None:
    """The friendly infantry or cavalry unit a battery is in base contact with (7.1: "i
    brikkontakt med egen infanterienhed/kavalerienhed"), or None (an unattached battery)."""
    near = units_near(state, battery, float(p.get("contact_tolerance_cm")) + CONTACT_SLACK_CM)
    for u in near:
        if u.side == battery.side and u.arm in (Arm.INFANTRY, Arm.CAVALRY) and on_table(state, u):
            if in_contact(p, u, battery):
                return u
    return None


# ------------------------------------------------------------------------------ the situation
@dataclass(frozen=True, slots=True)
class Situation:
    """One melee as the rules see it before the roll."""

    attacker: Unit
    defender: Unit
    support: Unit | None
    aspect: str
    town: bool
    continued: bool
    overrun: str  # "" or why the defending battery is lost without a roll
    strength: tuple[Fraction, Fraction]
    notes: tuple[str, ...]
    chiefs: tuple[str, str] = ("", "")  # the army chief committed with the attacker, the defender ("" none, 2.3)

    def conditions(self, side: str) -> list[str]:
        """The Table 7 condition keys that hold for ``side`` (``attacker`` / ``defender``); a unit in FU
        counts as in column (1.6 "regnes ved nærkamp og beskydning som værende i kolonne")."""
        me, them = (self.attacker, self.defender) if side == "attacker" else (self.defender, self.attacker)
        role = "defender" if self.continued else side
        form = Formation.COLUMN.value if me.state == OrderState.FU.value else me.formation.value
        keys = [role, f"formation:{form}", f"arm:{me.arm.value}", f"vs:{them.arm.value}", f"quality:{me.quality}"]
        if me.state != OrderState.O.value:
            keys.append(f"state:{me.state}")
        if self.chiefs[0 if side == "attacker" else 1]:
            keys.append("army_chief")
        if side == "attacker":
            if self.support is not None:
                keys.append("support")
            if self.aspect != "front":
                keys.append(f"attacks_{self.aspect}")
            if self.town:
                keys.append("attacks_town")
        else:
            if self.aspect != "front":
                keys.append(f"attacked_in_{self.aspect}")
            if self.town:
                keys.append("in_town")
        return keys


def sheltered_batteries(state: GameState, p: RuleParameters, host: Unit) -> list[Unit]:
    """The batteries sheltering in ``host`` now (5.3.2, 7.1), in state order."""
    near = units_near(state, host, float(p.get("contact_tolerance_cm")) + CONTACT_SLACK_CM)
    return [b for b in near if b.arm == Arm.ARTILLERY and b.side == host.side and sheltered_in(state, p, b) is host]


def army_chiefs(state: GameState, p: RuleParameters, u: Unit) -> list[Commander]:
    """The army chiefs of ``u``'s side whose position is within ``army_chief_melee_reach_cm`` of
    its footprint, who may be committed to its melee (2.3 "Arméchefen kan indsættes i nærkamp")."""
    reach = float(p.get("army_chief_melee_reach_cm"))
    fp = u.footprint()
    return [
        c
        for c in state.commanders.values()
        if c.side == u.side
        and c.echelon == Echelon.ARMY.value
        and c.id not in state.off_table
        and fp.distance(shapely.Point(c.position)) <= reach + 1e-9
    ]


def _chief(state: GameState, p: RuleParameters, u: Unit, cid: Any, notes: list[str]) -> str:
    """The army chief ``cid`` committed to the melee with ``u``, checked (2.3); "" for none."""
    if not cid:
        return ""
    c = state.commanders.get(str(cid))
    if c is None or c.id in state.off_table:
        raise RuleRefused(f"melee: no general {cid!r} on the table to commit to the melee")
    if c.side != u.side:
        raise RuleRefused(f"melee: {c.name} is not a general of {u.name}'s side")
    if c.echelon != Echelon.ARMY.value:
        raise RuleRefused(
            f"melee: {c.name} is a {c.echelon.replace('_', '-')} general: only an army chief may be committed "
            "to melee (2.3 'Arméchefen kan indsættes i nærkamp')"
        )
    if c not in army_chiefs(state, p, u):
        gap = u.footprint().distance(shapely.Point(c.position))
        reach = float(p.get("army_chief_melee_reach_cm"))
        raise RuleRefused(
            f"melee: {c.name} is {gap:.1f} cm from {u.name}, more than {reach:g} cm: an army chief is committed "
            "with a unit he stands with (2.3, army_chief_melee_reach_cm)"
        )
    notes.append(
        f"the army chief {c.name} is committed to the melee with {u.name} (2.3 'Arméchefen kan indsættes i "
        "nærkamp'); Table 7 reads it as 'army_chief'"
    )
    return c.id


def strength(p: RuleParameters, u: Unit) -> Fraction:
    """Figures counted for the odds: artillery at 1/3 (7.1 "Artillerifigurer medtælles kun med
    en tredjedel for opgørelse af odds i nærkamp")."""
    w = Fraction(str(p.get("melee_artillery_figure_weight"))) if u.arm == Arm.ARTILLERY else Fraction(1)
    return u.figures * w


def _get_unit(state: GameState, uid: Any, what: str) -> Unit:
    u = state.units.get(str(uid)) if uid else None
    if u is None or not on_table(state, u):
        raise RuleRefused(f"melee: no {what} {uid!r} on the table")
    return u


def continued_with(state: GameState, a: Unit, b: Unit) -> bool:
    """Whether ``a`` and ``b`` fought each other in an earlier player-turn (7.3, 7.3.3 "Fortsat
    nærkamp": still in base contact, so both count as defender)."""
    m = mark_of(state, a.id)
    return b.id in tuple(m.get("opponents", ())) and not this_turn(state, m)


def situation(state: GameState, req: ActionRequest, p: RuleParameters) -> Situation:
    """The melee ``req`` asks for, checked (``RuleRefused`` naming the rule when illegal; an
    attacker attacked after a reaction move cannot carry out its attack, 5.2, 7.1; an army chief
    committed with either side is checked, 2.3; only a march column fights on a bridge, 4.7)."""
    att = _get_unit(state, req.subject, "attacker")
    de = _get_unit(state, req.parameters.get("target"), "target")
    if de.side == att.side:
        raise RuleRefused(f"melee: {de.name} is not an enemy of {att.name}")
    if not in_contact(p, att, de):
        raise RuleRefused(f"melee: {att.name} is not in base contact with {de.name} (5.1 'i brikkontakt')")
    for t in req.terrain:
        if getattr(t, "kind", None) is TerrainKind.IMPASSABLE:
            for u in (att, de):
                if u.footprint().intersection(t.geometry).area > 1e-6:
                    raise RuleRefused(
                        f"melee: {u.name} stands in the impassable {t.name or t.id}: units cannot fight there "
                        "(4.7 'Enheder kan ikke kæmpe i ufremkommeligt terræn')"
                    )
    if p.get("river_crossing") == "bridge":
        from battlestudio.rules.toe.march import in_the_river_on_a_bridge  # march reads reactions, which read this

        for u in (att, de):
            why = in_the_river_on_a_bridge(u, req.terrain)
            if why:
                raise RuleRefused(f"melee: {why}, where it cannot fight (river_crossing = 'bridge', assumed A45)")
    continued = continued_with(state, att, de)
    m = mark_of(state, att.id)
    if this_turn(state, m) and de.id in tuple(m.get("opponents", ())):
        raise RuleRefused(
            f"melee: {att.name} and {de.name} already fought this player-turn; if they stay in base contact "
            "they fight on as continued melee in the next (7.3.3)"
        )
    if not continued:
        why = _cannot_attack(state, att)
        if why:
            raise RuleRefused(f"melee: {why}")
        if att.arm == Arm.INFANTRY and de.arm == Arm.CAVALRY:
            raise RuleRefused(
                f"melee: infantry cannot attack cavalry (5.1 'Infanterienheder kan ikke erklære angreb mod "
                f"kavaleri'): {att.name} → {de.name}"
            )
    notes: list[str] = []
    town = bool(req.parameters.get("town", False))
    aspect = str(req.parameters.get("aspect") or "")
    if aspect and aspect not in ("front", "flank", "rear"):
        raise RuleRefused(f"melee: aspect must be front, flank or rear, got {aspect!r}")
    declared = this_player_turn(state, DECLARED, att.id)
    if not aspect and declared is not None and declared.get("target") == de.id and declared.get("aspect"):
        aspect = str(declared["aspect"])
        notes.append(f"{att.name} attacks {de.name}'s {aspect} as declared (5.3: judged where its move started)")
    elif not aspect:
        aspect = aspect_of(att, de)
        notes.append(f"{att.name} stands on {de.name}'s {aspect} (measured; 5.3.2 judges by where the move started)")
    if town and aspect != "front":
        notes.append(
            f"{de.name} holds a town zone: no flank or rear "
            "(7.1 'Enheder i byer anses ikke for havende flanke eller ryg')"
        )
        aspect = "front"
    if de.state == OrderState.FU.value and aspect != "front":
        notes.append(f"{de.name} is in FU and has no front, so no flank or rear (1.6 'ingen front')")
        aspect = "front"
    overrun = ""
    refuge = sheltered_in(state, p, de) if de.arm == Arm.ARTILLERY else None
    if refuge is not None:
        raise RuleRefused(
            f"melee: {de.name} sheltered in {refuge.name} by its reaction: the attack is made on {refuge.name} "
            "(7.1 'føres angrebet mod infanteri-/kavalerienheden', 5.3.2)"
        )
    if de.arm == Arm.ARTILLERY:
        host = attached_to(state, p, de)
        if de.formation == Formation.LIMBERED:
            overrun = (
                f"{de.name} is limbered and its reaction did not save it: lost without loss to the attacker and "
                "without a roll (7.1 'Påprodset artilleri der angribes og ikke gennemfører reaktion anses for tabt')"
            )
        elif host is None and aspect in ("flank", "rear"):
            overrun = (
                f"{de.name}, attached to no infantry or cavalry, is attacked in the {aspect}: taken off the table "
                "without loss to the attacker and without a roll (7.1)"
            )
        elif host is not None:
            notes.append(f"{de.name} did not shelter in {host.name}, so the attack is made on the battery itself (7.1)")
    else:
        for b in units_near(state, de, float(p.get("contact_tolerance_cm")) + CONTACT_SLACK_CM):
            if b.side == de.side and b.arm == Arm.ARTILLERY and on_table(state, b) and in_contact(p, b, de):
                inside = sheltered_in(state, p, b) is de
                notes.append(
                    f"the battery {b.name} {'sheltered in' if inside else 'with'} {de.name} does not count in the "
                    "melee (7.1 'medregnes artillerienheden ikke')"
                )
    sup = None
    sid = req.parameters.get("support")
    if sid:
        sup = _get_unit(state, sid, "support unit")
        problems = support_problems(state, p, att, sup)
        if problems:
            raise RuleRefused(f"melee: {sup.name} cannot support {att.name}: " + "; ".join(problems))
        notes.append(
            f"{sup.name} supports {att.name}: same corps and arm, behind its rear rank, within "
            f"{float(p.get('support_max_distance_cm')):g} cm, {_reading_words(p)} (7.1)"
        )
    chiefs = (
        _chief(state, p, att, req.parameters.get("army_chief"), notes),
        _chief(state, p, de, req.parameters.get("defender_army_chief"), notes),
    )
    if continued:
        notes.append(f"{att.name} and {de.name} are in continued melee: both count as defender (7.3.3)")
    st = (strength(p, att), strength(p, de))
    if Arm.ARTILLERY in (att.arm, de.arm):
        notes.append("artillery figures count 1/3 for the odds (7.1)")
    return Situation(att, de, sup, aspect, town, continued, overrun, st, tuple(notes), chiefs)


def _reading_words(p: RuleParameters) -> str:
    r = str(p.get("support_reading"))
    return {"order": "under the same order ('i ordren')", "O": "in order O ('i orden')"}.get(
        r, "under the same order and in order O"
    )


# ------------------------------------------------------------------------------ Tables 7 and 8
def _table7(p: RuleParameters) -> tuple[Mapping[str, Any], list[tuple[Fraction, int]]] | None:
    mods = p.lookup("melee_modifiers")
    odds = p.lookup("melee_odds_modifiers")
    if mods is None or odds is None:
        return None
    rows = sorted((_ratio(r[0]), int(r[1])) for r in odds[1])
    return dict(mods[1]), rows


def _ratio(v: Any) -> Fraction:
    """A Table 7 odds row: a number (1.5) or ``"3:2"``."""
    if isinstance(v, str) and ":" in v:
        a, b = v.split(":")
        return Fraction(a.strip()) / Fraction(b.strip())
    return Fraction(str(v))


def _losses_rows(p: RuleParameters, arm: str) -> list[tuple[int, int, int, int]] | None:
    found = p.lookup(f"melee_losses.{arm}")
    if found is None:
        whole = p.lookup("melee_losses")
        if whole is None or arm not in whole[1]:
            return None
        rows = whole[1][arm]
    else:
        rows = found[1]
    return sorted((int(r[0]), int(r[1]), int(r[2]), int(r[3]) if len(r) > 3 else 0) for r in rows)


def missing_tables(p: RuleParameters, arms: tuple[str, ...]) -> list[str]:
    out = []
    if _table7(p) is None:
        out.append("Table 7 (nærkampstabel): toe.melee_modifiers and toe.melee_odds_modifiers")
    lost = [a for a in sorted(set(arms)) if _losses_rows(p, a) is None]
    if lost:
        out.append("Table 8 (tab ved nærkamp): " + ", ".join(f"toe.melee_losses.{a}" for a in lost))
    return out


def modifiers(sit: Situation, side: str, p: RuleParameters) -> tuple[Modifier, ...]:
    """The Table 7 modifiers of ``side``: each condition the scenario's table lists, and the
    odds row for its strength against the enemy's (artillery at 1/3)."""
    t7 = _table7(p)
    if t7 is None:
        return ()
    mods, rows = t7
    out = [Modifier(int(mods[k]), f"{k} (Table 7)") for k in sit.conditions(side) if k in mods and int(mods[k])]
    mine, theirs = sit.strength if side == "attacker" else sit.strength[::-1]
    if theirs > 0:
        ratio = mine / theirs
        best = [r for r in rows if r[0] <= ratio]
        if best and best[-1][1]:
            out.append(Modifier(best[-1][1], f"odds {_fmt(mine)}:{_fmt(theirs)} ≥ {_fmt(best[-1][0])}:1 (Table 7)"))
    return tuple(out)


def _fmt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.2f}"


def melee_dice(p: RuleParameters) -> DiceSpec:
    """The dice each side throws (1.1, 7.2.1: 2d6, ``melee_dice``)."""
    count, sides = p.get("melee_dice")
    return DiceSpec(int(count), int(sides))


@lru_cache(maxsize=8)
def _sums(count: int, sides: int) -> dict[int, Fraction]:
    c = Counter(sum(f) for f in product(range(1, sides + 1), repeat=count))
    return {k: Fraction(v, sides**count) for k, v in c.items()}


TWO_D6 = DiceSpec(2, 6)


def opposed_odds(att_mod: int, def_mod: int, dice: DiceSpec = TWO_D6) -> tuple[Fraction, Fraction, Fraction]:
    """Exact chances (attacker higher, defender higher, equal) of two opposed rolls of ``dice``
    (2d6, 7.2, 7.2.1) with these total modifiers."""
    d = _sums(dice.count, dice.sides)
    win = lose = tie = Fraction(0)
    for a, pa in d.items():
        for b, pb in d.items():
            x, y = a + att_mod, b + def_mod
            if x > y:
                win += pa * pb
            elif x < y:
                lose += pa * pb
            else:
                tie += pa * pb
    return win, lose, tie


def table8(p: RuleParameters, arm: str, margin: int, role: str) -> tuple[int, int]:
    """Figures lost and loser's morale deduction from Table 8 for a side of ``arm`` that is the
    ``role`` (winner, loser, tie) by ``margin`` (≥ 0) (7.2)."""
    rows = _losses_rows(p, arm)
    if not rows:
        raise RuleRefused(f"melee: Table 8 has no rows for {arm} (toe.melee_losses.{arm})")
    usable = [r for r in rows if r[0] <= margin] or rows[:1]
    _, w, lo, ded = usable[-1]
    if role == "tie":
        col = str(p.get("melee_tie_loss_column"))
        return (w if col == "winner" else lo), 0
    return (w, 0) if role == "winner" else (lo, ded)


# ------------------------------------------------------------------------------ spec
def _cannot_attack(state: GameState, u: Unit) -> str:
    """Why ``u`` may not attack this player-turn though in contact ("" = it may): a unit of the
    passive side attacks only after declaring as a reacting unit (5.2), and a unit attacked by
    a reacting unit cannot carry out its own attack (5.2, 7.1)."""
    if u.side != state.side and this_player_turn(state, DECLARED, u.id) is None:
        return (
            f"{u.name} belongs to the passive side and declared no attack after a reaction move "
            "(5.2 'Enheden der reagere kan foretage følgende: ... angreb')"
        )
    return attack_cancelled(state, u)


def _who_may(state: GameState, p: RuleParameters, u: Unit) -> tuple[bool, str]:
    """Whether ``u`` is offered the melee, and why it is not legal now: a passive-side unit
    only after declaring as a reacting unit (5.2), never a unit attacked after a voluntary
    reaction move (5.2, 7.1)."""
    foes = enemies_in_contact(state, p, u)
    cont = [e for e in foes if continued_with(state, u, e)]
    if u.side != state.side and not cont and this_player_turn(state, DECLARED, u.id) is None:
        return False, ""
    if cont:
        return True, ""
    why = _cannot_attack(state, u)
    if why:
        return True, why
    if u.arm == Arm.ARTILLERY:
        return True, f"{u.name}: artillery cannot attack (5.1 'Artillerienheder ... kan ikke erklære angreb')"
    if u.state != OrderState.O.value:
        return True, f"{u.name} is in {u.state} and cannot attack (1.6, 5.1 'enheder i U/FU kan ikke erklære angreb')"
    if not foes:
        return True, f"{u.name} is in base contact with no enemy (5.1 'i brikkontakt')"
    return True, ""


def melee_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    u = state.units.get(subject)
    if state.phase != PHASE or not on_table(state, u):
        return None
    assert u is not None
    offered, why = _who_may(state, p, u)
    if not offered:
        return None
    foes = enemies_in_contact(state, p, u)
    arms = tuple(sorted({u.arm.value, *(e.arm.value for e in foes)}))
    missing = missing_tables(p, arms)
    biggest = max((e.figures for e in foes), default=0)
    params = (
        ParameterSpec("target", "enemy_unit", label="enemy in base contact"),
        ParameterSpec("support", "friendly_unit", required=False, label="support unit (støtteenhed, 7.1)"),
        ParameterSpec(
            "aspect",
            "choice",
            required=False,
            choices=("front", "flank", "rear"),
            label="attacked side (measured if empty)",
        ),
        ParameterSpec("town", "bool", required=False, label="the target holds a town zone (7.1)"),
        ParameterSpec(
            "army_chief",
            "choice",
            required=False,
            choices=tuple(c.id for c in army_chiefs(state, p, u)) if foes else (),
            label="army chief committed with it (2.3)",
        ),
        ParameterSpec(
            "defender_army_chief",
            "choice",
            required=False,
            choices=tuple(sorted({c.id for e in foes for c in army_chiefs(state, p, e)})),
            label="army chief committed with the target (2.3)",
        ),
    )
    umpire = (
        ParameterSpec("winner", "choice", choices=WINNERS, label="who won (Table 7)"),
        ParameterSpec("attacker_losses", "int", minimum=0, maximum=u.figures, label=f"figures {u.name} lost (Table 8)"),
        ParameterSpec("defender_losses", "int", minimum=0, maximum=biggest, label="figures the target lost (Table 8)"),
        ParameterSpec(
            "loser_morale_deduction", "int", required=False, minimum=0, label="loser's morale deduction (Table 8)"
        ),
    )
    return ActionSpec(
        "melee",
        "Melee",
        "nærkamp",
        "7.1-7.3",
        "unit",
        params,
        umpire,
        why,
        "; ".join(missing),
        "opposed 2d6 with Table 7 modifiers, losses from Table 8 (7.2.1)",
    )


# ------------------------------------------------------------------------------ preview
def melee_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    sit = situation(state, req, p)
    lines = list(sit.notes)
    if sit.overrun:
        return ActionPreview(
            "melee",
            req.subject,
            True,
            "",
            "; ".join([*lines, sit.overrun]),
            (("attacker wins", Fraction(1)),),
            assumed=tuple(p.assumptions()),
        )
    odds: tuple[tuple[str, Fraction], ...] = ()
    t7 = _table7(p)
    missing = missing_tables(p, (sit.attacker.arm.value, sit.defender.arm.value))
    if t7 is not None:
        ma, md = modifiers(sit, "attacker", p), modifiers(sit, "defender", p)
        sa, sd = sum(m.value for m in ma), sum(m.value for m in md)
        w, lo, t = opposed_odds(sa, sd, melee_dice(p))
        odds = (("attacker wins", w), ("defender wins", lo), ("equal totals, undecided", t))
        lines.append(f"{sit.attacker.name} 2d6 {sa:+d} against {sit.defender.name} 2d6 {sd:+d} (7.2.1, Table 7)")
    if missing:
        lines.append("the umpire enters the result: " + "; ".join(missing) + " not in the rules text")
    return ActionPreview(
        "melee",
        req.subject,
        True,
        "",
        "; ".join(lines),
        odds,
        umpire_entry=bool(missing),
        assumed=tuple(p.assumptions()),
    )


# ------------------------------------------------------------------------------ resolve
def _mark(
    state: GameState, u: Unit, result: str, opponent: Unit, attacker: bool, deduction: int | None, count: bool
) -> CombatMarked:
    old = mark_of(state, u.id)
    opponents = tuple(old.get("opponents", ())) if this_turn(state, old) else ()
    mark: dict[str, Any] = {
        "turn": state.turn,
        "side": state.side,
        "result": result,
        "opponents": [*opponents, opponent.id],
        "attacker": attacker,
        "formation": u.formation.value,
        "state_before": u.state,
        "arm": u.arm.value,
        "deduction": deduction,
        "tested": False,
        "followed_up": False,
    }
    if "original_figures" not in old:
        mark["original_figures"] = u.figures
    return CombatMarked(**stamp_of(state), unit=u.id, mark=mark, count_melee=count)


def _int_entry(entry: Mapping[str, Any], key: str, required: bool = True) -> int | None:
    v = entry.get(key)
    if v is None and not required:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise RuleRefused(f"melee: the umpire's {key} must be a whole number, got {v!r}")
    return v


def melee_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    sit = situation(state, req, p)
    att, de = sit.attacker, sit.defender
    stamp = stamp_of(state)
    lines = list(sit.notes)
    if sit.overrun:
        lines.append(sit.overrun)
        text = "; ".join(lines)
        events: list[BattleEvent] = [
            Melee(
                **stamp,
                attackers=(att.id,),
                defenders=(de.id,),
                winner="attacker",
                roll={"overrun": True, "aspect": sit.aspect},
                explanation=text,
            ),
            _mark(state, att, "winner", de, True, None, True),
            OrderStateChanged(**stamp, unit=de.id, state=OrderState.ELIMINATED.value, reason=sit.overrun),
            UnitRemoved(**stamp, id=de.id, reason="battery overrun in melee (7.1)"),
        ]
        return ActionOutcome("resolved", text, tuple(events), (), tuple(p.assumptions()))
    rolls: tuple[RollRecord, ...] = ()
    roll: dict[str, Any] = {
        "aspect": sit.aspect,
        "continued": sit.continued,
        "strength": [str(sit.strength[0]), str(sit.strength[1])],
        "support": sit.support.id if sit.support else None,
    }
    if any(sit.chiefs):
        roll["army_chiefs"] = list(sit.chiefs)
    missing = missing_tables(p, (att.arm.value, de.arm.value))
    if not req.umpire_result and missing:
        raise RuleRefused("melee: " + "; ".join(missing) + " not in the rules text; enter the table's result")
    if req.umpire_result:
        entry = req.umpire_result
        winner = str(entry.get("winner", ""))
        if winner not in WINNERS:
            raise RuleRefused(f"melee: the umpire's winner must be one of {', '.join(WINNERS)}, got {winner!r}")
        la = _int_entry(entry, "attacker_losses")
        ld = _int_entry(entry, "defender_losses")
        ded = _int_entry(entry, "loser_morale_deduction", required=False)
        assert la is not None and ld is not None
        roll["umpire"] = dict(entry)
        lines.append(
            f"the umpire's entry: {winner}, {att.name} loses {la}, {de.name} loses {ld} "
            "(Tables 7-8 not in the rules text)"
        )
    else:
        n = melee_count(state) + 1
        ma, md = modifiers(sit, "attacker", p), modifiers(sit, "defender", p)
        two = melee_dice(p)
        ra = RollRecord(
            f"toe-melee:{n}:{att.id}:attacker",
            f"Melee, {att.name} attacking {de.name}",
            two,
            dice.roll(f"toe-melee:{n}:{att.id}:attacker", two),
            ma,
            None,
            "7.2.1, Table 7",
        )
        rd = RollRecord(
            f"toe-melee:{n}:{de.id}:defender",
            f"Melee, {de.name} defending against {att.name}",
            two,
            dice.roll(f"toe-melee:{n}:{de.id}:defender", two),
            md,
            None,
            "7.2.1, Table 7",
        )
        margin = abs(ra.total - rd.total)
        winner = "attacker" if ra.total > rd.total else "defender" if rd.total > ra.total else "undecided"
        role_a = "tie" if winner == "undecided" else ("winner" if winner == "attacker" else "loser")
        role_d = "tie" if winner == "undecided" else ("winner" if winner == "defender" else "loser")
        la, da = table8(p, att.arm.value, margin, role_a)
        ld, dd = table8(p, de.arm.value, margin, role_d)
        ded = da if winner == "defender" else dd if winner == "attacker" else None
        if la > att.figures or ld > de.figures:
            lines.append("Table 8 losses above a unit's figures are capped at what it has")
        la, ld = min(la, att.figures), min(ld, de.figures)
        ra = _outcome(ra, winner, "attacker")
        rd = _outcome(rd, winner, "defender")
        rolls = (ra, rd)
        roll["attacker"], roll["defender"] = ra.to_dict(), rd.to_dict()
        lines += [
            ra.explain(),
            rd.explain(),
            f"Table 8 by a margin of {margin}: {att.name} loses {la}, {de.name} loses {ld}",
        ]
    roll.update(winner=winner, attacker_losses=la, defender_losses=ld, loser_morale_deduction=ded)
    if winner == "undecided":
        lines.append("equal totals: neither side loses; both test morale as normal (7.2.2, A31)")
    else:
        loser = de if winner == "attacker" else att
        lines.append(
            f"{loser.name} lost the melee and must test morale (7.2.2 'Taber skal altid teste moral')"
            + (f" with a deduction of {ded} (Table 8)" if ded else "")
        )
        if winner == "attacker":
            for b in sheltered_batteries(state, p, de):
                lines.append(
                    f"if {de.name} must move away from {b.name}'s position after its morale test, the battery is "
                    "destroyed (5.3.2 'er batterierne udslettet'): record it with 'Battery lost'"
                )
        won = att if winner == "attacker" else de
        if winner == "attacker" and (
            (att.arm == Arm.INFANTRY and att.formation == Formation.COLUMN) or att.arm == Arm.CAVALRY
        ):
            lines.append(
                f"{won.name} must advance up to 5 cm, occupy a building or attack on once {loser.name} has "
                "fallen back (7.3.1 'Rømmet territorium')"
            )
    text = "; ".join(lines)
    res_a = "undecided" if winner == "undecided" else ("winner" if winner == "attacker" else "loser")
    res_d = "undecided" if winner == "undecided" else ("winner" if winner == "defender" else "loser")
    evs: list[BattleEvent] = [
        Melee(
            **stamp,
            attackers=(att.id,),
            defenders=(de.id,),
            winner="" if winner == "undecided" else winner,
            roll=roll,
            explanation=text,
        ),
        _mark(state, att, res_a, de, True, ded if res_a == "loser" else None, True),
        _mark(state, de, res_d, att, False, ded if res_d == "loser" else None, False),
    ]
    for u, lost in ((att, la), (de, ld)):
        if lost:
            evs.append(loss_event(state, u.id, lost, "melee (7.2.1, Table 8)", stamp))
        if lost == u.figures:
            evs.append(
                OrderStateChanged(
                    **stamp, unit=u.id, state=OrderState.ELIMINATED.value, reason="no figures left after melee"
                )
            )
            evs.append(UnitRemoved(**stamp, id=u.id, reason="no figures left after melee (7.2.1)"))
    return ActionOutcome("resolved", text, tuple(evs), rolls, tuple(p.assumptions()))


def _outcome(r: RollRecord, winner: str, side: str) -> RollRecord:
    word = "undecided" if winner == "undecided" else ("wins" if winner == side else "loses")
    return replace(r, outcome=f"{side} {word}")


HANDLERS: tuple[ActionHandler, ...] = (
    ActionHandler("melee", melee_spec, melee_preview, melee_resolve),
    *after_melee.HANDLERS,
)
