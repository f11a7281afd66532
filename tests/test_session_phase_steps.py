"""The steps of a phase besides orders, as the rulesets declare them, on the bundled Elchingen
switched to General d'Armée, the Regimental rules and Belle Alliance (no Qt): every brigade's
command roll due in the command phase, the initiative rolled once a turn when its phase opens,
ADC tasks for division generals who lead their regiments themselves, the Regimental HQ and the
choice of the next activation, and Belle Alliance attack orders as the order sheet writes them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.model.scenario import Scenario
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.replay.order_events import CommandRolled, CommandStateChanged
from battlestudio.rules import OrderRequest, SeededDice, get_ruleset
from battlestudio.session import GameSession, SessionError

ELCHINGEN = Path(__file__).resolve().parents[1] / "scenarios" / "elchingen-1805.battle.json"


def elchingen(ruleset: str, **params) -> Scenario:
    """The bundled Elchingen with ``ruleset`` chosen (as Properties ▸ Ruleset does) and ``params`` added."""
    s = store.load(ELCHINGEN).scenario
    s.info = replace(s.info, ruleset=ruleset, parameters={**s.info.parameters, **params})
    return s


def top(s: GameSession, side: str) -> str:
    """The side's highest general (the corps commander at Elchingen)."""
    st = s.state
    return next(c.id for c in st.commanders.values() if c.side == side and st.oob.superior(c.id) is None)


def divisions(s: GameSession, side: str) -> list[str]:
    """The division generals of ``side`` who lead units directly (every one at Elchingen)."""
    st = s.state
    return sorted(
        c.id
        for c in st.commanders.values()
        if c.side == side and c.echelon == "division" and any(n in st.units for n in st.oob.subordinates(c.id))
    )


# -- General d'Armée ------------------------------------------------------------------------------
def test_gda_division_generals_leading_their_regiments_take_adc_tasks():
    s = GameSession(Battle(elchingen("gda", adcs=3), []), dice=SeededDice(1805))
    s.start()
    side = s.key.side
    corps, div = top(s, side), divisions(s, side)[0]
    types = {t.id: t for t in s.order_types(corps, div)}
    assert types["infantry_assault"].unavailable == "" and types["infantry_assault"].cost == 2
    out = s.issue_order(OrderRequest(corps, div, "infantry_assault"))
    assert out.status == "pending" and "2 ADCs sent (1 left this turn)" in out.explanation
    # the corps commander himself leads no brigade: the reason names the brigades under him
    why = {t.id: t.unavailable for t in s.order_types(corps, corps)}["forward"]
    assert "is not a brigade: ADCs go to one of his brigades" in why
    assert s.state.commanders[div].name in why
    # the assumed reading is the scenario's to change: divisions are then no brigades
    s2 = GameSession(Battle(elchingen("gda", adcs=3, brigade_leaders=["brigade"]), []), dice=SeededDice(1))
    s2.start()
    assert "is not a brigade" in {t.id: t.unavailable for t in s2.order_types(corps, div)}["infantry_assault"]


def test_gda_every_brigade_rolls_once_in_the_command_phase_and_the_initiative_follows():
    s = GameSession(Battle(elchingen("gda", adcs=3), []), dice=SeededDice(1805))
    s.start()
    assert s.checks_due() == []  # the ADC phase calls no command check
    first = s.key.side
    s.issue_order(OrderRequest(top(s, first), divisions(s, first)[0], "infantry_assault"))
    s.next_phase()  # the other side's ADC tasks: the turn goes phase by phase (ИНИЦИАТИВА)
    assert (s.key.phase, s.key.side) == ("adc", "austrian" if first == "french" else "french")
    s.next_phase()
    assert s.key.phase == "command" and s.key.side == first
    due = s.checks_due()
    assert set(due) == set(divisions(s, "french") + divisions(s, "austrian"))  # both sides (who = both)
    one = s.command_checks([due[0]])
    assert one[0].rolls and one[0].rolls[0].dice.sides == 6 and "chance of obeying" in one[0].explanation
    assert s.checks_due() == due[1:]
    with pytest.raises(SessionError, match="no command check is due"):
        s.command_checks([due[0]])
    rest = s.command_checks()
    assert [r.formation for r in rest] == due[1:] and s.checks_due() == []
    rolled = [e for e in s.battle.events if isinstance(e, CommandRolled)]
    assert len(rolled) >= len(due)
    s.next_phase()  # the other side's command phase: every brigade has rolled
    assert s.key.phase == "command" and s.checks_due() == []
    # the initiative phase opens, once a turn: its roll is automatic
    s.next_phase()
    assert s.key.phase == "initiative" and s.initiative_rolled() is None
    entry = s.phase_entry()
    assert entry.done and "is the active player this turn" in entry.done[0]
    assert s.initiative_rolled() == s.key and s.state.flags["initiative:holder"] in ("french", "austrian")
    with pytest.raises(SessionError, match="rolled in"):
        s.initiative()
    again = s.phase_entry()  # the phase opened again (a window re-entering it): no second roll
    assert not again.done and "rolled in" in again.skipped[0]
    steps = s.steps(1)
    assert [x.phase for x in steps].count("initiative") == 1
    winner = s.state.flags["initiative:holder"]
    after = steps[[x.phase for x in steps].index("initiative") + 1 :]
    assert [x.side for x in after[::2]] == [winner] * 3  # the winner first in every phase after it
    log = GameLog.from_battle(Battle(s.battle.scenario, list(s.battle.events)))
    assert log.head.flags == s.state.flags


