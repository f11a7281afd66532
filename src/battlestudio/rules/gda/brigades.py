"""General d'Armée brigades as the command system sees them: grades, averaged quality, the
brigade's command status (Steady / Hesitant / Faltering plus the Demoralised flag), its units,
and the dispersed count that makes it Demoralised.

A brigade is a brigadier (a ``Commander``) and the units directly under him in the order of
battle. Its command status lives in ``GameState.flags["gda:<brigadier id>"]`` as a plain dict
(written by ``order_events.CommandStateChanged``); before the first such event the scenario's
``Commander.attributes["gda"]`` gives the starting status. Sources: seed
``shared/seeds/002_c65aa4a0b2259b92.txt``, digest ``general-darmee-ru.md`` §2–§4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from battlestudio.model.units import Arm, Subtype, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.params import RuleParameters, RuleRefused

FLAG = "gda"
"""``CommandStateChanged.state`` (and flag prefix) under which a brigade's status is kept."""


class Grade(StrEnum):
    """The four troop grades of General d'Armée, best first (Модификаторы атаки)."""

    ELITE = "elite"
    VETERAN = "veteran"
    LINE = "line"
    RECRUIT = "recruit"

    @property
    def rank(self) -> int:
        """0 for Elite … 3 for Recruit."""
        return list(Grade).index(self)

    @property
    def table_row(self) -> str:
        """Row of the Faltering Brigade table: ``elite``, ``veteran_line`` or ``recruit``."""
        return {"elite": "elite", "veteran": "veteran_line", "line": "veteran_line", "recruit": "recruit"}[self.value]

    def raised(self) -> Grade:
        """One grade better, Elite stays Elite (general attached, digest Ambiguity 13)."""
        return list(Grade)[max(0, self.rank - 1)]


class CommandState(StrEnum):
    """The three brigade command states of the seed (Бригадное Командное состояние)."""

    STEADY = "steady"
    HESITANT = "hesitant"
    FALTERING = "faltering"


class UnitState(StrEnum):
    """A General d'Armée unit's morale/formation state (digest glossary)."""

    FORMED = "formed"
    UNFORMED = "unformed"
    RETREATING = "retreating"
    ROUTING = "routing"
    DISPERSED = "dispersed"


_STATE_ALIASES = {"o": "formed", "u": "unformed", "fu": "routing", "eliminated": "dispersed"}


def unit_state(unit: Unit) -> UnitState:
    """The unit's GdA state; Torden over Europa's O/U/FU map to formed/unformed/routing.

    Raises
    ------
    RuleRefused
        for a state string General d'Armée does not know, naming the unit and the value.
    """
    raw = unit.state.lower()
    raw = _STATE_ALIASES.get(raw, raw)
    try:
        return UnitState(raw)
    except ValueError:
        known = ", ".join(s.value for s in UnitState)
        raise RuleRefused(f"unit {unit.id!r} has state {unit.state!r}, not a General d'Armée state ({known})") from None


def grade_of(unit: Unit, params: RuleParameters) -> Grade:
    """The unit's GdA grade from ``Unit.quality`` through ``quality_aliases``.

    Raises
    ------
    RuleRefused
        for a quality no alias maps, naming the unit and the value.
    """
    aliases: Mapping[str, str] = params.get("quality_aliases")
    g = aliases.get(unit.quality.lower())
    if g is None:
        raise RuleRefused(
            f"unit {unit.id!r} has quality {unit.quality!r}; General d'Armée needs one of "
            f"{', '.join(sorted(aliases))} (rules.quality_aliases)"
        )
    return Grade(g)


def is_skirmisher(unit: Unit) -> bool:
    """Skirmisher line (Линия Застрельщиков): subtype ``skirmishers`` or attribute ``skirmisher``."""
    return unit.subtype == Subtype.SKIRMISHERS or bool(unit.attributes.get("skirmisher"))


def is_heavy_cavalry(unit: Unit) -> bool:
    """Heavy cavalry (Тяжелая кавалерия): subtype ``heavy_cavalry`` (the importers' cuirassiers)
    or attribute ``heavy``."""
    return unit.arm is Arm.CAVALRY and (unit.subtype == Subtype.HEAVY_CAVALRY or bool(unit.attributes.get("heavy")))


def is_cossack(unit: Unit) -> bool:
    """Cossacks (attribute ``cossack``): -1 in attacks, may evade, restriction 13."""
    return bool(unit.attributes.get("cossack"))


