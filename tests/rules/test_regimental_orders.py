"""Regimental move, deploy and skirmish-chain actions in an Elchingen session (Перемещение;
Артиллерия; Застрельщики): rates per action, woods, hills and fords from the map (and any the
umpire adds), foot
artillery deploying before it fires, skirmishers firing without an order once in a chain."""

from __future__ import annotations

from battlestudio.replay.flow_events import FormationChanged, Moved

from regimental_world import Script, act, activate, preview, session

AV = "austrian-avantgarde"
CUIR = "austrian-centre-bde-cavalry"
FOOT = "french-vi-corps-foot-guns-1"
VIL = "french-bde-villatte"


def test_a_move_action_goes_up_to_10_cm_and_takes_up_a_formation():
    s = session(Script())
    activate(s, "austrian", "austrian-1st-div", ["move", "move"])
    x, y = s.state.units[AV].position  # south of the heights' edge (y ≈ 62): open ground southwards
    assert "10.5 cm" in act(s, "move", AV, to=(x, y - 10.5)).explanation
    n = len(s.battle.events)
    out = act(s, "move", AV, to=(x, y - 10.0), formation="column")
    assert out.status == "resolved"
    evs = s.battle.events[n:]
    assert any(isinstance(e, Moved) for e in evs) and any(isinstance(e, FormationChanged) for e in evs)
    assert s.state.units[AV].position == (x, y - 10.0) and s.state.units[AV].formation.value == "column"
    # two moves announced and used: a third is refused
    assert act(s, "move", AV, to=(x + 5.0, y - 10.0)).status == "resolved"
    assert "used all 2 actions" in act(s, "move", AV, to=(x, y - 10.0)).explanation


def test_woods_and_hills_on_the_path_change_the_allowance():
    s = session(Script())
    activate(s, "austrian", "austrian-1st-div", ["move", "move", "move"])
    x, y = s.state.units[AV].position
    assert not preview(s, "move", AV, to=(x, y - 8.0), crosses=["woods"]).legal
    out = act(s, "move", AV, to=(x, y - 7.0), crosses=["woods"])  # a wood the map does not show
    assert out.status == "resolved" and s.state.units[AV].state == "disorganised"
    assert "5 cm" in preview(s, "move", AV, to=(x, y + 13.0), crosses=["hill"]).reason
    assert "only light cavalry" in act(s, "move", CUIR, to=(0.0, 0.0), crosses=["woods"]).explanation


def test_foot_artillery_that_moved_deploys_before_it_fires():
    units = {FOOT: {"position": (112.0, 45.0), "facing": 270.0}}
    s = session(Script(), units, oob={FOOT: "french-2eme-division"})
    activate(s, "french", "french-2eme-division", ["move", "fire", "deploy"])
    x, y = s.state.units[FOOT].position
    assert act(s, "move", FOOT, to=(x, y + 7.0)).status == "resolved"
    fire = next(a for a in s.actions(FOOT) if a.id == "fire")
    assert "must spend an action to deploy" in fire.unavailable
    assert act(s, "deploy", FOOT).status == "resolved"
    # the fire slot (2nd) was skipped by deploying (3rd): nothing is left
    assert "used all 3 actions" in next(a for a in s.actions(FOOT) if a.id == "fire").unavailable


def test_skirmishers_form_a_chain_with_an_action_then_fire_without_one():
    units = {
        AV: {"subtype": "skirmishers", "formation": "line"},
        VIL: {"position": (112.0, 56.0), "facing": 90.0, "formation": "line"},
    }
    s = session(Script(), units)
    activate(s, "austrian", "austrian-1st-div", ["skirmish_chain"])
    assert act(s, "skirmish_chain", AV).status == "resolved"
    assert s.state.units[AV].formation.value == "skirmish"
    pv = preview(s, "fire", AV, target=VIL)
    assert pv.legal and "range 7 cm" in pv.explanation and "save on 1" in pv.explanation
    s.dice.add("regimental-fire:austrian-avantgarde:t1:free1", [1] * 6, [1, 2, 3, 4, 5, 6])
    out = act(s, "fire", AV, target=VIL)
    assert out.status == "resolved" and "without an order" in out.explanation
    assert "5 casualty markers" in out.explanation  # saves only on 1 against skirmisher fire
    assert act(s, "fire", AV, target=VIL).status == "refused"  # once a turn (assumed free_fire_per_turn)


def test_the_map_gives_the_hill_and_the_wood_on_the_path():
    s = session(Script(), {AV: {"position": (60.0, 126.0)}})  # just below the heights' edge (y ≈ 121.8)
    activate(s, "austrian", "austrian-1st-div", ["move", "move", "move"])
    up = preview(s, "move", AV, to=(60.0, 119.0))  # 7 cm, up the edge: 10 - 5 = 5 cm allowed
    assert not up.legal and "Heights of Elchingen: 5 cm less" in up.reason
    assert preview(s, "move", AV, to=(60.0, 122.0)).legal  # 4 cm, still below the edge
    assert preview(s, "move", AV, to=(60.0, 116.0)).legal is False
    s = session(Script(), {AV: {"position": (60.0, 132.0)}})  # 3 cm south of the Grosser Forst
    activate(s, "austrian", "austrian-1st-div", ["move", "move", "move"])
    wood = preview(s, "move", AV, to=(60.0, 139.0))  # 7 cm, into the wood: 7 cm allowed
    assert wood.legal and "wood Grosser Forst: 7 cm" in wood.explanation and "disorganised" in wood.explanation
    assert not preview(s, "move", AV, to=(60.0, 140.0)).legal  # 8 cm: more than the wood's 7
    assert act(s, "move", AV, to=(60.0, 139.0)).status == "resolved"
    assert s.state.units[AV].state == "disorganised"
