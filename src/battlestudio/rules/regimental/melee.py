"""Regimental melee (3.4, 3.4.1) with cavalry against infantry and the square test (3.4.2),
cavalry against skirmishers (Застрельщики) and artillery overrun (Артиллерия), as an action.

Both sides roll as in fire, «по кубику за каждую базу» (cavalry 2 a base, a square 4 or 2
disorganised), hits 1-3 saved 1-3, markers placed; then the combat result «модификаторы +
потери противника в ближнем бою + значение на кубике», the higher wins. The loser tests its
morale and rolls its D6: 1-2 withdraws 3 moves disorganised (broken if the test failed or it
was disorganised before), 3-4 «отходит без организации на 2 хода» (read literally: disorganised,
ERRATA 1; assumed ``loser_3_4_disorganised``), 5-6 stands. A square that loses has its own
tables.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from battlestudio.model.units import Arm, Formation, Unit
from battlestudio.replay.combat_events import Fired, Melee
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import FormationChanged
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, Modifier, RollRecord
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.regimental.command import D6, activation_of, roll_d6, table_record
from battlestudio.rules.regimental.common import (
    apply,
    bases_of,
    disorganise,
    disorganised,
    flee,
    formation_of,
    gap,
    is_skirmishers,
    move_rate,
    name,
    next_slot,
    place_markers,
    slot_event,
    stamp,
    take_morale,
    troop_type,
    unit_or_refuse,
    used_slots,
    withdraw,
)
from battlestudio.rules.regimental.fire import binomial, front_bases, roll_hits
from battlestudio.rules.regimental.geometry import ATTACKS, attacked_side, situation
from battlestudio.rules.regimental.morale import zone_flags

WITHDREW = "withdrew_disorganised"
"""Flag ``withdrew_disorganised:<unit>`` = the turn: it must test its morale at the start of the next (3.4)."""


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a melee: its unit, whether it attacks, its result and morale modifiers."""

    unit: str
    attacker: bool
    result_mods: tuple[Modifier, ...]
    morale_mods: tuple[Modifier, ...]


def melee_dice(u: Unit, p: RuleParameters) -> tuple[int, str]:
    """Dice of ``u`` in melee (3.4; 3.4.2): a base's die (cavalry two), a square 4 or 2."""
    if u.formation is Formation.SQUARE:
        sq = p.get("square_dice")
        n = int(sq["disorganised" if disorganised(u) else "ordered"])
        return n, f"square{' with a disorganisation marker' if disorganised(u) else ''}: {n} dice (3.4.2)"
    per = p.get("melee_dice_per_base")
    b = bases_of(u, p)
    k = int(per["cavalry" if u.arm is Arm.CAVALRY else "infantry"])
    return b * k, f"{b} bases × {k} (3.4)"


def _flag(req: ActionRequest, key: str) -> bool:
    return bool(req.parameters.get(key, False))


