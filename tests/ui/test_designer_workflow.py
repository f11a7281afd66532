"""Issue 20's Done-when: a two-army scenario built entirely in the window, by real input, from
one republique5 ``.oob`` (Gyulai's Austrian III Corps at Leipzig) and one CSV (the French army
at Leipzig, read through a column mapping set in the dialog's column table and saved as the TOML
``docs/import-mapping.md`` describes): both
imported through File ▸ Import… into one document, a side created and recoloured in the Sides
dock, a river, a road and two town zones drawn, the corps deployed along a drawn line, one
reinforcement with an arrival window, one objective and one deployment zone per side; saved,
reopened — and ``battlestudio check`` (through ``cli.main``) and the Problems dock list the
same, expected problems."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QColorDialog, QComboBox, QDialogButtonBox, QInputDialog, QSpinBox

from battlestudio import store
from battlestudio.model.terrain import TerrainKind
from battlestudio.store.importers.tabular_mapping import load_mapping
from battlestudio.ui.import_dialog import ImportDialog
from battlestudio.ui.tools.deploy import DEPLOYMENT
from tests.ui.test_problems_agree import cli_problems, dock_problems
from tests.ui.window_helpers import ModalRecorder, make_window, mouse, px

SHARED = Path("/work/shared/data/oob")
OOB = SHARED / "republique5/scenarios/leipzig-1813/Austrian-3-Corps.oob"
CSV = SHARED / "leipzig-1813-french-from-pages.csv"

MAPPING = {
    "hierarchy": {"levels": ["army", "corps", "division", "brigade"]},
    "columns": {"side": "side", "commander": "commander", "arm": "arm", "men": "men", "guns": "guns"},
}
"""The French army at Leipzig: one column per echelon, as in docs/import-mapping.md — set in the
Import dialog's column table and saved from it."""

pytestmark = pytest.mark.skipif(not (OOB.exists() and CSV.exists()), reason="needs /work/shared/data/oob")


def click(view, p):
    at = px(view, p)
    mouse(view, "press", at)
    mouse(view, "release", at)


def key(qtbot, w, k, modifiers=Qt.KeyboardModifier.NoModifier):
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    w.map_view.setFocus()
    qtbot.keyClick(w.map_view, k, modifiers)


def run_import(qtbot, w, monkeypatch, script) -> None:
    """File ▸ Import… (Ctrl+I), the dialog driven by ``script`` instead of its event loop."""
    seen: list[ImportDialog] = []

    def fake_exec(self: ImportDialog) -> int:
        seen.append(self)
        script(self)
        return self.result()

    monkeypatch.setattr(ImportDialog, "exec", fake_exec)
    key(qtbot, w, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert seen, "Ctrl+I did not open File ▸ Import…"


def type_in(qtbot, edit, text):
    edit.clear()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def select_in_tree(qtbot, w, rid):
    panel = w.oob_panel
    ix = panel.index_of(rid)
    panel.tree.scrollTo(ix)
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=panel.tree.visualRect(ix).center())
    assert rid in w.document.selection


def choose(qtbot, combo: QComboBox, data) -> None:
    """Pick ``data`` in a Properties combo with the keyboard (each step is a real choice)."""
    combo.setFocus()
    for _ in range(combo.count()):
        if combo.currentData() == data:
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentData() == data, f"{data!r} not among the choices"


def set_number(qtbot, spin: QSpinBox, value: int) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Return)


def draw(qtbot, w, tool, points):
    w.actions.tools[tool].trigger()
    for p in points:
        click(w.map_view, p)
    qtbot.keyClick(w.map_view, Qt.Key.Key_Return)


