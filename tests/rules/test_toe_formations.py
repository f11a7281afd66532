"""Torden over Europa's formation changes (1.6, 1.7, 4.4, 4.5) on the Elchingen test table:
the front-edge midpoint stays, line ↔ march column turns on the spot, FU units and too small
columns are refused, and the march-length deduction is taken from the scenario or said missing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from shapely.geometry import box

from battlestudio import store

from battlestudio.model.formations import COLUMN_MIN_FIGURES, figure_cells, formation_problem
from battlestudio.model.geometry import right_of, square_capacity, square_side, unit_rect
from battlestudio.model.terrain import TerrainFeature, TerrainKind
from battlestudio.model.units import Formation
from battlestudio.replay.state import GameState
from battlestudio.rules import RuleRefused, get_ruleset
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.dice import SeededDice
from battlestudio.rules.toe import formations
from battlestudio.rules.toe.common import params_for

from tests.elchingen import elchingen_scenario

TOE = get_ruleset("toe")


def state_of(**changes) -> GameState:
    s = elchingen_scenario()
    for uid, fields in changes.items():
        s.units[uid] = replace(s.units[uid], **fields)
    return GameState.from_scenario(s)


def test_front_edge_midpoint_and_facing_stay():
    st = state_of()
    u = st.units["u-villatte"]
    ch = TOE.formation_change(st, "u-villatte", "column", {})
    assert ch.unit.formation is Formation.COLUMN and (ch.unit.position, ch.unit.facing) == (u.position, u.facing)
    assert ch.unit.rect().front == pytest.approx(u.rect().front)
    assert ch.cost_cm is None and "4.5" in ch.explanation and "none is deducted" in ch.explanation


def test_line_to_march_column_turns_on_the_spot():
    st = state_of()
    u = st.units["u-villatte"]
    ch = TOE.formation_change(st, "u-villatte", "march_column", {})
    a, b = u.rect().edges()["right"]
    assert ch.unit.position == pytest.approx(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    assert ch.unit.facing == pytest.approx((u.facing - 90.0) % 360.0)


def test_the_scenario_deduction_is_the_cost():
    ch = TOE.formation_change(state_of(), "u-villatte", "square", {"formation_change_cm.France": 5})
    assert ch.cost_cm == 5.0 and "5 cm of its march length" in ch.explanation


def test_what_the_rules_forbid_is_refused():
    with pytest.raises(RuleRefused, match="complete disorder.*1.6"):
        TOE.formation_change(state_of(**{"u-villatte": {"state": "FU"}}), "u-villatte", "column", {})
    with pytest.raises(RuleRefused, match="only a unit in complete disorder"):
        TOE.formation_change(state_of(), "u-villatte", "none", {})
    with pytest.raises(RuleRefused, match="cannot form column"):
        TOE.formation_change(state_of(**{"u-villatte": {"figures": 4}}), "u-villatte", "column", {})
    with pytest.raises(RuleRefused, match="not a formation"):
        TOE.formation_change(state_of(), "u-villatte", "wedge", {})


# ------------------------------------------------------------------------------ 1.7 square and column
SQUARE_VS_COLUMN = (
    "Vær opmærksom på at en stor kolonne fylder mere end samme enhed i karré. Såfremt en karré skal "
    "folde ud i kolonne skal der heraf være/efterlades plads til at folde ud i."
)
"""Torden over Europa 1.7 (seed 000), the sentences D12 reads."""

FIG_W, FIG_D = 2.0, 1.5
"""A figure's frontage and a rank's depth, cm (the Jena scenario's infantry)."""


@pytest.mark.parametrize("ranks, big", [(3, 16), (4, 21)])
def test_a_big_column_is_wider_than_the_same_unit_in_square(ranks, big):
    """1.7 (issue 16 D12): "en stor kolonne fylder mere end samme enhed i karré" (SQUARE_VS_COLUMN), read as the
    room the formation needs on the table: a big column's frontage exceeds the square's side, for
    every size from ``big`` figures up. A 4-rank column of 16-20 figures is not "stor": it is as
    wide as the square (5 figures a side) or narrower."""
    for n in range(COLUMN_MIN_FIGURES, 121):
        assert formation_problem("column", n, ranks) is None
        column = unit_rect((0.0, 0.0), 90.0, "column", n, FIG_W, FIG_D, ranks)
        square = unit_rect((0.0, 0.0), 90.0, "square", n, FIG_W, FIG_D)
        assert square.width == square.depth == FIG_W * square_side(n)
        if n >= big:
            assert column.width > square.width, (n, ranks, column.width, square.width)
        elif ranks == 4 and n >= 16:
            assert column.width <= square.width
    # the example: 24 figures, a 3-rank column 16 x 4.5 cm, the square 10 x 10 cm
    col = unit_rect((0.0, 0.0), 90.0, "column", 24, FIG_W, FIG_D, 3)
    sq = unit_rect((0.0, 0.0), 90.0, "square", 24, FIG_W, FIG_D)
    assert (col.width, col.depth, sq.width, sq.depth) == (8 * FIG_W, 3 * FIG_D, 5 * FIG_W, 5 * FIG_W)


@pytest.mark.parametrize("figures", range(1, 97))
def test_the_square_is_the_seeds_two_rank_open_ring_and_no_larger(figures):
    """1.7 "Karré: Enheden stilles i to geledder og så vidt muligt i en kvadratisk formation der
    skal være åben i midten ... kun at opstille i ét geled, dette gælder særligt mindre taktiske
    enheder": every figure stands in the outer two ranks (one rank where two would close the
    middle), the middle is open, and one figure less a side would not hold the unit."""
    a = square_side(figures)
    rect = unit_rect((0.0, 0.0), 90.0, "square", figures, FIG_W, FIG_D)
    cells = figure_cells(rect, "square", figures)
    assert len(cells) == figures
    ring = {(c.file, c.rank): min(c.file, c.rank, a - 1 - c.file, a - 1 - c.rank) for c in cells}
    assert len(ring) == figures
    assert max(ring.values()) <= (0 if a < 5 else 1)  # two ranks; one for a side-3 or -4 square
    middle = {(j, k) for j in range(a) for k in range(a) if min(j, k, a - 1 - j, a - 1 - k) >= (1 if a < 5 else 2)}
    assert middle and not middle & set(ring)  # open in the middle
    assert square_capacity(a - 1) < figures <= square_capacity(a)  # the smallest square that holds it


# ------------------------------------------------------------------------------ 1.7 room to unfold
JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"
SQUARE = "french-17e-legere"  # 21 figures: a 10 x 10 cm square, a 14 cm wide column (3 ranks)
NEIGHBOUR = "french-64e-ligne"
FOE = "prussian-bde-von-pelet"
HERE = (240.0, 120.0)


def jena_square(beside: str | None = None, gap: float = 1.0, facing: float = 90.0):
    """The Jena scenario's state with the 17e Légère (on the table at the start) in square at
    ``HERE`` and ``beside`` (a unit id) standing in line ``gap`` cm off its right side, facing
    the same way; with the scenario's terrain and table."""
    battle = store.load(JENA)
    s = battle.scenario
    sq = replace(s.units[SQUARE], formation=Formation.SQUARE, position=HERE, facing=facing)
    s.units[SQUARE] = sq
    if beside is not None:
        other = replace(s.units[beside], formation=Formation.LINE, facing=facing)
        r = right_of(facing)
        half = sq.rect().width / 2 + gap + other.rect().width / 2
        s.units[beside] = replace(other, position=(HERE[0] + r[0] * half, HERE[1] + r[1] * half))
    table = (s.info.table_width, s.info.table_height)
    return GameState.from_scenario(s), tuple(s.terrain.values()), table


def test_a_square_hemmed_in_by_a_neighbour_cannot_unfold_into_column():
    """1.7 (issue 16 D12): a square unfolding into column needs room (SQUARE_VS_COLUMN)."""
    st, terrain, table = jena_square(NEIGHBOUR)
    sq, nb = st.units[SQUARE], st.units[NEIGHBOUR]
    assert sq.footprint().distance(nb.footprint()) == pytest.approx(1.0)  # 1 cm apart: the square stands
    with pytest.raises(RuleRefused) as refused:
        TOE.formation_change(st, SQUARE, "column", {}, terrain=terrain, table=table)
    text = str(refused.value)
    assert "1.7" in text and nb.name in text and "(friend)" in text and "room to unfold" in text
    # the same square with room (its neighbour 3 cm off: the column reaches 2 cm beyond the square)
    st, terrain, table = jena_square(NEIGHBOUR, gap=3.0)
    ch = TOE.formation_change(st, SQUARE, "column", {}, terrain=terrain, table=table)
    assert ch.unit.formation is Formation.COLUMN and ch.unit.rect().width == 14.0
    assert ch.unit.footprint().distance(st.units[NEIGHBOUR].footprint()) == pytest.approx(1.0)
    assert "room to unfold into (1.7, toe.unfold_room = 'square', assumed)" in ch.explanation


def test_an_enemy_the_table_edge_and_impassable_ground_are_in_the_way():
    st, terrain, table = jena_square(FOE)
    with pytest.raises(RuleRefused, match=r"von Pelet.*\(enemy\).*1\.7"):
        TOE.formation_change(st, SQUARE, "line", {}, terrain=terrain, table=table)
    st, terrain, table = jena_square()
    edge = replace(st.units[SQUARE], position=(5.0, 120.0))  # its left side 0 cm from the table edge
    st = st.with_unit(edge)
    with pytest.raises(RuleRefused, match="the table edge.*1.7"):
        TOE.formation_change(st, SQUARE, "column", {}, terrain=terrain, table=table)
    st, terrain, table = jena_square()
    marsh = TerrainFeature("t-marsh", TerrainKind.IMPASSABLE, box(246.0, 100.0, 260.0, 130.0), name="Marsh")
    with pytest.raises(RuleRefused, match="the impassable Marsh.*1.7"):
        TOE.formation_change(st, SQUARE, "column", {}, terrain=(*terrain, marsh), table=table)


def test_the_unfold_room_reading_changes_what_is_checked():
    st, terrain, table = jena_square(NEIGHBOUR)
    # 'none': the room is not checked
    ch = TOE.formation_change(st, SQUARE, "column", {"toe.unfold_room": "none"}, terrain=terrain, table=table)
    assert ch.unit.formation is Formation.COLUMN and "room" not in ch.explanation
    # 'square' (assumed): a line (3 cm deep) becoming column (4.5 cm) with a unit 0.5 cm behind
    # it is not checked ...
    lined = st.with_unit(replace(st.units[SQUARE], formation=Formation.LINE))
    lined = lined.with_unit(replace(lined.units[NEIGHBOUR], position=(HERE[0], HERE[1] - 3.5)))
    assert lined.units[SQUARE].footprint().distance(lined.units[NEIGHBOUR].footprint()) == pytest.approx(0.5)
    assert (
        TOE.formation_change(lined, SQUARE, "column", {}, terrain=terrain, table=table).unit.formation
        is Formation.COLUMN
    )
    # ... and 'all' checks every change: the new column would stand 1 cm into the unit behind
    with pytest.raises(RuleRefused, match=st.units[NEIGHBOUR].name):
        TOE.formation_change(lined, SQUARE, "column", {"toe.unfold_room": "all"}, terrain=terrain, table=table)
    with pytest.raises(RuleRefused, match="not a reading"):
        TOE.formation_change(st, SQUARE, "column", {"toe.unfold_room": "sometimes"})


def test_the_actions_dock_action_unfolds_a_square_only_with_room():
    """``change_formation`` (1.7, 4.5): offered to a square of the side on the move in the
    movement phase; its preview (the legality the dock shows) and its resolve refuse a square
    hemmed in, naming the neighbour and 1.7; with room it records the new formation."""
    st, terrain, table = jena_square(NEIGHBOUR)
    st = st.evolve(turn=1, side="french", phase="movement")
    spec = next(a for a in TOE.actions(st, {}, SQUARE) if a.id == "change_formation")
    assert spec.legal and spec.rule == "1.7, 4.5"
    assert {"line", "column", "march_column"} <= set(spec.parameters[0].choices)
    assert not [a for a in TOE.actions(st, {}, NEIGHBOUR) if a.id == "change_formation"]  # not a square
    assert not [a for a in TOE.actions(st.evolve(phase="fire"), {}, SQUARE) if a.id == "change_formation"]
    req = ActionRequest(
        "change_formation", SQUARE, {"formation": "column", "side": "front"}, table=table, terrain=terrain
    )
    pv = TOE.preview_action(st, req, {})
    assert not pv.legal and "1.7" in pv.reason and st.units[NEIGHBOUR].name in pv.reason
    out = TOE.resolve_action(st, req, {}, SeededDice(1))
    assert not out.resolved and not out.events and st.units[NEIGHBOUR].name in out.explanation
    # out of its left side, away from the neighbour on its right: the column faces west, in room
    left = replace(req, parameters={"formation": "column", "side": "left"})
    assert TOE.preview_action(st, left, {}).legal
    out = TOE.resolve_action(st, left, {}, SeededDice(1))
    assert out.resolved and [e.kind for e in out.events] == ["moved", "formation_changed"]
    after = st
    for e in out.events:
        after = e.apply(after)
    u = after.units[SQUARE]
    assert u.formation is Formation.COLUMN and u.facing == pytest.approx(180.0)
    assert u.footprint().distance(after.units[NEIGHBOUR].footprint()) > 0.0


# ------------------------------------------------------------------------------ 4.6 unlimbering
BATTERY = "french-v-corps-foot-guns-1"
HORSE = "french-cavalry-reserve-horse-guns-1"


def test_a_battery_unlimbers_in_any_direction_within_its_limbers_base():
    """4.6 'Batteriet kan afprodse pjecen i den retning der ønskes dog skal pjecen være i
    brikkontakt med prodset og være afprodset indenfor prodsbrikken': Jena's V Corps foot battery,
    limbered facing north, unlimbers towards a point to its east through the Actions dock; its base
    turns about its centre; without a point it keeps its front (4.5); only unlimbering chooses."""
    battle = store.load(JENA)
    s = battle.scenario
    s.units[BATTERY] = replace(s.units[BATTERY], formation=Formation.LIMBERED, position=HERE, facing=90.0)
    st = GameState.from_scenario(s).evolve(turn=1, side="french", phase="movement")
    gun = st.units[BATTERY]
    centre = gun.rect().centre
    spec = next(a for a in TOE.actions(st, {}, BATTERY) if a.id == "unlimber")
    assert spec.legal and spec.rule == "4.6" and spec.parameters[0].kind == "point"
    assert not [a for a in TOE.actions(st.evolve(phase="fire"), {}, BATTERY) if a.id == "unlimber"]
    assert not [a for a in TOE.actions(st.evolve(side="prussian"), {}, BATTERY) if a.id == "unlimber"]
    east = (centre[0] + 30.0, centre[1])
    req = ActionRequest("unlimber", BATTERY, {"towards": east})
    pv = TOE.preview_action(st, req, {})
    assert pv.legal and "facing 0°" in pv.explanation and "4.6 'i den retning der ønskes" in pv.explanation
    assert "foot artillery's deduction is in Table 2" in pv.explanation
    out = TOE.resolve_action(st, req, {}, SeededDice(1))
    assert out.resolved and [e.kind for e in out.events] == ["moved", "formation_changed"]
    after = st
    for e in out.events:
        after = e.apply(after)
    u = after.units[BATTERY]
    assert u.formation is Formation.UNLIMBERED and u.facing == pytest.approx(0.0)
    assert u.rect().centre == pytest.approx(centre)  # within the limber's base, about its centre
    # no point: the front is kept, as any formation change (4.5)
    kept = TOE.resolve_action(st, ActionRequest("unlimber", BATTERY, {}), {}, SeededDice(1))
    assert [e.kind for e in kept.events] == ["formation_changed"] and kept.events[-1].facing == pytest.approx(90.0)
    # only a battery that unlimbers chooses its direction
    line = replace(s.units[SQUARE], formation=Formation.LINE)
    st2 = st.with_unit(line)
    with pytest.raises(RuleRefused, match="only a battery that unlimbers chooses its direction"):
        formations.formation_change(st2, params_for({}), SQUARE, "column", facing=0.0)
    # horse artillery unlimbers any way at no cost
    s.units[HORSE] = replace(s.units[HORSE], formation=Formation.LIMBERED, position=(300.0, 120.0), facing=90.0)
    st3 = GameState.from_scenario(s).evolve(turn=1, side="french", phase="movement")
    ch = formations.formation_change(st3, params_for({}), HORSE, "unlimbered", facing=225.0)
    assert ch.cost_cm == 0.0 and ch.unit.facing == pytest.approx(225.0) and "at no cost (4.6)" in ch.explanation