def modifiers(state: GameState, me: Unit, enemy: Unit, attacker: bool, req: ActionRequest, p: RuleParameters) -> Side:
    """The 3.4.1 result and morale modifiers of ``me`` against ``enemy``, with the troop types
    (Пехота, Кавалерия, Застрельщики) and the square's +3 (3.4.2)."""
    r = p.get("result_modifiers")
    m = p.get("morale_modifiers")
    res: list[Modifier] = []
    mor: list[Modifier] = []
    in_hq, in_gen = zone_flags(state, me, p)
    if in_hq:
        res.append(Modifier(int(r["hq_zone"]), "in the HQ's command zone (3.4.1)"))
    if in_gen and (not in_hq or p.get("zone_bonuses") == "both"):
        res.append(Modifier(int(r["general_zone"]), "in its general's command zone (3.4.1)"))
    sit = situation(me if attacker else enemy, enemy if attacker else me, req.parameters, req.terrain, p)
    attack = sit.attack
    fort = sit.fortified
    fort_to_attacker = p.get("fortification_result_to") == "attacker"
    if attacker:
        f = formation_of(state, me.id)
        fired = False
        if f is not None:
            granted = [str(a) for a in (activation_of(state, f) or {}).get("actions", ())]
            fired = any(granted[i] == "fire" for i in used_slots(state, me.id, f) if i < len(granted))
        if me.arm is Arm.INFANTRY and not fired:
            res.append(Modifier(int(r["bayonet"]), "bayonet attack without firing (3.4.1)"))
        if me.formation is Formation.COLUMN:
            res.append(Modifier(int(r["assault_column"]), "attack in assault column (3.4.1)"))
        if attack == "flank":
            res.append(Modifier(int(r["flank"]), "attack in the flank (3.4.1)"))
        if attack == "rear":
            res.append(Modifier(int(r["rear"]), "attack in the rear (3.4.1)"))
        if fort and fort_to_attacker:
            res.append(Modifier(int(r["fortification"]), "attack on a fortification (3.4.1; ERRATA 2)"))
    else:
        if fort and not fort_to_attacker:
            res.append(Modifier(int(r["fortification"]), "defends a fortification (3.4.1; Ambiguity 13)"))
        if attack == "rear":
            mor.append(Modifier(int(m["rear_attack_defender"]), "attacked in the rear (3.4.1)"))
        if fort:
            mor.append(Modifier(int(m["fortification_defender"]), "defends a fortification (3.4.1)"))
        etype = troop_type(enemy, p)
        if etype == "lancers":
            mor.append(Modifier(int(m["attacking_lancers"]), "attacked by lancers (Кавалерия)"))
        if is_skirmishers(enemy):
            mor.append(Modifier(int(m["attacking_skirmishers"]), "attacked by skirmishers (Застрельщики)"))
    if _flag(req, "attacker_flanks_covered" if attacker else "defender_flanks_covered"):
        mor.append(Modifier(int(m["flanks_covered"]), "flanks covered by neighbouring units (3.4.1)"))
    if troop_type(enemy, p) == "guard":
        mor.append(Modifier(int(m["enemy_guard"]), "the enemy is guard (Пехота)"))
    if me.formation is Formation.SQUARE:
        res.append(Modifier(int(r["square"]), "in square (3.4.2)"))
    own = troop_type(me, p)
    types = {
        "line": ("line_infantry", "line infantry (Пехота)"),
        "grenadiers": ("grenadiers", "grenadiers (Пехота)"),
        "guard": ("guard", "guard (Пехота)"),
        "cuirassiers": ("cuirassiers", "cuirassiers (Кавалерия)"),
        "dragoons": ("dragoons", "dragoons (Кавалерия)"),
    }
    if own in types:
        k, label = types[own]
        res.append(Modifier(int(r[k]), label))
    if is_skirmishers(me) and enemy.arm is Arm.CAVALRY:
        res.append(Modifier(int(r["skirmishers_vs_cavalry"]), "skirmishers against cavalry (Застрельщики)"))
    return Side(me.id, attacker, tuple(res), tuple(mor))


def _check(state: GameState, req: ActionRequest, p: RuleParameters) -> tuple[Unit, Unit, Unit | None]:
    """The attacker, the unit that fights for the defender, and the artillery it covers."""
    a = unit_or_refuse(state, req.subject, "attacker")
    t = unit_or_refuse(state, str(req.parameters.get("target", "")), "target")
    if t.side == a.side:
        raise RuleRefused(f"{t.name or t.id} is not an enemy of {a.name or a.id}")
    contact = float(p.get("melee_contact_cm"))
    d = gap(a, t)
    if d > contact + 1e-6:
        raise RuleRefused(
            f"{t.name or t.id} is {d:.1f} cm from {a.name or a.id}: a melee needs contact (≤ {contact:g} cm; 3.4)"
        )
    if is_skirmishers(t) and situation(a, t, req.parameters, req.terrain, p).in_woods:
        raise RuleRefused(
            f"{t.name or t.id}: skirmishers in a wood cannot be attacked "
            "(«Застрельщики в лесу не могут быть целью для атаки»)"
        )
    if _flag(req, "shoot_first") and troop_type(a, p) != "chasseurs":
        raise RuleRefused(f"only mounted chasseurs fire a shot before the melee (Кавалерия), not {a.name or a.id}")
    guns = None
    if t.arm is Arm.ARTILLERY:
        sup = str(req.parameters.get("supported_by", "") or "")
        if sup:
            s = unit_or_refuse(state, sup, "supporting unit")
            if s.side != t.side or s.arm is Arm.ARTILLERY:
                raise RuleRefused(f"{s.name or sup} cannot support {t.name or t.id} (Артиллерия)")
            if gap(s, t) > contact + 1e-6:
                raise RuleRefused(f"{s.name or sup} does not stand directly behind {t.name or t.id} (Артиллерия)")
            where, _ = attacked_side(s, t, p)
            if where != "rear":
                raise RuleRefused(
                    f"{s.name or sup} stands at the {where} of {t.name or t.id}, not directly behind it "
                    "(Артиллерия: «войска, стоящие строго за ней»)"
                )
            guns, t = t, s
    return a, t, guns


