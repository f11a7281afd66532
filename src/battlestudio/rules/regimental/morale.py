"""Regimental rules morale test (2D6 ≤ 8 with modifiers), casualty-marker limits per base, and
the commander casualty test (Тест на мораль; Пехота/Кавалерия/Артиллерия; Тест на потери
командования; digest §7, §9, §11).

Casualty markers live in ``Unit.attributes``: ``markers`` (on the unit now), ``markers_since_test``
(towards the forced morale test, Ambiguity 14) and ``markers_received`` (cumulative).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from collections.abc import Sequence

from battlestudio.model.units import Arm, Subtype, Unit
from battlestudio.replay.events import BattleEvent, EventError, register
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource, DiceSpec, Modifier, RollRecord, distribution
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.command import (
    D6,
    distance_to,
    general_condition,
    hq_link,
    roll_d6,
    table_record,
    units_under,
)

TWO_D6 = DiceSpec(2, 6)


def pass_probability(target: int) -> Fraction:
    """Exact chance that 2D6 ≤ ``target``."""
    return sum((p for s, p in distribution(TWO_D6).items() if s <= target), Fraction(0))


def zone_flags(state: GameState, unit: Unit, params: RuleParameters) -> tuple[bool, bool]:
    """Whether ``unit`` is in the HQ's command zone for the bonuses (20 cm; the end of an adjutant
    chain counts when the assumed ``chain_zone_bonus`` is ``hq``, not when it is ``direct``) and in
    its living general's zone (15 cm) (Дистанция командования; 3.4.1; D-R5)."""
    general = state.oob.superior(unit.id)
    link = hq_link(state, unit.side, [unit], params)
    in_hq = link.within and (len(link.chain) == 1 or params.get("chain_zone_bonus") == "hq")
    in_general = bool(
        general
        and general in state.commanders
        and general_condition(state, general) == "alive"
        and distance_to(state.commanders[general].position, [unit]) <= float(params.get("general_zone_cm"))
    )
    return in_hq, in_general


def command_morale_modifiers(
    state: GameState, unit: Unit, params: RuleParameters, melee: bool = False
) -> list[Modifier]:
    """Morale modifiers from command (3.4.1; Тест на потери командования). In a melee morale
    test only (ERRATA Regimental 3: the zone lines stand under «3.4.1 Модификаторы при
    рукопашной атаке»; the assumed ``zone_bonus_tests`` = ``all`` gives them in every test):
    HQ zone +2, general's zone +1 (both, or the better one with ``zone_bonuses`` = ``better``).
    Always: general killed or wounded -1, HQ captured -2, artillery -1 per casualty marker
    (Артиллерия)."""
    m = params.get("morale_modifiers")
    out: list[Modifier] = []
    if melee or params.get("zone_bonus_tests") == "all":
        in_hq, in_general = zone_flags(state, unit, params)
        if in_hq:
            out.append(Modifier(int(m["hq_zone"]), "in the HQ's command zone (3.4.1)"))
        if in_general and (not in_hq or params.get("zone_bonuses") == "both"):
            out.append(Modifier(int(m["general_zone"]), "in its general's command zone (3.4.1)"))
    lost = [
        g
        for g in state.oob.chain_of_command(unit.id)
        if g in state.commanders and general_condition(state, g) in ("killed", "badly_wounded", "lightly_wounded")
    ]
    if lost:
        out.append(
            Modifier(int(m["general_lost"]), f"general {lost[0]} {general_condition(state, lost[0]).replace('_', ' ')}")
        )
    if state.flags.get(f"hq_captured:{unit.side}"):
        out.append(Modifier(int(m["hq_captured"]), "HQ captured"))
    if unit.arm is Arm.ARTILLERY and int(unit.attributes.get("markers", 0)):
        k = int(unit.attributes["markers"])
        out.append(Modifier(int(m["artillery_per_marker"]) * k, f"artillery, {k} casualty markers"))
    return out


def morale_target(params: RuleParameters, mods: Sequence[Modifier]) -> int:
    """The highest 2D6 that passes: 8 + the modifiers (Ambiguity 15, assumed
    ``morale_modifier_sign`` = ``target``: a bonus raises it); ``roll`` adds the modifiers to the
    dice instead («значение на кубике меньше либо равно 8» read literally), so 8 - the modifiers."""
    total = sum(m.value for m in mods)
    base = int(params.get("morale_target"))
    return base - total if params.get("morale_modifier_sign") == "roll" else base + total


@dataclass(frozen=True, slots=True)
class MoraleResult:
    """``passed``; the ``roll``; ``target`` (8 + modifiers); exact ``odds`` of passing."""

    unit: str
    passed: bool
    roll: RollRecord
    target: int
    odds: Fraction


