"""Losses that add up: for every side (and corps, and turn) men at the start − men at the end =
men lost (casualties + men lost with eliminated units) + men who left the table alive, on the
bundled Jena game and on generated games; the Jena casualties are exactly its events' men."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from battlestudio import store
from battlestudio.analysis import strength_over_turns
from battlestudio.analysis.losses import loss_ledger
from battlestudio.replay.combat_events import Casualties
from battlestudio.replay.flow_events import UnitRemoved
from battlestudio.replay.game import GameLog
from battlestudio.session.synthetic import synthetic_game
from tests.strategies import battles

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"


@pytest.fixture(scope="module")
def jena() -> GameLog:
    return GameLog.from_battle(store.load(JENA))


def _alive_men(state, side: str) -> int:
    return sum(u.men for u in state.units.values() if u.side == side and u.state != "eliminated")


def _check_adds_up(log: GameLog) -> None:
    sides = loss_ledger(log)
    for r in sides:
        assert r.start == _alive_men(log.initial, r.side)
        assert r.end == _alive_men(log.head, r.side)
        assert r.start - r.end == r.lost + r.left + r.other
    by_side = {r.side: r for r in sides}
    for by, per_turn in (("corps", False), ("side", True), ("corps", True)):
        parts = loss_ledger(log, by, per_turn)
        for side, whole in by_side.items():
            mine = [r for r in parts if r.side == side]
            for field in ("casualties", "eliminated", "left", "other"):
                assert sum(getattr(r, field) for r in mine) == getattr(whole, field), (by, per_turn, field)
            if per_turn:
                turns = [r for r in mine if r.group == side]
                for a, b in zip(turns, turns[1:], strict=False):
                    assert a.end == b.start  # one turn ends where the next begins


def test_the_jena_losses_add_up_per_side_corps_and_turn(jena):
    _check_adds_up(jena)
    sides = {r.side: r for r in loss_ledger(jena)}
    initial_side = {uid: u.side for uid, u in jena.initial.units.items()}
    for side, r in sides.items():
        assert r.other == 0
        assert r.casualties == sum(
            e.men for e in jena.events if isinstance(e, Casualties) and initial_side[e.unit] == side
        )
    # 13 Prussian units leave the table: 10 with the formations whose retreat (held on the table, 2.6,
    # 2.9) brought them to its edge (the umpire's ruling, record_jena), 3 routed: their men left, they
    # were not lost
    gone = [
        jena.state_at(i).units[e.id]  # as it was when it left
        for i, e in enumerate(jena.events)
        if isinstance(e, UnitRemoved) and initial_side.get(e.id) == "prussian"
    ]
    assert len(gone) == 13 and all(u.state != "eliminated" for u in gone)
    assert sides["prussian"].left == sum(u.men for u in gone) == 26_644
    assert sides["prussian"].eliminated > 0 and sides["french"].eliminated > 0
    last = {p.group: p.men for p in strength_over_turns(jena) if p.turn == max(jena.turns())}
    assert {s: r.end for s, r in sides.items()} == last


def _replayable(battle) -> GameLog:
    """The generated game's events that apply, in order (random fields a ruleset's event cannot
    apply are left out), as a log."""
    state = GameLog.from_scenario(battle.scenario).initial
    kept = []
    for e in battle.events:
        try:
            state = e.apply(state)
        except Exception:  # noqa: BLE001 - a generated event that does not fit the state
            continue
        kept.append(e)
    return GameLog.from_scenario(battle.scenario, kept)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(battles(min_events=20, max_events=200))
def test_generated_games_add_up(battle):
    _check_adds_up(_replayable(battle))


@pytest.mark.parametrize("seed", [1, 7, 1806])
def test_synthetic_games_with_routs_and_eliminations_add_up(seed):
    log = synthetic_game(turns=12, seed=seed).log()
    _check_adds_up(log)
    sides = loss_ledger(log)
    assert sum(r.casualties for r in sides) > 0 and all(r.other == 0 for r in sides)
