"""Eliminated units in the Order of battle dock (issue 21), on the bundled Jena game in the
window: the filter does not find them unless "Show eliminated" is ticked, they stay listed
(struck out) without a filter, and the tree's totals are the Analysis strength chart's (the
living only) at the end of every turn."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, Qt

from battlestudio.analysis.common import turn_end_positions
from battlestudio.analysis.strength import strength_over_turns
from battlestudio.model.units import Unit
from battlestudio.ui.panels.oob_model import ID_ROLE
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.test_map_pages import CHASSEURS, ELIMINATED_AT, JENA
from tests.ui.window_helpers import ModalRecorder, make_window


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 900)
    assert w.files.open_path(JENA, ask=False)
    return w


def _shown_ids(panel, parent=None) -> set[str]:
    """Record ids of the rows the tree view shows (through its filter)."""
    proxy = panel.proxy
    parent = parent if parent is not None else QModelIndex()
    out: set[str] = set()
    for r in range(proxy.rowCount(parent)):
        i = proxy.index(r, 0, parent)
        out.add(i.data(ID_ROLE))
        out |= _shown_ids(panel, i)
    return out


def test_the_filter_finds_eliminated_units_only_when_asked(window, qtbot):
    panel, t = window.oob_panel, window.document.timeline
    box = panel.show_eliminated
    assert not box.isEnabled() and not box.isChecked()  # no filter: nothing to act on

    t.seek(ELIMINATED_AT - 1)  # still alive: the filter finds it
    name = "chasseur"  # the 10e Chasseurs and other chasseurs (case and accents ignored)
    assert name in window.document.scenario.units[CHASSEURS].name.casefold()
    qtbot.keyClicks(panel.filter, name)
    assert box.isEnabled()
    assert CHASSEURS in _shown_ids(panel)

    t.seek(ELIMINATED_AT)  # eliminated: the same filter no longer finds it
    qtbot.waitUntil(lambda: CHASSEURS not in _shown_ids(panel))
    others = _shown_ids(panel)
    assert others, f"the filter {name!r} should still find the living chasseurs"
    assert all(
        not (isinstance(r := window.document.scenario.record(i), Unit) and r.state == "eliminated") for i in others
    )

    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)  # "Show eliminated"
    assert box.isChecked() and CHASSEURS in _shown_ids(panel)
    row = panel.index_of(CHASSEURS)
    assert row.isValid() and row.data(Qt.ItemDataRole.FontRole).strikeOut()  # found, struck out
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert not box.isChecked() and CHASSEURS not in _shown_ids(panel)

    panel.filter.clear()  # no filter: every row listed, the eliminated one struck out
    assert not box.isEnabled()
    assert CHASSEURS in _shown_ids(panel)
    assert panel.index_of(CHASSEURS).data(Qt.ItemDataRole.FontRole).strikeOut()


def test_tree_totals_are_the_strength_charts_at_every_turn_end(window):
    """Per side, the tree's top rows add up to the Analysis strength chart's men at the end of
    the game's turns: eliminated units left out of both. The chart counts the formations still
    waiting to arrive (part of the army); the tree lists what is on the table, so it shows the
    chart's figure less the men waiting."""
    doc = window.document
    model = window.oob_panel.model
    chart = {(p.turn, p.side): p.men for p in strength_over_turns(doc.log)}
    checked = 0
    eliminated_seen = waiting_seen = False
    for turn, pos in turn_end_positions(doc.log):
        if turn % 4 and pos != len(doc.log):
            continue
        doc.timeline.seek(pos)
        s = doc.scenario
        state = doc.log.state_at(pos)
        waiting: dict[str, int] = {}
        for uid in state.off_table:
            u = state.units.get(uid)
            if u is not None and u.state != "eliminated":
                waiting[u.side] = waiting.get(u.side, 0) + u.men
        waiting_seen |= bool(waiting)
        eliminated_seen |= any(u.state == "eliminated" for u in s.units.values())
        tree: dict[str, int] = {}
        for r in range(model.rowCount()):
            i = model.index(r, 0)
            rec = s.record(model.data(i, ID_ROLE))
            if isinstance(rec, Unit) and rec.state == "eliminated":
                continue  # a top row of its own: its struck-out men count for nobody
            men = model.data(model.index(r, 1))
            tree[rec.side] = tree.get(rec.side, 0) + int(str(men or "0").replace(",", ""))
        for side in s.sides:
            assert tree.get(side, 0) == chart.get((turn, side), 0) - waiting.get(side, 0), (turn, side)
        checked += 1
    assert checked >= 5 and eliminated_seen and waiting_seen


LEIPZIG = next(p for p in bundled_scenarios() if p.name == "leipzig-1813.battle.json")
VOLHYNIE = "russian-2-corps-volhynieline-regiment"
"""A Russian regiment the recorded Leipzig game eliminates in turn 10 and then removes from the
game (Torden over Europa 1.6: 2/3 lost and in FU), so the state at the end has no record of it."""


def test_a_unit_eliminated_then_removed_stays_in_the_tree_struck_out(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 900)
    assert w.files.open_path(LEIPZIG, ask=False)
    panel, doc = w.oob_panel, w.document
    t, box = doc.timeline, panel.show_eliminated
    assert t.at_end  # a finished game opens at its end
    state = doc.log.state_at(len(doc.log))
    assert VOLHYNIE not in state.units and VOLHYNIE in state.oob.graph  # removed, not just eliminated
    assert not box.isEnabled() and "Type a name in the filter" in box.toolTip()  # greyed out, says why

    # no filter: listed under its division, struck out, its men in nobody's total
    division = state.oob.superior(VOLHYNIE)
    row = panel.index_of(VOLHYNIE)
    assert row.isValid() and row.parent().data(ID_ROLE) == division
    assert row.data() == "Volhynieline regiment" and row.data(Qt.ItemDataRole.FontRole).strikeOut()
    living = [u for i in state.oob.subordinates(division) if (u := state.units.get(i)) is not None]
    assert panel.proxy.rowCount(row.parent()) == len(living) + 1
    total = int(row.parent().siblingAtColumn(1).data().replace(",", ""))
    assert total == sum(u.men for u in living) and row.siblingAtColumn(1).data()  # struck-out men shown

    qtbot.keyClicks(panel.filter, "Volhyn")  # a filter: not found unless asked
    assert box.isEnabled() and "Type a name" not in box.toolTip()
    qtbot.waitUntil(lambda: VOLHYNIE not in _shown_ids(panel))
    assert not _shown_ids(panel)
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)  # "Show eliminated"
    assert box.isChecked() and VOLHYNIE in _shown_ids(panel)
    assert panel.index_of(VOLHYNIE).data(Qt.ItemDataRole.FontRole).strikeOut()
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert not box.isChecked() and not _shown_ids(panel)

    t.seek(0)  # the start of the game: alive, found, not struck out
    qtbot.waitUntil(lambda: VOLHYNIE in _shown_ids(panel))
    assert not panel.index_of(VOLHYNIE).data(Qt.ItemDataRole.FontRole)
    t.seek(len(doc.log))  # back at the end: gone from the filter's matches again
    qtbot.waitUntil(lambda: VOLHYNIE not in _shown_ids(panel))
