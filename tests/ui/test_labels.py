"""Label placement: labels slid inside the table part in view; one label where an objective
sits on a town of the same name (Jena 1806: Vierzehnheiligen, 3 VP)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF

from battlestudio.ui.labels import Label, LabelRequest, MapContext, merge_town_objectives, place_labels


def test_labels_at_the_table_edge_are_slid_inside(qtbot):
    ctx = MapContext()
    label = Label("Kapellendorf (Hohenlohe's headquarters) (1 VP)", ctx, bold=True)
    bounds = QRectF(10, 20, 600, 400)
    reqs = [
        LabelRequest(label, QPointF(15, 100), True, 0.0, 2),  # would stick out on the left
        LabelRequest(Label("Saale bridge at Jena", ctx), QPointF(605, 415), False, 0.0, 4),
    ]
    placed = place_labels(reqs, lambda p: p, bounds=bounds)
    assert len(placed) == 2
    for rect, _label in placed:
        assert bounds.contains(rect)
    assert placed[0][0].left() == 10 and placed[0][0].width() == label.width_px
    assert placed[1][0].right() <= 610 and placed[1][0].bottom() <= 420
    unbounded = place_labels(reqs, lambda p: p)
    assert unbounded[0][0].left() < 10  # without bounds it would have been cut off


def test_objective_on_a_town_of_its_name_gives_one_label(qtbot):
    ctx = MapContext()
    town = LabelRequest(Label("Vierzehnheiligen", ctx, bold=True), QPointF(100, 100), False, 0.0, 0)
    obj = LabelRequest(Label("Vierzehnheiligen (3 VP)", ctx, bold=True), QPointF(101, 102), True, 2.0, 2)
    other = LabelRequest(Label("Jena (2 VP)", ctx, bold=True), QPointF(101, 102), True, 2.0, 2)
    town_rect, obj_rect = QRectF(95, 95, 10, 10), QRectF(99, 99, 4, 4)
    got = merge_town_objectives([(town_rect, town)], [(obj_rect, obj), (obj_rect, other)])
    assert [(r.label.text, r.priority) for r in got] == [("Vierzehnheiligen (3 VP)", 0), ("Jena (2 VP)", 2)]
    far = merge_town_objectives([(town_rect, town)], [(QRectF(300, 300, 4, 4), obj)])
    assert [r.label.text for r in far] == ["Vierzehnheiligen", "Vierzehnheiligen (3 VP)"]
