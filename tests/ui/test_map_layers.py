"""The map's fast paths draw what the items would: terrain and towns in the cached background
(redrawn where an edit changed them, still hit and selected as items), all units by one layer
when zoomed out (its partial redraws leave the same picture as a full one), labels re-placed
when what they show moved and kept when nothing they show changed."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QGraphicsItem
from shapely.affinity import translate

from battlestudio.document import Document
from battlestudio.edits import MoveRecords, PutRecords
from battlestudio.replay.battle import Battle
from battlestudio.session.synthetic import synthetic_game
from battlestudio.ui import unit_layer
from battlestudio.ui.coords import table_to_scene
from battlestudio.ui.items import UnitItem
from battlestudio.ui.map_view import MapView
from battlestudio.ui.styles import TABLE_FILL, TERRAIN_STYLES

from battlestudio.model import TerrainKind

NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
WOOD = QColor(TERRAIN_STYLES[TerrainKind.WOODS].fill)


def pixels(image: QImage) -> np.ndarray:
    """The image as an (h, w, 4) array of 8-bit channels."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4).copy()


def close(a: QColor, b: QColor, tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in ((a.red(), b.red()), (a.green(), b.green()), (a.blue(), b.blue())))


def pixel(view, image: QImage, point) -> QColor:
    return image.pixelColor(view.mapFromScene(table_to_scene(*point)))


def test_terrain_is_painted_in_the_background_and_an_edit_shows_up_there(view, document, mouse):
    scene = view.map_scene
    wood = scene.item_for("t-wood-haslach")
    assert wood.flags() & NO_CONTENTS  # drawn by the background, kept for hit testing
    inside, gap = (212.5, 77.5), (147.5, 77.5)  # in the wood; open ground 65 cm west (off grid lines)
    image = view.viewport().grab().toImage()
    assert close(pixel(view, image, inside), WOOD)
    assert close(pixel(view, image, gap), QColor(TABLE_FILL), 25)

    feature = document.scenario.terrain["t-wood-haslach"]
    document.push(
        PutRecords(
            "terrain", {feature.id: replace(feature, geometry=translate(feature.geometry, -65.0, 0.0))}, "Move wood"
        )
    )
    image = view.viewport().grab().toImage()
    assert close(pixel(view, image, gap), WOOD)  # the cached background was redrawn there
    assert close(pixel(view, image, inside), QColor(TABLE_FILL), 25)

    view.set_layer_visible("terrain:woods", False)
    image = view.viewport().grab().toImage()
    assert close(pixel(view, image, gap), QColor(TABLE_FILL), 25)


