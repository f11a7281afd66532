"""Who moves first: the initiative of each ruleset decides the order of a turn's player-turns.

Torden over Europa agrees the initiative (1.2: "det mellem siderne aftales ... hvem der har
initiativet"; the side with it plays its whole turn first): the bundled scenarios set it as the
scenario choice ``toe.scenario.initiative``. General d'Armée and the Regimental rules roll it in
a phase of the turn (General d'Armée playing its turn phase by phase, the winner first after the
roll); Belle Alliance has no initiative roll (the scenario's first side leads). Under every other
ruleset the player-turns of one game turn belong to different sides.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.rules import get_ruleset
from battlestudio.rules.params import RuleParameters
from battlestudio.session import GameSession

ELCHINGEN = Path(__file__).resolve().parents[1] / "scenarios" / "elchingen-1805.battle.json"
RULESETS = ("toe", "gda", "regimental", "belle-alliance")


def player_turns(session: GameSession, turns: int) -> tuple[list[tuple[int, str]], dict[int, str]]:
    """Play ``turns`` game turns phase by phase (rolling the initiative where the ruleset rolls
    it): the ``(turn, side)`` of every player-turn in order, and the initiative holder flag at
    the end of each turn (rolling rulesets only)."""
    session.start()
    blocks: list[tuple[int, str]] = []
    holders: dict[int, str] = {}
    while True:
        k = session.key
        if not blocks or blocks[-1] != (k.turn, k.side):
            blocks.append((k.turn, k.side))
        if k.phase == "initiative" and "initiative" in session.step().spec.methods:
            if session.initiative_rolled() is None:  # once a turn, in the first player-turn's phase
                session.initiative()
        holders[k.turn] = str(session.state.flags.get("initiative:holder", ""))
        if session.next_step().turn > turns:
            return blocks, holders
        session.next_phase()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_player_turns_of_a_turn_belong_to_different_sides(ruleset):
    battle = store.load(ELCHINGEN)
    session = GameSession(battle, get_ruleset(ruleset), seed=7)
    blocks, holders = player_turns(session, 4)
    sides = sorted(battle.scenario.sides)
    firsts = [next(side for t, side in blocks if t == turn) for turn in range(1, 5)]
    if ruleset == "gda":
        # ИНИЦИАТИВА: the turn goes phase by phase, both sides in each; the initiative is rolled
        # once, and its winner is the active player, first in every phase after it
        for turn in range(1, 5):
            steps = session.steps(turn)
            phases = [x.phase for x in steps]
            assert phases.count("initiative") == 1
            after = steps[phases.index("initiative") + 1 :]
            assert [x.side for x in after[::2]] == [holders[turn]] * (len(after) // 2), (turn, after)
            assert sorted(x.side for x in after[:2]) == sides
        assert firsts[1:] == [holders[t] for t in range(1, 4)]
        return
    for turn in range(1, 5):
        assert sorted(side for t, side in blocks if t == turn) == sides, (turn, blocks)
    if ruleset == "toe":
        # agreed before the game: the French keep it every turn, so no side plays twice running
        assert firsts == ["french"] * 4
        assert all(a[1] != b[1] for a, b in pairwise(blocks))
    elif ruleset == "belle-alliance":
        assert firsts == [sides[0]] * 4
    else:
        # rolled in the turn: the next turn is played in the order of the last holder
        assert firsts[1:] == [holders[t] for t in range(1, 4)]


def test_toe_initiative_is_the_scenario_choice_and_says_so():
    battle = store.load(ELCHINGEN)
    assert battle.scenario.info.parameters["toe.scenario.initiative"] == "french"
    toe = get_ruleset("toe")
    session = GameSession(battle, toe)
    result = toe.initiative(session.state, session.params, session.dice)
    assert result.side == "french"
    assert "1.2" in result.explanation and "french" in result.explanation


def test_toe_initiative_per_turn_list_and_nothing_agreed():
    battle = store.load(ELCHINGEN)
    params = {k: v for k, v in battle.scenario.info.parameters.items() if k != "toe.scenario.initiative"}
    battle.scenario.info = replace(battle.scenario.info, parameters=params)
    toe = get_ruleset("toe")
    plain = GameSession(battle, toe)
    unset = toe.initiative(plain.state, plain.params, plain.dice)
    assert unset.side == "" and "not agreed" in unset.explanation
    # nothing agreed: the scenario's first side every turn, never the side that moved last
    blocks, _ = player_turns(plain, 3)
    assert [s for t, s in blocks] == ["austrian", "french"] * 3

    battle = store.load(ELCHINGEN)
    listed = GameSession(battle, toe, params={"toe.scenario.initiative": ["french", "austrian", "austrian"]})
    blocks, _ = player_turns(listed, 3)
    assert blocks == [(1, "french"), (1, "austrian"), (2, "austrian"), (2, "french"), (3, "austrian"), (3, "french")]


def test_rule_parameters_find_a_scenario_choice_under_the_ruleset_prefix():
    p = RuleParameters.for_ruleset("toe", {"toe.scenario.initiative": "french"})
    assert p.get("initiative") == "french" and p.overridden("initiative")
    assert RuleParameters.for_ruleset("toe", {"initiative": "austrian"}).get("initiative") == "austrian"
    assert RuleParameters.for_ruleset("toe", {"toe.initiative": "austrian"}).get("initiative") == "austrian"
    # the plain key wins over the prefixed ones
    both = RuleParameters.for_ruleset("toe", {"initiative": "austrian", "toe.scenario.initiative": "french"})
    assert both.get("initiative") == "austrian"
    # a file entry nobody overrides: its value, reported as an assumption
    unset = RuleParameters.for_ruleset("toe", {})
    assert unset.get("initiative") == "" and "initiative" in unset.assumed_used
