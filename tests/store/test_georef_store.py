"""A scenario's georeference (``info.georef``) in both file formats: kept exactly, refused when
bad with the file and the field named, absent from (and not needed by) older files."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace

import pytest

from battlestudio import store
from battlestudio.model.georef import Georeference
from battlestudio.replay.battle import Battle
from battlestudio.store import BattleFileError
from battlestudio.store.codec import SCHEMA_VERSION
from battlestudio.store.json_format import dumps

JENA_PLACE = Georeference(lon=11.4862370001, lat=50.9191230002, bearing=97.25)  # odd digits: exact round trip


def _placed(battle: Battle, georef: Georeference | None = JENA_PLACE) -> Battle:
    battle.scenario.info = replace(battle.scenario.info, georef=georef)
    return battle


def _meta_version(path) -> str:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    finally:
        con.close()


@pytest.mark.parametrize("first,second", [("a.battle", "b.battle.json"), ("a.battle.json", "b.battle")])
def test_the_georeference_survives_both_formats_exactly(tmp_path, jena, first, second):
    battle = _placed(jena)
    store.save(battle, tmp_path / first)
    once = store.load(tmp_path / first)
    store.save(once, tmp_path / second)
    twice = store.load(tmp_path / second)
    assert once.scenario.info.georef == twice.scenario.info.georef == JENA_PLACE
    assert twice.scenario.info == battle.scenario.info
    assert dumps(twice) == dumps(battle)


def test_a_georeferenced_file_is_schema_version_2(tmp_path, jena):
    battle = _placed(Battle(jena.scenario, []))  # no recorded game: no keyframes (version 4)
    doc = json.loads(dumps(battle))
    assert doc["schema_version"] == 2 < SCHEMA_VERSION  # without bookmarks: no newer than it needs
    assert doc["info"]["georef"] == {"lon": JENA_PLACE.lon, "lat": JENA_PLACE.lat, "bearing": 97.25}
    store.save(battle, tmp_path / "g.battle")
    assert _meta_version(tmp_path / "g.battle") == "2"
    con = sqlite3.connect(tmp_path / "g.battle")
    row = con.execute("SELECT georef_lon, georef_lat, georef_bearing FROM scenario_info").fetchone()
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    con.close()
    assert row == (JENA_PLACE.lon, JENA_PLACE.lat, 97.25)


def test_a_file_without_a_georeference_keeps_the_version_1_layout(tmp_path, jena):
    """So it still opens in a BattleStudio that reads only version 1."""
    jena = Battle(jena.scenario, [])  # a recorded game's keyframes would make it version 4
    doc = json.loads(dumps(jena))
    assert doc["schema_version"] == 1 and "georef" not in doc["info"]
    store.save(jena, tmp_path / "plain.battle")
    assert _meta_version(tmp_path / "plain.battle") == "1"
    assert store.load(tmp_path / "plain.battle").scenario.info.georef is None


def test_a_version_1_battle_file_without_the_columns_reads(tmp_path, jena):
    """A .battle file written before schema version 2 has no georef columns at all."""
    jena = Battle(jena.scenario, [])  # version 1 has no keyframe table either
    p = tmp_path / "old.battle"
    store.save(jena, p)
    con = sqlite3.connect(p)
    for column in ("georef_lon", "georef_lat", "georef_bearing"):
        con.execute(f"ALTER TABLE scenario_info DROP COLUMN {column}")
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()
    back = store.load(p)
    assert back.scenario.info == jena.scenario.info and back.scenario.info.georef is None
    assert back.events == jena.events
    store.save(_placed(back), p)  # saving it again writes the new layout
    assert store.load(p).scenario.info.georef == JENA_PLACE and _meta_version(p) == "2"


def test_the_bundled_files_carry_the_oldest_version_that_holds_them():
    from tests.scenarios.test_bundled_scenarios import FILES

    # 1 for a plain scenario, 2 with a georeference (Auerstedt), 3 for a recorded game with its
    # ruleset fingerprint (Jena, Leipzig)
    for path in FILES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        georef = store.load(path).scenario.info.georef
        assert doc["schema_version"] == (3 if "game" in doc else 2 if georef is not None else 1), path.name


@pytest.mark.parametrize(
    "georef,where,what",
    [
        ({"lon": 200.0, "lat": 50.9, "bearing": 90.0}, "info.georef.lon", "must be >= -180 and <= 180, got 200"),
        ({"lon": 11.5, "lat": -91, "bearing": 90.0}, "info.georef.lat", "must be >= -90 and <= 90, got -91"),
        ({"lon": 11.5, "lat": 50.9, "bearing": "east"}, "info.georef.bearing", 'expected a number, got "east"'),
        ({"lon": 11.5, "lat": 50.9}, "info.georef.bearing", "missing"),
        ({"lon": 11.5, "lat": 50.9, "bearing": 0, "zoom": 3}, "info.georef.zoom", "unknown part"),
        ([11.5, 50.9, 90.0], "info.georef", "expected"),
    ],
)
def test_a_bad_georeference_in_a_json_file_names_the_file_and_the_field(tmp_path, jena, georef, where, what):
    doc = json.loads(dumps(_placed(jena)))
    doc["info"]["georef"] = georef
    p = tmp_path / "bad.battle.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(BattleFileError) as info:
        store.load(p)
    assert str(info.value).startswith(f"{p}: {where}: {what}"), str(info.value)


@pytest.mark.parametrize(
    "update,where,what",
    [
        ("georef_lon = 181.5", "info.georef.lon", "must be >= -180 and <= 180, got 181.5"),
        ("georef_lat = NULL", "info.georef.lat", "expected a number, got null"),
        ("georef_bearing = 'north'", "info.georef.bearing", 'expected a number, got "north"'),
    ],
)
def test_a_bad_georeference_in_a_battle_file_names_the_file_and_the_field(tmp_path, jena, update, where, what):
    p = tmp_path / "bad.battle"
    store.save(_placed(jena), p)
    con = sqlite3.connect(p)
    con.execute(f"UPDATE scenario_info SET {update}")
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()
    with pytest.raises(BattleFileError) as info:
        store.load(p)
    assert str(info.value) == f"{p}: {where}: {what}"


def test_a_non_finite_georeference_is_not_saved(tmp_path, jena):
    battle = _placed(jena)
    object.__setattr__(battle.scenario.info.georef, "bearing", float("nan"))  # past the model's own check
    for name in ("n.battle", "n.battle.json"):
        with pytest.raises(BattleFileError, match=r"info\.georef\.bearing: expected a finite number"):
            store.save(battle, tmp_path / name)
        assert not (tmp_path / name).exists()
