"""ORBAT Mapper files of older format versions upgraded on import: ORBAT Mapper's own demo
scenarios as its repository held them at 0.5.0 (falkland82) and 0.6.0 (narvik40), every unit
accounted for and their timed state replayed; versions whose differences are not known refused."""

from __future__ import annotations

import copy
import json
import math
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from battlestudio.model.georef import from_lonlat
from battlestudio.model.units import Arm
from battlestudio.replay.events import Annotation, Moved, ReinforcementArrived, UnitRemoved
from battlestudio.replay.game import GameLog
from battlestudio.store.importers.orbat_mapper import import_orbat_mapper, import_orbat_mapper_data
from battlestudio.store.importers.orbat_mapper_read import OrbatMapperError

DATA = Path(__file__).resolve().parents[2] / "data" / "orbat-mapper"
NARVIK = DATA / "narvik40-0.6.0.json"
FALKLAND = DATA / "falkland82-0.5.0.json"
DAY = 24 * 60


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def file_units(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Every unit in the file as written: a group's ``units`` (0.5.0) or ``subUnits``, recursively."""
    out: list[dict[str, Any]] = []

    def walk(units: list[dict[str, Any]]) -> None:
        for u in units:
            out.append(u)
            walk(u.get("subUnits") or [])

    for side in doc["sides"]:
        walk(side.get("subUnits") or [])
        for g in side.get("groups") or []:
            walk(g.get("units") or g.get("subUnits") or [])
    return out


def when(t: int | str) -> datetime:
    return datetime.fromtimestamp(t / 1000, tz=UTC) if isinstance(t, int) else datetime.fromisoformat(t)


def last_places(doc: dict[str, Any]) -> dict[str, tuple[float, float] | None]:
    """Each unit's last place in the file (None: taken off the map), for units the file places."""
    out: dict[str, tuple[float, float] | None] = {}
    for u in file_units(doc):
        state = sorted(u.get("state") or [], key=lambda s: when(s["t"]))
        if state and "location" in state[-1]:
            loc = state[-1]["location"]
            out[u["id"]] = (loc[0], loc[1]) if loc is not None else None
        elif u.get("location") is not None:
            out[u["id"]] = (u["location"][0], u["location"][1])
    return out


def assert_replays_to_last_places(path: Path, turn_minutes: int) -> GameLog:
    """Every unit accounted for, and at the last turn each placed unit stands at its last place
    in the file through the georeference (within 1 cm), each one taken off the map is gone."""
    doc = load(path)
    res = import_orbat_mapper(path, turn_minutes=turn_minutes)
    sc = res.scenario
    units = file_units(doc)
    assert res.units_in == len(units) == len(sc.units) + len(sc.commanders)
    assert {u["id"] for u in units} == set(sc.units) | set(sc.commanders)
    others = [u for u in sc.units.values() if u.arm is Arm.OTHER]
    unmapped = [w for w in res.warnings if "imported with arm 'other'" in w.message]
    assert len(unmapped) == len(others) and all(any(repr(u.name) in w.message for w in unmapped) for u in others)
    assert any(w.message.startswith(f"format version {doc['version']} upgraded to 3.2.0") for w in res.warnings)
    log = GameLog.from_battle(res.battle())
    head = log.head
    assert res.georef is not None
    scale = sc.info.ground_scale
    placed = last_places(doc)
    assert placed
    for uid, lonlat in placed.items():
        rec = head.units.get(uid) or head.commanders.get(uid)
        if lonlat is None:
            assert rec is None, uid
            continue
        assert rec is not None and uid not in head.off_table, uid
        want = from_lonlat(res.georef, scale, [lonlat])[0]
        assert math.dist(rec.position, want) < 1.0, uid
    return log


def test_narvik40_at_0_6_0_imports_every_unit_and_replays_to_its_places():
    log = assert_replays_to_last_places(NARVIK, 15)
    res = import_orbat_mapper(NARVIK)
    sc = res.scenario
    assert res.units_in == 21 and len(sc.commanders) == 2 and len(sc.units) == 19
    # every state entry of this early Narvik is at the start time: the deployment, no moves
    assert res.events == [] and log.turns() == []
    assert sc.commanders["84T0TIJw3uzI4owhauV57"].name == "Naval units"
    assert sc.oob.subordinates("4jUDHDPiJn")[:2] == ["bpM1qg1xEY", "YogCVYqEEF"]
    assert sc.units["RjhMI5jVDqdnozd9CWF2c"].attributes["orbat_mapper.shortName"] == "Hardy"


def test_falkland82_at_0_5_0_imports_every_unit_and_replays_its_timed_moves():
    log = assert_replays_to_last_places(FALKLAND, DAY)
    res = import_orbat_mapper(FALKLAND, turn_minutes=DAY)
    sc = res.scenario
    doc = load(FALKLAND)
    assert len(file_units(doc)) == 90 and sum(len(u.get("state") or []) for u in file_units(doc)) == 29
    # the game starts at startTime (epoch ms, 1 April 1982 00:00 UTC) in one-day turns
    assert res.start == datetime(1982, 4, 1, tzinfo=UTC) and sc.info.turns == 56
    # the 0.5.0 group's ``units`` became the order of battle under it
    cdo = sc.oob.subordinates("yeyNm2QTCh_yivrfpnv0N")
    assert cdo[:3] == ["u0xGEGuOLzIcIirsioK0h", "xcEG3htG0iZEuisD9IhGY", "0fm4O5tSvrVwjnv9~6ECy"]
    assert sc.units["IZI2tUkYvhmVxShmC8~n~"].arm is Arm.INFANTRY
    assert sc.units["5yU8AvSZGcNDLjGpCZJJC"].arm is Arm.ARTILLERY
    kinds = {type(e) for e in res.events}
    assert {Moved, UnitRemoved, ReinforcementArrived, Annotation} <= kinds
    # NP A lands on 2 April at 18:00 local (turn 2), moves a day later and leaves the map the next
    npa = [(e.turn, type(e).__name__) for e in res.events if "mFFoHYTQvBP_MJIJ9Trlb" in _ids(e)]
    assert npa == [(2, "ReinforcementArrived"), (3, "Moved"), (4, "UnitRemoved")]
    notes = [(e.turn, e.title) for e in res.events if isinstance(e, Annotation) and not e.ids]
    assert notes == [
        (1, 'Operation "Rosario"'),  # at the start: shown in the first turn
        (2, "South Georgia invasion"),
        (31, 'Sinking of "General Belgrano"'),
        (56, "Battle of Goose Green"),
    ]
    assert max(log.turns()) == 56


def _ids(e: Any) -> tuple[str, ...]:
    """The units an event moves, brings on or takes off."""
    if isinstance(e, ReinforcementArrived):
        return tuple(a[0] for a in e.arrivals)
    return (e.id,) if isinstance(e, (Moved, UnitRemoved)) else ()


def test_the_upgrade_leaves_the_document_it_was_given_unchanged():
    doc = load(FALKLAND)
    before = copy.deepcopy(doc)
    import_orbat_mapper_data(doc, "falkland82.json", turn_minutes=DAY)
    assert doc == before


@pytest.mark.parametrize("version", ["0.4.0", "0.7.0", "3.1.0"])
def test_versions_whose_differences_are_not_known_are_refused_naming_them(version):
    doc = load(NARVIK) | {"version": version}
    with pytest.raises(OrbatMapperError, match=rf"\$\.version: version '{version}' is not read \(written by an older"):
        import_orbat_mapper_data(doc, "old.json")
    with pytest.raises(OrbatMapperError, match="upgraded: 0.5.0, 0.6.0"):
        import_orbat_mapper_data(doc, "old.json")


def test_a_0_5_0_group_whose_units_are_not_a_list_is_refused_naming_the_field():
    doc = load(FALKLAND)
    doc["sides"][1]["groups"][2]["units"] = {"id": "x"}
    with pytest.raises(OrbatMapperError) as err:
        import_orbat_mapper_data(doc, "bad.json")
    assert err.value.path == "$.sides[1].groups[2].units" and "must be a list, not an object" in str(err.value)
