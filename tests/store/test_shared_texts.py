"""Events read from a file share their texts (issue 26, memory): every event of one phase
holds the same turn/side/phase place, every event naming one unit the same id string, in a
``.battle`` and a ``.battle.json`` file alike; the events are equal to those saved."""

from __future__ import annotations

from collections import defaultdict

import pytest

from battlestudio import store
from battlestudio.ui.resources import bundled_scenarios

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")


def _distinct_objects(values) -> int:
    return len({id(v) for v in values})


def test_a_battle_file_shares_the_places_and_ids_of_its_events(tmp_path):
    saved = store.load(JENA)
    path = tmp_path / "jena.battle"
    store.save(saved, path)

    back = store.load(path, lazy_events=True)
    heads = back.events.heads()
    phases = defaultdict(list)
    for h in heads:
        phases[h].append(h)
    assert len(phases) > 10
    assert all(_distinct_objects(hs) == 1 for hs in phases.values())  # one tuple per phase

    events = list(back.events)
    assert events == list(saved.events)
    assert _distinct_objects(e.side for e in events) == len({e.side for e in events})
    assert _distinct_objects(e.phase for e in events) == len({e.phase for e in events})
    by_id = defaultdict(list)
    for e in events:
        if isinstance(getattr(e, "id", None), str):
            by_id[e.id].append(e.id)
    assert sum(len(v) for v in by_id.values()) > 100
    assert all(_distinct_objects(ids) == 1 for ids in by_id.values())


def test_a_json_file_shares_the_ids_of_its_events():
    events = store.load(JENA).events
    by_id = defaultdict(list)
    for e in events:
        if isinstance(getattr(e, "id", None), str):
            by_id[e.id].append(e.id)
    assert len(by_id) > 10 and all(_distinct_objects(ids) == 1 for ids in by_id.values())
    assert _distinct_objects(e.side for e in events) == len({e.side for e in events})


def test_the_place_of_an_event_is_read_without_building_it(tmp_path):
    saved = store.load(JENA)
    path = tmp_path / "jena.battle"
    store.save(saved, path)
    events = store.load(path, lazy_events=True).events
    last = saved.events[-1]
    assert events.head_at(-1) == (last.turn, last.side, last.phase) == events.heads()[-1]
    assert events.head_at(0) == events.heads()[0] and events.built_count() == 0
    events.append(last)
    assert events.head_at(-1) == (last.turn, last.side, last.phase)
    with pytest.raises(IndexError, match=f"of {len(events)}"):
        events.head_at(len(events))
