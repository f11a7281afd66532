"""Commanders' level of detail (flag, dot or nothing by echelon and zoom) and Fit Table's margin."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QPoint

from battlestudio.document import Document
from battlestudio.replay.battle import Battle
from battlestudio.ui.items import CommanderItem
from battlestudio.ui.map_view import FIT_MARGIN_PX, MapView
from battlestudio.ui.troop_items import COMMANDER_FLAG_LOD, DOT, FLAG, HIDDEN


def _hit(view: MapView, pos: QPoint) -> set[str]:
    return {i.id for i in view.items(pos) if isinstance(i, CommanderItem)}


def _flag_px(mouse, at) -> QPoint:
    """A pixel in the middle of the flag of a commander standing at table point ``at``."""
    return mouse.px(at) + QPoint(14, -22)


def test_division_and_brigade_generals_are_small_or_hidden_zoomed_out(view, mouse, document):
    view.set_zoom(COMMANDER_FLAG_LOD["division"] - 0.3)
    items = view.map_scene.items_by_kind["commanders"]
    assert items["c-ney"].mode == FLAG and items["c-riesch"].mode == FLAG  # corps keep their flags
    assert items["c-loison"].mode == DOT and items["c-hessen"].mode == DOT
    assert items["c-colbert"].mode == HIDDEN and items["c-mecsery"].mode == HIDDEN
    loison = document.scenario.commanders["c-loison"].position
    assert "c-loison" in _hit(view, mouse.px(loison))  # the dot is clickable
    assert "c-loison" not in _hit(view, _flag_px(mouse, loison))  # the flag is not there
    colbert = document.scenario.commanders["c-colbert"].position
    assert "c-colbert" not in _hit(view, mouse.px(colbert)) | _hit(view, _flag_px(mouse, colbert))
    assert "c-ney" in _hit(view, _flag_px(mouse, document.scenario.commanders["c-ney"].position))
    # hidden generals give no name either, and their flags keep no room from other labels
    names = {label.text for _r, label in view.placed_labels()}
    assert "Colbert" not in names and "Loison" not in names
    # Ney's name is his corps marker's, with its strength (``ui.aggregate_layer``)
    assert "Marshal Ney" not in names and any(n.startswith("Marshal Ney ") and n[-1].isdigit() for n in names)


def test_division_flags_show_above_the_threshold(view, mouse, document):
    view.set_zoom(COMMANDER_FLAG_LOD["brigade"] + 0.5)
    items = view.map_scene.items_by_kind["commanders"]
    assert all(item.mode == FLAG for item in items.values())
    loison = document.scenario.commanders["c-loison"].position
    assert "c-loison" in _hit(view, _flag_px(mouse, loison))
    view.set_zoom(0.5)  # and back down: the items follow every crossing
    assert items["c-loison"].mode == DOT and items["c-colbert"].mode == HIDDEN


def test_a_selected_general_is_always_drawn_as_his_flag(view, mouse, document):
    view.set_zoom(0.8)
    items = view.map_scene.items_by_kind["commanders"]
    assert items["c-colbert"].mode == HIDDEN
    document.set_selection({"c-colbert", "c-loison"})
    assert items["c-colbert"].mode == FLAG and items["c-loison"].mode == FLAG
    colbert = document.scenario.commanders["c-colbert"].position
    assert "c-colbert" in _hit(view, _flag_px(mouse, colbert))
    image = view.viewport().grab().toImage()
    p = _flag_px(mouse, colbert)
    assert image.pixelColor(p).name() != image.pixelColor(p + QPoint(60, 0)).name()  # flag drawn
    document.set_selection(set())
    assert items["c-colbert"].mode == HIDDEN and items["c-loison"].mode == DOT


@pytest.mark.parametrize("size", [(900.0, 150.0), (600.0, 790.0), (240.0, 180.0)])
def test_fit_leaves_a_margin_on_every_side_and_no_scroll_bars(qtbot, scenario, size):
    scenario.info = replace(scenario.info, table_width=size[0], table_height=size[1])
    view = MapView(Document(Battle(scenario)))
    qtbot.addWidget(view)
    view.resize(1000, 620)
    view.show()
    qtbot.waitExposed(view)
    view.set_zoom(5.0)  # zoomed in: scroll bars shown
    qtbot.waitUntil(lambda: view.verticalScrollBar().isVisible())
    view.fit_table()
    qtbot.waitUntil(lambda: not view.verticalScrollBar().isVisible() and not view.horizontalScrollBar().isVisible())
    port = view.viewport().rect()
    assert port.width() >= 990 and port.height() >= 610  # the bars' room is given back
    table = view.mapFromScene(view.map_scene.table_rect()).boundingRect()
    gaps = (
        table.left() - port.left(),
        table.top() - port.top(),
        port.right() - table.right(),
        port.bottom() - table.bottom(),
    )
    assert min(gaps) >= FIT_MARGIN_PX - 2, gaps
    assert min(gaps) <= FIT_MARGIN_PX + 2, gaps  # and no more than needed along the tighter side
    view.zoom_by(2.0)  # the user zooms: the bars come back
    qtbot.waitUntil(lambda: view.verticalScrollBar().isVisible() or view.horizontalScrollBar().isVisible())


def test_map_labels_keep_off_the_order_budget_badges_on_jena(qtbot, tmp_path):
    from pathlib import Path

    from battlestudio import store
    from tests.ui.window_helpers import make_window

    battle = store.load(Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json")
    w = make_window(qtbot, tmp_path, Document(battle))
    w.resize(1440, 900)
    view = w.map_view
    view.fit_table()
    badges = w.command_view.overlay.budgets.items
    qtbot.waitUntil(lambda: len(badges) >= 2)
    t = view.viewportTransform()
    boxes = [b.deviceTransform(t).mapRect(b.boundingRect()) for b in badges.values() if b.isVisible()]
    assert boxes
    placed = view.placed_labels()
    names = {label.text for _r, label in placed}
    assert {"Kapellendorf", "Hohenlohe", "Napoleon"} <= names  # moved, not dropped
    assert not [(label.text, r) for r, label in placed for box in boxes if r.intersects(box)]
