"""Regimental fire without an order when the order did not arrive (Дистанция командования,
Ambiguity 18) and the simultaneous return fire a scenario may choose (3.3.1 «перестрелка»,
Ambiguity 7), in an Elchingen session; each assumed reading changes behaviour when overridden."""

from __future__ import annotations

from battlestudio.replay.combat_events import Fired
from battlestudio.rules.protocol import OrderRequest

from regimental_world import HQ, Script, act, activate, preview, session

AV = "austrian-avantgarde"
VIL = "french-bde-villatte"
DIV = "austrian-1st-div"  # 21.4 cm from the Austrian HQ: its orders take the order test
FACING = {VIL: {"position": (112.0, 58.0), "facing": 90.0, "formation": "line"}}


def lost_order(params=None):
    s = session(Script(), FACING, params=params)
    s.advance_to("activation", "austrian")
    s.dice.add(f"regimental-orders:{DIV}", [1])
    s.dice.add(f"regimental-zone:{DIV}", [6])  # 5-6: the order does not arrive
    out = s.issue_order(OrderRequest(HQ["austrian"], DIV, "activate", parameters={"actions": ["move"]}))
    assert out.status == "failed" and "carries out: nothing" in out.explanation
    return s


def test_units_whose_order_was_lost_fire_once_without_an_order():
    s = lost_order()
    assert next(a for a in s.actions(AV) if a.id == "move").unavailable  # no action arrived
    assert preview(s, "fire", AV, target=VIL).legal
    s.dice.add("regimental-fire:austrian-avantgarde:t1:ooc", [1, 2, 3, 4, 5, 6], [6, 6, 6])
    out = act(s, "fire", AV, target=VIL)
    assert out.status == "resolved" and "order did not arrive (Ambiguity 18)" in out.explanation
    assert s.state.units[VIL].attributes["markers"] == 3
    again = next(a for a in s.actions(AV) if a.id == "fire")
    assert again.unavailable  # once a turn


def test_out_of_command_fire_off_when_the_reading_is_overridden():
    s = lost_order({"out_of_command_fire": "none"})
    assert next(a for a in s.actions(AV) if a.id == "fire").unavailable
    assert act(s, "fire", AV, target=VIL).status == "refused"


def test_return_fire_is_simultaneous_when_the_scenario_chooses_it():
    s = session(Script(), FACING, params={"return_fire": True})
    activate(s, "austrian", DIV, ["fire"])
    pv = preview(s, "fire", AV, target=VIL)
    assert "Bde Villatte fires back at the same moment" in pv.explanation
    s.dice.add("regimental-fire:austrian-avantgarde:t1:a1:return", [1, 1, 4, 4, 4, 4], [6, 6])
    s.dice.add("regimental-fire:austrian-avantgarde:t1:a1", [1] * 6, [6] * 6)  # 6 markers: a base
    s.dice.add(f"regimental-morale:{VIL}", [1, 1])
    n = len(s.battle.events)
    out = act(s, "fire", AV, target=VIL)
    assert out.status == "resolved", out.explanation
    fired = [e for e in s.battle.events[n:] if isinstance(e, Fired)]
    assert [(e.unit, e.result) for e in fired] == [(AV, "6 casualty markers"), (VIL, "2 casualty markers")]
    # VIL rolled its 6 bases although it lost one to the same exchange (simultaneous)
    assert s.state.units[AV].attributes["markers"] == 2 and "return fire (Ambiguity 7)" in out.explanation

    off = session(Script(), FACING)  # the default: only the unit with the fire action rolls
    activate(off, "austrian", DIV, ["fire"])
    assert "fires back" not in preview(off, "fire", AV, target=VIL).explanation
    off.dice.add("regimental-fire:austrian-avantgarde:t1:a1", [6] * 6)
    act(off, "fire", AV, target=VIL)
    assert "markers" not in off.state.units[AV].attributes or off.state.units[AV].attributes["markers"] == 0
