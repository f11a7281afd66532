"""Regimental morale test, reform, the end of the turn and the commander casualty test as actions.

* ``morale_test`` (Тест на мораль: 2D6 ≤ 8 + modifiers): the umpire's test of a unit; a unit
  that withdrew disorganised takes it at the start of the next turn and flees on a failure
  («в начале следующего хода должен пройти тест на мораль, и если он проваливает тест, то
  считается бегущим»).
* ``reform`` (3.2 Перестроение): a disorganised unit spends an action; «к концу хода с
  подразделения снимается маркер дезорганизации».
* ``end_of_turn``: when no formation is left to activate, the markers of the units that
  reformed come off.
* ``commander_casualty_test`` (Тест на потери командования): a general whose formation lost
  more than 10 (division) / 7 (brigade) markers.
"""

from __future__ import annotations

from fractions import Fraction

from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import OrderStateChanged
from battlestudio.replay.order_events import CommandRolled, CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, Modifier
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.regimental.command import distance_to, eligible, general_condition, hq_of
from battlestudio.rules.regimental.common import (
    NORMAL,
    apply,
    disorganised,
    flee,
    name,
    next_slot,
    slot_event,
    stamp,
    take_morale,
)
from battlestudio.rules.regimental.melee import WITHDREW
from battlestudio.rules.regimental.morale import (
    casualty_due,
    command_morale_modifiers,
    commander_casualty_test,
    formation_losses,
    morale_target,
    pass_probability,
)

REFORMED = "reformed"
END = "end_of_turn"
TESTS = "morale_actions"


def _withdrawal_due(state: GameState, uid: str) -> bool:
    t = state.flags.get(f"{WITHDREW}:{uid}")
    return isinstance(t, int) and not isinstance(t, bool) and t < state.turn


# -- morale test ---------------------------------------------------------------------------------


