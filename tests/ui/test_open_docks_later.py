"""Opening a recorded game, the map paints before the command overlay is drawn and the Order of
battle tree is expanded (issue 26): until the first frame the overlay shows nothing of the last
document and the tree says it is filling in; then both are what an open without waiting gives.
A scenario without a game (the editor) draws both at once."""

from __future__ import annotations

from battlestudio import store
from battlestudio.analysis.command_picture import command_picture
from battlestudio.play.document import PlayDocument
from battlestudio.rules import get_ruleset
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")


def _expanded_rows(w) -> tuple[int, int]:
    """Rows of the tree that have rows under them: how many are expanded, how many there are."""
    tree, proxy = w.oob_panel.tree, w.oob_panel.proxy
    todo, expanded, parents = [proxy.index(r, 0) for r in range(proxy.rowCount())], 0, 0
    while todo:
        ix = todo.pop()
        if proxy.rowCount(ix):
            parents += 1
            expanded += tree.isExpanded(ix)
            todo += [proxy.index(r, 0, ix) for r in range(proxy.rowCount(ix))]
    return expanded, parents


def test_a_game_draws_its_overlay_and_expands_its_tree_after_the_first_frame(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    path = tmp_path / "jena.battle"
    store.save(store.load(JENA), path)
    w = make_window(qtbot, tmp_path)
    cv, tree = w.command_view, w.oob_panel
    assert w.files.open_path(path)

    doc = w.document
    assert isinstance(doc, PlayDocument)
    assert cv.overlay_waiting and cv.overlay.picture.links == {} and cv.overlay.items()[0].isVisible()
    assert not cv.overlay.marks.items and not cv.overlay.orders.items  # nothing of the last document
    assert tree.expansion_waits and _expanded_rows(w)[0] == 0 < _expanded_rows(w)[1]
    assert tree.notice.isVisibleTo(tree) and tree.notice.text() == "Filling in the order of battle…"

    qtbot.waitUntil(lambda: not cv.overlay_waiting and not tree.expansion_waits, timeout=60_000)
    info = doc.scenario.info
    want = command_picture(doc.timeline.state, get_ruleset(info.ruleset), info.parameters)
    assert set(cv.overlay.picture.links) == set(want.links) and want.links
    assert cv.overlay.picture.out_of_command() == want.out_of_command()
    expanded, parents = _expanded_rows(w)
    assert expanded == parents > 3 and not tree.notice.isVisibleTo(tree)
    assert modals.calls == []


def test_a_step_before_the_first_frame_draws_the_overlay_at_once(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    path = tmp_path / "jena.battle"
    store.save(store.load(JENA), path)
    w = make_window(qtbot, tmp_path)
    cv = w.command_view
    assert w.files.open_path(path)
    doc = w.document
    assert cv.overlay_waiting
    doc.timeline.seek(len(doc.log) // 2)  # the user steps before the map painted

    assert not cv.overlay_waiting
    info = doc.scenario.info
    want = command_picture(doc.timeline.state, get_ruleset(info.ruleset), info.parameters)
    assert cv.overlay.picture.out_of_command() == want.out_of_command()


def test_a_scenario_without_a_game_draws_its_overlay_and_tree_at_once(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    battle = store.load(JENA)
    battle.events = []
    path = tmp_path / "jena-setup.battle"
    store.save(battle, path)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(path)

    assert not isinstance(w.document, PlayDocument)
    assert not w.command_view.overlay_waiting and w.command_view.overlay.picture.links
    expanded, parents = _expanded_rows(w)
    assert not w.oob_panel.expansion_waits and expanded == parents > 3
