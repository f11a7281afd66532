"""Torden over Europa 2.4 "Generaler, divisioner og selvstændige taktiske enheder underlagt
korpsgeneralen må ikke frivilligt forlade korpsgeneralens kommandoafstand (jf. dog afsnit 4.9)"
for a general's drag (``command.general_move_check``, the ruleset's ``move_check`` for a
commander), on the bundled Jena scenario: Suchet's 1re division general stands 26.9 cm from
Lannes, whose corps command distance is 30 cm (the engine parameters)."""

from __future__ import annotations

import math

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.rules import RuleRefused, get_ruleset
from battlestudio.rules.moves import MoveRequest
from battlestudio.session import GameSession
from tests.test_session import ENGINE, JENA

LANNES, SUCHET, GAZAN, CAVALRY = "french-v-corps", "french-1eme-division", "french-2eme-division", "french-cav-bde"
TOE = get_ruleset("toe")


@pytest.fixture(scope="module")
def movement():
    s = GameSession(Battle(store.load(JENA).scenario, []), params=ENGINE)
    s.advance_to("movement", "french")
    return s


def drag(s: GameSession, cid: str, d: tuple[float, float], state=None):
    state = state or s.state
    at = state.commanders[cid].position
    return TOE.move_check(state, MoveRequest(cid, (at, (at[0] + d[0], at[1] + d[1]))), s.params)


def test_a_division_general_may_not_leave_his_corps_generals_command_distance(movement):
    state = movement.state
    assert math.dist(state.commanders[SUCHET].position, state.commanders[LANNES].position) == pytest.approx(
        26.88, abs=0.01
    )
    out = drag(movement, SUCHET, (10.0, 0.0))
    assert not out.legal and out.unit == SUCHET and out.used_cm == pytest.approx(10.0)
    (problem,) = out.problems
    assert "Suchet would leave Lannes's command distance (36.9 cm, 30 cm allowed)" in problem and "(2.4" in problem
    inside = drag(movement, SUCHET, (-10.0, 5.0))
    assert inside.legal and inside.problems == ()
    along = drag(movement, SUCHET, (0.0, 10.0))  # 28.7 cm from Lannes: still inside
    assert along.legal


def test_the_exceptions_corps_general_cavalry_detached_and_already_outside(movement):
    """2.1: the corps general may move away from his subordinates; 4.9: a cavalry general's
    command is not judged; 2.4/2.11: a detached general may be outside; one already outside
    does not leave voluntarily by moving further."""
    assert drag(movement, LANNES, (-40.0, 0.0)).legal  # Suchet left 67 cm behind: his duty to close up
    assert drag(movement, CAVALRY, (0.0, -40.0)).legal
    state = movement.state
    detached = state.evolve(flags={**state.flags, f"detached:{SUCHET}": True})
    assert drag(movement, SUCHET, (30.0, 0.0), detached).legal
    far = state.with_records([state.commanders[SUCHET].moved((440.0, 145.5))])
    assert drag(movement, SUCHET, (10.0, 0.0), far).legal


def test_a_missing_corps_command_distance_is_named(movement):
    """Without the national supplement's corps command distance the drag cannot be judged: the
    refusal names the parameter the scenario must give (the window then shows no verdict)."""
    from dataclasses import replace

    params = {k: v for k, v in movement.params.items() if not k.startswith("toe.corps_command_distance_cm")}
    state = movement.state
    lannes = replace(state.commanders[LANNES], command_distance=None)
    at = state.commanders[SUCHET].position
    with pytest.raises(RuleRefused, match="corps_command_distance_cm"):
        TOE.move_check(state.with_records([lannes]), MoveRequest(SUCHET, (at, (at[0] + 10.0, at[1]))), params)