def test_terrain_in_the_background_is_still_clicked_and_highlighted_when_selected(view, document, mouse):
    mouse.click(mouse.px((212.5, 77.5)))
    assert document.selection == {"t-wood-haslach"}
    wood = view.map_scene.item_for("t-wood-haslach")
    assert not wood.flags() & NO_CONTENTS  # it paints its selection outline over the background
    image = view.viewport().grab().toImage()
    edge = view.mapFromScene(table_to_scene(220.0, 55.0))  # a corner of the outline
    orange = [image.pixelColor(edge.x() + dx, edge.y() + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    assert any(c.red() > 200 and 110 < c.green() < 190 and c.blue() < 80 for c in orange)
    mouse.click(mouse.px((147.5, 77.5)))
    assert document.selection == frozenset()
    assert wood.flags() & NO_CONTENTS


def test_background_and_item_drawing_of_terrain_look_the_same(view):
    view.set_zoom(5.0)
    view.centre_on_table((120.0, 90.0))
    background = view.viewport().grab().toImage()
    view.map_scene.set_static_in_background(False)
    assert not view.map_scene.item_for("t-hill-1").flags() & NO_CONTENTS
    items = view.viewport().grab().toImage()
    differ = sum(
        1
        for y in range(0, items.height(), 3)
        for x in range(0, items.width(), 3)
        if not close(items.pixelColor(x, y), background.pixelColor(x, y), 40)
    )
    assert differ < 0.01 * (items.width() // 3) * (items.height() // 3)


def test_zoomed_out_one_layer_draws_exactly_the_shown_units(view, document, mouse, monkeypatch):
    drawn: list[set[str]] = []
    original = unit_layer.UnitLayer.draw_units
    monkeypatch.setattr(
        unit_layer.UnitLayer,
        "draw_units",
        lambda self, p, w, units: (drawn.append({u.id for u in units}), original(self, p, w, units))[1],
    )
    view.set_zoom(2.0)
    view.centre_on_table((120.0, 90.0))
    scene = view.map_scene
    assert scene.units_batched and scene.unit_layer.isVisible()
    assert all(item.flags() & NO_CONTENTS for item in scene.items_by_kind["units"].values())
    view.viewport().grab()
    assert drawn[-1] == set(document.scenario.units)
    view.set_layer_visible("units:austrian", False)
    view.viewport().grab()
    assert drawn[-1] == {u.id for u in document.scenario.units.values() if u.side == "french"}
    view.set_layer_visible("units:austrian", True)

    # still hit and selected as items; the layer outlines the selection
    mouse.click(mouse.px(document.scenario.units["u-ir42"].rect().centre))
    assert document.selection == {"u-ir42"}
    image = view.viewport().grab().toImage()
    fl, fr, rr, rl = document.scenario.units["u-ir42"].rect().corners()
    mid_rear = view.mapFromScene(table_to_scene((rr[0] + rl[0]) / 2.0, (rr[1] + rl[1]) / 2.0))
    near = [image.pixelColor(mid_rear.x() + dx, mid_rear.y() + dy) for dx in (-1, 0, 1) for dy in (-2, -1, 0, 1, 2)]
    assert any(c.red() > 200 and 110 < c.green() < 190 and c.blue() < 80 for c in near)
    # a moved unit leaves its old place (the ground shows again) and shows at the new one
    before = document.scenario.units["u-ir42"].rect().centre
    view.set_layer_visible("units:austrian", False)
    ground = pixel(view, view.viewport().grab().toImage(), before)
    view.set_layer_visible("units:austrian", True)
    image = view.viewport().grab().toImage()
    assert not close(pixel(view, image, before), ground, 25)
    document.push(MoveRecords("units", {"u-ir42": (40.0, 100.0)}, text="Move IR 42"))
    image = view.viewport().grab().toImage()
    assert close(pixel(view, image, before), ground, 2)
    assert not close(pixel(view, image, document.scenario.units["u-ir42"].rect().centre), QColor(TABLE_FILL), 25)

    view.set_zoom(10.0)  # close up: every unit draws itself again
    assert not scene.units_batched and not scene.unit_layer.isVisible()
    assert not any(item.flags() & NO_CONTENTS for item in scene.items_by_kind["units"].values())


@pytest.fixture
def game_view(qtbot):
    game = synthetic_game(turns=10, units_per_side=48, seed=5)
    view = MapView(Document(Battle(game.scenario, game.events)))
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    qtbot.waitExposed(view)
    view.fit_table()
    view.set_zoom(min(view.zoom(), 2.0))
    return view, game.log()


def test_replay_steps_redraw_the_layer_in_part_and_leave_the_same_picture(game_view, monkeypatch):
    view, log = game_view
    layer = view.map_scene.unit_layer
    assert view.map_scene.units_batched
    partial: list[int] = []
    original = unit_layer.UnitLayer._redraw
    monkeypatch.setattr(
        unit_layer.UnitLayer,
        "_redraw",
        lambda self, w, boxes: (partial.append(-1 if boxes is None else len(boxes)), original(self, w, boxes))[1],
    )
    starts = log.phase_starts()
    view.show_state(log.state_at(starts[0]).units, log.state_at(starts[0]).commanders)
    view.viewport().grab()
    positions = list(starts[1:14]) + [len(log), 3, len(log) // 2] + list(starts[20:24])
    for pos in positions:
        state = log.state_at(pos)
        view.show_state(state.units, state.commanders)
        stepped = pixels(view.viewport().grab().toImage())
        layer.mark_all()
        full = pixels(view.viewport().grab().toImage())
        # equal but for the rounding of a clipped antialiased edge (1/255 of a channel)
        assert np.abs(stepped.astype(int) - full).max() <= 2, pos
    assert any(n > 0 for n in partial)  # some steps were drawn in part


def test_labels_follow_a_moved_unit_and_zoomed_out_unit_moves_keep_them(view, document):
    view.set_zoom(20.0)
    view.centre_on_table(document.scenario.units["u-ir15"].position)
    name = document.scenario.units["u-ir15"].name

    def rect_of(text):
        return next(r for r, label in view.placed_labels() if label.text == text)

    before = rect_of(name)
    x, y = document.scenario.units["u-ir15"].position
    document.push(MoveRecords("units", {"u-ir15": (x + 3.0, y)}, text="Move IR 15"))
    after = rect_of(name)
    assert after.x() - before.x() == pytest.approx(60.0, abs=1.0)  # 3 cm at 20 px/cm
    assert after.y() == before.y()

    view.set_zoom(1.0)  # below LABEL_MIN_LOD: no unit names; the corps markers name the formations
    placed = view.placed_labels()
    assert placed and not any(label.text == name for _, label in placed)
    corps = next(label.text for _, label in placed if label.text.startswith("FML Riesch "))  # IR 15's corps
    document.push(MoveRecords("units", {"u-ir15": (x + 80.0, y)}, text="Move IR 15 away"))
    assert view.placed_labels() is not placed  # IR 15 moved its corps' centre, and the corps' name with it
    assert rect_of(corps).x() > next(r for r, label in placed if label.text == corps).x()
    view.set_layer_visible("formations", False)  # no markers: units moving change no label
    placed = view.placed_labels()
    document.push(MoveRecords("units", {"u-ir15": (x + 3.0, y)}, text="Move IR 15"))
    assert view.placed_labels() is placed
    cx, cy = document.scenario.commanders["c-ney"].position
    document.push(MoveRecords("commanders", {"c-ney": (cx + 10.0, cy)}, text="Move Ney"))
    assert view.placed_labels() is not placed


def test_division_generals_are_named_when_zoomed_in_corps_commanders_always(view, document):
    view.set_zoom(1.0)
    texts = {label.text for _, label in view.placed_labels()}
    # zoomed out the corps' marker carries its name and strength, in place of its commander's
    assert any(t.startswith("Marshal Ney ") for t in texts) and "Loison" not in texts
    view.set_layer_visible("formations", False)
    texts = {label.text for _, label in view.placed_labels()}
    assert "Marshal Ney" in texts and "Loison" not in texts
    view.set_layer_visible("formations", True)
    view.set_zoom(10.0)
    view.centre_on_table(document.scenario.commanders["c-loison"].position)
    assert "Loison" in {label.text for _, label in view.placed_labels()}


def test_a_unit_that_only_moved_keeps_its_drawing(view, document):
    item: UnitItem = view.map_scene.item_for("u-ir15")
    look, shape = item.look, item._shape
    x, y = document.scenario.units["u-ir15"].position
    document.push(MoveRecords("units", {"u-ir15": (x + 4.0, y - 2.0)}, text="Move IR 15"))
    assert item.look == look and item._shape is shape
    unit = document.scenario.units["u-ir15"]
    document.push(PutRecords("units", {unit.id: replace(unit, facing=unit.facing + 45.0)}, "Wheel IR 15"))
    assert item.look == look + 1 and item._shape is not shape
