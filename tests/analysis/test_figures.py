"""Every analysis figure on the known game (tests/analysis/known_game.py), whose answers are
known by construction."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battlestudio.analysis import (
    command_luck,
    highlights,
    losses_by_turn_and_phase,
    order_history,
    out_of_command_time,
    strength_over_turns,
)
from battlestudio.analysis.command_time import turns_out_by_corps
from battlestudio.analysis.common import corps_of, turn_end_positions
from battlestudio.analysis.losses import losses_per_phase, losses_per_turn
from battlestudio.analysis.luck import command_rolls
from battlestudio.analysis.order_history import spans_by_corps
from battlestudio.rules import get_ruleset
from tests.analysis import known_game


@pytest.fixture(scope="module")
def log():
    return known_game.log()


def test_turn_ends_follow_the_last_phase_of_each_turn(log):
    ends = turn_end_positions(log)
    assert [t for t, _ in ends] == [0, 1, 2, 3]
    assert ends[-1][1] == len(log)
    # the state at the end of turn 2 has the division general forward, at the end of turn 3 back
    assert log.state_at(ends[2][1]).commanders["french-d1"].position == (100.0, 80.0)
    assert log.state_at(ends[3][1]).commanders["french-d1"].position == (100.0, 50.0)


def test_corps_of_walks_up_to_the_corps_general(log):
    s = log.initial
    assert corps_of(s, "french-u1") == "french-c1"
    assert corps_of(s, "french-d1") == "french-c1"
    assert corps_of(s, "french-c1") == "french-c1"
    assert corps_of(s, "french-army") == "french-army"
    assert corps_of(s, "nobody") == ""


def test_strength_per_side_over_turns(log):
    got = {(p.turn, p.group): (p.men, p.figures) for p in strength_over_turns(log)}
    assert got == {
        (0, "french"): (800, 8),
        (0, "prussian"): (800, 8),
        (1, "french"): (700, 7),
        (1, "prussian"): (800, 8),
        (2, "french"): (600, 6),
        (2, "prussian"): (600, 6),
        (3, "french"): (600, 6),
        (3, "prussian"): (600, 6),
    }


def test_strength_per_corps_uses_the_corps_ids(log):
    got = {(p.turn, p.group): p.men for p in strength_over_turns(log, by="corps")}
    assert got[(0, "french-c1")] == 800 and got[(2, "prussian-c1")] == 600
    with pytest.raises(ValueError, match="'side' or 'corps'"):
        strength_over_turns(log, by="division")


def test_losses_per_turn_and_phase(log):
    rows = losses_by_turn_and_phase(log)
    assert [(r.turn, r.active_side, r.phase, r.side, r.men, r.figures) for r in rows] == [
        (1, "french", "firing", "french", 100, 1),
        (2, "prussian", "attack", "prussian", 200, 2),
        (2, "prussian", "firing", "french", 100, 1),
    ]
    assert losses_per_turn(rows) == {1: {"french": 100}, 2: {"prussian": 200, "french": 100}}
    assert losses_per_phase(rows) == {"firing": {"french": 200}, "attack": {"prussian": 200}}


def test_three_of_five_command_rolls_pass_at_known_odds(log):
    rolls = command_rolls(log)
    assert [r.p for r in rolls] == list(known_game.ROLL_ODDS)
    assert [r.passed for r in rolls] == list(known_game.ROLL_PASSED)
    assert [r.chief for r in rolls] == ["french-army", "prussian-army", "french-army", "prussian-army", "french-army"]
    assert sum(r.passed for r in rolls) == 3


def test_luck_per_side(log):
    rows = {r.group: r for r in command_luck(log)}
    fr, pr = rows["french"], rows["prussian"]
    assert (fr.rolls, fr.observed, fr.expected) == (3, 2, Fraction(19, 10))
    assert (pr.rolls, pr.observed, pr.expected) == (2, 1, Fraction(3, 5))
    assert fr.variance == Fraction(1, 4) + Fraction(9, 100) + Fraction(1, 4)
    assert fr.luck == pytest.approx(0.1)
    assert pr.z == pytest.approx(0.4 / (2 * 0.21) ** 0.5)
    total = sum((r.expected for r in rows.values()), Fraction(0))
    assert total == Fraction(5, 2) and sum(r.observed for r in rows.values()) == 3


def test_luck_per_chief(log):
    rows = {r.group: r for r in command_luck(log, by="chief")}
    assert set(rows) == {"french-army", "prussian-army"}
    assert rows["french-army"].observed == 2 and rows["prussian-army"].expected == Fraction(3, 5)
    with pytest.raises(ValueError):
        command_luck(log, by="corps")


def test_time_out_of_command(log):
    res = out_of_command_time(log, get_ruleset("toe"), known_game.PARAMS)
    assert res.refusal == ""
    rows = {r.subject: r for r in res.rows}
    assert rows["french-d1"].out == (2,) and rows["french-d1"].checked == (1, 2, 3)
    assert rows["french-u1"].out == (2,) and rows["french-u2"].out == (2,)
    assert all(not rows[f"prussian-{n}"].out for n in ("d1", "u1", "u2"))
    assert turns_out_by_corps(res) == {"french-c1": 3, "prussian-c1": 0}


def test_time_out_of_command_reports_a_missing_parameter():
    from battlestudio.replay.game import GameLog

    from dataclasses import replace

    s = known_game.scenario()
    s.commanders["french-c1"] = replace(s.commanders["french-c1"], command_distance=None)
    res = out_of_command_time(GameLog.from_scenario(s, known_game.events()), get_ruleset("toe"), known_game.PARAMS)
    assert res.rows == () and "corps_command_distance_cm" in res.refusal


def test_order_history_spans(log):
    spans = {s.order_id: s for s in order_history(log)}
    o1, o2, o3, d = spans["o1"], spans["o2"], spans["o3"], spans["o2/defence"]
    assert (o1.written, o1.delivered, o1.failed, o1.ended, o1.end) == (1, 1, (), 3, "superseded")
    assert (o2.written, o2.delivered, o2.failed, o2.ended, o2.end) == (1, 2, (1,), 3, "completed")
    assert (o3.written, o3.delivered, o3.failed, o3.ended, o3.end) == (2, 3, (2,), None, "")
    assert (d.order_type, d.written, d.delivered, d.ended) == ("defence", 3, 3, None)
    by = spans_by_corps(list(spans.values()))
    assert [s.order_id for s in by["french-c1"]] == ["o1", "o3"]
    assert [s.order_id for s in by["prussian-c1"]] == ["o2", "o2/defence"]


def test_highlights(log):
    hs = highlights(log)
    kinds = [h.kind for h in hs]
    assert kinds.count("note") == 1 and kinds.count("order") == 3
    assert kinds.count("unlucky") == 1  # the 9/10 roll that failed
    assert [h.position for h in hs] == sorted(h.position for h in hs)
    bloody = next(h for h in hs if h.kind == "bloodiest")
    assert bloody.turn == 2 and "200 men" in bloody.text
    assert len(highlights(log, limit=2)) == 2
