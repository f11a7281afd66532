"""Deployment tools in the window, on the bundled Elchingen battle (French zone in the south,
Austrian zone in the north, the Albeck road running north from the bridge at x = 110 cm): a
group turn keeps a line a line (rotate tool and Properties), a formation deploys along a drawn
line, into its deployment zone and as a column of march along a road — each one undo step,
from the tool's key, with a message when refused."""

from __future__ import annotations

import itertools
import math

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QDoubleSpinBox, QInputDialog
from shapely.geometry import Point as ShapelyPoint

from battlestudio import store
from battlestudio.ui.tools.deploy import DEPLOYMENT
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window, mouse, px

DIVISION = "french-2eme-division"  # Loison: Bde Roguet, Bde Villatte
CORPS = "french-vi-corps"  # Ney: 11 units in four commands


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    monkeypatch.setattr(DEPLOYMENT, "interval_cm", 1.0)
    work = tmp_path / "elchingen.battle.json"
    store.save(store.load(ELCHINGEN), work)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 1000)
    assert w.files.open_path(work)
    w.map_view.fit_table()
    w.actions["snap"].setChecked(True)  # View ▸ Snap to Grid: clicks land on the 5 cm grid
    QApplication.processEvents()
    return w


def click(view, p):
    at = px(view, p)
    mouse(view, "press", at)
    mouse(view, "release", at)


def formation_units(s, root):
    return [s.units[n] for n, _ in s.oob.walk(root) if n in s.units]


def select_in_tree(qtbot, w, rid):
    panel = w.oob_panel
    ix = panel.index_of(rid)
    panel.tree.scrollTo(ix)
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=panel.tree.visualRect(ix).center())
    assert rid in w.document.selection


def key(qtbot, w, k):
    """A real key press on the map (a tool's shortcut reaches the window's action)."""
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    w.map_view.setFocus()
    qtbot.keyClick(w.map_view, k)


def gaps_along(units, direction):
    """Gaps (cm) between consecutive footprints measured along ``direction`` (a unit vector)."""
    out = []
    for a, b in itertools.pairwise(units):
        pa = [x * direction[0] + y * direction[1] for x, y in a.footprint().exterior.coords]
        pb = [x * direction[0] + y * direction[1] for x, y in b.footprint().exterior.coords]
        out.append(min(pb) - max(pa))
    return out


def test_deploy_a_division_along_a_drawn_line(qtbot, window, monkeypatch):
    w, view, doc = window, window.map_view, window.document
    s = doc.scenario
    hints: list[str] = []
    view.hint_changed.connect(hints.append)
    key(qtbot, w, Qt.Key.Key_L)
    assert w.actions.tools["deploy_line"].isChecked() and view.tool.name == "deploy_line"
    click(view, (40.0, 30.0))  # nothing selected: the tool says what to do
    assert "Select the formation's commander" in hints[-1]
    select_in_tree(qtbot, w, DIVISION)
    steps = doc.undo_count
    click(view, (40.0, 30.0))
    assert doc.undo_count == steps  # the first click only starts the line
    mouse(view, "move", px(view, (140.0, 30.0)))  # the preview: where the two brigades would stand
    ghosts = [g for g in view.tool._ghosts if g.scene() is view.map_scene]
    assert len(ghosts) == 2 and "2 units" in hints[-1]
    assert ghosts[0].polygon().boundingRect().width() > 0
    click(view, (140.0, 30.0))
    assert not any(g.scene() for g in ghosts)  # the preview goes with the gesture
    assert doc.undo_count == steps + 1 and doc.undo_text == "Deploy Louis Henri Loison"
    units = formation_units(s, DIVISION)
    assert [u.name for u in units] == ["Bde Roguet", "Bde Villatte"]
    for u in units:
        assert u.facing == pytest.approx(90.0)  # perpendicular to the line, towards the Austrian zone
        assert u.position[1] == pytest.approx(30.0)  # the fronts stand on the line
    first = units[0].footprint().bounds
    assert first[0] == pytest.approx(40.0, abs=0.5)  # order of battle from the first click
    assert gaps_along(units, (1.0, 0.0)) == pytest.approx([1.0])
    loison = s.commanders[DIVISION].position
    assert loison[1] < 30.0 and 40.0 < loison[0] < 140.0  # behind his line
    assert hints[-1] == "Deploy Louis Henri Loison"  # one line: the 69 cm frontage fits the 100 cm line
    assert doc.selection >= {DIVISION, *(u.id for u in units)}

    # the interval is the tool's option: + widens it (hint), the next deployment uses it
    key(qtbot, w, Qt.Key.Key_Plus)
    assert DEPLOYMENT.interval_cm == 1.5 and "interval 1.5 cm" in hints[-1]
    click(view, (40.0, 30.0))
    click(view, (140.0, 30.0))
    assert gaps_along(formation_units(s, DIVISION), (1.0, 0.0)) == pytest.approx([1.5])
    # ... and Tools ▸ Deployment Interval… asks for it
    monkeypatch.setattr(QInputDialog, "getDouble", staticmethod(lambda *a, **k: (4.0, True)))
    w.findChild(QAction, "action_deploy_interval").trigger()
    assert DEPLOYMENT.interval_cm == 4.0

    # drawn from right to left the order follows the clicks, the facing still points at the enemy
    click(view, (140.0, 30.0))
    click(view, (40.0, 30.0))
    units = formation_units(s, DIVISION)
    assert units[0].position[0] > units[1].position[0] and all(u.facing == pytest.approx(90.0) for u in units)
    doc.undo()
    doc.undo()
    doc.undo()
    assert formation_units(s, DIVISION) == formation_units(store.load(ELCHINGEN).scenario, DIVISION)