def morale_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered to every unit on the table in the activation phase (the umpire calls the test);
    never in the initiative test (2.1), where no unit acts."""
    if subject not in state.units or subject in state.off_table or state.phase == "initiative":
        return None
    due = _withdrawal_due(state, subject)
    return ActionSpec(
        "morale_test",
        "Morale test",
        "Тест на мораль",
        "Тест на мораль; 3.4",
        parameters=(
            ParameterSpec("flanks_covered", "bool", required=False, label="Flanks covered (+1)"),
            ParameterSpec("modifier", "int", required=False, minimum=-6, maximum=6, label="Other modifier"),
            ParameterSpec("reason", "text", required=False, label="Why"),
        ),
        note="withdrew disorganised last turn: a failure flees the field (3.4)" if due else "",
    )


def _situational(req: ActionRequest, p: RuleParameters) -> list[Modifier]:
    out = []
    if req.parameters.get("flanks_covered"):
        out.append(Modifier(int(p.get("morale_modifiers")["flanks_covered"]), "flanks covered (3.4.1)"))
    extra = req.parameters.get("modifier", 0) or 0
    if not isinstance(extra, int) or isinstance(extra, bool):
        raise RuleRefused(f"modifier must be a whole number, got {extra!r}")
    if extra:
        out.append(Modifier(extra, str(req.parameters.get("reason", "") or "umpire's modifier")))
    return out


def morale_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    u = state.units[req.subject]
    mods = command_morale_modifiers(state, u, p) + _situational(req, p)
    target = morale_target(p, mods)
    text = f"{u.name or u.id}: 2D6 ≤ {target} passes (8 {', '.join(f'{m.value:+d} {m.source}' for m in mods)})"
    if _withdrawal_due(state, u.id):
        text += "; it withdrew disorganised last turn: a failure flees the field (3.4)"
    chance = pass_probability(target)
    return ActionPreview(
        "morale_test", u.id, True, "", text, (("passes", chance), ("fails", 1 - chance)), assumed=tuple(p.assumptions())
    )


def morale_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    u = state.units[req.subject]
    rec = state.flags.get(f"{TESTS}:{u.id}")
    n = (int(rec.get("count", 0)) if isinstance(rec, dict) and rec.get("turn") == state.turn else 0) + 1
    due = _withdrawal_due(state, u.id)
    why = (
        "withdrew disorganised, start of the next turn (3.4)" if due else str(req.parameters.get("reason") or "umpire")
    )
    passed, events, roll = take_morale(state, u.id, p, dice, why, _situational(req, p), key=f"test{n}")
    events.insert(
        0,
        CommandStateChanged(
            **stamp(state),
            subject=u.id,
            state=TESTS,
            value={"turn": state.turn, "count": n},
            reason="morale test action",
        ),
    )
    text = roll.explain()
    if due:
        events.append(CommandStateChanged(**stamp(state), subject=u.id, state=WITHDREW, value=None, reason="tested"))
        if not passed:
            events += flee(apply(state, events), u.id, "failed the morale test after a disorganised withdrawal (3.4)")
            text += f". {u.name or u.id} flees the field (3.4)"
    return ActionOutcome("resolved", text + ".", tuple(events), (roll,), tuple(p.assumptions()))


# -- reform --------------------------------------------------------------------------------------


def reform_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """3.2: a disorganised unit of the activated formation spends an action."""
    u = state.units.get(subject)
    if u is None or state.phase != "activation":
        return None
    why = ""
    if not disorganised(u):
        why = f"{u.name or u.id} has no disorganisation marker (3.2)"
    elif state.flags.get(f"{REFORMED}:{u.id}") == state.turn:
        why = f"{u.name or u.id} has already reformed this turn; the marker comes off at the end of the turn (3.2)"
    else:
        _, _, why = next_slot(state, subject, "reform")
    return ActionSpec("reform", "Reform", "Перестроение", "3.2", unavailable=why)


def reform_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    return ActionPreview(
        "reform",
        req.subject,
        True,
        "",
        f"{name(state, req.subject)} spends an action to reform: its disorganisation marker comes off at the end "
        "of the turn (3.2)",
    )


def reform_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    slot, f, why = next_slot(state, req.subject, "reform")
    if why:
        raise RuleRefused(why)
    events: list[BattleEvent] = [
        slot_event(state, req.subject, f, slot, "reform"),
        CommandStateChanged(
            **stamp(state),
            subject=req.subject,
            state=REFORMED,
            value=state.turn,
            reason="reform (3.2): the marker comes off at the end of the turn",
        ),
    ]
    return ActionOutcome(
        "resolved",
        f"{name(state, req.subject)} reforms (action {slot + 1} of {f}'s activation); its disorganisation marker "
        "comes off at the end of the turn (3.2).",
        tuple(events),
    )


# -- end of the turn -----------------------------------------------------------------------------


def _sides(state: GameState) -> list[str]:
    return sorted({c.side for c in state.commanders.values()})


def end_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered with no subject in the activation phase; legal once every formation of both
    sides has activated (2.2 «Когда все игроки отдали приказы всем своим подразделениям, ход
    заканчивается»), once a turn."""
    if subject or state.phase != "activation":
        return None
    left = [f for s in _sides(state) for f in eligible(state, s)]
    why = ""
    if state.flags.get(f"{END}:turn") == state.turn:
        why = "the end-of-turn step is done for this turn"
    elif left:
        why = f"{len(left)} formation{'s' if len(left) != 1 else ''} still to activate ({', '.join(left)}; 2.2)"
    return ActionSpec("end_of_turn", "End of turn", "конец хода", "2.2; 3.2", subject_kind="none", unavailable=why)


def _reformed(state: GameState) -> list[str]:
    return sorted(
        uid for uid in state.units if state.flags.get(f"{REFORMED}:{uid}") == state.turn and uid in state.units
    )


def end_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    units = _reformed(state)
    return ActionPreview(
        "end_of_turn",
        "",
        True,
        "",
        f"end of turn {state.turn}: the disorganisation markers of {', '.join(units) or 'no unit'} come off (3.2)",
    )


def end_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    events: list[BattleEvent] = [
        CommandStateChanged(**stamp(state), subject="turn", state=END, value=state.turn, reason="end of turn")
    ]
    cleared = []
    for uid in _reformed(state):
        if disorganised(state.units[uid]):
            events.append(OrderStateChanged(**stamp(state), unit=uid, state=NORMAL, reason="reformed this turn (3.2)"))
            cleared.append(name(state, uid))
        events.append(CommandStateChanged(**stamp(state), subject=uid, state=REFORMED, value=None, reason="done"))
    text = f"End of turn {state.turn}: " + (
        f"the disorganisation markers of {', '.join(cleared)} come off (3.2)." if cleared else "no marker comes off."
    )
    return ActionOutcome("resolved", text, tuple(events))


# -- commander casualty test ----------------------------------------------------------------------


