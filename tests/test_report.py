"""The game report page (reports.html): summary per side, highlights with game time, map
snapshots and charts, escaping; pure text, no Qt."""

from __future__ import annotations

from battlestudio.analysis import highlights
from pathlib import Path

from battlestudio import store
from battlestudio.replay.game import GameLog
from battlestudio.reports.html import Picture, ReportParts, SideSummary, render_html
from battlestudio.reports.sides import side_summaries
from tests.analysis import known_game

JENA = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"


def parts(**kw) -> ReportParts:
    base = dict(
        title="Known game",
        subtitle="1806-10-14 — game report",
        facts=[("ruleset", "toe"), ("turns played", "3 (06:00–06:30), 34 events")],
        sides=[
            SideSummary("French", "#2a4fa8", 800, 600, 200, 3, 2, 1.9, 150, 50, 0),
            SideSummary("Prussian <Hohenlohe>", "#303030", 800, 600, 120, 2, 1, 0.6, 120, 0, 80),
        ],
        maps=[
            Picture("Deployment", "data:image/png;base64,AAAA", caption="deployment, 06:00"),
            Picture("Turn 3", "map-3.png"),
        ],
        charts=[Picture("Strength per side", svg="<svg id='c1'></svg>"), Picture("Luck", "chart-luck.png")],
        highlights=highlights(known_game.log()),
        times={1: "06:00", 2: "06:15", 3: "06:30"},
    )
    base.update(kw)
    return ReportParts(**base)


def test_report_page_holds_every_part_in_order():
    page = render_html(parts())
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    order = [page.index(s) for s in ("<h1>Known game</h1>", "The sides", "Highlights", "The map", "Charts")]
    assert order == sorted(order)
    assert (
        '<td class="n">800</td><td class="n">600</td><td class="n" title="150 casualties, 50 with eliminated units">'
        '200</td><td class="n">0</td><td class="n">2 of 3</td><td class="n">1.90</td>' in page
    )
    assert "Prussian &lt;Hohenlohe&gt;: 120 casualties and 0 with eliminated units" in page
    assert page.count("<figure>") == 4 and "<svg id='c1'></svg>" in page and 'src="map-3.png"' in page
    assert "<figcaption>deployment, 06:00</figcaption>" in page


def test_highlights_carry_turn_and_game_time():
    page = render_html(parts())
    assert "turn 2 (06:15) · <b>A rash ride</b> — The division general rides ahead." in page
    assert "<b>A sure thing fails</b>" in page and "failed at a 90% chance" in page


def test_text_is_escaped_and_notes_shown():
    page = render_html(parts(notes=["overlay incomplete: needs 'zones_cm' & more"]))
    assert "Prussian &lt;Hohenlohe&gt;" in page and "<Hohenlohe>" not in page
    assert "needs &#x27;zones_cm&#x27; &amp; more" in page


def test_image_width_for_print():
    assert 'width="600"' in render_html(parts(), image_width=600)
    assert "width=" not in render_html(parts(charts=[], maps=[Picture("m", "x.png")]))


def test_the_jena_sides_table_adds_up():
    battle = store.load(JENA)
    sides = side_summaries(battle.scenario, GameLog.from_battle(battle))
    assert [s.name.split(":")[0] for s in sides] == ["French Empire", "Prussia and Saxony"]
    for s in sides:
        assert s.men_start - s.men_end == s.lost + s.left and s.other == 0
        assert s.lost == s.casualties + s.eliminated > 0
    french, prussian = sides
    assert prussian.left > prussian.lost  # most Prussians who went retreated off with Ferdinand
    page = render_html(parts(sides=sides))
    row = (
        f'<td class="n">{prussian.men_start:,}</td><td class="n">{prussian.men_end:,}</td>'
        f'<td class="n" title="{prussian.casualties:,} casualties, {prussian.eliminated:,} with eliminated units">'
        f'{prussian.lost:,}</td><td class="n">{prussian.left:,}</td>'
    )
    assert row in page
