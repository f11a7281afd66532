"""An exported page draws the map's names where they were placed on its map, not shifted by
the page's title band (issue 21): the pixels the Labels layer changes on a page of the bundled
Jena game lie inside the placed label rectangles, moved down by the title band."""

from __future__ import annotations

from PySide6.QtGui import QImage

from battlestudio import store
from battlestudio.replay.game import GameLog
from battlestudio.ui.map_export import MapPage, PageSpec
from tests.ui.test_map_pages import JENA


def test_page_labels_are_drawn_where_placed(qapp):
    battle = store.load(JENA)
    log = GameLog.from_battle(battle)
    spec = dict(width_px=700, command_layer=False)
    page = MapPage(battle, len(log), PageSpec(**spec), log=log)
    bare = MapPage(battle, len(log), PageSpec(**spec, hidden_layers=frozenset({"labels"})), log=log)
    try:
        assert page.layout.title_h > 20
        rects = [r.translated(0, page.layout.title_h) for r, _l in page.view.placed_labels()]
        assert len(rects) > 5
        a = page.image().convertToFormat(QImage.Format.Format_RGB32)
        b = bare.image().convertToFormat(QImage.Format.Format_RGB32)
        top = round(page.layout.title_h)
        bottom = round(page.layout.title_h + page.layout.map_rect.height())
        differing = inside = 0
        for y in range(top, bottom):
            for x in range(0, a.width(), 2):
                if a.pixel(x, y) != b.pixel(x, y):
                    differing += 1
                    inside += any(r.adjusted(-1, -1, 1, 1).contains(x, y) for r in rects)
        assert differing > 500
        assert inside >= 0.98 * differing, (inside, differing)
    finally:
        page.close()
        bare.close()
