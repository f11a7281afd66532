"""The legend names every nation drawn in a colour other than its side's (issue 21): units and
generals keep their nation's coat colour (a test of the map requires it), the sides' own
colours come from the sides' settings, and a nation seen only in a general's flag is listed
too; hidden layers list nothing."""

from __future__ import annotations

from dataclasses import replace

from battlestudio import store
from battlestudio.document import Document
from battlestudio.edits import PutRecords
from battlestudio.replay.battle import Battle
from battlestudio.ui.map_legend import drawn_nations, legend_entries
from battlestudio.ui.map_view import MapView
from battlestudio.ui.styles import ECHELON_MARKS, nation_colour
from tests.ui.test_map_pages import JENA


def test_nations_of_units_and_generals_are_listed(qtbot):
    battle = store.load(JENA)
    s = battle.scenario
    document = Document(Battle(s, []))
    view = MapView(document)
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    scene = view.map_scene
    nations = dict(drawn_nations(scene, document.scenario))
    assert nations.get("Saxony") == "#3f7f3f"  # the Saxon contingent in its own green
    french = next(c for c in document.scenario.commanders.values() if c.side == "french" and c.nation)
    assert french.nation not in nations  # France's blue is the side's colour: the side's line says it
    # a Bavarian general on the French side, no Bavarian unit: his flag is Bavarian blue, listed
    assert not any(u.nation.lower().startswith("bavaria") for u in document.scenario.units.values())
    document.push(PutRecords("commanders", {french.id: replace(french, nation="Bavaria")}, "Bavarian"))
    nations = dict(drawn_nations(scene, document.scenario))
    assert nations.get("Bavaria") == nation_colour("bavaria").name()
    entries = legend_entries(scene, None, document.scenario, None)
    assert ("box", nation_colour("bavaria").name(), "Bavaria") in entries
    marks = next(t for k, _c, t in entries if k == "flag")
    assert all(f"{ECHELON_MARKS[e]} {e}" in marks for e in ("army", "corps", "division", "brigade"))
    view.set_layer_visible("commanders", False)  # not drawn: not listed
    assert "Bavaria" not in dict(drawn_nations(scene, document.scenario))
    assert "Saxony" in dict(drawn_nations(scene, document.scenario))  # his units are still drawn
    assert not any(k == "flag" for k, _c, _t in legend_entries(scene, None, document.scenario, None))