def average_quality(grades: Sequence[Grade], rule: str = "upper_median") -> Grade:
    """The brigade's averaged quality for the Faltering table (digest §4, Ambiguity 2).

    The seed: "split 50/50, then take the highest level". Best reading: sort best first and
    take unit number ceil(n/2) — 4 Recruit + 1 Elite → Recruit; 3 Veteran + 2 Line → Veteran;
    3 Line + 1 Veteran → Line. ``rule`` ``"lower_median"`` takes unit floor(n/2)+1 instead.

    Raises
    ------
    RuleRefused
        for an empty brigade or an unknown rule.
    """
    if not grades:
        raise RuleRefused("a brigade with no graded units has no averaged quality (General d'Armée, Faltering table)")
    ordered = sorted(grades, key=lambda g: g.rank)
    n = len(ordered)
    if rule == "upper_median":
        return ordered[math.ceil(n / 2) - 1]
    if rule == "lower_median":
        return ordered[n // 2]
    raise RuleRefused(f"unknown quality_average rule {rule!r} (upper_median or lower_median)")


@dataclass(frozen=True, slots=True)
class BrigadeStatus:
    """A brigade's command status (digest §14 "per brigade, store").

    Attributes
    ----------
    brigade : str
        the brigadier's commander id.
    state : CommandState
    demoralised : bool
        permanent flag: more than half its units dispersed (never for Elite brigades).
    adc_lost : bool
        it lost its ADC to a Sauve qui Peut! result (a second one loses no more).
    sauve_qui_peut : int
        how many Sauve qui Peut! results it has had.
    tasks : tuple[str, ...]
        ADC tasks in force: ``forward``, ``infantry_assault``, ``brigade_attachment``, ``redeploy``.
    state_turn : int
        turn the state was set (Hesitant ends at the end of that turn).
    dispersed_grades : tuple[str, ...]
        grades of its graded units that dispersed, so "Elite brigades never become
        Demoralised" is judged on the brigade as formed, not on the survivors.
    rallied_turn : int
        turn a Faltering brigade rallied (Rally result: Faltering and Hesitant that turn), 0 if never.
    """

    brigade: str
    state: CommandState = CommandState.STEADY
    demoralised: bool = False
    adc_lost: bool = False
    sauve_qui_peut: int = 0
    tasks: tuple[str, ...] = ()
    state_turn: int = 0
    dispersed_grades: tuple[str, ...] = ()
    rallied_turn: int = 0

    def to_value(self) -> dict[str, Any]:
        """Plain JSON data for ``CommandStateChanged.value`` (``rallied_turn`` only once set)."""
        out: dict[str, Any] = {
            "state": self.state.value,
            "demoralised": self.demoralised,
            "adc_lost": self.adc_lost,
            "sauve_qui_peut": self.sauve_qui_peut,
            "tasks": list(self.tasks),
            "state_turn": self.state_turn,
            "dispersed_grades": list(self.dispersed_grades),
        }
        if self.rallied_turn:
            out["rallied_turn"] = self.rallied_turn
        return out

    @classmethod
    def from_value(cls, brigade: str, value: Mapping[str, Any]) -> BrigadeStatus:
        """Inverse of ``to_value``; missing keys take the Steady defaults.

        Raises
        ------
        RuleRefused
            for an unknown command state, naming the brigade.
        """
        try:
            state = CommandState(str(value.get("state", "steady")).lower())
        except ValueError:
            raise RuleRefused(
                f"brigade {brigade!r}: command state {value.get('state')!r} is not steady/hesitant/faltering"
            ) from None
        return cls(
            brigade=brigade,
            state=state,
            demoralised=bool(value.get("demoralised", False)),
            adc_lost=bool(value.get("adc_lost", False)),
            sauve_qui_peut=int(value.get("sauve_qui_peut", 0)),
            tasks=tuple(str(t) for t in value.get("tasks", ())),
            state_turn=int(value.get("state_turn", 0)),
            dispersed_grades=tuple(str(g) for g in value.get("dispersed_grades", ())),
            rallied_turn=int(value.get("rallied_turn", 0)),
        )

    def evolve(self, **changes: Any) -> BrigadeStatus:
        """A copy with ``changes``."""
        return replace(self, **changes)


def brigade_status(state: GameState, brigade: str) -> BrigadeStatus:
    """The brigade's status now: the game's flag, else the scenario's starting attributes.

    Raises
    ------
    RuleRefused
        when ``brigade`` is not a commander of the state.
    """
    if brigade not in state.commanders:
        raise RuleRefused(f"no brigadier {brigade!r} in this game (General d'Armée brigades are commanders)")
    flag = state.flags.get(f"{FLAG}:{brigade}")
    if flag is not None:
        return BrigadeStatus.from_value(brigade, flag)
    return BrigadeStatus.from_value(brigade, state.commanders[brigade].attributes.get(FLAG, {}))


def is_brigade(state: GameState, cid: str, params: RuleParameters) -> bool:
    """Whether commander ``cid`` leads a General d'Armée brigade: a brigadier, or a general of
    an echelon in ``brigade_leaders`` (assumed: a division) with units directly under him, who
    is their brigadier (a scenario built for another ruleset puts regiments straight under
    their division). A division over brigades only is not one (digest §1)."""
    c = state.commanders.get(cid)
    if c is None:
        return False
    if c.echelon == "brigade":
        return True
    if not any(n not in state.commanders for n in state.oob.subordinates(cid)):
        return False
    return c.echelon in tuple(params.get("brigade_leaders"))


def brigades_of(state: GameState, side: str | None, params: RuleParameters) -> list[str]:
    """Ids of the commanders leading a brigade (``is_brigade``), of ``side`` (None: every side), sorted."""
    return sorted(
        c.id for c in state.commanders.values() if (side is None or c.side == side) and is_brigade(state, c.id, params)
    )


def not_a_brigade(state: GameState, cid: str, params: RuleParameters) -> str:
    """Why ``cid`` takes no ADC task and rolls no command die ("" when it leads a brigade)."""
    if is_brigade(state, cid, params):
        return ""
    c = state.commanders.get(cid)
    if c is None:
        return f"{cid!r} is not a brigade"
    under = [b for b in state.oob.all_subordinates(cid) if is_brigade(state, b, params)]
    if under:
        names = ", ".join(state.commanders[b].name or b for b in under)
        return f"{c.name or cid} ({c.echelon}) is not a brigade: ADCs go to one of his brigades ({names})"
    return f"{c.name or cid} ({c.echelon}) is not a brigade: ADCs go to a brigadier and his units"


@dataclass(frozen=True, slots=True)
class BrigadeMembers:
    """The units of a brigade: ``present`` on the table (not dispersed) and the ids of those
    ``dispersed`` (removed from the state, or in state ``dispersed``)."""

    present: tuple[Unit, ...]
    dispersed: tuple[str, ...] = field(default_factory=tuple)

    @property
    def original(self) -> int:
        """Units the brigade started with (present + dispersed)."""
        return len(self.present) + len(self.dispersed)


def members(state: GameState, brigade: str) -> BrigadeMembers:
    """The brigade's units from the order of battle (removed units keep their node there)."""
    present: list[Unit] = []
    dispersed: list[str] = []
    for node in state.oob.subordinates(brigade):
        if node in state.commanders:
            continue
        unit = state.units.get(node)
        if unit is None or unit_state(unit) is UnitState.DISPERSED:
            dispersed.append(node)
        else:
            present.append(unit)
    return BrigadeMembers(tuple(present), tuple(dispersed))


def graded_units(units: Iterable[Unit], params: RuleParameters) -> list[Unit]:
    """Units that count towards the averaged quality (digest Ambiguity 2: infantry and
    cavalry, not skirmisher lines or batteries, unless ``quality_counts_skirmishers_and_artillery``)."""
    if params.get("quality_counts_skirmishers_and_artillery"):
        return list(units)
    return [u for u in units if u.arm in (Arm.INFANTRY, Arm.CAVALRY) and not is_skirmisher(u)]


def brigade_quality(state: GameState, brigade: str, params: RuleParameters) -> Grade:
    """Averaged quality of the brigade's units on the table (digest §4).

    Raises
    ------
    RuleRefused
        for a brigade without graded units or a unit with an unknown quality.
    """
    units = graded_units(members(state, brigade).present, params)
    return average_quality([grade_of(u, params) for u in units], str(params.get("quality_average")))


def demoralised_verdict(state: GameState, brigade: str, params: RuleParameters) -> tuple[bool, str]:
    """Whether the brigade's dispersals make it Demoralised, and why, in words, ignoring its flag.

    More than ``demoralised_dispersed_fraction`` of its units dispersed, counted against its
    original units (``demoralised_counts_original_units``, Ambiguity 3; False: against the units
    still on the table). Elite brigades never are (Командная Ситуация деморализованной Бригады:
    «Элитные Бригады никогда не становятся Деморализованными»), judged on the brigade as formed
    (its present units and the grades kept for its dispersed ones): by its averaged quality
    (``elite_brigade_by_average_quality``, Ambiguity 16) or, when False, only if every graded
    unit is Elite.
    """
    status = brigade_status(state, brigade)
    m = members(state, brigade)
    if m.original == 0:
        return False, "no units"
    frac = float(params.get("demoralised_dispersed_fraction"))
    base = m.original if params.get("demoralised_counts_original_units") else len(m.present)
    what = "units" if params.get("demoralised_counts_original_units") else "units remaining"
    if len(m.dispersed) <= frac * base:
        return False, f"{len(m.dispersed)} of {base} {what} dispersed, not more than {frac:.0%}"
    if params.get("elite_never_demoralised"):
        try:
            grades = [grade_of(u, params) for u in graded_units(m.present, params)]
            grades += [Grade(g) for g in status.dispersed_grades]
            if params.get("elite_brigade_by_average_quality"):
                elite = bool(grades) and average_quality(grades, str(params.get("quality_average"))) is Grade.ELITE
            else:
                elite = bool(grades) and all(g is Grade.ELITE for g in grades)
        except RuleRefused:
            elite = False
        if elite:
            return False, "an Elite brigade (as formed) never becomes Demoralised"
    return True, f"{len(m.dispersed)} of {base} {what} dispersed, more than {frac:.0%}"


def demoralised_now(state: GameState, brigade: str, params: RuleParameters) -> tuple[bool, str]:
    """Whether the brigade is (or has become) Demoralised, and why (``demoralised_verdict``)."""
    if brigade_status(state, brigade).demoralised:
        return True, "already Demoralised"
    return demoralised_verdict(state, brigade, params)
