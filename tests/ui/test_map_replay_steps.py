"""Replay steps on the map: showing one state after another of a game log visits only the
records that changed, and the items always match the state shown, in both directions."""

from __future__ import annotations

import pytest

from battlestudio.document import Document
from battlestudio.replay.battle import Battle
from battlestudio.session.synthetic import synthetic_game
from battlestudio.ui.coords import scene_to_table
from battlestudio.ui.map_view import MapView


@pytest.fixture
def replay(qtbot):
    game = synthetic_game(turns=16, units_per_side=48, seed=5)  # long enough for a unit to be eliminated
    view = MapView(Document(Battle(game.scenario, game.events)))
    qtbot.addWidget(view)
    return view, game.log()


def assert_items_match(view: MapView, state) -> None:
    scene = view.map_scene
    assert set(scene.items_by_kind["units"]) == set(state.units)
    assert set(scene.items_by_kind["commanders"]) == set(state.commanders)
    for cid, c in state.commanders.items():
        assert scene_to_table(scene.items_by_kind["commanders"][cid].pos()) == pytest.approx(c.position)
    for uid, u in state.units.items():
        centre = u.rect().centre
        assert scene_to_table(scene.items_by_kind["units"][uid].pos()) == pytest.approx(centre)


def test_stepping_phase_by_phase_syncs_only_what_changed(replay, monkeypatch):
    view, log = replay
    starts = log.phase_starts()
    view.show_state(log.state_at(starts[0]).units, log.state_at(starts[0]).commanders)
    synced: list[str] = []
    for kind in ("units", "commanders"):
        for item in view.map_scene.items_by_kind[kind].values():
            original = item.sync
            monkeypatch.setattr(item, "sync", lambda rec, _o=original: (synced.append(rec.id), _o(rec))[1])
    moved = 0
    for a, b in zip(starts[:12], starts[1:13], strict=False):
        before, after = log.state_at(a), log.state_at(b)
        synced.clear()
        view.show_state(after.units, after.commanders)
        units = {i for i in after.units if after.units[i] is not before.units.get(i)}
        commanders = {i for i in after.commanders if after.commanders[i] is not before.commanders.get(i)}
        moved += len(units)
        # the step wrote the units' and commanders' rows; their items wait until something reads them
        assert synced == []
        assert_rows_match(view, after)
        assert_items_match(view, after)
        assert set(synced) == units | commanders
    assert moved


def assert_rows_match(view: MapView, state) -> None:
    flags = view.map_scene.commander_arrays
    assert set(flags.ids) == set(state.commanders)
    for cid, c in state.commanders.items():
        x, y = flags.pos[flags.row[cid]]
        assert (x, -y) == pytest.approx(c.position)
        assert flags.marks[flags.look[flags.row[cid]]]  # the echelon mark his flag carries
    arrays = view.map_scene.unit_arrays
    assert set(arrays.ids) == set(state.units)
    for uid, u in state.units.items():
        x, y = arrays.centre[arrays.row[uid]]
        assert (x, -y) == pytest.approx(u.rect().centre)
        assert arrays.shape_min_side[arrays.shape[arrays.row[uid]]] == pytest.approx(
            min(u.rect().width, u.rect().depth)
        )


def test_jumps_back_and_forth_and_removed_units_leave_the_map(replay):
    view, log = replay
    for p in (len(log), 0, len(log) // 2, len(log), 7, len(log) // 3):
        state = log.state_at(p)
        view.show_state(state.units, state.commanders)
        assert_rows_match(view, state)
        assert_items_match(view, state)
    head = log.head
    assert len(head.units) < len(log.initial.units)  # eliminated units were removed (1.6)
    view.show_state(head.units, head.commanders)
    assert_items_match(view, head)


def test_a_document_change_after_a_replay_state_reconciles_everything(replay):
    view, log = replay
    head = log.head
    view.show_state(head.units, head.commanders)
    view.rebuild()  # the editor takes the map back: items follow the scenario again
    view.show_state(head.units, head.commanders)
    assert_items_match(view, head)