def test_a_line_too_short_for_the_formation_makes_a_second_line_behind(qtbot, window):
    w, view, doc = window, window.map_view, window.document
    s = doc.scenario
    hints: list[str] = []
    view.hint_changed.connect(hints.append)
    select_in_tree(qtbot, w, DIVISION)
    key(qtbot, w, Qt.Key.Key_L)
    click(view, (40.0, 30.0))
    click(view, (80.0, 30.0))  # 40 cm: room for Roguet (34 cm), not for Villatte as well
    roguet, villatte = formation_units(s, DIVISION)
    assert roguet.position == pytest.approx((57.0, 30.0))
    assert villatte.position[0] == pytest.approx(40.0 + villatte.rect().width / 2)  # from the first click again
    assert villatte.position[1] == pytest.approx(30.0 - roguet.rect().depth - 3.0)  # behind, 3 cm between lines
    assert villatte.facing == roguet.facing == pytest.approx(90.0)
    assert "in 2 lines" in hints[-1] and doc.undo_count == 1


def test_rotate_tool_turns_a_line_about_its_centre_and_keeps_it_a_line(qtbot, window):
    w, view, doc = window, window.map_view, window.document
    s = doc.scenario
    select_in_tree(qtbot, w, DIVISION)
    key(qtbot, w, Qt.Key.Key_L)
    click(view, (40.0, 30.0))
    click(view, (140.0, 30.0))
    ids = [u.id for u in formation_units(s, DIVISION)]
    before = {i: s.units[i] for i in ids}
    dist = math.dist(before[ids[0]].position, before[ids[1]].position)
    key(qtbot, w, Qt.Key.Key_R)
    tool = view.tool
    anchor = tool.anchor()
    steps = doc.undo_count
    handle = tool.handle_point()
    # drag the handle a quarter turn to the left (west of the anchor), Shift snapping to 15°
    r = math.dist(handle, anchor)
    target = (anchor[0] - r, anchor[1] + 0.3)
    at, to = px(view, handle), px(view, target)
    mouse(view, "press", at)
    for k in range(1, 7):
        p = at + (to - at) * (k / 6)
        mouse(view, "move", p, modifiers=Qt.KeyboardModifier.ShiftModifier)
    mouse(view, "release", to, modifiers=Qt.KeyboardModifier.ShiftModifier)
    assert doc.undo_count == steps + 1 and doc.undo_text == "Rotate 3 items"
    after = {i: s.units[i] for i in ids}
    assert all(u.facing == pytest.approx(180.0) for u in after.values())
    assert math.dist(after[ids[0]].position, after[ids[1]].position) == pytest.approx(dist)  # not a comb
    assert after[ids[0]].position[0] == pytest.approx(after[ids[1]].position[0])  # still one front line
    assert tool.anchor() == pytest.approx(anchor)  # turned about the selection's centre
    key(qtbot, w, Qt.Key.Key_BracketRight)  # ] turns the whole selection 15° clockwise
    assert all(s.units[i].facing == pytest.approx(165.0) for i in ids)
    assert math.dist(s.units[ids[0]].position, s.units[ids[1]].position) == pytest.approx(dist)
    # the commander alone, clicked in the tree, brings his formation: ] turns the line, not a comb
    select_in_tree(qtbot, w, DIVISION)
    assert doc.selection == {DIVISION}
    key(qtbot, w, Qt.Key.Key_BracketLeft)
    assert all(s.units[i].facing == pytest.approx(180.0) for i in ids)
    assert math.dist(s.units[ids[0]].position, s.units[ids[1]].position) == pytest.approx(dist)
    doc.undo()
    doc.undo()
    doc.undo()
    assert {i: s.units[i] for i in ids} == before


