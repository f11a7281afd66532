"""General d'Armée rallies in the movement phase (Бригадное Командное состояние).

* ``rally`` — a Steady brigade's retreating or routing unit rallies: СТОЙКИЕ «Отступающие/
  Бегущие подразделения автоматически проводят Сбор и могут перестраиваться в любое построение
  по желанию игрока в Фазу Движения». It stands in ``rallied_unit_state`` (assumed: formed) and
  may take a new formation (``flow_events.OrderStateChanged``, ``FormationChanged``).
* ``hesitant_morale`` — a Hesitant brigade's retreating and routing units (КОЛЕБЛЮЩАЯСЯ,
  Ограничения): «Отступающие подразделения не могут быть Собраны. Они остаются в текущей
  позиции, в текущем, расстроенном состоянии и теряют 1 урона. Бегущие подразделения
  Рассеиваются.» — 1 damage each (``events.DamageTaken``; "lose" is an extra damage point,
  digest Ambiguity 5) and dispersal (``UnitRemoved``), once a turn; the brigade's state then
  follows its units (``states.follow_units``: a dispersed unit makes it Faltering).

A Faltering brigade rallies only through the Faltering table (command roll), so neither is
offered to its units.
"""

from __future__ import annotations

from fractions import Fraction

from battlestudio.model.units import Formation
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import FormationChanged, OrderStateChanged, UnitRemoved
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.gda.brigades import CommandState, UnitState, brigade_status, is_brigade, members, unit_state
from battlestudio.rules.gda.events import DamageTaken
from battlestudio.rules.gda.states import apply_events, follow_units
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

RALLY_RULE = "СТОЙКИЕ: «Отступающие/Бегущие подразделения автоматически проводят Сбор ... в Фазу Движения»"
HESITANT_RULE = "КОЛЕБЛЮЩАЯСЯ, Ограничения: «Отступающие подразделения не могут быть Собраны ... теряют 1 урона»"
HESITANT_FLAG = "gda-hesitant-morale"
FORMATIONS = tuple(f.value for f in Formation if f is not Formation.NONE)