def melee_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered to an infantry or cavalry unit in the activation phase (3.4); artillery never
    melees («Артиллерия не может участвовать в ближнем бою»)."""
    u = state.units.get(subject)
    if u is None or state.phase != "activation" or u.arm not in (Arm.INFANTRY, Arm.CAVALRY):
        return None
    why = ""
    if disorganised(u) and is_skirmishers(u):
        why = "disorganised skirmishers may do nothing but reform (Застрельщики)"
    else:
        _, _, why = next_slot(state, subject, "melee")
    return ActionSpec(
        "melee",
        "Melee",
        "Атака в ближнем бою",
        "3.4, 3.4.1, 3.4.2",
        parameters=(
            ParameterSpec("target", "enemy_unit", label="Target (in contact)"),
            ParameterSpec(
                "attack", "choice", required=False, choices=ATTACKS, label="Attack into (ruling; else the map)"
            ),
            ParameterSpec("fortified", "bool", required=False, label="Fortified (ruling; else the map)"),
            ParameterSpec("attacker_flanks_covered", "bool", required=False, label="Attacker's flanks covered"),
            ParameterSpec("defender_flanks_covered", "bool", required=False, label="Defender's flanks covered"),
            ParameterSpec(
                "supported_by", "unit", required=False, label="Troops directly behind the guns (artillery target)"
            ),
            ParameterSpec("shoot_first", "bool", required=False, label="Mounted chasseurs fire one shot first"),
            ParameterSpec(
                "target_in_woods",
                "bool",
                required=False,
                label="Target in a wood (ruling; else the map)",
            ),
        ),
        unavailable=why,
    )


def win_chance(na: int, nd: int, mod_a: int, mod_d: int, tie: str) -> tuple[Fraction, dict[tuple[int, int], Fraction]]:
    """Exact chance the attacker wins a melee of ``na`` against ``nd`` dice, each a marker with
    1/4 (hit 1-3, save 1-3), then modifiers + enemy casualties + D6 each (3.4); ``tie``
    ``reroll`` (Ambiguity 10) or ``defender_holds``."""
    q = Fraction(1, 4)
    da, dd = binomial(na, q), binomial(nd, q)
    total = Fraction(0)
    joint: dict[tuple[int, int], Fraction] = {}
    for ma, pa in da.items():
        for md, pd in dd.items():
            k = (mod_a + ma) - (mod_d + md)
            win = Fraction(sum(1 for x in range(1, 7) for y in range(1, 7) if x + k > y), 36)
            lose = Fraction(sum(1 for x in range(1, 7) for y in range(1, 7) if x + k < y), 36)
            pw = win / (win + lose) if tie == "reroll" and win + lose else win
            joint[(ma, md)] = pa * pd
            total += pa * pd * pw
    return total, joint


def melee_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    a, t, guns = _check(state, req, p)
    if guns is None and t.arm is Arm.ARTILLERY:
        return ActionPreview(
            "melee",
            req.subject,
            True,
            "",
            f"{t.name or t.id} has no troops directly behind it: overrun and removed (Артиллерия)",
            (("attacker wins", Fraction(1)),),
        )
    sa, sd = modifiers(state, a, t, True, req, p), modifiers(state, t, a, False, req, p)
    na, _ = melee_dice(a, p)
    nd, _ = melee_dice(t, p)
    ma, md = sum(m.value for m in sa.result_mods), sum(m.value for m in sd.result_mods)
    pw, _ = win_chance(na, nd, ma, md, str(p.get("melee_tie")))
    notes = [
        f"{a.name or a.id}: {na} dice, result {ma:+d} ({', '.join(m.source for m in sa.result_mods) or 'none'})",
        f"{t.name or t.id}: {nd} dice, result {md:+d} ({', '.join(m.source for m in sd.result_mods) or 'none'})",
        *situation(a, t, req.parameters, req.terrain, p).notes,
    ]
    outcomes: tuple[tuple[str, Fraction], ...] = ()
    if a.arm is Arm.CAVALRY and t.arm is Arm.INFANTRY and not is_skirmishers(t) and t.formation is not Formation.SQUARE:
        table = [str(v) for v in p.get("square_test_table")]
        outcomes = tuple((k.replace("_", " "), Fraction(table.count(k), 6)) for k in dict.fromkeys(table))
        notes.append("the infantry first takes the square test (3.4.2); the odds above are before it")
    return ActionPreview(
        "melee",
        req.subject,
        True,
        "",
        "; ".join(notes),
        (("attacker wins", pw), ("defender wins", 1 - pw)),
        outcomes,
        assumed=tuple(p.assumptions()),
    )


class _Run:
    """Collects the events and rolls of one melee, keeping the state up to date."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[BattleEvent] = []
        self.rolls: list[RollRecord] = []
        self.text: list[str] = []

    def add(self, events: list[BattleEvent], rolls: list[RollRecord] | None = None, text: str = "") -> None:
        self.state = apply(self.state, events)
        self.events += events
        self.rolls += rolls or []
        if text:
            self.text.append(text)

    def gone(self, uid: str) -> bool:
        return uid not in self.state.units