def test_a_two_army_scenario_built_in_the_window(qtbot, tmp_path, monkeypatch, capsys):
    rec = ModalRecorder(monkeypatch)
    monkeypatch.setattr(DEPLOYMENT, "interval_cm", 1.0)
    mapping = tmp_path / "leipzig-french.toml"
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 1000)
    QApplication.processEvents()

    # 1. File ▸ Import… the French CSV into a new document, its column mapping set in the dialog:
    # the guess reads the echelon columns as levels and the strengths by name; the battalions
    # column (counts, not bases of this army) is set to not read; the mapping saved as TOML
    def csv_script(d: ImportDialog) -> None:
        type_in(qtbot, d.files_edit, str(CSV))
        assert d.field_box("battalions").currentData() == "bases"
        d.field_box("battalions").setFocus()
        qtbot.keyClick(d.field_box("battalions"), Qt.Key.Key_Home)  # the first choice: (not read)
        assert d.field_box("battalions").currentData() == ""
        assert d.imported is not None, d.status.text()
        assert d.new_doc.isChecked()
        rec.save_name = str(mapping)
        qtbot.mouseClick(d.mapping_save, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(d.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    run_import(qtbot, w, monkeypatch, csv_script)
    saved = load_mapping(mapping)
    assert (saved.hierarchy, saved.columns) == (MAPPING["hierarchy"], MAPPING["columns"])
    doc = w.document
    s = doc.scenario
    assert set(s.sides) == {"french"} and len(s.units) == 53
    napoleon = next(c for c in s.commanders if s.commanders[c].name == "Napoleon")
    guard = next(c for c in s.commanders if s.commanders[c].name == "Imperial Guard")
    w.map_view.fit_table()
    w.actions["snap"].setChecked(True)  # View ▸ Snap to Grid: the clicks below land on the 5 cm grid

    # 2. the Sides dock: a new side for the Austrians, recoloured
    answers = iter(["Austrian army"])
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: (next(answers), True)))
    monkeypatch.setattr(QColorDialog, "getColor", staticmethod(lambda *a, **k: QColor("#e8e0c8")))
    sides = w.sides_panel
    qtbot.mouseClick(sides.add_button, Qt.MouseButton.LeftButton)
    assert "austrian-army" in s.sides and sides.current() == "austrian-army"
    qtbot.mouseClick(sides.colour_button, Qt.MouseButton.LeftButton)
    assert s.sides["austrian-army"].colour == "#e8e0c8"

    # 3. File ▸ Import… Gyulai's corps into that side of the open document: one undo step
    steps = doc.undo_count

    def oob_script(d: ImportDialog) -> None:
        type_in(qtbot, d.files_edit, str(OOB))
        assert d.imported is not None, d.status.text()
        d.into_doc.click()
        d.side_box.setCurrentIndex(d.side_box.findData("austrian-army"))
        qtbot.mouseClick(d.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    run_import(qtbot, w, monkeypatch, oob_script)
    assert doc.undo_count == steps + 1 and len(s.units) == 53 + 13
    austrians = [u for u in s.units.values() if u.side == "austrian-army"]
    assert len(austrians) == 13 and all(u.figures > 0 for u in austrians)  # bases became figures
    gyulai = next(c for c in s.commanders if s.commanders[c].side == "austrian-army" and not s.oob.superior(c))

    # 4. terrain: a river across the table, a road from south to north, two town zones
    draw(qtbot, w, "draw:river", [(0.0, 100.0), (120.0, 95.0), (240.0, 105.0)])
    draw(qtbot, w, "draw:road", [(120.0, 0.0), (120.0, 180.0)])
    w.actions.tools["town"].trigger()
    click(w.map_view, (60.0, 85.0))
    click(w.map_view, (180.0, 115.0))
    kinds = sorted(t.kind.value for t in s.terrain.values())
    assert kinds == [TerrainKind.RIVER.value, TerrainKind.ROAD.value] and len(s.towns) == 2

    # 5. a deployment zone per side (the side of the troops selected in the tree)
    select_in_tree(qtbot, w, napoleon)
    draw(qtbot, w, "zone", [(5.0, 5.0), (235.0, 5.0), (235.0, 75.0), (5.0, 75.0)])
    select_in_tree(qtbot, w, gyulai)
    draw(qtbot, w, "zone", [(40.0, 125.0), (200.0, 125.0), (200.0, 170.0), (40.0, 170.0)])
    assert sorted(z.side for z in s.deployment_zones.values()) == ["austrian-army", "french"]

    # 6. an objective per side: each town, wanted by one side (Properties ▸ Wanted by)
    props = w.properties_panel
    for town_at, side in (((60.0, 85.0), "austrian-army"), ((180.0, 115.0), "french")):
        w.actions.tools["objective"].trigger()
        click(w.map_view, town_at)
        (oid,) = doc.selection
        choose(qtbot, props.editors["objectives"]["side"].widget, side)
        assert s.objectives[oid].side == side and s.objectives[oid].geometry.geom_type == "Polygon"

    # 7. the Imperial Guard arrives on the west edge between turns 3 and 6
    select_in_tree(qtbot, w, guard)
    w.actions.tools["reinforcement"].trigger()
    click(w.map_view, (5.0, 40.0))
    (rid,) = doc.selection
    set_number(qtbot, props.editors["reinforcements"]["latest_turn"].widget, 6)
    set_number(qtbot, props.editors["reinforcements"]["earliest_turn"].widget, 3)
    r = s.reinforcements[rid]
    assert (r.formation, r.earliest_turn, r.latest_turn) == (guard, 3, 6)
    assert r.entry_point == pytest.approx((0.0, 40.0), abs=0.5)  # on the west edge (the tool does not snap)

    # 8. Gyulai's corps along a line drawn in its zone (L, two clicks): one undo step
    select_in_tree(qtbot, w, gyulai)
    key(qtbot, w, Qt.Key.Key_L)
    steps = doc.undo_count
    click(w.map_view, (50.0, 140.0))
    click(w.map_view, (190.0, 140.0))
    assert doc.undo_count == steps + 1
    austrians = [s.units[n] for n, _ in s.oob.walk(gyulai) if n in s.units]
    # 13 units, 246 cm of frontage: seven on the 140 cm line, six in a second line 3 cm behind it
    fronts = [(round(u.position[1], 3), u.facing) for u in austrians]
    assert fronts == [(140.0, 270.0)] * 7 + [(149.0, 270.0)] * 6
    assert "in 2 lines" in w.map_view.tool.hint
    zone = next(z.polygon for z in s.deployment_zones.values() if z.side == "austrian-army")
    assert all(zone.covers(u.footprint()) for u in austrians)

    # 9. the rest of the French army packed into its zone (D, a click): the Guard stays off table
    select_in_tree(qtbot, w, napoleon)
    key(qtbot, w, Qt.Key.Key_D)
    steps = doc.undo_count
    click(w.map_view, (120.0, 40.0))
    assert doc.undo_count == steps + 1, w.map_view.tool.hint
    held = set(s.oob.all_subordinates(guard))
    french_zone = next(z.polygon for z in s.deployment_zones.values() if z.side == "french").buffer(1e-3)
    for u in s.units.values():
        if u.side == "french":
            assert french_zone.covers(u.footprint()) != (u.id in held), u.name

    # 10. save (Ctrl+S asks for a name: a new document), reopen
    path = tmp_path / "leipzig-south.battle.json"
    rec.save_name = str(path)
    key(qtbot, w, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert path.exists() and not w.document.is_modified
    built = store.load(path).scenario
    assert w.files.open_path(path)
    reopened = w.document.scenario
    assert reopened.units == built.units and reopened.reinforcements == built.reinforcements
    assert set(reopened.sides) == {"french", "austrian-army"}
    assert reopened.sides["austrian-army"].colour == "#e8e0c8"

    # 11. the CLI and the Problems dock agree, on the expected problems
    code, cli = cli_problems(path, capsys)
    panel = w.problems_panel
    panel.check()
    dock = dock_problems(panel)
    assert sorted(cli) == sorted(dock)
    assert code == 1  # errors: the source's gaps, below
    by_check: dict[str, list[tuple[str, str, str]]] = {}
    for row in cli:
        by_check.setdefault(row[1], []).append(row)
    # expected: the CSV rows that give no strength at all (no men, no guns), and the commands
    # the CSV lists without any unit under them; nothing about placement, the Austrians, the
    # waiting Guard, the zones, objectives or the reinforcement
    assert set(by_check) == {"unit.no_strength", "commander.idle"}
    weak = {u.id for u in reopened.units.values() if u.men == 0 and u.figures == 0 and u.guns == 0}
    assert {row[2].split("'")[1] for row in by_check["unit.no_strength"]} == weak
    assert all(
        row[0] == "error" and reopened.units[row[2].split("'")[1]].side == "french"
        for row in by_check["unit.no_strength"]
    )
    idle = {c for c in reopened.commanders if not reopened.oob.subordinates(c)}
    assert {row[2].split("'")[1] for row in by_check["commander.idle"]} == idle
    assert all(row[0] == "warning" for row in by_check["commander.idle"])
    assert len(weak) == 19 and len(idle) == len(by_check["commander.idle"]) > 0
    assert dock_problems(panel) == dock  # the dock lists them grouped: one group per check
    groups = {
        panel.list.topLevelItem(k).text(1): panel.list.topLevelItem(k).childCount()
        for k in range(panel.list.topLevelItemCount())
    }
    assert groups == {check: len(rows) for check, rows in by_check.items()}
