"""Units and commanders as frozen records (Torden over Europa 1.1–1.7): arm and subtype,
echelons, footprints from formation and figures, moves."""

from __future__ import annotations

import dataclasses

import pytest

from battlestudio.model.geometry import UnitRect
from battlestudio.model.units import (
    DEFAULT_FIGURE_SIZE,
    ECHELON_RANK,
    SUBTYPE_ARM,
    Arm,
    Commander,
    Echelon,
    Formation,
    OrderState,
    Subtype,
    Unit,
)

# Morand's 17eme Ligne at Auerstedt: 4 battalions ≈ 2,400 men ≈ 24 figures (ToE 1.1: 100 men each)
LIGNE_17 = Unit(
    "17e",
    "17eme Ligne",
    "french",
    "France",
    Arm.INFANTRY,
    Subtype.LINE_INFANTRY,
    "veteran",
    figures=24,
    bases=4,
    men=2400,
    position=(120.0, 40.0),
    facing=90.0,
)


def test_every_subtype_belongs_to_one_arm():
    assert set(SUBTYPE_ARM) == set(Subtype)
    assert SUBTYPE_ARM[Subtype.HORSE_ARTILLERY] is Arm.ARTILLERY
    assert SUBTYPE_ARM[Subtype.SKIRMISHERS] is Arm.INFANTRY
    assert {SUBTYPE_ARM[s] for s in (Subtype.LIGHT_CAVALRY, Subtype.MEDIUM_CAVALRY, Subtype.HEAVY_CAVALRY)} == {
        Arm.CAVALRY
    }


def test_echelons_run_from_commander_in_chief_down():
    """ToE 1.4, Figure 1: hærchef, arméchef, korpschef, divisionschef, brigade."""
    assert [e.value for e in sorted(Echelon, key=lambda e: ECHELON_RANK[e.value])] == [
        "c_in_c",
        "army",
        "corps",
        "division",
        "brigade",
    ]
    assert ECHELON_RANK["c_in_c"] < ECHELON_RANK["corps"] < ECHELON_RANK["brigade"]


def test_order_states_of_torden_over_europa():
    assert [s.value for s in OrderState] == ["O", "U", "FU", "eliminated"]


@pytest.mark.parametrize(
    "formation, width, depth",
    [
        (Formation.LINE, 24.0, 3.0),
        (Formation.COLUMN, 16.0, 4.5),
        (Formation.MARCH_COLUMN, 4.0, 18.0),
        (Formation.SQUARE, 10.0, 10.0),
    ],
)
def test_unit_rect_follows_formation(formation, width, depth):
    u = dataclasses.replace(LIGNE_17, formation=formation)
    r = u.rect()
    assert (r.width, r.depth) == (width, depth)
    assert r.front == (120.0, 40.0) and r.facing == 90.0  # position is the front-edge midpoint
    assert u.footprint().equals(r.polygon())
    assert u.footprint().bounds == pytest.approx((120.0 - width / 2, 40.0 - depth, 120.0 + width / 2, 40.0))


def test_column_ranks_choice_changes_the_column():
    four = dataclasses.replace(LIGNE_17, formation=Formation.COLUMN, column_ranks=4).rect()
    assert (four.width, four.depth) == (12.0, 6.0)


def test_zero_figure_unit_has_a_token_footprint():
    ghost = dataclasses.replace(LIGNE_17, figures=0)
    assert ghost.rect() == UnitRect((120.0, 40.0), 90.0, 1.0, 1.0)
    assert ghost.footprint().area == pytest.approx(1.0)


def test_moved_normalises_facing_and_keeps_the_rest():
    m = LIGNE_17.moved((130, 55), facing=-90.0)
    assert m.position == (130.0, 55.0) and isinstance(m.position[0], float)
    assert m.facing == 270.0
    assert dataclasses.replace(m, position=LIGNE_17.position, facing=LIGNE_17.facing) == LIGNE_17
    assert LIGNE_17.moved((0, 0)).facing == 90.0
    assert LIGNE_17.moved((0, 0), facing=720.0 + 45.0).facing == 45.0


def test_records_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        LIGNE_17.figures = 20  # type: ignore[misc]
    davout = Commander("davout", "Davout", "french", "France", Echelon.CORPS.value, position=(100.0, 20.0), figures=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        davout.position = (0.0, 0.0)  # type: ignore[misc]
    assert davout.moved((110, 35)).position == (110.0, 35.0)
    assert davout.moved((110, 35)).echelon == "corps"


def test_default_figure_sizes_cover_every_arm():
    assert set(DEFAULT_FIGURE_SIZE) == set(Arm)
    assert all(w > 0 and d > 0 for w, d in DEFAULT_FIGURE_SIZE.values())