def _withdraw(run: _Run, uid: str, enemy: Unit, moves: float, dis: bool, why: str, p: RuleParameters) -> None:
    u = run.state.units[uid]
    evs = withdraw(run.state, uid, enemy, moves * move_rate(u, p))
    run.add(evs, text=f"{u.name or uid} withdraws {moves:g} move{'s' if moves != 1 else ''} ({why})")
    if dis:
        run.add(disorganise(run.state, uid, why))
        run.add(
            [
                CommandStateChanged(
                    **stamp(run.state),
                    subject=uid,
                    state=WITHDREW,
                    value=run.state.turn,
                    reason="withdrew disorganised: a morale test at the start of the next turn (3.4)",
                )
            ]
        )


def _loser(run: _Run, loser: Side, winner: Unit, p: RuleParameters, dice: DiceSource, key: str) -> None:
    """The loser's morale test and D6 (3.4), or the square's tables (3.4.2)."""
    u = run.state.units[loser.unit]
    before = disorganised(u)
    passed, evs, roll = take_morale(
        run.state, u.id, p, dice, "lost the melee", loser.morale_mods, melee=True, key=f"{key}:loser"
    )
    run.add(evs, [roll], roll.explain())
    die = roll_d6(dice, f"{key}:loser-d6")
    if u.formation is Formation.SQUARE:
        if not passed and before:
            rec = table_record(f"{key}:loser-d6", f"Square lost, {u.name or u.id}", die, "3.4.2", "no roll needed")
            run.add(flee(run.state, u.id, "a square that lost, failed its test and was disorganised flees (3.4.2)"))
            run.rolls.append(rec)
            run.text.append(f"{u.name or u.id} was disorganised already: broken, flees the field (3.4.2)")
            return
        table = p.get("square_loser_failed_table" if not passed else "square_loser_passed_table")
        res = str(table[die - 1])
        run.rolls.append(
            table_record(
                f"{key}:loser-d6",
                f"Square lost, {u.name or u.id} (morale {'passed' if passed else 'failed'})",
                die,
                "3.4.2",
                res.replace("_", " "),
            )
        )
        if res == "withdraw_1_line":
            _withdraw(run, u.id, winner, 1, False, "square lost: 1 full move, into line (3.4.2)", p)
            run.add([FormationChanged(**stamp(run.state), unit=u.id, formation=Formation.LINE.value)])
        elif res == "withdraw_half_square":
            _withdraw(run, u.id, winner, 0.5, False, "square lost: half a move in square (3.4.2)", p)
        elif res == "withdraw_half_disorganised":
            _withdraw(run, u.id, winner, 0.5, False, "square lost: half a move disorganised, in square (3.4.2)", p)
            run.add(disorganise(run.state, u.id, "square lost the melee (3.4.2)"))
        elif res == "withdraw_half":
            _withdraw(run, u.id, winner, 0.5, False, "square lost: half a move without disorganisation (3.4.2)", p)
        else:
            run.text.append(f"{u.name or u.id} stays in place (3.4.2)")
        return
    res = str(p.get("loser_table")[die - 1])
    run.rolls.append(
        table_record(
            f"{key}:loser-d6",
            f"Loser's result, {u.name or u.id}",
            die,
            "3.4: 1-2 withdraws 3 moves disorganised, 3-4 withdraws 2, 5-6 stays",
            res.replace("_", " "),
        )
    )
    if res == "rout_or_withdraw_3":
        if not passed or before:
            why = "the morale test failed" if not passed else "it already had a disorganisation marker"
            run.add(flee(run.state, u.id, f"lost the melee, 1-2 and {why}: broken (3.4)"))
            run.text.append(f"{u.name or u.id} is broken and flees the field ({why}; 3.4)")
        else:
            _withdraw(run, u.id, winner, 3, True, "lost the melee: 3 full moves with disorganisation (3.4)", p)
    elif res == "withdraw_2":
        dis = bool(p.get("loser_3_4_disorganised"))
        _withdraw(
            run,
            u.id,
            winner,
            2,
            dis,
            "lost the melee: «отходит без организации на 2 хода» (3.4; "
            + ("disorganised, ERRATA 1)" if dis else "no marker, the digest's emendation)"),
            p,
        )
    else:
        run.text.append(f"{u.name or u.id} stays in place (3.4)")