def test_gda_brigades_cleared_of_hesitant_at_the_end_of_the_turn_include_the_divisions():
    s = GameSession(Battle(elchingen("gda", adcs=3), []), dice=SeededDice(3))
    s.advance_to("command")
    s.command_checks()
    brigades = divisions(s, "french") + divisions(s, "austrian")
    hesitant = [b for b in brigades if s.state.flags[f"gda:{b}"]["state"] == "hesitant"]
    assert hesitant, "seed 3 leaves at least one brigade Hesitant"
    while s.key.turn == 1:
        s.next_phase()
    assert all(s.state.flags[f"gda:{b}"]["state"] == "steady" for b in hesitant)


# -- Regimental ---------------------------------------------------------------------------------------
def test_regimental_hq_is_the_top_commander_when_the_scenario_has_no_c_in_c():
    rs = get_ruleset("regimental")
    s = GameSession(Battle(elchingen("regimental"), []), dice=SeededDice(1812))
    for side in ("french", "austrian"):
        assert rs.issuers(s.state, side, s.params) == [top(s, side)]
    none = GameSession(Battle(elchingen("regimental", hq_fallback="none"), []), dice=SeededDice(1812))
    assert rs.issuers(none.state, "french", none.params) == []


def test_regimental_initiative_is_rolled_when_its_phase_opens_and_the_next_activation_is_chosen():
    s = GameSession(Battle(elchingen("regimental"), []), dice=SeededDice(1812))
    s.start()
    assert s.key.phase == "initiative"
    entry = s.phase_entry()
    assert entry.done and s.state.flags["initiative:holder"] in ("french", "austrian")
    s.next_phase()
    assert s.key.phase == "activation"
    side = s.key.side
    choices = s.activation_choices()
    assert set(choices) == set(divisions(s, side))
    chosen, other = choices[-1], choices[0]
    out = s.choose_activation(chosen)
    assert out.formation == chosen and "activates" in out.explanation
    ev = s.battle.events[-1]
    assert isinstance(ev, CommandStateChanged) and ev.state == "next_activation" and ev.subject == side
    assert ev.value == {"turn": 1, "formation": chosen}
    hq = top(s, side)
    why = {t.id: t.unavailable for t in s.order_types(hq, other)}["activate"]
    assert "was chosen to activate next" in why
    assert {t.id: t.unavailable for t in s.order_types(hq, chosen)}["activate"] == ""
    act = s.issue_order(OrderRequest(hq, chosen, "activate", parameters={"actions": ("move", "fire")}))
    assert act.status in ("delivered", "failed") and "Orders test" in act.explanation
    assert chosen not in s.activation_choices() and other in s.activation_choices()
    assert {t.id: t.unavailable for t in s.order_types(hq, other)}["activate"] == ""  # the choice is used up
    enemy = divisions(s, "austrian" if side == "french" else "french")[0]
    with pytest.raises(SessionError, match="cannot activate now"):
        s.choose_activation(enemy)


# -- Belle Alliance ------------------------------------------------------------------------------------
def test_belle_alliance_attack_orders_go_to_units_with_the_order_sheet_as_written():
    rs = get_ruleset("belle-alliance")
    spec = rs.describe().order_types[0]
    assert spec.recipient_kind == "unit"
    assert [(p.name, p.kind) for p in spec.parameters] == [
        ("target", "enemy_unit"),
        ("storm", "choice"),
        ("against_position", "choice"),
    ]
    s = GameSession(Battle(elchingen("belle-alliance"), []), dice=SeededDice(1815))
    s.start()
    side = s.key.side
    st = s.state
    unit = next(u.id for u in st.units.values() if u.side == side)
    issuer = st.oob.superior(unit)
    enemy = next(u.id for u in st.units.values() if u.side != side)
    friend = next(u.id for u in st.units.values() if u.side == side and u.id != unit)
    # the dialog writes yes/no; "no" is no storm
    out = s.issue_order(
        OrderRequest(issuer, unit, "attack", parameters={"target": enemy, "storm": "no", "against_position": "no"})
    )
    assert out.status == "pending"
    written = s.battle.events[-1]
    assert written.parameters["storm"] is False and written.parameters["against_position"] is False
    assert written.parameters["target"] == enemy
    refused = s.issue_order(OrderRequest(issuer, friend, "attack", parameters={"target": unit, "storm": "yes"}))
    assert refused.status == "refused" and "same side" in refused.explanation