def test_properties_facing_turns_units_of_one_facing_together(qtbot, window):
    w, view, doc = window, window.map_view, window.document
    s = doc.scenario
    select_in_tree(qtbot, w, DIVISION)
    key(qtbot, w, Qt.Key.Key_L)
    click(view, (40.0, 30.0))
    click(view, (140.0, 30.0))
    ids = [u.id for u in formation_units(s, DIVISION)]
    doc.set_selection(ids)
    dist = math.dist(s.units[ids[0]].position, s.units[ids[1]].position)
    centre = [sum(s.units[i].rect().centre[k] for i in ids) / 2 for k in (0, 1)]
    spin: QDoubleSpinBox = w.properties_panel.editors["units"]["facing"].widget
    steps = doc.undo_count
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "45")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert all(s.units[i].facing == pytest.approx(45.0) for i in ids)
    assert math.dist(s.units[ids[0]].position, s.units[ids[1]].position) == pytest.approx(dist)
    new_centre = [sum(s.units[i].rect().centre[k] for i in ids) / 2 for k in (0, 1)]
    assert new_centre == pytest.approx(centre)
    assert doc.undo_count == steps + 1  # the typed digits are one undo step
    doc.undo()
    assert all(s.units[i].facing == pytest.approx(90.0) for i in ids)


def test_deploy_the_corps_into_its_deployment_zone(qtbot, window):
    w, view, doc = window, window.map_view, window.document
    s = doc.scenario
    hints: list[str] = []
    view.hint_changed.connect(hints.append)
    select_in_tree(qtbot, w, CORPS)
    key(qtbot, w, Qt.Key.Key_D)
    assert view.tool.name == "deploy_zone"
    steps = doc.undo_count
    click(view, (120.0, 100.0))  # the Austrian zone: refused
    assert doc.undo_count == steps and "belongs to" in hints[-1] and "Austria" in hints[-1]
    click(view, (120.0, 20.0))
    assert doc.undo_count == steps + 1 and doc.undo_text.startswith("Deploy Marshal Michel Ney in")
    zone = s.deployment_zones["dz-french"].polygon.buffer(1e-3)
    units = formation_units(s, CORPS)
    assert len(units) == 11
    for u in units:
        assert u.footprint().within(zone), u.name
    for a, b in itertools.combinations(units, 2):
        assert a.footprint().intersection(b.footprint()).area < 1e-6, (a.name, b.name)
    assert all(60.0 < u.facing < 120.0 for u in units)  # facing north, at the Austrians
    doc.undo()
    assert formation_units(s, CORPS) == formation_units(store.load(ELCHINGEN).scenario, CORPS)


