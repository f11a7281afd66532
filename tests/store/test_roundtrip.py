"""Lossless round trips between Battle, .battle.json and .battle (issue 2 item 5)."""

from __future__ import annotations

import json
import math
from dataclasses import replace

from hypothesis import HealthCheck, given, settings

from battlestudio import store
from battlestudio.model import OrderOfBattle, Unit
from battlestudio.store.json_format import dumps, loads
from tests.store.conftest import jena_battle
from tests.strategies import battles, differences, scenarios

_SLOW = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@_SLOW
@given(battles(scenarios(min_units=100, max_units=500, max_terrain=120), max_events=400))
def test_json_battle_json_gives_identical_text_and_equal_objects(tmp_path_factory, battle):
    d = tmp_path_factory.mktemp("rt")
    first = d / "a.battle.json"
    store.save(battle, first)
    from_json = store.load(first)
    assert from_json == battle, differences(from_json, battle)
    store.save(from_json, d / "b.battle")
    from_db = store.load(d / "b.battle")
    assert from_db == battle, differences(from_db, battle)
    store.save(from_db, d / "c.battle.json")
    assert (d / "c.battle.json").read_text(encoding="utf-8") == first.read_text(encoding="utf-8")
    # the geometries are exactly the same, not just equal within a tolerance
    for tid, feature in battle.scenario.terrain.items():
        assert from_db.scenario.terrain[tid].geometry.equals_exact(feature.geometry, 0)
        assert from_db.scenario.terrain[tid].geometry.wkb == feature.geometry.wkb


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(battles(scenarios(min_units=0, max_units=40, max_terrain=14), max_events=60))
def test_dumps_loads_is_a_fixpoint(battle):
    text = dumps(battle)
    again = loads(text)
    assert again == battle
    assert dumps(again) == text


def test_floats_round_trip_exactly(tmp_path):
    b = jena_battle()
    awkward = [0.1 + 0.2, 1e-300, 5e-324, 1.7976931348623157e308, 1 / 3, -123456.78901234567]
    u = b.scenario.units["vedel"]
    b.scenario.units["vedel"] = replace(
        u, position=(awkward[0], awkward[4]), facing=awkward[5], attributes={"values": awkward}
    )
    store.save(b, tmp_path / "f.battle")
    back = store.load(tmp_path / "f.battle").scenario.units["vedel"]
    assert back.position == (awkward[0], awkward[4]) and back.facing == awkward[5]
    assert back.attributes["values"] == awkward
    assert all(a.hex() == b.hex() for a, b in zip(back.attributes["values"], awkward, strict=True))


def test_negative_zero_is_written_as_zero_in_both_formats(tmp_path):
    b = jena_battle()
    b.scenario.units["vedel"] = replace(b.scenario.units["vedel"], position=(-0.0, 60.0))
    store.save(b, tmp_path / "z.battle")
    store.save(store.load(tmp_path / "z.battle"), tmp_path / "z.battle.json")
    assert dumps(b) == (tmp_path / "z.battle.json").read_text(encoding="utf-8")
    assert '"position": [0.0, 60.0]' in dumps(b)
    assert math.copysign(1, store.load(tmp_path / "z.battle.json").scenario.units["vedel"].position[0]) == 1


def test_json_is_diff_friendly(jena):
    text = dumps(jena)
    doc = json.loads(text)
    assert list(doc)[:3] == ["format", "schema_version", "info"]
    for key in ("units", "commanders", "terrain", "towns", "sides"):
        ids = [r["id"] for r in doc[key]]
        assert ids == sorted(ids), key
    assert list(doc["units"][0])[:4] == ["id", "name", "side", "nation"]
    # one line per GeoJSON geometry and per event, so a change shows as a one-line diff
    assert '"geometry": {"type": "Point", "coordinates": [70.0, 13.75]},' in text
    assert sum(1 for line in text.splitlines() if line.strip().startswith('{"kind": ')) == len(jena.events)
    assert text.endswith("}\n") and "\r" not in text
    assert "Napoléon" in text  # UTF-8, not \\u escapes


def test_changing_one_unit_changes_one_line(jena):
    before = dumps(jena).splitlines()
    jena.scenario.units["vedel"] = replace(jena.scenario.units["vedel"], men=2350)
    after = dumps(jena).splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=False) if a != b]
    assert len(before) == len(after) and changed == [('      "men": 2400,', '      "men": 2350,')]


def test_oob_keeps_the_order_of_subordinates(tmp_path, jena):
    jena.scenario.oob = OrderOfBattle(
        [
            ("napoleon", "soult"),
            ("napoleon", "lannes"),
            ("lannes", "vedel"),
            ("lannes", "claparede"),
            ("lannes", "suchet-foot"),
            ("soult", "st-hilaire"),
            ("hohenlohe", "tauentzien"),
            ("tauentzien", "zweiffel"),
            ("tauentzien", "saxon-hussars"),
        ]
    )
    jena.scenario.oob.add_node("lonely-general")
    for name in ("o.battle", "o.battle.json"):
        back = store.load(tmp_path / name) if store.save(jena, tmp_path / name) is None else None
        assert back.scenario.oob.subordinates("napoleon") == ["soult", "lannes"]
        assert back.scenario.oob.subordinates("lannes") == ["vedel", "claparede", "suchet-foot"]
        assert "lonely-general" in back.scenario.oob and back.scenario.oob == jena.scenario.oob


def test_events_come_back_in_order_with_their_payloads(tmp_path, jena):
    store.save(jena, tmp_path / "e.battle")
    back = store.load(tmp_path / "e.battle").events
    assert back == jena.events
    assert [e.kind for e in back] == [e.kind for e in jena.events]


def test_empty_battle_round_trips(tmp_path):
    empty = (
        store.load(tmp_path / "n.battle")
        if store.save(jena_battle().__class__(), tmp_path / "n.battle") is None
        else None
    )
    assert empty.scenario.units == {} and empty.events == []
    assert dumps(empty) == dumps(jena_battle().__class__())


def test_unit_with_int_values_for_float_fields_is_stored_as_floats(tmp_path):
    b = jena_battle()
    b.scenario.units["x"] = Unit("x", "X", "french", position=(10, 20), facing=90)  # ints, as a user may type
    b.scenario.oob.add("lannes", "x")
    text = dumps(b)
    assert '"position": [10.0, 20.0]' in text
    store.save(b, tmp_path / "i.battle")
    assert dumps(store.load(tmp_path / "i.battle")) == text
