"""General d'Armée ADCs as order tokens (digest §1): the C-in-C or a corps commander sends
ADCs to a brigade with a task. Costs: Infantry Assault! 2 (example Б), Initiative! 1 each and
at most 2 (French Initiative), Forward! + Brigade Attachment! = 3 together (example A: given
one, the other follows); Forward!, Brigade Attachment! and Redeploy alone are scenario
parameters (the ADC chapter is lost). ADCs available per commander per turn are a scenario
parameter too. A task comes into force when the brigade obeys its command roll.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlestudio.model.orders import OrderStatus
from battlestudio.replay.order_events import oas_spent
from battlestudio.replay.state import GameState
from battlestudio.rules.params import MissingParameterError, RuleParameters, RuleRefused
from battlestudio.rules.gda.brigades import brigade_status, is_brigade, not_a_brigade
from battlestudio.rules.protocol import Budget

TASKS: dict[str, tuple[str, str, str]] = {
    "forward": ("Forward!", "Вперед!", '+2D6 cm [+1D6"] to the attack move; extra wheel (ПРОЦЕДУРА АТАКИ 2-3)'),
    "infantry_assault": (
        "Infantry Assault!",
        "Пехотный Штурм!",
        "any number of Formed infantry may attack or support (ОБЪЯВЛЕНИЕ АТАКИ)",
    ),
    "brigade_attachment": (
        "Brigade Attachment!",
        "Присоединение к Бригаде!",
        "reroll of a failed command roll (example A)",
    ),
    "redeploy": ("Redeploy", "Передислокация", "a Steady brigade may Redeploy (СТОЙКИЕ)"),
    "initiative": (
        "Initiative!",
        "Инициатива!",
        "+1 to this turn's initiative roll, at most 2 ADCs (optional French rule)",
    ),
}
"""Task id → (label, Russian term, effect)."""


def task_cost(task: str, params: RuleParameters) -> int:
    """ADCs ``task`` costs.

    Raises
    ------
    MissingParameterError
        for Forward!, Brigade Attachment! or Redeploy when the scenario gives no cost (one of
        the first two is enough: they make 3 together, example A).
    RuleRefused
        for an unknown task.
    """
    if task == "infantry_assault":
        return int(params.get("adc_cost_infantry_assault"))
    if task == "initiative":
        return 1
    if task == "redeploy":
        return int(params.get("adc_cost_redeploy"))
    if task in ("forward", "brigade_attachment"):
        other = "brigade_attachment" if task == "forward" else "forward"
        key, okey = f"adc_cost_{task}", f"adc_cost_{other}"
        if params.overridden(key):
            return int(params.get(key))
        if params.overridden(okey):
            return int(params.get("adc_cost_forward_plus_attachment")) - int(params.get(okey))
        raise MissingParameterError(
            key,
            "General d'Armée ADC chapter (lost)",
            f"ADCs a {TASKS[task][0]} task costs; with {TASKS[other][0]} it makes 3 "
            "(example A), so either cost is enough",
            (okey,),
        )
    raise RuleRefused(f"unknown General d'Armée ADC task {task!r} (known: {', '.join(TASKS)})")


def adcs_available(state: GameState, commander: str, params: RuleParameters) -> int:
    """ADCs ``commander`` has each turn: ``Commander.attributes["adcs"]``, else scenario
    parameter ``adcs.<commander id>``, else ``adcs``.

    Raises
    ------
    MissingParameterError
        when none gives the number.
    """
    c = state.commanders[commander]
    if "adcs" in c.attributes:
        return int(c.attributes["adcs"])
    return int(params.require("adcs_available", f"adcs.{commander}", "adcs")[1])


def order_budget(state: GameState, commander: str, params: RuleParameters) -> Budget | None:
    """ADCs of a C-in-C or corps commander this turn (sent and lost count as spent); None for
    a brigadier, who sends none."""
    c = state.commanders[commander]
    if is_brigade(state, commander, params):
        return None
    cap = adcs_available(state, commander, params)
    spent = oas_spent(state, commander) + int(c.attributes.get("adcs_lost", 0))
    return Budget("ADCs", cap, spent, cap - spent)


def adcs_left(state: GameState, commander: str, params: RuleParameters) -> int:
    """ADCs ``commander`` has not yet sent this turn (sends are kept in the per-turn spend
    counter of ``order_events``), minus ADCs lost for good (Ambiguity 23): the scenario's
    ``attributes["adcs_lost"]`` and one for each brigade whose ADC he sends that lost it to
    Sauve qui Peut! or a dispersal («Бригада перманентно теряет своего Адъютанта»)."""
    lost = int(state.commanders[commander].attributes.get("adcs_lost", 0)) + len(
        brigades_lost_adc(state, commander, params)
    )
    return (
        adcs_available(state, commander, params)
        - oas_spent(state, commander)
        - lost
        - standing_adcs(state, commander, params)
    )


def standing_adcs(state: GameState, commander: str, params: RuleParameters) -> int:
    """ADCs ``commander`` sent in earlier turns with tasks still in force, kept out of his
    supply when ``adc_task_duration = "standing"`` (0 with the assumed ``"turn"``: tasks end
    at the end of their turn, ``command.end_of_turn``)."""
    if str(params.get("adc_task_duration")) != "standing":
        return 0
    n = 0
    for o in state.orders.values():
        if o.issuer != commander or o.turn_issued >= state.turn or o.order_type == "initiative":
            continue
        if o.recipient in state.commanders and o.order_type in brigade_status(state, o.recipient).tasks:
            n += task_cost(o.order_type, params)
    return n


def adc_sender_of(state: GameState, brigade: str, params: RuleParameters) -> str | None:
    """The nearest commander above ``brigade`` of an ``adc_senders`` echelon (whose ADC it holds)."""
    senders = tuple(params.get("adc_senders"))
    for cid in state.oob.chain_of_command(brigade):
        c = state.commanders.get(cid)
        if c is not None and c.echelon in senders:
            return cid
    return None


def brigades_lost_adc(state: GameState, commander: str, params: RuleParameters) -> list[str]:
    """Brigades whose ADC ``commander`` sends that have lost it for good (``adc_lost``)."""
    return [
        b
        for b in state.oob.all_subordinates(commander)
        if b in state.commanders
        and is_brigade(state, b, params)
        and brigade_status(state, b).adc_lost
        and adc_sender_of(state, b, params) == commander
    ]


@dataclass(frozen=True, slots=True)
class TaskCheck:
    """Whether ``task`` may be sent now: ``cost`` ADCs, ``reason`` ("" = allowed)."""

    task: str
    cost: int
    reason: str


def check_task(
    state: GameState,
    issuer: str,
    brigade: str,
    task: str,
    params: RuleParameters,
    adcs: int = 1,
    year: int | None = None,
) -> TaskCheck:
    """Legality of sending ``task`` from ``issuer`` to ``brigade`` (``adcs`` only for Initiative!).

    Raises
    ------
    MissingParameterError
        when a cost or the ADC supply is not given by the scenario.
    """
    if issuer not in state.commanders:
        return TaskCheck(task, 0, f"no commander {issuer!r}")
    c = state.commanders[issuer]
    senders = tuple(params.get("adc_senders"))
    if c.echelon not in senders:
        return TaskCheck(
            task, 0, f"{c.name or issuer} is a {c.echelon} commander; ADCs are sent by the C-in-C or a corps commander"
        )
    if task == "initiative":
        cost = adcs
        if not params.get("french_initiative"):
            return TaskCheck(
                task, cost, "the optional French Initiative! rule is not in use (scenario parameter french_initiative)"
            )
        lo, hi = params.get("french_initiative_years")
        if c.nation.lower() not in ("france", "french"):
            return TaskCheck(
                task, cost, f"Initiative! is for French commanders; {c.name or issuer} is {c.nation or 'of no nation'}"
            )
        if year is not None and not lo <= year <= hi:
            return TaskCheck(task, cost, f"Initiative! is for {lo}-{hi}; this battle is {year}")
        mx = int(params.get("initiative_adc_max"))
        sent = sum(
            int(o.parameters.get("adcs", 1))
            for o in state.orders.values()
            if o.order_type == "initiative"
            and o.turn_issued == state.turn
            and o.status is not OrderStatus.CANCELLED
            and state.commanders.get(o.issuer, c).side == c.side
        )
        if sent + adcs > mx:
            return TaskCheck(task, cost, f"at most {mx} ADCs may carry Initiative! ({sent} already sent this turn)")
    else:
        why = not_a_brigade(state, brigade, params)
        if why:
            return TaskCheck(task, 0, why)
        if state.commanders[brigade].side != c.side:
            return TaskCheck(task, 0, "ADCs go to brigades of their own side")
        cost = task_cost(task, params)
    left = adcs_left(state, issuer, params)
    if cost > left:
        return TaskCheck(
            task,
            cost,
            f"{TASKS[task][0]} needs {cost} ADC{'s' if cost > 1 else ''}; {c.name or issuer} has {left} left this turn",
        )
    return TaskCheck(task, cost, "")
