"""Updating the command picture after a general or unit moved equals recomputing it: on a
Leipzig-shaped synthetic game mid-battle (wandering generals, detachments, reinforcements off
the table, standing orders) and on Jena 1806, for every ruleset, over series of moves."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.analysis.command_picture import command_picture
from battlestudio.analysis.command_update import affected_subjects, update_picture
from battlestudio.model.units import Commander
from battlestudio.replay.state import GameState
from battlestudio.session.synthetic import synthetic_game
from battlestudio.rules import RulesetDefaults, get_ruleset
from battlestudio.rules.toe import TordenOverEuropa

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"
TOE_LARGE = {  # bench/make_large.py's values for the rules text's missing numbers (zones nested: not read,
    "corps_command_distance_cm": 60.0,  # so the army generals' reaches are refused, as in the benchmark)
    "zones_cm": {"army": [40, 80, "120+"], "c_in_c": [40, 80, "120+"]},
    "command_thresholds": [3, 5, 7],
    "command_modifiers": {},
}
TOE_ZONES = {**TOE_LARGE, "zones_cm.army": [40, 80, "120+"], "zones_cm.c_in_c": [40, 80, "120+"]}


def drag(state: GameState, picture, ruleset, params, rid: str, steps: int, rng: random.Random):
    """Move ``rid`` ``steps`` times by up to 40 cm, updating the picture each time and checking
    it against a full recompute; returns how many updates were incremental."""
    incremental = 0
    start = state.record(rid).position
    for _ in range(steps):
        pos = (start[0] + rng.uniform(-40, 40), start[1] + rng.uniform(-40, 40))
        if rid in state.units:
            state = state.with_unit(state.units[rid].moved(pos, rng.uniform(0, 360)))
        else:
            state = state.with_commander(state.commanders[rid].moved(pos))
        result = update_picture(picture, state, ruleset, params, {rid})
        expected = command_picture(state, ruleset, params)
        if result is None:
            picture = expected
            continue
        picture, touched = result
        incremental += 1
        assert rid in touched
        assert picture.findings == expected.findings
        assert picture.links == expected.links
        assert picture.reaches == expected.reaches
        assert picture.budgets == expected.budgets
        assert picture.orders == expected.orders and picture.detached == expected.detached
        assert picture.refusals == expected.refusals and picture.findings_refused == ""
        assert picture.out_of_command() == expected.out_of_command()
    return state, picture, incremental


@pytest.fixture(scope="module")
def leipzig_state() -> GameState:
    game = synthetic_game(turns=8, units_per_side=64, seed=1813, command_orders=True)
    log = game.log()
    return log.state_at(log.phase_starts()[len(log.phases()) * 2 // 3])


@pytest.mark.parametrize(
    "ruleset_id, params", [("toe", TOE_LARGE), ("toe", TOE_ZONES), ("belle-alliance", {"command_distance_cm": 20.0})]
)
def test_drags_on_the_leipzig_shaped_game_equal_a_full_recompute(leipzig_state, ruleset_id, params):
    state = leipzig_state
    ruleset = get_ruleset(ruleset_id)
    picture = command_picture(state, ruleset, params)
    assert picture.findings_refused == "" and picture.out_of_command()  # wandering generals leave brigades behind
    assert bool(picture.refusals) is (params is TOE_LARGE)
    rng = random.Random(9)
    echelons = {"army", "corps", "division"}
    movers = [c.id for c in state.commanders.values() if c.echelon in echelons and c.id not in state.off_table]
    movers = rng.sample(movers, 8) + rng.sample([u for u in state.units if u not in state.off_table], 4)
    movers += [c for c in state.commanders if c.endswith("-army")]
    total = 0
    for rid in movers:
        state, picture, n = drag(state, picture, ruleset, params, rid, 4, rng)
        total += n
    assert total == 4 * len(movers)  # every move was an update, none fell back


def test_a_corps_generals_move_touches_only_him_and_his_direct_subordinates(leipzig_state):
    state = leipzig_state
    corps = next(c for c in state.commanders.values() if c.echelon == "corps" and c.id not in state.off_table)
    subs = set(state.oob.subordinates(corps.id))
    assert affected_subjects(get_ruleset("toe"), state, {corps.id}) == subs | {corps.id}
    assert len(subs) < 10 < len(state.units)


def jena(ruleset_id: str, params: dict) -> GameState:
    s = store.load(JENA).scenario
    if ruleset_id == "regimental":  # an adjutant relaying the French HQ's zone (Ambiguity 17)
        hq = s.commanders["french-imperial-guard"]
        s.commanders["french-adc"] = Commander(
            "french-adc",
            "ADC Lejeune",
            "french",
            "France",
            "division",
            (hq.position[0] + 18.0, hq.position[1]),
            attributes={"role": "adjutant"},
        )
    return GameState.from_scenario(s)


@pytest.mark.parametrize(
    "ruleset_id, params",
    [
        ("toe", None),
        ("regimental", {"adjutants.french": 1, "adjutants.prussian": 1}),
        ("belle-alliance", {"command_distance_cm": 20.0}),
        ("gda", {"adcs": 2}),
    ],
)
def test_drags_on_jena_equal_a_full_recompute(ruleset_id, params):
    state = jena(ruleset_id, params or {})
    params = params if params is not None else store.load(JENA).scenario.info.parameters
    ruleset = get_ruleset(ruleset_id)
    picture = command_picture(state, ruleset, params)
    assert picture.refusals == () and picture.findings
    rng = random.Random(1806)
    movers = [
        "french-v-corps",
        "french-imperial-guard",
        "french-1eme-division",
        "french-cav-bde",
        "prussian-south-hohenlohe",
        "prussian-1st-div",
    ]
    movers += [
        next(iter(state.oob.subordinates("french-cav-bde"))),
        next(iter(state.oob.subordinates("french-1eme-division"))),
    ]
    if ruleset_id == "regimental":
        movers.append("french-adc")
    total = 0
    for rid in movers:
        state, picture, n = drag(state, picture, ruleset, params, rid, 5, rng)
        total += n
    assert total == 5 * len(movers)


def test_a_moved_regimental_hq_or_unit_reaches_further_than_its_direct_subordinates():
    state = jena("regimental", {})
    hq = affected_subjects(get_ruleset("regimental"), state, {"french-imperial-guard"})
    divisions = {c.id for c in state.commanders.values() if c.echelon == "division" and c.side == "french"}
    assert divisions <= hq  # every division general's link to the HQ may change
    unit = next(n for n in state.oob.subordinates("french-cav-bde") if n in state.units)
    siblings = {n for n in state.oob.subordinates("french-cav-bde") if n in state.units}
    corps_units = {n for n in state.oob.subordinates("french-v-corps") if n in state.units}
    assert siblings | corps_units <= affected_subjects(get_ruleset("regimental"), state, {unit})


def test_unknown_rulesets_and_refused_pictures_are_not_updated(leipzig_state):
    toe = get_ruleset("toe")
    refused = command_picture(leipzig_state, toe, {})
    assert refused.refusals
    corps = next(c for c in leipzig_state.commanders.values() if c.echelon == "corps")
    assert refused.findings_refused and not refused.findings
    assert update_picture(refused, leipzig_state, toe, {}, {corps.id}) is None
    undescribed = Undescribed()  # Torden over Europa's findings, without saying what they read
    assert affected_subjects(undescribed, leipzig_state, {corps.id}) is None
    params = dict(TOE_ZONES)
    picture = command_picture(leipzig_state, undescribed, params)
    assert picture.findings and update_picture(picture, leipzig_state, undescribed, params, {corps.id}) is None


class Undescribed(TordenOverEuropa):
    """A ruleset whose ``finding_dependencies`` is the ``RulesetDefaults`` answer: none."""

    id = "undescribed"

    def finding_dependencies(self):
        return RulesetDefaults.finding_dependencies(self)


@pytest.mark.parametrize(
    "ruleset_id, params",
    [
        ("toe", None),
        ("regimental", {"adjutants.french": 1, "adjutants.prussian": 1}),
        ("belle-alliance", {"command_distance_cm": 20.0}),
        ("gda", {"adcs": 2}),
    ],
)
def test_units_changing_formation_state_losses_or_leaving_update_like_a_recompute(ruleset_id, params):
    from dataclasses import replace

    from battlestudio.analysis.command_update import local_change
    from battlestudio.model.units import Formation

    state = jena(ruleset_id, params or {})
    params = params if params is not None else store.load(JENA).scenario.info.parameters
    ruleset = get_ruleset(ruleset_id)
    picture = command_picture(state, ruleset, params)
    units = [
        n
        for b in ("french-cav-bde", "french-1eme-division", "prussian-1st-div")
        for n in state.oob.subordinates(b)
        if n in state.units
    ]
    changes = [
        dict(formation=Formation.COLUMN),
        dict(state="FU"),
        dict(state="dispersed"),
        None,
        dict(figures=2, men=300),
        dict(state="eliminated"),
        dict(formation=Formation.SQUARE, position=(250.0, 150.0)),
    ]
    for i, uid in enumerate(units):
        old, change = state.units[uid], changes[i % len(changes)]
        new = None if change is None else replace(old, **change)
        assert local_change(old, new)
        state = state.without(uid) if new is None else state.with_unit(new)  # None: routed off the table
        picture, _ = update_picture(picture, state, ruleset, params, {uid})
        expected = command_picture(state, ruleset, params)
        assert (picture.findings, picture.links, picture.reaches, picture.budgets, picture.orders) == (
            expected.findings,
            expected.links,
            expected.reaches,
            expected.budgets,
            expected.orders,
        )
    u = next(iter(state.units.values()))
    assert not local_change(u, replace(u, side="prussian"))
    c = state.commanders["french-v-corps"]
    assert local_change(c, c.moved((1.0, 2.0))) and not local_change(c, replace(c, echelon="division"))
    assert not local_change(c, None)


def test_an_order_to_a_unit_leaves_the_table_with_it_and_comes_back_with_it():
    from dataclasses import replace

    from battlestudio.model.orders import Order

    state = jena("belle-alliance", {})
    params = {"command_distance_cm": 20.0}
    ruleset = get_ruleset("belle-alliance")
    uid = next(n for n in state.oob.subordinates("french-cav-bde") if n in state.units)
    state = state.with_order(Order("o-charge", "french-cav-bde", uid, "attack", objective=(200.0, 120.0)))
    picture = command_picture(state, ruleset, params)
    assert [o.order_id for o in picture.orders] == ["o-charge"]
    unit = state.units[uid]
    gone = state.with_unit(replace(unit, state="eliminated"))
    picture, _ = update_picture(picture, gone, ruleset, params, {uid})
    expected = command_picture(gone, ruleset, params)
    assert picture.orders == () == expected.orders
    assert uid not in picture.links and picture.findings == expected.findings
    picture, _ = update_picture(picture, state, ruleset, params, {uid})  # stepping back
    assert [o.order_id for o in picture.orders] == ["o-charge"] and uid in picture.links
