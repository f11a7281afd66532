"""The Order of battle dock: the tree mirrors the graph, drag-and-drop reassigns (or refuses
with a message), selection follows the document both ways, filter, rename, add, delete."""

from __future__ import annotations

import copy

import pytest
from PySide6.QtCore import Qt

from battlestudio.edits import MoveRecords
from battlestudio.ui.panels.oob_model import ID_ROLE, OOB_MIME, decode_ids
from battlestudio.ui.panels.oob_panel import OobPanel
from tests.ui.window_helpers import drop_on_tree


@pytest.fixture
def panel(qtbot, document):
    p = OobPanel(document)
    qtbot.addWidget(p)
    p.resize(420, 900)
    p.show()
    qtbot.waitExposed(p)
    return p


def rows(panel, parent_id=None):
    m = panel.model
    parent = m.index_of(parent_id) if parent_id else m.index(-1, 0)
    return [m.index(r, 0, parent).data(ID_ROLE) for r in range(m.rowCount(parent))]


def drop_on(panel, source_id, target_id, qtbot):
    return drop_on_tree(panel, source_id, target_id)


def test_tree_mirrors_graph_with_totals(panel, document):
    s = document.scenario
    assert rows(panel) == ["c-ney", "c-riesch"]  # one root per side, in side order
    assert rows(panel, "c-loison") == s.oob.subordinates("c-loison")
    m = panel.model
    ney = m.index_of("c-ney", 1)
    french_men = sum(u.men for u in s.units.values() if u.side == "french")
    assert ney.data() == f"{french_men:,}"
    assert m.index_of("c-seroux", 2).data() == "16"  # 8 + 4 + 4 guns
    assert m.index_of("u-6leger").data() == "6e Léger"
    assert not m.index_of("u-6leger").data(Qt.ItemDataRole.DecorationRole).isNull()


def test_drag_unit_onto_another_commander_reassigns_it(panel, document, qtbot):
    assert drop_on(panel, "u-6leger", "c-malher", qtbot)
    s = document.scenario
    assert s.oob.superior("u-6leger") == "c-malher"
    assert document.undo_text == "Attach 6e Léger to Malher"
    assert "u-6leger" in rows(panel, "c-malher") and "u-6leger" not in rows(panel, "c-loison")
    assert panel.tree.isExpanded(panel.index_of("c-malher"))
    document.undo()
    assert s.oob.subordinates("c-loison")[0] == "u-6leger" and rows(panel, "c-loison")[0] == "u-6leger"


def test_drag_commander_under_lower_echelon_is_refused_with_message(panel, document, qtbot):
    before = copy.deepcopy(document.scenario.oob)
    # a division may not serve under a brigade: hovering says why, dropping does nothing
    assert not drop_on(panel, "c-malher", "c-colbert", qtbot)
    assert document.scenario.oob == before and not document.can_undo
    assert panel.notice.isVisibleTo(panel) and "lower echelon" in panel.notice.text()
    panel.show_notice("")
    # the model refuses the drop outright too, and says why
    mime = panel.model.mimeData([panel.model.index_of("c-malher")])
    assert not panel.model.dropMimeData(mime, Qt.DropAction.MoveAction, -1, 0, panel.model.index_of("c-colbert"))
    assert panel.notice.isVisible() and "lower echelon" in panel.notice.text()
    # across sides
    mime = panel.model.mimeData([panel.model.index_of("u-6leger")])
    assert not panel.model.dropMimeData(mime, Qt.DropAction.MoveAction, -1, 0, panel.model.index_of("c-loudon"))
    assert "another side" in panel.notice.text()
    assert document.scenario.oob == before


def test_subordinate_commander_can_move_to_a_higher_echelon(panel, document, qtbot):
    assert drop_on(panel, "c-colbert", "c-loison", qtbot)
    assert document.scenario.oob.superior("c-colbert") == "c-loison"


def test_drop_between_rows_sets_position(panel, document):
    m = panel.model
    mime = m.mimeData([m.index_of("u-loison-bty")])
    m.dropMimeData(mime, Qt.DropAction.MoveAction, 0, 0, m.index_of("c-loison"))
    assert document.scenario.oob.subordinates("c-loison")[0] == "u-loison-bty"