def morale_test(
    state: GameState,
    unit_id: str,
    params: RuleParameters,
    dice: DiceSource,
    situational: Sequence[Modifier] = (),
    why: str = "",
    melee: bool = False,
    key: str = "",
) -> MoraleResult:
    """2D6 ≤ 8 + modifiers passes (Тест на мораль; Ambiguity 15). ``situational`` adds melee
    modifiers (flanks covered, rear attack, fortification, enemy guard, lancers, skirmishers);
    ``melee`` a test after a melee, where the command-zone lines of 3.4.1 count (ERRATA 3).
    The purpose key carries ``key`` (else ``why``), so two tests of a unit in one turn differ."""
    unit = state.units[unit_id]
    mods = tuple(command_morale_modifiers(state, unit, params, melee)) + tuple(situational)
    target = morale_target(params, mods)
    purpose = f"regimental-morale:{unit_id}:t{state.turn}" + (f":{key or why}" if key or why else "")
    faces = dice.roll(purpose, TWO_D6)
    passed = sum(faces) <= target
    odds = pass_probability(target)
    rec = RollRecord(
        purpose=purpose,
        label=f"Morale test, {unit.name or unit_id}" + (f" ({why})" if why else ""),
        dice=TWO_D6,
        raw=faces,
        modifiers=(),
        threshold=target,
        at_most=True,
        threshold_source=f"passes on 2D6 ≤ {target} = 8 {'+' if target >= 8 else '-'} "
        f"{abs(target - 8)} ({', '.join(f'{m.value:+d} {m.source}' for m in mods) or 'no modifiers'}); "
        f"chance {odds}",
        outcome="passed" if passed else "failed: disorganised",
        success=passed,
    )
    return MoraleResult(unit_id, passed, rec, target, odds)


def _arm_key(unit: Unit) -> str:
    return unit.arm.value if unit.arm in (Arm.INFANTRY, Arm.CAVALRY, Arm.ARTILLERY) else "infantry"


@dataclass(frozen=True, slots=True)
class MarkerResult:
    """After ``added`` markers: ``bases_removed``, ``markers`` left on the unit, whether a
    morale test is ``forced`` (``forced_tests`` of them: 12 infantry markers at once force two),
    and the new counters."""

    unit: str
    added: int
    bases_removed: int
    markers: int
    forced_test: bool
    since_test: int
    received: int
    forced_tests: int = 0


