"""Edits: undo after do restores the scenario exactly (records, dict order, OOB children order),
redo reapplies, merging of drags, macros, and which Change each edit reports."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest
from shapely.geometry import Polygon

from battlestudio.edits import (
    Change,
    Macro,
    MoveRecords,
    PutRecords,
    Reattach,
    RemoveRecords,
    SetInfo,
    reattach_problem,
)
from battlestudio.model import Commander, Scenario, TerrainFeature, TerrainKind, Unit
from tests.elchingen import elchingen_scenario


def snapshot(s: Scenario) -> dict:
    """Everything observable: each container with its key order, the OOB with child order."""
    g = s.oob.graph
    return {
        "info": s.info,
        **{
            k: list(getattr(s, k).items())
            for k in (
                "sides",
                "units",
                "commanders",
                "terrain",
                "towns",
                "objectives",
                "deployment_zones",
                "reinforcements",
                "orders",
            )
        },
        "nodes": sorted(g.nodes),
        "children": {n: list(g.successors(n)) for n in g.nodes},
    }


@pytest.fixture
def s() -> Scenario:
    return elchingen_scenario()


def roundtrip(s: Scenario, edit) -> tuple[list[Change], list[Change]]:
    """do, undo (state must equal the start), redo (state must equal after do), undo again."""
    before = snapshot(s)
    done = edit.do(s)
    after = snapshot(s)
    assert after != before
    undone = edit.undo(s)
    assert snapshot(s) == before
    assert edit.do(s) == done
    assert snapshot(s) == after
    edit.undo(s)
    assert snapshot(s) == before
    return done, undone


def test_put_records_adds_and_replaces_then_undo_restores(s):
    new = Unit("u-reserve", "Bde Reserve", "austrian", "Austria", men=3100, figures=31, position=(60.0, 130.0))
    renamed = replace(s.units["u-villatte"], name="Brigade Villatte", men=3300)
    edit = PutRecords("units", {"u-reserve": new, "u-villatte": renamed}, "Add and rename")
    done, undone = roundtrip(s, edit)
    assert done == [Change("units", frozenset({"u-reserve", "u-villatte"}))]
    assert undone == done
    edit.do(s)
    assert s.units["u-reserve"] is new and s.units["u-villatte"].men == 3300
    # a replaced record keeps its place in the dict
    assert list(s.units).index("u-villatte") == 0


def test_put_records_rejects_key_mismatch_and_unknown_kind(s):
    with pytest.raises(ValueError, match="u-x"):
        PutRecords("units", {"u-x": s.units["u-roguet"]}, "bad")
    with pytest.raises(ValueError, match="battalions"):
        PutRecords("battalions", {}, "bad")


def test_remove_units_removes_oob_nodes_and_undo_restores_child_order(s):
    # Roguet is the middle child of Loison: undo must put him back in the middle.
    edit = RemoveRecords("units", ["u-roguet", "u-10chass"], "Delete 2 units")
    done, _ = roundtrip(s, edit)
    assert done[0] == Change("units", frozenset({"u-roguet", "u-10chass"}))
    assert done[1].kind == "oob" and {"c-loison", "c-colbert", "u-roguet", "u-10chass"} <= done[1].ids
    edit.do(s)
    assert "u-roguet" not in s.oob and s.oob.subordinates("c-loison") == ["u-villatte", "u-loison-bty"]
    edit.undo(s)
    assert s.oob.subordinates("c-loison") == ["u-villatte", "u-roguet", "u-loison-bty"]
    assert list(s.units)[:3] == ["u-villatte", "u-roguet", "u-loison-bty"]


def test_remove_commander_and_its_superior_restores_every_edge(s):
    edit = Macro([RemoveRecords("commanders", ["c-loison", "c-ney"], "Delete 2 commanders")], "Delete 2 commanders")
    roundtrip(s, edit)
    edit.do(s)
    assert s.oob.superior("u-villatte") is None and s.oob.superior("c-malher") is None
    edit.undo(s)
    assert s.oob.subordinates("c-ney") == ["c-loison", "c-malher", "c-colbert"]
    assert s.validate_oob() == []


def test_remove_unknown_id_changes_nothing(s):
    before = snapshot(s)
    with pytest.raises(KeyError, match="u-nobody"):
        RemoveRecords("units", ["u-roguet", "u-nobody"], "Delete").do(s)
    assert snapshot(s) == before


def test_remove_terrain_restores_dict_position(s):
    edit = RemoveRecords("terrain", ["t-heights"], "Delete hill")
    done, _ = roundtrip(s, edit)
    assert done == [Change("terrain", frozenset({"t-heights"}))]


def test_move_records_moves_and_turns(s):
    edit = MoveRecords(
        "units", {"u-villatte": (97.5, 61), "u-roguet": (131, 60)}, {"u-villatte": 450.0}, "Move 2 units"
    )
    done, _ = roundtrip(s, edit)
    assert done == [Change("units", frozenset({"u-villatte", "u-roguet"}))]
    edit.do(s)
    assert s.units["u-villatte"].position == (97.5, 61.0)
    assert s.units["u-villatte"].facing == 90.0  # 450° wrapped
    assert s.units["u-roguet"].facing == 90.0  # untouched facing
    rotate = MoveRecords("commanders", {}, {"c-riesch": -45.0}, "Rotate Riesch")
    assert rotate.do(s) == [Change("commanders", frozenset({"c-riesch"}))]
    assert s.commanders["c-riesch"].facing == 315.0 and s.commanders["c-riesch"].position == (120.0, 160.0)


def test_move_records_refuses_other_kinds_and_unknown_ids(s):
    with pytest.raises(ValueError):
        MoveRecords("terrain", {"t-wood": (1, 2)})
    before = snapshot(s)
    with pytest.raises(KeyError, match="u-ghost"):
        MoveRecords("units", {"u-villatte": (0, 0), "u-ghost": (1, 1)}).do(s)
    assert snapshot(s) == before


def test_consecutive_moves_with_same_key_merge_into_one_step(s):
    start = snapshot(s)
    first = MoveRecords("units", {"u-villatte": (96, 56)}, None, "Move unit", merge_key="drag-1")
    first.do(s)
    second = MoveRecords(
        "units", {"u-villatte": (97, 57), "u-roguet": (131, 56)}, None, "Move 2 units", merge_key="drag-1"
    )
    second.do(s)
    assert first.merge(second)
    assert first.text == "Move 2 units"
    end = snapshot(s)
    first.undo(s)
    assert snapshot(s) == start
    first.do(s)
    assert snapshot(s) == end
    other_drag = MoveRecords("units", {"u-roguet": (1, 1)}, None, "Move", merge_key="drag-2")
    assert not first.merge(other_drag)
    assert not MoveRecords("units", {}, {"u-roguet": 0}, "Rotate").merge(
        MoveRecords("units", {}, {"u-roguet": 15}, "Rotate")
    )


def test_put_records_merge_by_key(s):
    start = snapshot(s)
    wood = s.terrain["t-wood"]
    a = PutRecords(
        "terrain",
        {"t-wood": replace(wood, geometry=Polygon([(190, 120), (231, 115), (235, 160), (195, 165)]))},
        "Move vertex",
        merge_key=("vertex", "t-wood", 1),
    )
    a.do(s)
    b = PutRecords(
        "terrain",
        {"t-wood": replace(wood, geometry=Polygon([(190, 120), (232, 114), (235, 160), (195, 165)]))},
        "Move vertex",
        merge_key=("vertex", "t-wood", 1),
    )
    b.do(s)
    assert a.merge(b)
    a.undo(s)
    assert snapshot(s) == start


def test_reattach_moves_unit_and_undo_restores_position_among_subordinates(s):
    edit = Reattach("u-roguet", "c-malher", "Attach Bde Roguet to Malher")
    done, _ = roundtrip(s, edit)
    assert done == [Change("oob", frozenset({"u-roguet", "c-loison", "c-malher"}))]
    edit.do(s)
    assert s.oob.subordinates("c-malher") == ["u-delabassee", "u-marcognet", "u-roguet"]


def test_reattach_with_index_and_detach(s):
    edit = Reattach("u-loison-bty", "c-loison", "Reorder", index=0)
    roundtrip(s, edit)
    edit.do(s)
    assert s.oob.subordinates("c-loison") == ["u-loison-bty", "u-villatte", "u-roguet"]
    detach = Reattach("c-colbert", None, "Detach Colbert")
    roundtrip(s, detach)
    assert detach.do(s) == [Change("oob", frozenset({"c-colbert", "c-ney"}))]
    assert "c-colbert" in s.oob.roots()


def test_reattach_new_node_and_cycle(s):
    new = Commander("c-marchand", "Marchand", "french", "France", "brigade")
    add = Macro(
        [PutRecords("commanders", {"c-marchand": new}, "Add"), Reattach("c-marchand", "c-loison", "Attach")],
        "Add subordinate",
    )
    done, _ = roundtrip(s, add)
    assert [c.kind for c in done] == ["commanders", "oob"]
    with pytest.raises(ValueError, match="c-loison"):
        Reattach("c-ney", "c-loison", "Cycle").do(s)


def test_reattach_problem_explains_refusals(s):
    assert reattach_problem(s, "u-roguet", "c-malher") is None
    assert "units command nobody" in reattach_problem(s, "u-roguet", "u-villatte")
    assert "another side" in reattach_problem(s, "u-roguet", "c-loudon")
    assert "cycle" in reattach_problem(s, "c-ney", "c-loison")
    assert "lower echelon" in reattach_problem(s, "c-malher", "c-colbert")
    assert reattach_problem(s, "c-colbert", "c-malher") is None  # brigade under division


def test_set_info(s):
    edit = SetInfo({"title": "Elchingen, 14 October 1805", "table_width": 300.0})
    done, _ = roundtrip(s, edit)
    assert done == [Change("info", frozenset({"title", "table_width"}))]
    with pytest.raises(ValueError, match="colour"):
        SetInfo({"colour": "red"})


def test_macro_undoes_partial_work_when_a_step_fails(s):
    before = snapshot(s)
    bad = Macro([MoveRecords("units", {"u-roguet": (1, 1)}), RemoveRecords("terrain", ["t-nowhere"], "x")], "Bad")
    with pytest.raises(KeyError):
        bad.do(s)
    assert snapshot(s) == before


def test_macro_merges_changes_by_kind(s):
    wood = TerrainFeature("t-new", TerrainKind.WOODS, Polygon([(0, 60), (20, 60), (20, 80)]))
    m = Macro(
        [
            MoveRecords("units", {"u-roguet": (1, 1)}),
            PutRecords("terrain", {"t-new": wood}, "Draw wood"),
            MoveRecords("units", {"u-villatte": (2, 2)}),
        ],
        "Mixed",
    )
    done, _ = roundtrip(s, m)
    assert done == [Change("units", frozenset({"u-roguet", "u-villatte"})), Change("terrain", frozenset({"t-new"}))]


def test_change_rejects_unknown_kind():
    with pytest.raises(ValueError, match="brigades"):
        Change("brigades", frozenset())


def test_deep_copy_equality_after_long_sequence(s):
    original = copy.deepcopy(s)
    edits = [
        MoveRecords("units", {"u-villatte": (100, 70)}, {"u-villatte": 75}),
        Reattach("u-villatte", "c-malher", "Attach"),
        RemoveRecords("commanders", ["c-colbert"], "Delete Colbert"),
        PutRecords("towns", {"z-ober": replace(s.towns["z-ober"], capacity=2)}, "Capacity"),
        SetInfo({"turns": 12}),
    ]
    for e in edits:
        e.do(s)
    for e in reversed(edits):
        e.undo(s)
    assert s == original
    assert snapshot(s) == snapshot(original)


def test_copy_paste_keeps_hierarchy_among_copies_and_shifts(s):
    from battlestudio.edits import copy_records, paste_edit

    clip = copy_records(s, ["c-colbert", "u-10chass", "u-3huss", "t-wood", "not-an-id"])
    assert len(clip) == 4
    s.units["u-10chass"] = s.units["u-10chass"].moved((0.0, 0.0))  # later edits do not change the clip
    edit, new_ids = paste_edit(s, clip)
    assert edit.text == "Paste 4 items"
    before = snapshot(s)
    edit.do(s)
    c, u1, u2, t = new_ids
    assert s.commanders[c].name == "Colbert-Chabanais" and s.commanders[c].position == (65.0, 30.0)
    assert s.units[u1].position == (60.0, 45.0) and s.units[u1].id == u1
    assert s.oob.superior(c) == "c-ney"  # his superior was not copied: attach to the original
    assert s.oob.subordinates(c) == [u1, u2]  # his brigades follow the copy
    assert tuple(s.terrain[t].geometry.exterior.coords)[0] == (195.0, 115.0)
    assert len(set(new_ids) | s.all_ids()) == len(s.all_ids())
    assert s.validate_oob() == []
    edit.undo(s)
    assert snapshot(s) == before


def test_paste_of_nothing_is_none(s):
    from battlestudio.edits import Clip, paste_edit

    assert paste_edit(s, Clip()) is None
