"""The game's charts (the Analysis dock's and the report's) build on a generated game (the
Leipzig benchmark battles come from ``session.synthetic``): its luck chart reads the synthetic
command rolls instead of refusing the game."""

from __future__ import annotations

from dataclasses import replace

from battlestudio.analysis import command_luck
from battlestudio.session.synthetic import synthetic_game
from battlestudio.reports.charts import game_charts


def test_every_chart_of_a_small_generated_game_builds_and_its_luck_chart_names_both_sides():
    game = synthetic_game(turns=6, units_per_side=64, seed=3, command_orders=True)
    game.scenario.info = replace(game.scenario.info, ruleset="toe")
    log = game.log()
    charts = {c.key: c for c in game_charts(log, game.scenario)}
    assert {"luck", "luck-chief", "strength", "orders"} <= set(charts)
    rows = command_luck(log)
    names = {sid: s.name for sid, s in game.scenario.sides.items()}
    for i, row in enumerate(rows):  # the hover text of each bar: the side's rolls, passes and expectation
        text = charts["luck"].hover(i, 0.0)
        assert text.startswith(f"{names[row.side]}: {row.observed} of {row.rolls} rolls passed")
        assert f"{float(row.expected):.2f} expected" in text
    assert len(rows) == 2 and sum(r.rolls for r in rows) == sum(e.kind == "command_roll" for e in game.events)