def rally_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the movement phase to a retreating or routing unit of this side's brigades
    (СТОЙКИЕ: a Steady brigade's units rally automatically)."""
    if state.phase != "movement":
        return None
    u = state.units.get(subject)
    if u is None or u.side != state.side:
        return None
    try:
        st = unit_state(u)
    except RuleRefused:
        return None
    if st not in (UnitState.RETREATING, UnitState.ROUTING):
        return None
    b = state.oob.superior(u.id)
    why = ""
    if b is None or b not in state.commanders or not is_brigade(state, b, params):
        why = f"{u.name or u.id} stands in no brigade"
    else:
        status = brigade_status(state, b)
        if status.state is CommandState.HESITANT:
            why = "the brigade is Hesitant: «Отступающие подразделения не могут быть Собраны»"
        elif status.state is CommandState.FALTERING:
            why = "the brigade is Faltering: it rallies only through the Faltering table (ТАБЛИЦА ДРОГНУВШЕЙ БРИГАДЫ)"
    return ActionSpec(
        "rally",
        "Rally",
        term="Сбор",
        rule=RALLY_RULE,
        parameters=(ParameterSpec("formation", "choice", required=False, choices=FORMATIONS, label="Re-form in"),),
        unavailable=why,
    )


def _rally_events(state: GameState, request: ActionRequest, params: RuleParameters) -> tuple[list[BattleEvent], str]:
    u = state.units[request.subject]
    stands = str(params.get("rallied_unit_state"))
    ev: list[BattleEvent] = [
        OrderStateChanged(state.turn, state.side, state.phase, unit=u.id, state=stands, reason="Steady brigade: rally")
    ]
    form = request.parameters.get("formation")
    if form:
        if form not in FORMATIONS:
            raise RuleRefused(f"{form!r} is not a formation ({', '.join(FORMATIONS)})")
        if form != u.formation.value:
            ev.append(FormationChanged(state.turn, state.side, state.phase, unit=u.id, formation=str(form)))
    text = f"{u.name or u.id} ({unit_state(u).value}) rallies and stands {stands}" + (
        f", re-formed in {form}" if form else ""
    )
    return ev, f"{text} ({RALLY_RULE})."


def rally_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    _, text = _rally_events(state, request, params)
    return ActionPreview(
        "rally",
        request.subject,
        True,
        explanation=text,
        odds=(("rallies", Fraction(1)),),
        assumed=tuple(params.assumptions()),
    )


def rally_resolve(state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource) -> ActionOutcome:
    ev, text = _rally_events(state, request, params)
    return ActionOutcome("resolved", text, tuple(ev), assumed=tuple(params.assumptions()))


def _broken_units(state: GameState, brigade: str) -> tuple[list[str], list[str]]:
    present = members(state, brigade).present
    retreating = [u.id for u in present if unit_state(u) is UnitState.RETREATING]
    routing = [u.id for u in present if unit_state(u) is UnitState.ROUTING]
    return retreating, routing


def hesitant_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the movement phase to a Hesitant brigadier of this side with retreating or
    routing units, once a turn."""
    if state.phase != "movement":
        return None
    c = state.commanders.get(subject)
    if c is None or c.side != state.side or not is_brigade(state, subject, params):
        return None
    if brigade_status(state, subject).state is not CommandState.HESITANT:
        return None
    retreating, routing = _broken_units(state, subject)
    if not retreating and not routing:
        return None
    done = state.flags.get(f"{HESITANT_FLAG}:{subject}") == state.turn
    return ActionSpec(
        "hesitant_morale",
        "Hesitant brigade: retreating units lose 1 damage, routing units disperse",
        term="Колеблющиеся",
        rule=HESITANT_RULE,
        subject_kind="commander",
        unavailable="already done this turn" if done else "",
    )


def _hesitant_events(
    state: GameState, brigade: str, params: RuleParameters
) -> tuple[list[BattleEvent], list[str], list[str], list[str]]:
    retreating, routing = _broken_units(state, brigade)
    t, s, p = state.turn, state.side, state.phase
    dmg = int(params.get("hesitant_retreat_damage"))
    ev: list[BattleEvent] = [
        DamageTaken(t, s, p, unit=u, points=dmg, cause="Hesitant brigade: retreating unit") for u in retreating
    ]
    ev += [UnitRemoved(t, s, p, id=u, reason="Hesitant brigade: routing unit disperses") for u in routing]
    after = apply_events(state, ev)
    follow, notes = follow_units(state, after, [brigade], routing, params)
    ev += follow
    ev.append(CommandStateChanged(t, s, p, subject=brigade, state=HESITANT_FLAG, value=t, reason="Hesitant morale"))
    return ev, retreating, routing, notes


def _hesitant_text(state: GameState, brigade: str, retreating: list[str], routing: list[str], notes: list[str]) -> str:
    name = state.commanders[brigade].name or brigade
    parts = [f"{name} is Hesitant"]
    if retreating:
        parts.append(f"{', '.join(retreating)} cannot rally, stay where they are and take 1 damage")
    if routing:
        parts.append(f"{', '.join(routing)} disperse")
    return "; ".join(parts) + f" ({HESITANT_RULE})." + (" " + ". ".join(notes) + "." if notes else "")


def hesitant_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    _, r, rt, notes = _hesitant_events(state, request.subject, params)
    return ActionPreview(
        "hesitant_morale", request.subject, True, explanation=_hesitant_text(state, request.subject, r, rt, notes)
    )


def hesitant_resolve(
    state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource
) -> ActionOutcome:
    ev, r, rt, notes = _hesitant_events(state, request.subject, params)
    return ActionOutcome("resolved", _hesitant_text(state, request.subject, r, rt, notes), tuple(ev))


HANDLERS = (
    ActionHandler("rally", rally_spec, rally_preview, rally_resolve),
    ActionHandler("hesitant_morale", hesitant_spec, hesitant_preview, hesitant_resolve),
)
