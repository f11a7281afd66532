"""The synthetic games (``session.synthetic``) play Torden over Europa's own numbers through the
ruleset's actions: rounds per battery type and one a shot (6.2), the ruleset's d10 read 0-9,
opposed 2d6 melee (7.2.1), elimination at two thirds lost in FU (1.6), the ruleset's phases
(1.2); and the fast paths the generator relies on answer as the plain scans."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from battlestudio.model.units import Arm
from battlestudio.replay.battle import Battle
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.params import load_ruleset_file
from battlestudio.rules.toe import PHASES
from battlestudio.rules.toe.common import params_for
from battlestudio.rules.toe.contact import enemies_in_contact, in_contact, on_table
from battlestudio.rules.toe.fire import fire_spec, legal_targets
from battlestudio.session import GameSession
from battlestudio.session.synthetic import UMPIRE_TABLE, synthetic_game, synthetic_scenario


@pytest.fixture(scope="module")
def game():
    return synthetic_game(turns=40, units_per_side=24, seed=1806)


@pytest.fixture(scope="module")
def states(game):
    """The state before every event, with the event."""
    out = []
    state = GameState.from_scenario(game.scenario)
    for e in game.events:
        out.append((state, e))
        state = e.apply(state)
    return out


def test_phases_are_the_rulesets_and_the_game_resumes_as_recorded(game):
    ids = {p.id for p in PHASES}
    assert {e.phase for e in game.events} == ids
    battle = Battle(game.scenario, list(game.events))
    s = GameSession(battle)  # replays the whole log; a bad event would raise
    assert s.state == game.log().head and s.key.turn == 40


def test_batteries_spend_one_round_a_shot_from_the_allowance_of_their_type(game, states):
    _, entries = load_ruleset_file("toe")
    rounds = entries["ammunition_rounds"].value
    assert rounds == {"6pdr": 8, "12pdr": 10, "french_guard": 12}  # 6.2
    kinds = {u.attributes.get("gun_category") for u in game.scenario.units.values() if u.arm is Arm.ARTILLERY}
    assert kinds == {"6pdr", "12pdr"}
    shots = 0
    for i, (before, e) in enumerate(states):
        if e.kind != "fired" or before.units[e.unit].arm is not Arm.ARTILLERY:
            continue
        shots += 1
        battery = before.units[e.unit]
        have = battery.ammunition if battery.ammunition is not None else rounds[battery.attributes["gun_category"]]
        after = states[i + 1][0] if i + 1 < len(states) else game.log().head
        nxt = [x for _, x in states[i + 1 : i + 6] if getattr(x, "unit", None) == e.unit]
        state = after
        for x in nxt:
            state = x.apply(state)
        assert state.units[e.unit].ammunition == have - 1, e.explanation
        assert "1 round spent" in e.explanation and "(6.2)" in e.explanation
    assert shots >= 3


def test_every_roll_is_the_rulesets_die_or_named_as_the_umpires(game):
    commands = synthetic_game(turns=6, units_per_side=64, seed=3, command_orders=True)
    rolls = [e.roll for e in commands.events if e.kind == "command_roll"]
    assert rolls and all(r["dice"] == {"count": 1, "sides": 10, "zero_based": True} for r in rolls)
    assert all(0 <= r["raw"][0] <= 9 for r in rolls)
    melees = [e for e in game.events if e.kind == "melee"]
    notes = [e for e in game.events if e.kind == "annotation" and e.title == "Melee"]
    assert len(melees) >= 10 and len(notes) == len(melees)
    for n in notes:
        assert n.text.count(": 2d6 = ") == 2 and UMPIRE_TABLE in n.text  # opposed 2d6, 7.2.1
    for e in game.events:
        if e.kind == "fired":
            assert "(6.1" in e.explanation and "entered by the umpire (Table 6)" in e.explanation
        if e.kind == "morale_test":
            assert "7.2.2" in e.explanation and e.roll["umpire"]["result"] in ("U", "FU")


def test_units_are_eliminated_only_as_the_rules_say(game, states):
    eliminated = 0
    for before, e in states:
        if e.kind == "order_state_changed" and e.state == "eliminated":
            eliminated += 1
            u = before.units[e.unit]
            start = game.scenario.units[e.unit].figures
            if "fire" in e.reason:
                continue  # all its figures lost to fire (6.1): the casualties before it took them
            assert "2/3" in e.reason and Fraction(start - u.figures, start) >= Fraction(2, 3), e.reason
        if e.kind == "unit_removed":
            assert "2/3 lost and in FU (1.6)" in e.reason
    head = game.log().head
    for u in head.units.values():
        if u.figures == 0:
            assert u.state == "eliminated"


def test_squares_and_unlimbered_batteries_are_not_moved(states):
    for before, e in states:
        if e.kind == "moved" and e.id in before.units and e.phase == "movement":
            u = before.units[e.id]
            assert u.arm is not Arm.ARTILLERY and u.formation.value != "square", e


def _mid_game(game, phase: str) -> GameState:
    log = game.log()
    key = next(k for k in reversed(log.phases()) if k.phase == phase and k.turn < 30)
    return log.state_at(log.phase_range(key)[1])


def test_contact_search_finds_what_a_scan_of_every_unit_finds(game):
    st = _mid_game(game, "attack")
    p = params_for(game.scenario.info.parameters)
    seen = 0
    for u in st.units.values():
        if not on_table(st, u):
            continue
        scan = [e for e in st.units.values() if e.side != u.side and on_table(st, e) and in_contact(p, u, e)]
        assert enemies_in_contact(st, p, u) == scan
        seen += bool(scan)
    assert seen >= 2


def test_a_fire_request_is_refused_for_its_own_target_and_allowed_as_the_spec_lists(game):
    st = _mid_game(game, "fire")
    p = params_for(game.scenario.info.parameters)
    battle = Battle(game.scenario, [])
    s = GameSession(battle)
    firers = [u for u in st.units.values() if on_table(st, u) and u.side != st.side and u.arm is Arm.INFANTRY]
    checked = 0
    for u in firers[:12]:
        spec = fire_spec(st, p, u.id)
        if spec is None or spec.unavailable:
            continue
        legal = set(legal_targets(st, p, u))
        enemies = sorted(
            (e for e in st.units.values() if e.side != u.side and on_table(st, e)),
            key=lambda e: math.dist(e.position, u.position),
        )[:6]
        for e in enemies:
            req = s._with_table(ActionRequest("fire", u.id, {"target": e.id}, umpire_result={"figures": 0}))
            out = s.ruleset.resolve_action(st, req, s.params, s.dice)
            assert (out.status == "resolved") == (e.id in legal), out.explanation
            checked += 1
    assert checked >= 6


def test_the_scenario_gives_the_lost_command_values_and_an_agreed_initiative():
    s = synthetic_scenario(24, 1806)
    p = s.info.parameters
    assert s.info.ruleset == "toe" and p["command_thresholds"] == [3, 5, 7]
    assert p["initiative"][0] == "french" and len(p["initiative"]) == 40
    assert set(p["initiative"]) == {"french", "prussian"}


def _nearest_pairs_by_matrix(units, pool, within):
    """The plain reading of ``_Player._nearest_pairs``: the full units x pool distance matrix."""
    import numpy

    pool = sorted(pool, key=lambda e: e.id)
    a = numpy.array([u.position for u in units])
    b = numpy.array([e.position for e in pool])
    d = numpy.hypot(a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1])
    best = d.argmin(axis=1)
    return [(u, pool[j]) for u, j, row in zip(units, best, d, strict=False) if row[j] <= within]


def test_the_generators_nearest_pairs_are_the_full_matrixs(game):
    from battlestudio.session.synthetic import _Player

    log = game.log()
    found = 0
    for key in log.phases()[::9]:
        st = log.state_at(log.phase_range(key)[1])
        for side, enemy in (("french", "prussian"), ("prussian", "french")):
            units = [u for u in st.units.values() if u.side == side and u.id not in st.off_table]
            pool = [u for u in st.units.values() if u.side == enemy and u.id not in st.off_table]
            for within in (5.0, 20.0, 40.0, 400.0):
                fast = _Player._nearest_pairs(units, pool, within)
                assert fast == _nearest_pairs_by_matrix(units, pool, within)
                found += len(fast)
    # two units at the same spot: the lower id wins, as the matrix's argmin has it
    u0, u1 = sorted(pool, key=lambda e: e.id)[:2]
    twin = u1.moved(u0.position)
    assert _Player._nearest_pairs(units[:3], [twin, u0], 1e9) == _nearest_pairs_by_matrix(units[:3], [twin, u0], 1e9)
    assert found > 100
