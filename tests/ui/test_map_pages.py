"""One map renderer for the window and every export (issue 21), on the bundled Jena game: the
window's File ▸ Export Map Image and ``battlestudio export-map`` give the same picture for the
same cursor and region; SVG pages are vector (no ``<image>``, text as ``<text>``); PDF pages
are the chosen paper; PNG pages follow the DPI; the legend lists what is drawn; eliminated
units are marked at cursors after their elimination and not before, on the map, in the tree,
its totals and the exports."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF, QImage

from battlestudio import store
from battlestudio.cli import main
from battlestudio.replay.game import GameLog
from battlestudio.session.text import position_at
from battlestudio.ui.export import ExportDialog
from battlestudio.ui.map_export import PAPERS, MapPage, PageSpec, legend_height, legend_px, page_layout
from battlestudio.ui.panels.oob_model import ID_ROLE
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")
CHASSEURS = "french-10e-chasseur"
"""A French cavalry unit the recorded Jena game eliminates (600 men)."""


def _eliminated_at() -> int:
    """The first log position at which ``CHASSEURS`` is eliminated in the bundled Jena game
    (found by bisection: once eliminated a unit stays so), so a re-recording keeps the test."""
    log = GameLog.from_battle(store.load(JENA))

    def gone(i: int) -> bool:
        u = log.state_at(i).units.get(CHASSEURS)
        return u is not None and u.state == "eliminated"

    assert gone(len(log)), "the recorded Jena game no longer eliminates the 10e Chasseurs"
    lo, hi = 0, len(log)
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if gone(mid) else (mid + 1, hi)
    return lo


ELIMINATED_AT = _eliminated_at()


@pytest.fixture(scope="module")
def jena():
    battle = store.load(JENA)
    return battle, GameLog.from_battle(battle)


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 900)
    assert w.files.open_path(JENA, ask=False)
    return w


def _pixels(path) -> QImage:
    img = QImage(str(path))
    assert not img.isNull(), path
    return img.convertToFormat(QImage.Format.Format_RGB32)


def _differing(a: QImage, b: QImage) -> int:
    assert a.size() == b.size()
    return sum(1 for y in range(0, a.height(), 2) for x in range(0, a.width(), 2) if a.pixel(x, y) != b.pixel(x, y))


def test_window_export_is_export_maps_picture(window, tmp_path):
    window.document.timeline.seek(position_at(window.document.log, "12"))
    ours, cli = tmp_path / "window.png", tmp_path / "cli.png"
    spec = PageSpec(width_px=600, hidden_layers=frozenset(window.map_view.map_scene.hidden_layers))
    assert window.files.export_image(ours, spec)
    assert main(["export-map", str(JENA), "--at", "12", "--out", str(cli), "--width", "600"]) == 0
    a, b = _pixels(ours), _pixels(cli)
    assert a.width() == 600 and _differing(a, b) == 0
    # another cursor is another picture
    window.document.timeline.seek(position_at(window.document.log, "30"))
    assert window.files.export_image(ours, spec)
    later = _pixels(ours)
    assert later.size() != b.size() or _differing(later, b) > 500


def test_export_dialog_writes_the_chosen_page(window, tmp_path, monkeypatch):
    out = tmp_path / "map.pdf"
    seen = {}

    def run(dialog):
        seen["dialog"] = dialog
        assert not dialog.region.model().item(2).isEnabled()  # nothing selected
        dialog.file.setText(str(out))
        dialog.paper.setCurrentIndex(dialog.paper.findData("a3"))
        assert dialog.fitted.isEnabled() and not dialog.width.isEnabled()
        dialog.fitted.setChecked(False)
        dialog.scale.setValue(5.0)  # 1:5 does not fit A3: said in the dialog, not written
        dialog._accept()
        assert "choose 1:" in dialog.problem.text() and dialog.result() != ExportDialog.DialogCode.Accepted
        dialog.scale.setValue(20.0)
        dialog._accept()
        return dialog.result()

    monkeypatch.setattr(ExportDialog, "exec", run)
    window.actions["export_image"].trigger()
    assert out.exists() and "Exported" in window.statusBar().currentMessage()
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", out.read_bytes())
    assert box and (round(float(box[1])), round(float(box[2]))) == (1191, 842)  # A3 landscape in points
    assert seen["dialog"].spec().scale == 20.0


def test_region_of_the_view_and_of_the_selection(window, tmp_path):
    view = window.map_view
    view.set_zoom(10.0)
    view.centre_on_table((60.0, 60.0))
    from battlestudio.ui.export import window_region

    x0, y0, x1, y1 = window_region(view, "view")
    assert x0 <= 60 <= x1 and y0 <= 60 <= y1 and x1 - x0 < 240
    with pytest.raises(ValueError, match="nothing is selected"):
        window_region(view, "selection")
    chief = next(c for c in window.document.scenario.commanders.values() if c.echelon in ("army", "c_in_c"))
    window.document.set_selection({chief.id})
    sx0, sy0, sx1, sy1 = window_region(view, "selection")
    c = chief.position
    assert sx0 <= c[0] <= sx1 and sy0 <= c[1] <= sy1 and sx1 - sx0 <= 21 and sy1 - sy0 <= 21
    out = tmp_path / "sel.png"
    from battlestudio.ui.export import window_spec

    spec = window_spec(view, "selection", width_px=500)
    assert window.files.export_image(out, spec)
    assert QImage(str(out)).width() == 500


def test_svg_is_vector_and_pdf_is_the_paper(jena, tmp_path):
    battle, log = jena
    svg = tmp_path / "m.svg"
    assert main(["export-map", str(JENA), "--at", "30", "--out", str(svg), "--width", "900"]) == 0
    text = svg.read_text("utf-8")
    assert "<image" not in text
    assert text.count("<path") > 60  # units (batched by colour), terrain and overlay as paths
    assert "Jena 1806" in text and ">Hohenlohe</text>" in text and "cm on the table" in text  # text as text
    for paper, landscape in (("a4", True), ("a4", False), ("letter", True), ("a3", False)):
        pdf = tmp_path / f"{paper}-{landscape}.pdf"
        args = ["export-map", str(JENA), "--at", "5", "--out", str(pdf), "--paper", paper]
        assert main([*args, "--landscape" if landscape else "--portrait"]) == 0
        box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf.read_bytes())
        w_mm, h_mm, _ = PAPERS[paper]
        want = (h_mm, w_mm) if landscape else (w_mm, h_mm)
        got = (float(box[1]) * 25.4 / 72, float(box[2]) * 25.4 / 72)
        assert abs(got[0] - want[0]) < 1.0 and abs(got[1] - want[1]) < 1.0, (paper, got)
        assert b"/Subtype /Image" not in pdf.read_bytes() and b"/Font" in pdf.read_bytes()  # vector, text as text


def test_scale_and_dpi(jena, tmp_path, capsys):
    battle, _log = jena
    table = (battle.scenario.info.table_width, battle.scenario.info.table_height)
    lay = page_layout(PageSpec(paper="a3", scale=20.0), table)
    assert lay.paper_scale == pytest.approx(20.0) and lay.landscape
    fitted = page_layout(PageSpec(paper="a3"), table)
    assert fitted.paper_scale < 20.0  # fitting uses the whole page: a larger picture than 1:20
    assert main(["export-map", str(JENA), "--out", str(tmp_path / "x.pdf"), "--paper", "a4", "--scale", "1:2"]) == 1
    assert "choose 1:" in capsys.readouterr().err
    assert main(["export-map", str(JENA), "--out", str(tmp_path / "x.png"), "--scale", "1:20"]) == 2
    assert "needs a paper size" in capsys.readouterr().err
    lo, hi = tmp_path / "lo.png", tmp_path / "hi.png"
    assert main(["export-map", str(JENA), "--at", "3", "--out", str(lo), "--paper", "a4"]) == 0
    assert main(["export-map", str(JENA), "--at", "3", "--out", str(hi), "--paper", "a4", "--dpi", "192"]) == 0
    a, b = QImage(str(lo)), QImage(str(hi))
    assert (b.width(), b.height()) == (2 * a.width(), 2 * a.height())
    assert round(b.dotsPerMeterX() * 0.0254) == 192
    assert abs(a.width() - 297 / 25.4 * 96) < 2  # A4 landscape at 96 dpi


def test_scale_bar_label_fits_and_title_names_the_turn(jena, qapp):
    battle, log = jena
    pos = position_at(log, "12")
    page = MapPage(battle, pos, PageSpec(width_px=400), log=log)
    try:
        cm, label, paper = page.scale_text()
        assert re.fullmatch(rf"{cm:g} cm on the table = [\d.]+ k?m", label), label
        assert paper == ""
        px = legend_px(page.layout.width)
        from PySide6.QtGui import QFont

        f = QFont()
        f.setPixelSize(round(px))
        assert QFontMetricsF(f).horizontalAdvance(label) < page.layout.width * 0.6  # room beside the legend
        assert page.title == "Jena 1806"
        assert "Turn 12" in page.subtitle and "1806-10-14" in page.subtitle
    finally:
        page.close()


def test_legend_lists_what_is_drawn(jena, qapp):
    battle, log = jena
    pos = position_at(log, "30")
    full = MapPage(battle, pos, PageSpec(width_px=600), log=log)
    bare = MapPage(
        battle, pos, PageSpec(width_px=600, command_layer=False, hidden_layers=frozenset({"terrain:woods"})), log=log
    )
    try:
        texts = [t for _k, _c, t in full.legend_entries()]
        bare_texts = [t for _k, _c, t in bare.legend_entries()]
        sides = battle.scenario.sides
        assert [t for t in texts[:2]] == [sides["french"].name, sides["prussian"].name]
        colours = {t: c for _k, c, t in full.legend_entries()}
        assert colours[sides["french"].name] == sides["french"].colour  # the sides' own colours
        # the Saxon contingent is drawn in its own green, and listed; France's blue is the side's
        assert colours.get("Saxony") == "#3f7f3f" and "France" not in colours
        assert "woods" in texts and "river" in texts and "road" in texts
        assert "woods" not in bare_texts and "river" in bare_texts
        # zoomed out (600 px for 480 cm) out-of-command units are counted per formation
        assert "within command distance / zone" in texts and "!n: n out of command in the corps" in texts
        assert "out of command" not in texts and "out-of-command mark" not in texts
        near = MapPage(battle, pos, PageSpec(width_px=2000), log=log)  # 4 px per cm: each one marked
        try:
            near_texts = [t for _k, _c, t in near.legend_entries()]
            assert "out of command" in near_texts and "out-of-command mark" in near_texts
            assert "!n: n out of command in the corps" not in near_texts
        finally:
            near.close()
        assert not any("of command" in t or "standing order" in t for t in bare_texts)
        assert "command reach of the selection" not in texts  # nothing selected: no circles
        # every entry is listed: the band grows to hold them
        assert full.layout.legend_h >= legend_height(full.legend_entries(), full.layout.width) - 0.5
    finally:
        full.close()
        bare.close()


def test_eliminated_units_are_marked_after_their_elimination_only(jena, qapp, tmp_path):
    battle, log = jena
    before = MapPage(battle, ELIMINATED_AT - 1, PageSpec(width_px=500, command_layer=False), log=log)
    after = MapPage(battle, ELIMINATED_AT, PageSpec(width_px=500, command_layer=False), log=log)
    try:
        item_b = before.view.map_scene.item_for(CHASSEURS)
        item_a = after.view.map_scene.item_for(CHASSEURS)
        assert not item_b.eliminated and item_a.eliminated
        assert item_a._fill.alpha() < 128 and item_b._fill.alpha() == 255
        assert any(t.startswith("eliminated") for _k, _c, t in after.legend_entries())
        first = MapPage(battle, 200, PageSpec(width_px=500, command_layer=False), log=log)  # nobody lost yet
        try:
            assert not any(t.startswith("eliminated") for _k, _c, t in first.legend_entries())
        finally:
            first.close()
        # the export shows it: the unit's footprint differs between the two pages
        ia, ib = after.image(), before.image()
        box = after.view.mapFromScene(item_a.sceneBoundingRect()).boundingRect()
        box.translate(0, round(after.layout.title_h))
        changed = sum(
            1
            for y in range(box.top(), box.bottom())
            for x in range(box.left(), box.right())
            if ia.pixel(x, y) != ib.pixel(x, y)
        )
        assert changed > 0
    finally:
        before.close()
        after.close()


def test_eliminated_unit_is_struck_out_in_the_tree_and_left_out_of_its_totals(window):
    t = window.document.timeline
    model = window.oob_panel.model
    t.seek(ELIMINATED_AT - 1)
    brigade = window.document.scenario.oob.chain_of_command(CHASSEURS)[0]

    def row(n):
        return next(i for i in _walk(model) if model.data(i, ID_ROLE) == n)

    t.seek(ELIMINATED_AT - 1)
    men_before = int(model.data(model.index(row(brigade).row(), 1, row(brigade).parent())).replace(",", ""))
    assert model.data(row(CHASSEURS), Qt.ItemDataRole.FontRole) is None
    assert not window.map_view.map_scene.item_for(CHASSEURS).eliminated
    t.seek(ELIMINATED_AT)
    men_after = int(model.data(model.index(row(brigade).row(), 1, row(brigade).parent())).replace(",", "") or 0)
    lost = window.document.scenario.units[CHASSEURS].men
    font = model.data(row(CHASSEURS), Qt.ItemDataRole.FontRole)
    assert font is not None and font.strikeOut()
    assert "eliminated" in model.data(row(CHASSEURS), Qt.ItemDataRole.ToolTipRole)
    assert men_after == men_before - lost
    side = window.document.scenario.units[CHASSEURS].side
    living = [u for u in window.document.scenario.units.values() if u.side == side and u.state != "eliminated"]
    window.sides_panel.refresh()
    row_of_side = next(
        window.sides_panel.list.topLevelItem(i)
        for i in range(window.sides_panel.list.topLevelItemCount())
        if window.sides_panel.list.topLevelItem(i).text(1) == side
    )
    assert row_of_side.text(4) == f"{sum(u.men for u in living):,}"  # the Sides dock's totals too
    assert window.map_view.map_scene.item_for(CHASSEURS).eliminated
    t.seek(ELIMINATED_AT - 1)  # and back: not before
    assert not window.map_view.map_scene.item_for(CHASSEURS).eliminated
    assert model.data(row(CHASSEURS), Qt.ItemDataRole.FontRole) is None


def _walk(model, parent=None):
    from PySide6.QtCore import QModelIndex

    parent = parent if parent is not None else QModelIndex()
    for r in range(model.rowCount(parent)):
        i = model.index(r, 0, parent)
        yield i
        yield from _walk(model, i)


def test_out_of_command_is_counted_per_formation_zoomed_out(jena, qapp):
    from battlestudio.ui.command_items import SUMMARY_LOD

    battle, log = jena
    page = MapPage(battle, position_at(log, "30"), PageSpec(width_px=600), log=log)
    try:
        ov = page.overlay
        out = [s for s, f in ov.picture.findings.items() if not f.within and not f.exemption]
        assert out and sum(i.count for i in ov.summaries.items.values()) == len(out)
        state = page.state
        for cid, item in ov.summaries.items.items():
            assert state.commanders[cid].echelon == "corps" or cid in {ov.picture.links[s].superior for s in out}
            under = [s for s in out if cid in state.oob.chain_of_command(s)]
            assert item.count == len(under) and f"{item.count} out of command" in item.toolTip()
        assert len(ov.summaries.items) < len(out)  # fewer badges than marks
        assert page.view.zoom() < SUMMARY_LOD and all(i.shown() for i in ov.summaries.items.values())
        page.view.set_zoom(SUMMARY_LOD * 2)  # zoomed in: each unit's own mark instead
        assert not any(i.shown() for i in ov.summaries.items.values())
    finally:
        page.close()


@pytest.mark.parametrize("width", [400, 1800])
def test_every_flag_and_label_is_inside_the_map_area(jena, qapp, width):
    """The army flag at the table's edge is not cut (it was "(XXX" under the title band)."""
    from PySide6.QtCore import QPointF, QRectF

    battle, log = jena
    page = MapPage(battle, position_at(log, "1"), PageSpec(width_px=width), log=log)
    try:
        view = page.view
        port = QRectF(view.viewport().rect())
        flags = 0
        for item in view.map_scene.items_by_kind["commanders"].values():
            extent = item.device_extent()
            if extent is None or not item.isVisible():
                continue
            p = QPointF(view.mapFromScene(item.pos()))
            assert port.contains(QRectF(p, p).adjusted(*extent)), (item.id, p)
            flags += 1
        assert flags >= 2
        for rect, _label in view.placed_labels():
            assert port.contains(rect)
    finally:
        page.close()


def test_disordered_units_say_so_after_their_name_and_in_the_legend(jena, qapp):
    battle, log = jena
    pos = position_at(log, "30")
    state = log.state_at(pos)
    page = MapPage(battle, pos, PageSpec(width_px=500, command_layer=False), log=log)
    try:
        disordered = [u for u in state.units.values() if u.state == "U" and u.id not in state.off_table]
        assert disordered
        for u in disordered:
            assert page.view.map_scene.item_for(u.id)._label.text == f"{u.name} (U)"
        in_order = next(u for u in state.units.values() if u.state == "O" and u.id not in state.off_table)
        assert page.view.map_scene.item_for(in_order.id)._label.text == in_order.name
        states = [t for kind, _c, t in page.legend_entries() if kind == "text" and t.startswith("Name (")]
        assert len(states) == 1 and "U disorder" in states[0]  # with FU too where some are routed
    finally:
        page.close()
