"""Regimental rules fire (3.3, 3.3.1) and artillery fire (3.3.3) as actions.

Infantry rolls one D6 per front-line base at 5 cm («может стрелять только базами передней
линии»), skirmishers one per base at 7 cm (without an order in a chain), artillery one shots
test per base (1-2 three shots, 3-4 two, 5-6 one) and 3 dice a shot, 30 cm roundshot / 15 cm
canister. Hits on 1-3, saved on 1-3 (a square 1-2, canister 1, «против застрельщиков» 1);
unsaved hits are casualty markers; casualties from canister force a morale test.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from battlestudio.model.units import Arm, Formation, Subtype, Unit
from battlestudio.replay.combat_events import Fired
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, Modifier, RollRecord
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.regimental.command import activation_of
from battlestudio.rules.regimental.common import (
    apply,
    bases_of,
    dice_spec,
    disorganised,
    gap,
    is_skirmishers,
    name,
    next_slot,
    place_markers,
    slot_event,
    stamp,
    unit_or_refuse,
    used_slots,
)

FREE_FIRE = "free_fire"
OOC_FIRE = "out_of_command_fire"
"""Flag ``out_of_command_fire:<unit>`` = the turn it fired without an order (Ambiguity 18)."""


def binomial(n: int, q: Fraction) -> dict[int, Fraction]:
    """Exact distribution of successes of ``n`` independent dice each succeeding with ``q``."""
    return {k: comb(n, k) * q**k * (1 - q) ** (n - k) for k in range(n + 1)}


def mix(dists: dict[int, Fraction], q: Fraction) -> dict[int, Fraction]:
    """Markers from a distribution of dice counts ``dists`` (each die a marker with ``q``)."""
    out: dict[int, Fraction] = {}
    for n, pn in dists.items():
        for k, pk in binomial(n, q).items():
            out[k] = out.get(k, Fraction(0)) + pn * pk
    return out


def roll_hits(
    dice: DiceSource, purpose: str, label: str, n: int, hit: int, save: int, target: str
) -> tuple[int, list[RollRecord]]:
    """``n`` dice hitting on ``1..hit``, then one save die a hit saving on ``1..save`` (3.3.1):
    the unsaved hits (casualty markers) and the two roll records."""
    if n <= 0:
        return 0, []
    faces = dice.roll(purpose, dice_spec(n))
    hits = sum(1 for f in faces if f <= hit)
    rolls = [
        RollRecord(
            purpose,
            label,
            dice_spec(n),
            faces,
            threshold_source=f"3.3.1: each die of 1-{hit} hits",
            outcome=f"{hits} hit{'s' if hits != 1 else ''}",
        )
    ]
    if not hits:
        return 0, rolls
    sp = f"{purpose}:save"
    saves = dice.roll(sp, dice_spec(hits))
    saved = sum(1 for f in saves if f <= save)
    rolls.append(
        RollRecord(
            sp,
            f"Save test, {target}",
            dice_spec(hits),
            saves,
            threshold_source=f"3.3.1: each die of 1-{save} saves a hit",
            outcome=f"{saved} saved, {hits - saved} casualty marker{'s' if hits - saved != 1 else ''}",
        )
    )
    return hits - saved, rolls


@dataclass(frozen=True, slots=True)
class FirePlan:
    """What a fire will roll: ``dice`` (or per-base shots for artillery), ``hit`` and ``save``
    values, ``range_cm`` measured and ``reach_cm`` allowed, the rules that set them."""

    shooter: str
    target: str
    artillery: bool
    bases: int
    dice: int
    hit: int
    save: int
    range_cm: float
    reach_cm: float
    canister: bool
    notes: tuple[str, ...]


def front_bases(u: Unit, p: RuleParameters) -> int:
    """Bases in the front line (3.3): all in line or skirmish order, ``column_front_bases`` in
    a column (assumed), one in square (3.4.2 «фронтальной к противнику базы»)."""
    b = bases_of(u, p)
    if u.formation is Formation.SQUARE:
        return min(1, b)
    if u.formation in (Formation.COLUMN, Formation.MARCH_COLUMN):
        return min(b, int(p.get("column_front_bases")))
    return b


def plan(state: GameState, shooter: str, target: str, ammunition: str, p: RuleParameters) -> FirePlan:
    """The fire of ``shooter`` at ``target`` with its values and rules.

    Raises
    ------
    RuleRefused
        for a target not an enemy, out of range, or a unit that cannot fire.
    """
    u = unit_or_refuse(state, shooter, "firing unit")
    t = unit_or_refuse(state, target, "target")
    if t.side == u.side:
        raise RuleRefused(f"{t.name or target} is not an enemy of {u.name or shooter}")
    ranges = p.get("fire_range_cm")
    notes: list[str] = []
    hit = int(p.get("hit_values"))
    saves = [(int(p.get("save_values")["normal"]), "save 1-3 (3.3.1)")]
    canister = False
    dice = 0
    if u.arm is Arm.ARTILLERY:
        if ammunition not in ("roundshot", "canister"):
            raise RuleRefused(f"artillery fires roundshot or canister, not {ammunition!r} (3.3)")
        canister = ammunition == "canister"
        reach = float(ranges[ammunition])
        notes.append(f"artillery, {ammunition}: range {reach:g} cm, 3 dice a shot (3.3), shots test per base (3.3.3)")
        if canister:
            saves.append((int(p.get("save_values")["canister"]), "canister: save on 1 (3.3.1)"))
            if p.get("canister_die_shift") == "hit_dice":
                hit += 1
                notes.append("canister -1 on the dice: hits on 1-4 (3.3.3; assumed, Ambiguity 8)")
    elif is_skirmishers(u):
        reach = float(ranges["skirmishers"])
        dice = bases_of(u, p)
        notes.append(f"skirmishers: {dice} bases, range {reach:g} cm (3.3)")
        if p.get("skirmisher_save_reading") == "target_of_skirmishers":
            saves.append((int(p.get("save_values")["skirmisher_fire"]), "fired on by skirmishers: save on 1"))
    elif u.arm is Arm.INFANTRY:
        reach = float(ranges["infantry"])
        dice = front_bases(u, p)
        notes.append(
            f"infantry: {dice} front-line base{'s' if dice != 1 else ''} in {u.formation.value}, "
            f"range {reach:g} cm (3.3)"
        )
        if u.subtype is Subtype.LIGHT_INFANTRY or u.attributes.get("regimental_type") == "light":
            if p.get("light_infantry_fire") == "hit_on_4":
                hit += 1
                notes.append("light infantry +1 to shooting: hits on 1-4 (Пехота; assumed, Ambiguity 20)")
            else:
                dice += 1
                notes.append("light infantry +1 to shooting: one more die (Пехота; assumed, Ambiguity 20)")
    else:
        raise RuleRefused(f"{u.name or shooter} is {u.arm.value}: only infantry, skirmishers and artillery fire (3.3)")
    if is_skirmishers(t):
        hit = int(p.get("hit_values_at_skirmishers")) + (hit - int(p.get("hit_values")))
        notes.append(f"at skirmishers: hits on 1-{hit} (Застрельщики)")
        if p.get("skirmisher_save_reading") == "skirmishers":
            saves.append((int(p.get("save_values")["skirmisher_fire"]), "skirmishers save on 1 (Ambiguity 21)"))
    if t.formation is Formation.SQUARE:
        saves.append((int(p.get("save_values")["square"]), "target in square: save on 1-2 (3.3.1)"))
    save, why = min(saves)
    if len(saves) > 1:
        notes.append(why)
    d = gap(u, t)
    if d > reach + 1e-6:
        raise RuleRefused(f"{t.name or target} is {d:.1f} cm from {u.name or shooter}, beyond its {reach:g} cm (3.3)")
    return FirePlan(
        shooter, target, u.arm is Arm.ARTILLERY, bases_of(u, p), dice, hit, save, d, reach, canister, tuple(notes)
    )


def marker_chance(fp: FirePlan) -> Fraction:
    return Fraction(fp.hit, 6) * (1 - Fraction(fp.save, 6))


def shots_distribution(fp: FirePlan, p: RuleParameters) -> dict[int, Fraction]:
    """Exact distribution of the number of fire dice: fixed for infantry; for artillery the sum
    over its bases of 3 dice × shots (3.3.3), canister shifting the shots die when read so."""
    if not fp.artillery:
        return {fp.dice: Fraction(1)}
    per_die = shots_per_die(fp, p)
    one = {3 * s: Fraction(per_die.count(s), 6) for s in set(per_die)}
    dist = {0: Fraction(1)}
    for _ in range(fp.bases):
        nxt: dict[int, Fraction] = {}
        for a, pa in dist.items():
            for b, pb in one.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * pb
        dist = nxt
    return dist


def shots_per_die(fp: FirePlan, p: RuleParameters) -> list[int]:
    table = [int(v) for v in p.get("shots_test_table")]
    if fp.canister and p.get("canister_die_shift") == "shots_test":
        return [table[max(0, f - 2)] for f in range(1, 7)]
    return table


def _kind(u: Unit) -> str:
    return "artillery fire" if u.arm is Arm.ARTILLERY else "fire"


def free_fire(state: GameState, u: Unit, p: RuleParameters) -> bool:
    """Skirmishers in a chain fire without an order (Застрельщики), ``free_fire_per_turn`` times."""
    if not (is_skirmishers(u) and u.formation is Formation.SKIRMISH):
        return False
    rec = state.flags.get(f"{FREE_FIRE}:{u.id}")
    done = int(rec.get("count", 0)) if isinstance(rec, dict) and rec.get("turn") == state.turn else 0
    return done < int(p.get("free_fire_per_turn"))


def order_lost(state: GameState, u: Unit) -> str:
    """The brigade or division above ``u`` whose order did not arrive this turn (its activation
    granted no action: the out-of-zone order test's 5-6), or ``""`` (Дистанция командования)."""
    for f in state.oob.chain_of_command(u.id):
        rec = activation_of(state, f)
        if rec is not None and not rec.get("actions"):
            return f
    return ""


def out_of_command_fire(state: GameState, u: Unit, p: RuleParameters) -> str:
    """The formation whose lost order lets ``u`` fire without an order, once this turn
    («Дивизия, как и полк, может стрелять без приказа»; Ambiguity 18, assumed
    ``out_of_command_fire`` = ``free_fire``; ``none`` turns it off), or ``""``."""
    if p.get("out_of_command_fire") != "free_fire" or (state.side and u.side != state.side):
        return ""
    f = order_lost(state, u)
    if not f or state.flags.get(f"{OOC_FIRE}:{u.id}") == state.turn:
        return ""
    return f


def reach_cm(u: Unit, p: RuleParameters) -> float:
    """The longest range (cm) ``u`` fires at: canister or roundshot for artillery (3.3)."""
    ranges = p.get("fire_range_cm")
    if u.arm is Arm.ARTILLERY:
        return max(float(ranges["roundshot"]), float(ranges["canister"]))
    return float(ranges["skirmishers"] if is_skirmishers(u) else ranges["infantry"])


def targets_in_reach(state: GameState, u: Unit, p: RuleParameters) -> tuple[str, ...]:
    """Ids of the enemy units on the table within ``reach_cm`` of ``u``, nearest first (3.3)."""
    reach = reach_cm(u, p) + 1e-6
    found = [
        (gap(u, t), t.id)
        for t in state.units.values()
        if t.side != u.side and t.id not in state.off_table and gap(u, t) <= reach
    ]
    return tuple(i for _, i in sorted(found))


def fire_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered to an infantry, skirmisher or artillery unit in the activation phase (3.3); the
    targets offered are the enemy units within its range, and with none it is not legal."""
    u = state.units.get(subject)
    if u is None or state.phase != "activation" or u.arm not in (Arm.INFANTRY, Arm.ARTILLERY):
        return None
    targets = targets_in_reach(state, u, p)
    params: tuple[ParameterSpec, ...] = (ParameterSpec("target", "enemy_unit", label="Target", choices=targets),)
    if u.arm is Arm.ARTILLERY:
        params += (ParameterSpec("ammunition", "choice", choices=("roundshot", "canister"), label="Ammunition"),)
    why = ""
    if state.side and u.side != state.side:
        why = f"it is {state.side}'s activation"
    elif disorganised(u) and is_skirmishers(u):
        why = "disorganised skirmishers may do nothing but reform (Застрельщики)"
    elif not free_fire(state, u, p) and not out_of_command_fire(state, u, p):
        slot, f, why = next_slot(state, subject, "fire")
        if not why and u.subtype is Subtype.FOOT_ARTILLERY:
            why = foot_artillery_unready(state, subject, f)
    if not why and not targets:
        why = f"no enemy unit within its {reach_cm(u, p):g} cm range (3.3)"
        enemies = [(gap(u, t), t) for t in state.units.values() if t.side != u.side and t.id not in state.off_table]
        if enemies:
            d, t = min(enemies, key=lambda e: (e[0], e[1].id))
            why += f": the nearest, {t.name or t.id}, is {d:.1f} cm away"
    return ActionSpec(
        "fire",
        "Artillery fire" if u.arm is Arm.ARTILLERY else "Fire",
        "Артиллерийский огонь" if u.arm is Arm.ARTILLERY else "Стрельба",
        "3.3.3" if u.arm is Arm.ARTILLERY else "3.3, 3.3.1",
        parameters=params,
        unavailable=why,
    )


def foot_artillery_unready(state: GameState, uid: str, formation: str) -> str:
    """Foot artillery that moved in this activation must deploy before it fires (Артиллерия)."""
    rec = state.flags.get(f"regimental_moves:{uid}")
    if not (isinstance(rec, dict) and rec.get("turn") == state.turn and rec.get("formation") == formation):
        return ""
    return (
        ""
        if rec.get("deployed")
        else "foot artillery moved this activation: it must spend an action to deploy first (Артиллерия)"
    )


def fire_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    fp = plan(state, req.subject, str(req.parameters.get("target", "")), str(req.parameters.get("ammunition", "")), p)
    q = marker_chance(fp)
    dist = mix(shots_distribution(fp, p), q)
    exp = sum((k * v for k, v in dist.items()), Fraction(0))
    text = (
        f"{name(state, fp.shooter)} fires at {name(state, fp.target)} at {fp.range_cm:.1f} cm: "
        + "; ".join(fp.notes)
        + f"; each die a casualty marker with {fp.hit}/6 × {6 - fp.save}/6 = {q}"
    )
    back = return_plan(state, fp, p)
    if back is not None:
        text += f"; {name(state, back.shooter)} fires back at the same moment (return_fire, Ambiguity 7): " + "; ".join(
            back.notes
        )
    odds = (("at least one casualty marker", 1 - dist.get(0, Fraction(0))), ("expected casualty markers", exp))
    outcomes = tuple((f"{k} marker{'s' if k != 1 else ''}", v) for k, v in sorted(dist.items()) if v)
    return ActionPreview("fire", req.subject, True, "", text, odds, outcomes, assumed=tuple(p.assumptions()))


def fire_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    """Roll the fire: the shots test (artillery), the fire dice, the saves; markers and their
    consequences follow the ``Fired`` event; the action slot is spent (2.2) unless the unit
    fires without an order."""
    u = state.units[req.subject]
    fp = plan(state, req.subject, str(req.parameters.get("target", "")), str(req.parameters.get("ammunition", "")), p)
    events: list[BattleEvent] = []
    rolls: list[RollRecord] = []
    if free_fire(state, u, p):
        rec = state.flags.get(f"{FREE_FIRE}:{u.id}")
        done = int(rec.get("count", 0)) if isinstance(rec, dict) and rec.get("turn") == state.turn else 0
        tag = f"free{done + 1}"
        events.append(
            CommandStateChanged(
                **stamp(state),
                subject=u.id,
                state=FREE_FIRE,
                value={"turn": state.turn, "count": done + 1},
                reason="skirmishers in a chain fire without an order (Застрельщики)",
            )
        )
        cost = "without an order (skirmish chain)"
    elif lost := out_of_command_fire(state, u, p):
        c = state.commanders.get(lost)
        lost = (c.name or lost) if c is not None else lost
        tag = "ooc"
        events.append(
            CommandStateChanged(
                **stamp(state),
                subject=u.id,
                state=OOC_FIRE,
                value=state.turn,
                reason=f"{lost}'s order did not arrive: it fires without an order (Ambiguity 18)",
            )
        )
        cost = f"without an order: {lost}'s order did not arrive (Ambiguity 18)"
    else:
        slot, f, why = next_slot(state, u.id, "fire")
        if why:
            raise RuleRefused(why)
        tag = f"a{slot + 1}"
        events.append(slot_event(state, u.id, f, slot, _kind(u)))
        cost = f"action {slot + 1} of {f}'s activation, {len(used_slots(state, u.id, f)) + 1} used"
    base = f"regimental-fire:{u.id}:t{state.turn}:{tag}"
    markers, fire_rolls, hit_rolls = _roll_plan(state, fp, base, dice, p)
    rolls += fire_rolls
    fired = _fired(state, fp, markers, hit_rolls, fire_rolls)
    back = return_plan(state, fp, p)
    back_markers = 0
    if back is not None:  # simultaneous: rolled on the state before either side's markers
        back_markers, back_rolls, back_hits = _roll_plan(state, back, f"{base}:return", dice, p)
        rolls += back_rolls
        events.append(_fired(state, back, back_markers, back_hits, back_rolls))
    events.insert(0, fired)
    after = apply(state, events)
    more, more_rolls, text = place_markers(
        after,
        fp.target,
        markers,
        "canister" if fp.canister else "fire",
        p,
        dice,
        force_test=fp.canister and markers > 0,
        key=base,
        situational=skirmisher_morale(u, p),
    )
    events += more
    rolls += more_rolls
    if back is not None and back.target in state.units:
        after = apply(state, events)
        if back.target in after.units:
            ret, ret_rolls, ret_text = place_markers(
                after,
                back.target,
                back_markers,
                "canister" if back.canister else "fire",
                p,
                dice,
                force_test=back.canister and back_markers > 0,
                key=f"{base}:return",
            )
            events += ret
            rolls += ret_rolls
            text += f"; return fire (Ambiguity 7): {ret_text}"
    explanation = (
        f"{name(state, u.id)} fires at {name(state, fp.target)} ({fp.range_cm:.1f} cm; {cost}): "
        + "; ".join(fp.notes)
        + ". "
        + "; ".join(r.explain() for r in rolls)
        + f". {text}."
    )
    return ActionOutcome("resolved", explanation, tuple(events), tuple(rolls), tuple(p.assumptions()))


def _roll_plan(
    state: GameState, fp: FirePlan, base: str, dice: DiceSource, p: RuleParameters
) -> tuple[int, list[RollRecord], list[RollRecord]]:
    """Roll ``fp``: the shots test (artillery, 3.3.3), the fire dice and the saves (3.3.1);
    ``(markers, every roll, the hit and save rolls)``."""
    rolls: list[RollRecord] = []
    n = fp.dice
    if fp.artillery:
        sp = f"{base}:shots"
        faces = dice.roll(sp, dice_spec(fp.bases))
        table = shots_per_die(fp, p)
        shots = sum(table[f - 1] for f in faces)
        n = shots * int(p.get("artillery_dice_per_shot"))
        rolls.append(
            RollRecord(
                sp,
                f"Shots test, {name(state, fp.shooter)} ({fp.bases} base{'s' if fp.bases != 1 else ''})",
                dice_spec(fp.bases),
                faces,
                threshold_source="3.3.3: 1-2 three shots, 3-4 two, 5-6 one",
                outcome=f"{shots} shot{'s' if shots != 1 else ''}, {n} dice",
            )
        )
    markers, hit_rolls = roll_hits(
        dice,
        base,
        f"Fire test, {name(state, fp.shooter)} at {name(state, fp.target)}",
        n,
        fp.hit,
        fp.save,
        name(state, fp.target),
    )
    return markers, rolls + hit_rolls, hit_rolls


def _fired(state: GameState, fp: FirePlan, markers: int, hits: list[RollRecord], rolls: list[RollRecord]) -> Fired:
    return Fired(
        **stamp(state),
        unit=fp.shooter,
        target=fp.target,
        range_cm=round(fp.range_cm, 2),
        roll=hits[0].to_dict() if hits else None,
        result=f"{markers} casualty marker{'s' if markers != 1 else ''}",
        explanation="; ".join(r.explain() for r in rolls) or "no dice",
    )


def skirmisher_morale(shooter: Unit, p: RuleParameters) -> tuple[Modifier, ...]:
    """«Застрельщики понижают мораль атакуемого подразделения на 1»: the morale tests their fire
    forces take -1 (assumed ``skirmisher_morale_by`` = ``fire_and_melee``, Ambiguity 21; ``melee``
    keeps it to the units they attack in a melee)."""
    if not is_skirmishers(shooter) or p.get("skirmisher_morale_by") != "fire_and_melee":
        return ()
    return (
        Modifier(int(p.get("morale_modifiers")["attacking_skirmishers"]), "fired on by skirmishers (Застрельщики)"),
    )


def return_plan(state: GameState, fp: FirePlan, p: RuleParameters) -> FirePlan | None:
    """The target's simultaneous fire back at the shooter when the scenario chooses it
    (assumed ``return_fire``, Ambiguity 7): only a target that may fire at the shooter (an
    infantry, skirmisher or artillery unit in range, not disorganised skirmishers); artillery
    fires canister within its canister range, else roundshot."""
    if not p.get("return_fire"):
        return None
    t = state.units.get(fp.target)
    if t is None or t.arm not in (Arm.INFANTRY, Arm.ARTILLERY) or (disorganised(t) and is_skirmishers(t)):
        return None
    ammo = ""
    if t.arm is Arm.ARTILLERY:
        near = fp.range_cm <= float(p.get("fire_range_cm")["canister"]) + 1e-6
        ammo = "canister" if near else "roundshot"
    try:
        return plan(state, fp.target, fp.shooter, ammo, p)
    except RuleRefused:
        return None


HANDLERS: tuple[ActionHandler, ...] = (ActionHandler("fire", fire_spec, fire_preview, fire_resolve),)