def _square_test(run: _Run, cav: Unit, inf: Unit, p: RuleParameters, dice: DiceSource, key: str) -> None:
    """3.4.2: 1 no square and a morale test (failed: no return fire, melee only; passed: its
    front-line bases fire, as the square's front base does with ``square_return_fire``); 2-5
    square, its front base may fire; 6 square with a disorganisation marker, melee only."""
    die = roll_d6(dice, f"{key}:square")
    res = str(p.get("square_test_table")[die - 1])
    run.rolls.append(
        table_record(
            f"{key}:square",
            f"Square test, {inf.name or inf.id} charged by {cav.name or cav.id}",
            die,
            "3.4.2: 1 no square (morale test), 2-5 square, 6 square disorganised",
            res.replace("_", " "),
        )
    )
    if res == "no_square":
        passed, evs, roll = take_morale(
            run.state, inf.id, p, dice, "no square against cavalry (3.4.2)", key=f"{key}:square"
        )
        run.add(evs, [roll], f"{inf.name or inf.id} does not form square; " + roll.explain())
        if not passed:
            run.text.append("it may not return fire and fights only in melee (3.4.2)")
        elif p.get("square_return_fire") and not run.gone(inf.id):
            # «Если проваливает тест, то не имеет права на ответный огонь»: passed, it keeps it
            n = front_bases(run.state.units[inf.id], p)
            _one_die_shot(
                run, inf, cav, p, dice, f"{key}:return-fire", f"{inf.name or inf.id} fires at {cav.name or cav.id}", n
            )
        return
    run.add([FormationChanged(**stamp(run.state), unit=inf.id, formation=Formation.SQUARE.value)])
    if res == "square_disorganised":
        run.add(
            disorganise(run.state, inf.id, "formed square on a 6 (3.4.2)"),
            text=f"{inf.name or inf.id} forms square, disorganised, melee only",
        )
        return
    run.text.append(f"{inf.name or inf.id} forms square and may fire its front base (3.4.2)")
    if not p.get("square_return_fire"):
        return
    _one_die_shot(run, inf, cav, p, dice, f"{key}:return-fire", f"Square's front base fires at {cav.name or cav.id}")