def test_a_zone_too_small_is_refused_and_nothing_moves(qtbot, window):
    w, view, doc = window, window.map_view, window.document
    s = doc.scenario
    select_in_tree(qtbot, w, CORPS)
    key(qtbot, w, Qt.Key.Key_Z)
    for p in [(150.0, 5.0), (170.0, 5.0), (170.0, 15.0), (150.0, 15.0)]:
        click(view, p)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    select_in_tree(qtbot, w, CORPS)
    hints: list[str] = []
    view.hint_changed.connect(hints.append)
    key(qtbot, w, Qt.Key.Key_D)
    steps, before = doc.undo_count, formation_units(s, CORPS)
    click(view, (160.0, 10.0))  # inside the small zone (drawn over the big one, found first)
    assert doc.undo_count == steps and formation_units(s, CORPS) == before
    assert "too small" in hints[-1] and "do not fit" in hints[-1]


def test_deploy_in_zone_stands_where_the_zone_was_clicked(qtbot, window):
    """A tester's report: the formation always packed against the zone's front edge, centred,
    wherever in the zone one clicked."""
    w, view, doc = window, window.map_view, window.document
    s = doc.scenario
    select_in_tree(qtbot, w, DIVISION)
    key(qtbot, w, Qt.Key.Key_Z)
    for p in [(20.0, 5.0), (230.0, 5.0), (230.0, 35.0), (20.0, 35.0)]:
        click(view, p)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    zone = next(z for z in s.deployment_zones.values() if z.polygon.area == pytest.approx(210.0 * 30.0))
    select_in_tree(qtbot, w, DIVISION)
    key(qtbot, w, Qt.Key.Key_D)

    def block_centre():
        units = formation_units(s, DIVISION)
        assert all(u.footprint().within(zone.polygon.buffer(1e-3)) for u in units)
        xs = [x for u in units for x, _ in u.footprint().exterior.coords]
        ys = [y for u in units for _, y in u.footprint().exterior.coords]
        return ((min(xs) + max(xs)) / 2.0, (min(ys) + max(ys)) / 2.0)

    steps = doc.undo_count
    click(view, (60.0, 20.0))  # the west end, mid-depth
    assert doc.undo_count == steps + 1
    assert block_centre() == pytest.approx((60.0, 20.0), abs=0.6)
    doc.undo()
    click(view, (200.0, 10.0))  # the east end, at the back
    assert block_centre() == pytest.approx((195.5, 10.0), abs=0.6)  # as far east as it fits (its east end at 230)
    doc.undo()


def test_column_of_march_along_the_albeck_road(qtbot, window):
    w, view, doc = window, window.map_view, window.document
    s = doc.scenario
    road = s.terrain["road-albeck"].geometry
    hints: list[str] = []
    view.hint_changed.connect(hints.append)
    select_in_tree(qtbot, w, DIVISION)
    key(qtbot, w, Qt.Key.Key_C)
    assert view.tool.name == "march_column"
    steps = doc.undo_count
    click(view, (60.0, 100.0))  # far from any road
    assert doc.undo_count == steps and "no road here" in hints[-1]
    click(view, (120.0, 80.0))  # snapped to the grid, 2 cm beside the road
    assert doc.undo_count == steps + 1, hints[-1]
    assert doc.undo_text.startswith("March Louis Henri Loison along")
    units = formation_units(s, DIVISION)
    head = units[0]
    assert head.formation.value == "march_column"
    assert road.distance(ShapelyPoint(head.position)) < 0.5
    assert math.dist(head.position, (road.interpolate(road.project(ShapelyPoint(120.0, 80.0))).coords[0])) < 0.5
    assert head.facing == pytest.approx(90.0)  # marching north, towards the Austrians
    for u in units:
        assert road.distance(ShapelyPoint(u.position)) < 1e-6, u.name  # each front on the road ...
        assert road.distance(ShapelyPoint(u.rect().centre)) < 2.0, u.name  # ... following its bends
    assert units[1].position[1] < head.position[1]  # one behind the other
    assert units[0].footprint().intersection(units[1].footprint()).area < 1e-6
    # Shift+click: the column marches the other way, south, its tail up the road behind it
    doc.undo()
    at = px(view, (120.0, 80.0))
    mouse(view, "press", at, modifiers=Qt.KeyboardModifier.ShiftModifier)
    mouse(view, "release", at, modifiers=Qt.KeyboardModifier.ShiftModifier)
    back = formation_units(s, DIVISION)
    assert back[0].facing == pytest.approx(270.0) and back[1].position[1] > back[0].position[1]
    assert back[0].position == pytest.approx(head.position)
    # the whole corps does not fit behind a point near the bridge: refused, nothing moves
    select_in_tree(qtbot, w, CORPS)
    before = formation_units(s, CORPS)
    click(view, (110.0, 30.0))
    assert "off the table" in hints[-1] and formation_units(s, CORPS) == before
    doc.undo()
    assert formation_units(s, DIVISION) == formation_units(store.load(ELCHINGEN).scenario, DIVISION)


