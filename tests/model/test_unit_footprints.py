"""``footprints``: many units' footprint polygons at once give exactly what ``Unit.footprint``
gives one by one (the same coordinates, every formation and facing), share its cache, and
follow moved records."""

from __future__ import annotations

import pytest

from battlestudio.model import units as units_module
from battlestudio.model.units import Arm, Formation, Unit, footprints


def _army() -> list[Unit]:
    out = []
    for k, formation in enumerate(Formation):
        for facing in (0.0, 37.5, 90.0, 211.25, 359.9):
            arm = Arm.ARTILLERY if formation in (Formation.LIMBERED, Formation.UNLIMBERED) else Arm.INFANTRY
            out.append(
                Unit(
                    f"u{k}-{facing}",
                    "Brigade",
                    "french",
                    arm=arm,
                    figures=k * 3 % 19,
                    formation=formation,
                    position=(12.5 + k * 7.25, 300.0 - facing / 3.0),
                    facing=facing,
                    figure_width=2.0,
                    figure_depth=1.5,
                    column_ranks=3 + k % 2,
                )
            )
    return out


def test_footprints_are_the_one_by_one_footprints_to_the_last_bit():
    army = _army()
    units_module._FOOTPRINTS.clear()
    batch = footprints(army)
    units_module._FOOTPRINTS.clear()
    single = [u.footprint() for u in army]
    assert [p.wkb for p in batch] == [p.wkb for p in single]
    assert any(u.figures == 0 for u in army) and len({u.formation for u in army}) == len(Formation)


def test_footprints_share_the_cache_and_follow_moved_records():
    army = _army()
    units_module._FOOTPRINTS.clear()
    first = [army[0].footprint(), army[5].footprint()]
    batch = footprints(army)
    assert batch[0] is first[0] and batch[5] is first[1] and army[7].footprint() is batch[7]
    moved = army[7].moved((army[7].position[0] + 50.0, army[7].position[1]))
    again = footprints([army[7], moved])
    assert again[0] is batch[7]
    assert again[1].centroid.x == pytest.approx(batch[7].centroid.x + 50.0)
    assert footprints([]) == []