def _skirmishers(run: _Run, cav: Unit, sk: Unit, p: RuleParameters, dice: DiceSource, key: str) -> bool:
    """Cavalry charging skirmishers (Застрельщики): disorganised ones flee; else a morale test
    (failed: ridden down), then 1 flee, 2-5 withdraw behind their infantry disorganised, 6 stand
    disorganised and fight. True when a melee follows."""
    if disorganised(sk):
        run.add(flee(run.state, sk.id, "disorganised skirmishers attacked: flee (Застрельщики)"))
        run.text.append(f"{sk.name or sk.id} were disorganised: they flee the field")
        return False
    passed, evs, roll = take_morale(run.state, sk.id, p, dice, "skirmishers charged by cavalry", key=f"{key}:skirm")
    run.add(evs, [roll], roll.explain())
    if not passed:
        run.add(flee(run.state, sk.id, "skirmishers ridden down by cavalry (Застрельщики)"))
        run.text.append(f"{sk.name or sk.id} are ridden down and removed")
        return False
    die = roll_d6(dice, f"{key}:skirm-d6")
    res = str(p.get("skirmisher_cavalry_table")[die - 1])
    run.rolls.append(
        table_record(
            f"{key}:skirm-d6", f"Skirmishers charged, {sk.name or sk.id}", die, "Застрельщики", res.replace("_", " ")
        )
    )
    if res == "flee":
        run.add(flee(run.state, sk.id, "skirmishers broken by cavalry (Застрельщики)"))
        return False
    if res == "withdraw_disorganised":
        _withdraw(run, sk.id, cav, 1, False, "behind their own infantry (Застрельщики; one move, assumed)", p)
        run.add(disorganise(run.state, sk.id, "skirmishers withdrew from cavalry (Застрельщики)"))
        return False
    run.add(disorganise(run.state, sk.id, "skirmishers stand against cavalry (Застрельщики)"))
    return True


def _chasseur_shot(run: _Run, cav: Unit, target: Unit, p: RuleParameters, dice: DiceSource, key: str) -> None:
    """Mounted chasseurs «могут произвести один выстрел перед ближним боем ... одним кубиком, как
    за пехоту» (Кавалерия): one die, hits 1-3, saves 1-3."""
    _one_die_shot(run, cav, target, p, dice, f"{key}:chasseurs", f"Mounted chasseurs' shot, {cav.name or cav.id}")


def _one_die_shot(
    run: _Run, firer: Unit, target: Unit, p: RuleParameters, dice: DiceSource, key: str, label: str, n: int = 1
) -> None:
    """One die (``n``: one a front-line base) fired as infantry fire (hits and saves as 3.3.1)
    before or during a melee: the ``Fired`` event and the markers it places."""
    markers, rolls = roll_hits(
        dice, key, label, n, int(p.get("hit_values")), int(p.get("save_values")["normal"]), target.name or target.id
    )
    fired = Fired(
        **stamp(run.state),
        unit=firer.id,
        target=target.id,
        range_cm=0.0,
        roll=rolls[0].to_dict(),
        result=f"{markers} casualty marker{'s' if markers != 1 else ''}",
        explanation="; ".join(r.explain() for r in rolls),
    )
    run.add([fired], rolls)
    more, more_rolls, text = place_markers(run.state, target.id, markers, "fire", p, dice, key=key)
    run.add(more, more_rolls, text)