def test_deployment_tools_are_in_the_set_up_menu_with_their_own_keys(window):
    w = window
    acts = w.actions.tools
    assert [acts[n].shortcut().toString() for n in ("deploy_line", "deploy_zone", "march_column")] == ["L", "D", "C"]
    keys = [k.toString() for a in w.findChildren(QAction) for k in a.shortcuts()]
    assert len(keys) == len(set(keys))  # no clash on this platform (the xcb test checks X11's table)
    tools = next(a.menu() for a in w.menuBar().actions() if a.text() == "&Tools")
    setup = next(a.menu() for a in tools.actions() if a.menu() is not None and "Set-up" in a.text())
    labels = [a.text() for a in setup.actions()]
    assert labels[-3:] == ["Deploy on line", "Deploy in zone", "March column"]
    assert all(not a.icon().isNull() for a in setup.actions()[-3:])


def test_in_a_game_the_rotate_tool_records_each_units_own_turn(qtbot, window):
    """While recording, the rotate tool is the game's verb (``PlayDocument.rotate``): one event
    per unit, each turned about its own centre; the Properties facing of several units too."""
    w = window
    w.play_view.seed = 14
    doc = w.play_view.start_game()
    assert doc is w.document
    ids = ["french-bde-roguet", "french-bde-villatte"]
    centres = {i: doc.scenario.units[i].rect().centre for i in ids}
    doc.set_selection(set(ids))
    key(qtbot, w, Qt.Key.Key_R)
    n = len(doc.log)
    key(qtbot, w, Qt.Key.Key_BracketLeft)
    assert len(doc.log.events[n:]) == 2  # events of the game, not a scenario edit
    for i in ids:
        assert doc.scenario.units[i].facing == pytest.approx(105.0)
        assert doc.scenario.units[i].rect().centre == pytest.approx(centres[i])  # each about its own centre
    w.properties_panel.apply("units", "facing", 45.0)
    assert len(doc.log.events[n + 2 :]) == 2
    assert all(doc.scenario.units[i].facing == pytest.approx(45.0) for i in ids)
    assert doc.base.scenario.units[ids[0]].facing == pytest.approx(90.0)  # the scenario is untouched


def test_a_group_turn_into_the_danube_is_a_problem(qtbot, window):
    """A tester's report: a group turn put a column into the Danube and no problem was raised."""
    from tests.ui.test_problems_agree import dock_problems

    w, doc = window, window.document
    panel = w.problems_panel

    def in_river():
        panel.check()
        return [(sev, msg) for sev, check, msg in dock_problems(panel) if check == "unit.in_river"]

    assert in_river() == []
    select_in_tree(qtbot, w, DIVISION)
    key(qtbot, w, Qt.Key.Key_R)
    key(qtbot, w, Qt.Key.Key_BracketRight)  # ] : 15° clockwise about the selection's centre
    key(qtbot, w, Qt.Key.Key_BracketRight)
    assert in_river() == []  # 30°: both columns still on the bank (the bridge is a crossing)
    key(qtbot, w, Qt.Key.Key_BracketRight)
    ((severity, message),) = in_river()
    assert severity == "error" and "Bde Villatte stands" in message and "in the river Danube ('danube')" in message
    assert "move it to a bank or a crossing" in message
    doc.undo()
    assert in_river() == []