def test_mime_payload_is_the_map_format(panel):
    from battlestudio.ui.map_view import MIME_IDS

    mime = panel.model.mimeData([panel.model.index_of("u-ir8"), panel.model.index_of("u-ir8", 1)])
    assert OOB_MIME == MIME_IDS and decode_ids(mime) == ["u-ir8"]


def test_selection_synchronised_both_ways(panel, document, qtbot):
    document.set_selection({"u-ir8", "t-quarry"})
    selected = {i.data(ID_ROLE) for i in panel.tree.selectionModel().selectedRows(0)}
    assert selected == {"u-ir8"}
    sm = panel.tree.selectionModel()
    sm.select(panel.index_of("u-ir15"), sm.SelectionFlag.ClearAndSelect | sm.SelectionFlag.Rows)
    assert document.selection == {"u-ir15"}  # a plain click replaces the map selection (issue 20)
    rect = panel.tree.visualRect(panel.index_of("u-3huss"))
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())
    assert "u-3huss" in document.selection and "u-ir15" not in document.selection


def test_double_click_requests_centring(panel, qtbot):
    panel.tree.scrollTo(panel.index_of("c-hessen"))
    rect = panel.tree.visualRect(panel.index_of("c-hessen"))
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())
    with qtbot.waitSignal(panel.centre_requested, timeout=1000) as blocker:
        qtbot.mouseDClick(
            panel.tree.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center()
        )
    assert blocker.args == ["c-hessen"]


def test_filter_keeps_ancestors(panel):
    panel.filter.setText("dragons")
    p = panel.proxy
    assert p.rowCount() == 1  # only the French root remains
    ney = p.index(0, 0)
    lap = [p.index(r, 0, ney).data(ID_ROLE) for r in range(p.rowCount(ney))]
    assert lap == ["c-laplanche"]
    assert p.rowCount(p.index(0, 0, ney)) == 3


def test_rename_in_place_is_an_edit(panel, document):
    assert panel.model.setData(panel.model.index_of("u-ir8"), "IR 8 Ludwig")
    assert document.scenario.units["u-ir8"].name == "IR 8 Ludwig"
    assert document.undo_text == "Rename IR 8 Erzherzog Ludwig to IR 8 Ludwig"
    assert not panel.model.setData(panel.model.index_of("u-ir8"), "   ")


def test_add_subordinate_and_delete_from_context_menu(panel, document, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("Bde Marchand", True)))
    menu = panel.context_menu("c-loison")
    labels = [a.text() for a in menu.actions() if a.text()]
    assert labels == ["Add subordinate unit…", "Add subordinate commander…", "Rename…", "Place on map", "Delete"]
    next(a for a in menu.actions() if a.text() == "Add subordinate commander…").trigger()
    (new,) = document.selection
    s = document.scenario
    assert s.commanders[new].echelon == "brigade" and s.oob.superior(new) == "c-loison"
    assert rows(panel, "c-loison")[-1] == new
    assert s.validate_oob() == []
    panel.delete(["u-ir8", "c-mecsery"])
    assert "u-ir8" not in s.units and "c-mecsery" not in s.commanders
    assert document.undo_text == "Delete 2 items"
    document.undo()
    assert rows(panel, "c-loudon")[:2] == ["c-mecsery", "u-ir8"]


def test_unit_edits_update_totals_without_reset(panel, document, qtbot):
    resets = []
    panel.model.modelReset.connect(lambda: resets.append(1))
    document.push(MoveRecords("units", {"u-ir8": (80.0, 110.0)}, None, "Move"))
    from dataclasses import replace

    from battlestudio.edits import PutRecords

    document.push(PutRecords("units", {"u-ir8": replace(document.scenario.units["u-ir8"], men=2000)}, "Men"))
    assert resets == []
    sc = document.scenario
    men = sum(sc.units[u].men for u in sc.oob.all_subordinates("c-loudon") if u in sc.units)
    assert panel.model.index_of("c-loudon", 1).data() == f"{men:,}"