def casualty_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered to a brigade or division general in any phase; legal when his test is due."""
    c = state.commanders.get(subject)
    if c is None or c.echelon not in ("division", "brigade") or c.attributes.get("role") == "adjutant":
        return None
    due, why, _, _ = casualty_due(state, subject, p)
    return ActionSpec(
        "commander_casualty_test",
        "Commander casualty test",
        "Тест на потери командования",
        "Тест на потери командования",
        subject_kind="commander",
        unavailable="" if due else f"no commander casualty test for {c.name or subject}: {why}",
    )


def casualty_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    table = [str(v) for v in p.get("casualty_test_table")]
    exact = tuple((k.replace("_", " "), Fraction(table.count(k), 6)) for k in dict.fromkeys(table))
    return ActionPreview(
        "commander_casualty_test",
        req.subject,
        True,
        "",
        f"{formation_losses(state, req.subject, p)} losses: one D6, 1 killed, 2 badly wounded, 3-4 lightly wounded, "
        "5-6 unharmed",
        (("unharmed", dict(exact)["unharmed"]),),
        exact,
        assumed=tuple(p.assumptions()),
    )


def casualty_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    g = req.subject
    t = commander_casualty_test(state, g, p, dice)
    if t.roll is None:
        raise RuleRefused(t.why)
    events: list[BattleEvent] = [
        CommandRolled(**stamp(state), roll=t.roll.to_dict(), explanation=t.roll.explain()),
        CommandStateChanged(
            **stamp(state),
            subject=g,
            state="casualty_tested",
            value=formation_losses(state, g, p),
            reason=t.why,
        ),
    ]
    text = t.roll.explain()
    if t.result != "unharmed":
        events.append(
            CommandStateChanged(
                **stamp(state), subject=g, state="general", value=t.result, reason="commander casualty test"
            )
        )
        text += (
            f". {general_condition(apply(state, events), g).replace('_', ' ')}: his units -1 on morale tests, orders "
            "only from the HQ"
        )
    return ActionOutcome("resolved", text + ".", tuple(events), (t.roll,), tuple(p.assumptions()))


# -- a captured HQ -----------------------------------------------------------------------------------


def capture_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered to a side's HQ in the activation phase; legal while an enemy unit stands in
    contact with it (``melee_contact_cm``): «При захвате противником штаба» (Тест на потери
    командования), the umpire records the capture."""
    c = state.commanders.get(subject)
    if c is None or state.phase != "activation" or subject in state.off_table:
        return None
    hq = hq_of(state, c.side, p)
    if hq is None or hq.id != subject:
        return None
    contact = float(p.get("melee_contact_cm"))
    why = ""
    if state.flags.get(f"hq_captured:{c.side}"):
        why = f"{c.name or subject}, {c.side}'s HQ, is captured already"
    else:
        enemies = [
            (distance_to(c.position, [u]), u.id)
            for u in state.units.values()
            if u.side != c.side and u.id not in state.off_table
        ]
        if not any(d <= contact + 1e-6 for d, _ in enemies):
            nearest = min(enemies, default=None)
            why = f"no enemy unit in contact with the HQ (≤ {contact:g} cm)" + (
                f": the nearest, {name(state, nearest[1])}, is {nearest[0]:.1f} cm away" if nearest else ""
            )
    return ActionSpec(
        "capture_hq",
        "HQ captured",
        "захват штаба",
        "Тест на потери командования",
        subject_kind="commander",
        unavailable=why,
    )


def capture_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    c = state.commanders[req.subject]
    return ActionPreview(
        "capture_hq",
        req.subject,
        True,
        "",
        f"{c.name or c.id}, {c.side}'s HQ, is taken: its units may only fire or withdraw, -2 on morale, "
        "and it relays no order (Тест на потери командования; D-R1)",
    )


def capture_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    c = state.commanders[req.subject]
    ev = CommandStateChanged(
        **stamp(state),
        subject=c.side,
        state="hq_captured",
        value=True,
        reason=f"{c.name or c.id} captured by the enemy (Тест на потери командования)",
    )
    return ActionOutcome(
        "resolved",
        f"{c.side}'s HQ, {c.name or c.id}, is captured: its units may only fire or withdraw, with -2 on morale.",
        (ev,),
    )


HANDLERS: tuple[ActionHandler, ...] = (
    ActionHandler("morale_test", morale_spec, morale_preview, morale_resolve),
    ActionHandler("reform", reform_spec, reform_preview, reform_resolve),
    ActionHandler("end_of_turn", end_spec, end_preview, end_resolve),
    ActionHandler("commander_casualty_test", casualty_spec, casualty_preview, casualty_resolve),
    ActionHandler("capture_hq", capture_spec, capture_preview, capture_resolve),
)
