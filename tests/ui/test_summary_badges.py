"""Zoomed out, an "!n out of command" badge keeps off every order-budget badge (issue 21): on
the bundled Jena game's last position, exported at whole-table zoom, the 2nd Division's badge
would sit on Hohenlohe's "OAS" badge below it, and moves to its next place instead."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF

from battlestudio import store
from battlestudio.replay.game import GameLog
from battlestudio.ui.command_items import OUT_COLOUR
from battlestudio.ui.labels import first_free
from battlestudio.ui.map_export import MapPage, PageSpec
from tests.ui.test_map_pages import JENA


@pytest.fixture(scope="module")
def page(qapp):
    battle = store.load(JENA)
    log = GameLog.from_battle(battle)
    p = MapPage(battle, len(log), PageSpec(width_px=600), log=log)
    yield p
    p.close()


def test_first_free_takes_the_first_place_nothing_covers():
    taken = [QRectF(0, 0, 10, 10)]
    assert first_free([QRectF(5, 5, 4, 4), QRectF(20, 0, 4, 4)], taken) == 1
    assert first_free([QRectF(20, 0, 4, 4), QRectF(5, 5, 4, 4)], taken) == 0
    assert first_free([QRectF(5, 5, 4, 4)], taken) == 0  # nowhere free: the first


def test_no_summary_badge_sits_on_an_order_budget(page):
    ov, view = page.overlay, page.view
    z = view.map_scene.ctx.px_per_cm
    shown = [s for s in ov.summaries.items.values() if s.isVisible() and s.shown()]
    assert shown and ov.budgets.items

    def budgets_meeting(s, rect):
        me = s.scenePos()
        return [
            b
            for b in ov.budgets.items.values()
            if b.boundingRect().translated((b.scenePos() - me) * z).intersects(rect)
        ]

    moved = [s for s in shown if budgets_meeting(s, s.slots()[0])]
    assert moved, "the Jena page no longer has a badge on a neighbour's budget: pick another case"
    for s in shown:
        assert not budgets_meeting(s, s.slot()), s.toolTip()
    for s in moved:
        assert s.slot() != s.slots()[0]
        # drawn where it was placed: its red frame is inside the chosen place on the page
        image = page.image()
        origin = view.mapFromScene(s.scenePos()) + QPointF(0, page.layout.title_h).toPoint()
        r = s.slot().translated(QPointF(origin))
        reds = sum(
            1
            for x in range(int(r.left()), int(r.right()))
            for y in range(int(r.top()), int(r.bottom()))
            if _near(image.pixelColor(x, y), OUT_COLOUR, 120)
        )
        assert reds > r.width(), s.toolTip()  # its frame and "!n"


def _near(a, b, tol: int = 70) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < tol