def melee_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    a, t, guns = _check(state, req, p)
    slot, f, why = next_slot(state, a.id, "melee")
    if why:
        raise RuleRefused(why)
    key = f"regimental-melee:{a.id}:t{state.turn}:a{slot + 1}"
    run = _Run(state)
    run.add([slot_event(state, a.id, f, slot, "melee")])
    head = Melee(**stamp(state), attackers=(a.id,), defenders=(t.id if guns is None else guns.id,), winner="")
    if t.arm is Arm.ARTILLERY:
        run.add(flee(run.state, t.id, "artillery with no troops behind it is overrun (Артиллерия)"))
        melee = replace(head, winner="attacker", explanation="overrun: no troops behind the guns")
        return _done(run, melee, f"{name(state, t.id)} has no troops behind it: overrun and removed (Артиллерия)", p)
    if _flag(req, "shoot_first"):
        _chasseur_shot(run, a, t, p, dice, key)
        if run.gone(t.id):
            return _done(run, replace(head, winner="attacker"), "", p)
    fight = True
    if is_skirmishers(t) and disorganised(t) and a.arm is not Arm.CAVALRY:
        run.add(
            flee(
                run.state,
                t.id,
                "disorganised skirmishers attacked: flee («Атакованный отряд с маркером дезорганизации бежит»)",
            )
        )
        run.text.append(f"{t.name or t.id} were disorganised: they flee the field (Застрельщики)")
        fight = False
    elif a.arm is Arm.CAVALRY and is_skirmishers(t):
        fight = _skirmishers(run, a, t, p, dice, key)
    elif a.arm is Arm.CAVALRY and t.arm is Arm.INFANTRY and t.formation is not Formation.SQUARE:
        _square_test(run, a, t, p, dice, key)
        if run.gone(a.id):
            fight = False
    if not fight or run.gone(t.id):
        melee = replace(head, winner="attacker" if not run.gone(a.id) else "defender")
        return _done(run, melee, "", p)
    a, t = run.state.units[a.id], run.state.units[t.id]
    na, wa = melee_dice(a, p)
    nd, wd = melee_dice(t, p)
    hit, save = int(p.get("hit_values")), int(p.get("save_values")["normal"])
    m_on_d, ra = roll_hits(
        dice, f"{key}:attacker", f"Melee dice, {a.name or a.id} ({wa})", na, hit, save, t.name or t.id
    )
    m_on_a, rd = roll_hits(
        dice, f"{key}:defender", f"Melee dice, {t.name or t.id} ({wd})", nd, hit, save, a.name or a.id
    )
    run.rolls += ra + rd
    for uid, k in ((t.id, m_on_d), (a.id, m_on_a)):
        more, more_rolls, text = place_markers(run.state, uid, k, "melee", p, dice, key=f"{key}:{uid}")
        run.add(more, more_rolls, text)
    if run.gone(a.id) or run.gone(t.id):
        winner = "defender" if run.gone(a.id) else "attacker"
        return _done(run, replace(head, winner=winner), "", p)
    a, t = run.state.units[a.id], run.state.units[t.id]
    sa, sd = modifiers(run.state, a, t, True, req, p), modifiers(run.state, t, a, False, req, p)
    tie = str(p.get("melee_tie"))
    winner = ""
    result_roll: RollRecord | None = None
    for i in range(1, 51):
        recs = []
        totals = []
        for s, enemy_losses in ((sa, m_on_d), (sd, m_on_a)):
            purpose = f"{key}:result{i}:{'attacker' if s.attacker else 'defender'}"
            die = dice.roll(purpose, D6)
            mods = s.result_mods + (Modifier(enemy_losses, "the enemy's casualties in this melee (3.4)"),)
            rec = RollRecord(
                purpose,
                f"Combat result, {name(state, s.unit)}",
                D6,
                die,
                mods,
                threshold_source="3.4: модификаторы + потери противника в ближнем бою + значение на кубике",
            )
            recs.append(rec)
            totals.append(rec.total)
        run.rolls += recs
        result_roll = recs[0]
        if totals[0] != totals[1]:
            winner = "attacker" if totals[0] > totals[1] else "defender"
            run.text.append(f"combat result {totals[0]} against {totals[1]}: the {winner} wins (3.4)")
            break
        if tie == "defender_holds":
            winner = "defender"
            run.text.append(f"combat result {totals[0]} each: the defender holds (assumed, Ambiguity 10)")
            break
        run.text.append(f"combat result {totals[0]} each: both roll again (assumed, Ambiguity 10)")
    loser = sd if winner == "attacker" else sa
    win_unit = a if winner == "attacker" else t
    melee = replace(
        head,
        winner=winner,
        roll=result_roll.to_dict() if result_roll else None,
        explanation="; ".join(r.explain() for r in run.rolls[-2:]),
    )
    _loser(run, loser, win_unit, p, dice, key)
    if guns is not None and winner == "attacker":
        run.add(flee(run.state, guns.id, "its supporting troops lost the melee (Артиллерия)"))
        run.text.append(f"{guns.name or guns.id} is removed: its supports lost (Артиллерия)")
    return _done(run, melee, "", p)


def _done(run: _Run, melee: Melee, extra: str, p: RuleParameters) -> ActionOutcome:
    text = "; ".join(r.explain() for r in run.rolls)
    parts = [extra] if extra else []
    parts += run.text
    return ActionOutcome(
        "resolved",
        f"Melee (3.4): {text}. " + ". ".join(parts) + ".",
        (melee, *run.events),
        tuple(run.rolls),
        tuple(p.assumptions()),
    )


HANDLERS: tuple[ActionHandler, ...] = (ActionHandler("melee", melee_spec, melee_preview, melee_resolve),)