def add_markers(unit: Unit, added: int, params: RuleParameters, bases: int | None = None) -> MarkerResult:
    """Place ``added`` casualty markers: a base is removed (and its markers cleared) at 6
    (infantry) / 2 (cavalry) / 5 (artillery) markers; a morale test is forced when the markers
    since the last forced test reach 6 / 4 / 3, one test each time the count is reached
    (assumed ``marker_counting`` = ``since_last_test``, Ambiguity 14; ``per_resolution`` counts
    only this fire's or melee's markers). ``bases`` the unit has when the model does not count
    them (``Unit.bases`` None)."""
    key = _arm_key(unit)
    per = (
        int(params.get("skirmisher_markers_per_base"))
        if unit.subtype is Subtype.SKIRMISHERS
        else int(params.get("markers_per_base")[key])
    )
    force = int(params.get("markers_forcing_morale")[key])
    per_resolution = params.get("marker_counting") == "per_resolution"
    markers = int(unit.attributes.get("markers", 0)) + added
    bases = unit.bases if unit.bases is not None else (bases if bases is not None else 10**6)
    removed = min(markers // per, bases)
    markers -= removed * per
    since = (0 if per_resolution else int(unit.attributes.get("markers_since_test", 0))) + added
    tests = since // force
    return MarkerResult(
        unit.id,
        added,
        removed,
        markers,
        tests > 0,
        0 if per_resolution else since % force,
        int(unit.attributes.get("markers_received", 0)) + added,
        tests,
    )


@register
@dataclass(frozen=True, slots=True)
class MarkersPlaced(BattleEvent):
    """Casualty markers on ``unit``: ``bases_removed`` bases go, ``markers`` remain;
    ``since_test`` and ``received`` counters (Regimental rules)."""

    kind = "regimental_markers"
    unit: str = ""
    added: int = 0
    bases_removed: int = 0
    markers: int = 0
    since_test: int = 0
    received: int = 0

    def apply(self, state: GameState) -> GameState:
        u = state.units.get(self.unit)
        if u is None:
            raise EventError(self, f"no unit {self.unit!r}")
        attrs = {
            **u.attributes,
            "markers": self.markers,
            "markers_since_test": self.since_test,
            "markers_received": self.received,
        }
        bases = None if u.bases is None else max(0, u.bases - self.bases_removed)
        return state.with_unit(replace(u, bases=bases, attributes=attrs))

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


def marker_event(state: GameState, r: MarkerResult) -> MarkersPlaced:
    return MarkersPlaced(
        state.turn,
        state.side,
        state.phase or "fire",
        unit=r.unit,
        added=r.added,
        bases_removed=r.bases_removed,
        markers=r.markers,
        since_test=r.since_test,
        received=r.received,
    )


def formation_losses(state: GameState, general: str, params: RuleParameters | None = None) -> int:
    """The formation's losses for the commander casualty test (Ambiguity 19): the cumulative
    casualty markers its units received (assumed ``casualty_test_counts`` = ``markers``), or the
    bases they lost (``bases``: the markers that went with removed bases, 6/2/5 a base)."""
    units = units_under(state, general)
    if params is None or params.get("casualty_test_counts") != "bases":
        return sum(int(u.attributes.get("markers_received", 0)) for u in units)
    per = params.get("markers_per_base")
    lost = 0
    for u in units:
        gone = int(u.attributes.get("markers_received", 0)) - int(u.attributes.get("markers", 0))
        k = (
            int(params.get("skirmisher_markers_per_base"))
            if u.subtype is Subtype.SKIRMISHERS
            else int(per[_arm_key(u)])
        )
        lost += max(0, gone) // k
    return lost


@dataclass(frozen=True, slots=True)
class CasualtyTest:
    """The commander casualty test: ``due`` or not (and ``why``), the ``result`` and roll."""

    general: str
    due: bool
    why: str
    result: str = ""
    roll: RollRecord | None = None


def casualty_due(state: GameState, general: str, params: RuleParameters) -> tuple[bool, str, int, int]:
    """Whether the commander casualty test of ``general`` is due now: ``(due, why, losses,
    trigger)``. Тест на потери командования: losses of more than 10 (division) / 7 (brigade),
    the general alive and his units in his zone. Once tested, again after each further 10 / 7
    losses (assumed ``casualty_retest`` = ``each_further``; ``once``: never again; Ambiguity 19).
    The flag ``casualty_tested:<general>`` holds the losses at the last test (True: tested)."""
    c = state.commanders[general]
    trig = params.get("casualty_test_trigger").get(c.echelon)
    if trig is None:
        return False, f"{c.echelon} generals take no casualty test", 0, 0
    trig = int(trig)
    losses = formation_losses(state, general, params)
    if losses <= trig:
        return False, f"{losses} losses, not more than {trig}", losses, trig
    if general_condition(state, general) != "alive":
        return False, f"the general is already {general_condition(state, general)}", losses, trig
    last = state.flags.get(f"casualty_tested:{general}")
    if last is not None and last is not False:
        if params.get("casualty_retest") != "each_further" or last is True:
            return False, "already tested for these losses", losses, trig
        if losses <= int(last) + trig:
            return False, f"tested at {int(last)} losses; {losses} is not {trig} more", losses, trig
    if distance_to(c.position, units_under(state, general)) > float(params.get("general_zone_cm")):
        return False, "no unit of his is inside his command zone", losses, trig
    return True, f"{losses} losses > {trig}", losses, trig


def commander_casualty_test(state: GameState, general: str, params: RuleParameters, dice: DiceSource) -> CasualtyTest:
    """Тест на потери командования: after losses of more than 10 (division) / 7 (brigade), if
    the general's units are in his zone, a D6: 1 killed, 2 badly wounded, 3-4 lightly
    wounded, 5-6 unharmed (``casualty_due`` says when)."""
    c = state.commanders[general]
    due, why, losses, trig = casualty_due(state, general, params)
    if not due:
        return CasualtyTest(general, False, why)
    again = state.flags.get(f"casualty_tested:{general}")
    purpose = f"regimental-casualty:{general}:t{state.turn}" + (f":{losses}" if again else "")
    die = roll_d6(dice, purpose)
    result = str(params.get("casualty_test_table")[die - 1])
    rec = table_record(
        purpose,
        f"Commander casualty test, {c.name or general} ({losses} losses > {trig})",
        die,
        "1 killed, 2 badly wounded, 3-4 lightly wounded, 5-6 unharmed",
        result.replace("_", " "),
        result == "unharmed",
    )
    return CasualtyTest(general, True, f"{losses} losses > {trig}", result, rec)


__all__ = [
    "D6",
    "MoraleResult",
    "morale_test",
    "add_markers",
    "MarkersPlaced",
    "marker_event",
    "commander_casualty_test",
    "CasualtyTest",
    "pass_probability",
    "command_morale_modifiers",
    "formation_losses",
    "casualty_due",
]
