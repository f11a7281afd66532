"""ORBAT Mapper interchange: importing its scenario files (ORBAT Mapper's own fixtures in
``tests/data/orbat-mapper``, and a scenario built on one of them with the timed state its demos
use), and exporting the bundled Jena 1806 with its recorded 40-turn game, checked against the
transcribed schema and read back."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point, shape

from battlestudio import store
from battlestudio.model.georef import Georeference, from_lonlat
from battlestudio.model.units import Arm
from battlestudio.replay.events import (
    Annotation,
    Moved,
    OrderStateChanged,
    ReinforcementArrived,
    UnitRemoved,
)
from battlestudio.replay.game import GameLog
from battlestudio.replay.order_events import Attached
from battlestudio.store.importers import OobImportError, import_oob
from battlestudio.store.importers.orbat_mapper import (
    derive_georef,
    import_orbat_mapper,
    import_orbat_mapper_data,
)
from battlestudio.store.importers.orbat_mapper_read import OrbatMapperError, count_units
from battlestudio.store.importers.orbat_mapper_sidc import build_sidc, parse_sidc
from battlestudio.store.orbat_mapper_export import (
    OrbatMapperExportError,
    SchemaError,
    export_orbat_mapper,
    schema_errors,
    write_orbat_mapper,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "orbat-mapper"
JENA = Path(__file__).resolve().parents[3] / "scenarios" / "jena-1806.battle.json"
ISSUE663 = DATA / "issue663Scenario.json"
JENA_GEOREF = Georeference(11.40, 50.90, 90.0)
"""Jena's table origin: the south-west corner of the ground from Kapellendorf to the Landgrafenberg."""


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


# -- ORBAT Mapper's own files -----------------------------------------------------------------
def test_issue663_fixture_imports_every_unit_with_its_strength_place_and_event():
    res = import_orbat_mapper(ISSUE663)
    sc = res.scenario
    assert res.units_in == count_units(load("issue663Scenario.json")) == 3
    assert len(sc.units) + len(sc.commanders) == res.units_in
    hq = sc.commanders["artillery-battalion"]
    assert hq.echelon == "brigade" and hq.name == "1st Artillery Battalion"
    assert any("battalion headquarters; commands as a brigade" in w.message for w in res.warnings)
    alpha, bravo = sc.units["alpha-battery"], sc.units["bravo-battery"]
    assert alpha.arm is bravo.arm is Arm.ARTILLERY and alpha.guns == bravo.guns == 12
    assert alpha.attributes["orbat_mapper.shortName"] == "A BTY" and alpha.attributes["echelon"] == "company"
    assert sc.oob.subordinates("artillery-battalion") == ["alpha-battery", "bravo-battery"]
    # 10.7°E and 10.8°E at 59.89°N lie 5.58 km apart: 186 cm at 30 m/cm, and the file's places
    # map back through the georeference the import derived
    assert math.dist(alpha.position, bravo.position) == pytest.approx(5_585 / 30, rel=0.01)
    back = from_lonlat(res.georef, 30.0, [(10.7, 59.89)])[0]
    assert math.dist(back, alpha.position) < 0.01
    for rec in (alpha, bravo, hq):
        assert 0 < rec.position[0] < sc.info.table_width and 0 < rec.position[1] < sc.info.table_height
    # the scenario event at 10:00, two hours after the 08:00 start: the end of turn 8
    notes = [e for e in res.events if isinstance(e, Annotation)]
    assert [(e.turn, e.title, e.ids) for e in notes] == [
        (8, "Battery availability reduced to 25%", ("alpha-battery", "bravo-battery"))
    ]
    assert sc.info.turns == 8 and sc.info.first_turn == "08:00" and sc.info.date == "2026-08-08"
    assert sum("TO&E change" in w.message for w in res.warnings) == 2
    GameLog.from_battle(res.battle())


def test_the_transcribed_schema_is_itself_a_valid_json_schema():
    from jsonschema import Draft202012Validator

    from battlestudio.store.orbat_mapper_export import orbat_mapper_schema

    Draft202012Validator.check_schema(orbat_mapper_schema())  # raises SchemaError naming the bad keyword


def test_orbat_mappers_own_fixtures_satisfy_the_transcribed_schema():
    for name in ("issue663Scenario.json", "controlMeasureScenario.json"):
        assert schema_errors(load(name)) == [], name


def test_a_scenario_of_drawings_only_imports_nothing_and_says_so(tmp_path):
    with pytest.raises(OobImportError, match="nothing imported"):
        import_oob([DATA / "controlMeasureScenario.json"], "orbat-mapper")


def test_an_old_version_is_refused_naming_it(tmp_path):
    older = load("narvik40-0.6.0.json") | {"version": "0.4.0"}  # below the versions upgraded
    with pytest.raises(OrbatMapperError, match=r"\$\.version: version '0\.4\.0' is not read \(written by an older"):
        import_orbat_mapper_data(older)
    newer = load("issue663Scenario.json") | {"version": "9.0.0"}
    with pytest.raises(OrbatMapperError, match="'9.0.0' is not read .newer than this importer knows"):
        import_orbat_mapper_data(newer)


# -- a scenario with the timed state ORBAT Mapper's demos use ---------------------------------
def _campaign() -> dict[str, Any]:
    """ORBAT Mapper's issue-663 fixture with a hostile side added: an infantry battalion that
    marches by two waypoints, is disordered and sent under another command; a cavalry
    squadron first placed three hours in; a company taken off the map; a frigate (no land
    unit); a battery whose symbol turns to destroyed; a status-only and a titled entry."""
    doc = load("issue663Scenario.json")
    base = "2026-08-08T"
    doc["sides"].append(
        {
            "id": "red-side",
            "name": "Red force",
            "standardIdentity": "6",
            "groups": [
                {
                    "id": "red-units",
                    "name": "Red units",
                    "subUnits": [
                        {
                            "id": "red-bde",
                            "name": "12th Motor Rifle Brigade",
                            "sidc": "10061000181211000000",
                            "location": [10.9, 59.95],
                            "subUnits": [
                                {
                                    "id": "red-1-bn",
                                    "name": "1st Battalion",
                                    "shortName": "1 BN",
                                    "sidc": "10061000161211000000",
                                    "location": [10.9, 59.96],
                                    "personnel": [{"name": "Personnel", "count": 500, "onHand": 450}],
                                    "state": [
                                        {
                                            "id": "s1",
                                            "t": base + "08:40:00Z",
                                            "location": [10.85, 59.93],
                                            "via": [[10.89, 59.955], [10.87, 59.94]],
                                        },
                                        {"id": "s2", "t": base + "09:10:00Z", "status": "U"},
                                        {"id": "s3", "t": base + "09:20:00Z", "title": "Holds the crossroads"},
                                        {
                                            "id": "s4",
                                            "t": base + "09:30:00Z",
                                            "hierarchy": {"targetId": "red-2-bde", "placement": "on"},
                                        },
                                    ],
                                },
                                {
                                    "id": "red-recce",
                                    "name": "Reconnaissance Squadron",
                                    "sidc": "10061000151213000000",
                                    "personnel": [{"name": "Personnel", "count": 120}],
                                    "state": [{"id": "r1", "t": base + "11:00:00Z", "location": [10.95, 59.97]}],
                                },
                                {
                                    "id": "red-coy",
                                    "name": "Engineer Company",
                                    "sidc": "10061000151407000000",
                                    "location": [10.92, 59.95],
                                    "state": [
                                        {"id": "c1", "t": base + "09:00:00Z", "location": None},
                                        {"id": "c2", "t": base + "09:30:00Z", "status": "Degraded"},
                                    ],
                                },
                                {
                                    "id": "red-battery",
                                    "name": "Howitzer Battery",
                                    "sidc": "10061000151303000000",
                                    "location": [10.91, 59.94],
                                    "equipment": [{"name": "122 mm howitzer", "count": 6}],
                                    "state": [{"id": "b1", "t": base + "10:00:00Z", "sidc": "10061040151303000000"}],
                                },
                            ],
                        },
                        {
                            "id": "red-2-bde",
                            "name": "14th Motor Rifle Brigade",
                            "sidc": "10061000181211000000",
                            "location": [10.8, 59.97],
                            "subUnits": [
                                {
                                    "id": "red-frigate",
                                    "name": "Frigate Neustrashimy",
                                    "sidc": "10063000001202040000",
                                    "location": [10.6, 59.9],
                                }
                            ],
                        },
                    ],
                }
            ],
        }
    )
    doc["events"].append(
        {
            "id": "landing",
            "title": "Landing at the harbour",
            "startTime": base + "09:05:00Z",
            "where": {"type": "geometry", "geometry": {"type": "Point", "coordinates": [10.75, 59.9]}},
        }
    )
    return doc


def test_a_campaigns_timed_state_becomes_a_replayable_game_turn_by_turn():
    doc = _campaign()
    assert schema_errors(doc) == []  # what we built is a valid ORBAT Mapper 3.4.0 scenario
    res = import_orbat_mapper_data(doc, "campaign.json")
    sc = res.scenario
    # every unit accounted for: each is a unit or a commander, and each one the model cannot
    # give an arm (an engineer company, a frigate) has a warning naming it
    assert res.units_in == count_units(doc) == 10 == len(sc.units) + len(sc.commanders)
    other = {uid for uid, u in sc.units.items() if u.arm is Arm.OTHER}
    assert other == {"red-coy", "red-frigate"}
    for uid in other:
        name = doc_name(doc, uid)
        assert any(name in w.message and w.severity == "warning" for w in res.warnings), uid
    assert sc.units["red-1-bn"].men == 450 and sc.units["red-recce"].arm is Arm.CAVALRY
    assert sc.commanders["red-bde"].echelon == "brigade" and sc.units["red-battery"].guns == 6
    assert sc.sides["red-side"].name == "Red force"
    by_kind: dict[type, list[Any]] = {}
    for e in res.events:
        by_kind.setdefault(type(e), []).append(e)
    # 08:40 is in turn 3 (08:30–08:45); the path runs through the two waypoints to the place
    (move,) = by_kind[Moved]
    assert move.turn == 3 and move.id == "red-1-bn" and len(move.path) == 3
    assert math.dist(move.path[-1], tuple(from_lonlat(res.georef, 30.0, [(10.85, 59.93)])[0])) < 0.01
    # first placed at 11:00: a reinforcement arriving in turn 12, off the table until then
    (arrival,) = by_kind[ReinforcementArrived]
    assert arrival.turn == 12 and arrival.arrivals[0][0] == "red-recce"
    assert sc.reinforcements[arrival.reinforcement].formation == "red-recce"
    (gone,) = by_kind[UnitRemoved]
    assert (gone.turn, gone.id) == (4, "red-coy")
    assert any("after the unit left the map" in w.message for w in res.warnings)  # its later status
    states = [(e.turn, e.unit, e.state) for e in by_kind[OrderStateChanged]]
    assert states == [(5, "red-1-bn", "U"), (8, "red-battery", "eliminated")]  # 09:10 is in 09:00–09:15
    (attach,) = by_kind[Attached]
    assert (attach.turn, attach.node, attach.superior) == (6, "red-1-bn", "red-2-bde")
    titles = {(e.turn, e.title) for e in by_kind[Annotation]}
    assert {(6, "Holds the crossroads"), (5, "Landing at the harbour")} <= titles
    landing = next(e for e in by_kind[Annotation] if e.title == "Landing at the harbour")
    assert landing.at is not None and 0 < landing.at[0] < sc.info.table_width
    # replay turn by turn
    log = GameLog.from_battle(res.battle())
    assert log.turns() == [3, 4, 5, 6, 8, 12]
    start = log.initial
    assert "red-recce" in start.off_table and "red-coy" in start.units
    end = log.head
    assert "red-recce" not in end.off_table and "red-coy" not in end.units
    assert end.units["red-1-bn"].state == "U" and end.oob.superior("red-1-bn") == "red-2-bde"
    assert end.units["red-battery"].state == "eliminated"


def doc_name(doc: dict[str, Any], uid: str) -> str:
    def walk(units: list[dict[str, Any]]) -> str | None:
        for u in units:
            if u["id"] == uid:
                return str(u["name"])
            found = walk(u.get("subUnits", []))
            if found:
                return found
        return None

    for side in doc["sides"]:
        for g in side["groups"]:
            found = walk(g["subUnits"])
            if found:
                return found
    raise KeyError(uid)


def test_the_clock_is_the_users_choice():
    doc = _campaign()
    res = import_orbat_mapper_data(doc, turn_minutes=30, start="2026-08-08T08:30:00+00:00")
    move = next(e for e in res.events if isinstance(e, Moved))
    assert move.turn == 1  # 08:40 lies in 08:30–09:00
    arrival = next(e for e in res.events if isinstance(e, ReinforcementArrived))
    assert arrival.turn == 5  # 11:00 ends the fifth half hour after 08:30
    assert res.scenario.info.turn_minutes == 30 and res.scenario.info.first_turn == "08:30"


def test_a_given_georeference_places_the_units():
    georef = Georeference(10.6, 59.85, 0.0)  # +x points north, +y west
    res = import_orbat_mapper(ISSUE663, georef)
    alpha = res.scenario.units["alpha-battery"]
    x, y = alpha.position
    assert x == pytest.approx((59.89 - 59.85) * 111_300 / 30, rel=0.01) and y < 0
    assert res.georef == georef


def test_derived_georeference_puts_every_place_on_the_table_with_a_margin():
    places = [(-57.88, -51.70), (-36.49, -54.28), (-58.99, -51.8)]  # Stanley, Grytviken, Goose Green
    georef, width, height = derive_georef(places, 30.0)
    xy = from_lonlat(georef, 30.0, places)
    assert georef.bearing == 90.0
    assert (xy[:, 0] > 0).all() and (xy[:, 1] > 0).all()
    assert (xy[:, 0] < width).all() and (xy[:, 1] < height).all()


# -- bad input -----------------------------------------------------------------------------------
def _unit0(doc: dict[str, Any]) -> dict[str, Any]:
    unit: dict[str, Any] = doc["sides"][0]["groups"][0]["subUnits"][0]
    return unit


@pytest.mark.parametrize(
    ("spoil", "where", "what"),
    [
        (lambda d: _unit0(d).pop("id"), "$.sides[0].groups[0].subUnits[0].id", "missing"),
        (
            lambda d: _unit0(d)["subUnits"][1].update(id="alpha-battery"),
            "$.sides[0].groups[0].subUnits[0].subUnits[1].id",
            "used twice",
        ),
        (
            lambda d: _unit0(d)["subUnits"][0]["subUnits"].append(copy.deepcopy(_unit0(d))),
            "$.sides[0].groups[0].subUnits[0].subUnits[0].subUnits[0].id",
            "nested inside itself",
        ),
        (lambda d: d["sides"][0].pop("id"), "$.sides[0].id", "missing"),
        (
            lambda d: _unit0(d)["subUnits"][0]["state"][0].update(t="at dawn"),
            "$.sides[0].groups[0].subUnits[0].subUnits[0].state[0].t",
            "is not a time",
        ),
        (lambda d: _unit0(d).update(location=[10.7, 95.0]), "$.sides[0].groups[0].subUnits[0].location", "not a place"),
        (lambda d: d.update(type="something-else"), "$.type", "not an ORBAT Mapper scenario"),
        (lambda d: d.update(sides={}), "$.sides", "must be a list"),
    ],
)
def test_bad_input_names_the_field(spoil, where, what):
    doc = load("issue663Scenario.json")
    spoil(doc)
    with pytest.raises(OrbatMapperError) as err:
        import_orbat_mapper_data(doc, "bad.json")
    assert err.value.path == where and what in str(err.value) and str(err.value).startswith("bad.json: ")


def test_places_without_a_georeference_are_refused_when_none_may_be_derived():
    with pytest.raises(OrbatMapperError) as err:
        import_orbat_mapper(ISSUE663, derive=False)
    assert err.value.path == "$.sides[0].groups[0].subUnits[0].location" and "--georef" in str(err.value)


def test_cli_import_writes_the_game_and_bad_input_writes_nothing(tmp_path, capsys):
    from battlestudio.cli import main

    out = tmp_path / "campaign.battle.json"
    src = tmp_path / "campaign.json"
    src.write_text(json.dumps(_campaign()), encoding="utf-8")
    assert main(["import-oob", str(src), "--format", "orbat-mapper", "--turn-minutes", "15", "--out", str(out)]) == 0
    cap = capsys.readouterr()
    assert "recorded game: " in cap.out and "imported with arm 'other'" in cap.err
    battle = store.load(out)
    assert len(battle.scenario.units) + len(battle.scenario.commanders) == 10 and battle.turns_logged == 12
    old = tmp_path / "narvik.battle.json"
    older = tmp_path / "narvik-0.4.0.json"
    older.write_text(json.dumps(load("narvik40-0.6.0.json") | {"version": "0.4.0"}), encoding="utf-8")
    assert main(["import-oob", str(older), "--format", "orbat-mapper", "--out", str(old)]) == 1
    assert "$.version: version '0.4.0' is not read" in capsys.readouterr().err and not old.exists()
    upgraded = tmp_path / "narvik-0.6.0.battle.json"
    assert (
        main(["import-oob", str(DATA / "narvik40-0.6.0.json"), "--format", "orbat-mapper", "--out", str(upgraded)]) == 0
    )
    assert "format version 0.6.0 upgraded to 3.2.0" in capsys.readouterr().err
    narvik = store.load(upgraded).scenario
    assert len(narvik.units) + len(narvik.commanders) == 21
    assert main(["import-oob", str(ISSUE663), "--format", "csv", "--georef", "10,59", "--out", str(old)]) == 2
    assert main(["import-oob", str(ISSUE663), "--format", "orbat-mapper", "--georef", "10", "--out", str(old)]) == 2
    assert not old.exists()


# -- export ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def jena():
    return store.load(JENA)


@pytest.fixture(scope="module")
def jena_doc(jena):
    return export_orbat_mapper(jena, JENA_GEOREF)


def _walk_units(doc: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def walk(units: list[dict[str, Any]]) -> None:
        for u in units:
            out.append(u)
            walk(u.get("subUnits", []))

    for side in doc["sides"]:
        walk(side.get("subUnits", []))
        for g in side["groups"]:
            walk(g["subUnits"])
    return out


def test_jena_exported_satisfies_the_schema_and_carries_the_whole_order_of_battle(jena, jena_doc):
    assert schema_errors(jena_doc) == []
    units = {u["id"]: u for u in _walk_units(jena_doc)}
    sc = jena.scenario
    assert set(units) == set(sc.units) | set(sc.commanders)
    assert [s["standardIdentity"] for s in jena_doc["sides"]] == ["3", "6"]
    for uid, u in units.items():
        code = parse_sidc(u["sidc"])
        assert code is not None and code.is_land_unit
        if uid in sc.commanders:
            assert code.is_headquarters
            assert {"corps": "22", "division": "21", "brigade": "18", "c_in_c": "24"}[
                sc.commanders[uid].echelon
            ] == code.echelon
        else:
            assert code.arm is sc.units[uid].arm
    napoleon = units["french-imperial-guard"]
    assert {c["id"] for c in napoleon["subUnits"]} == set(sc.oob.subordinates("french-imperial-guard"))
    assert units["french-100e-ligne"]["personnel"] == [{"name": "Men", "count": 1800}]


def test_jena_exported_has_a_state_entry_at_the_end_of_every_turn_a_unit_moved(jena, jena_doc):
    units = {u["id"]: u for u in _walk_units(jena_doc)}
    lannes = units["french-v-corps"]  # rides forward in turn 1 (06:00–06:15)
    first = lannes["state"][0]
    assert first["t"] == "1806-10-14T06:15:00Z" and first["id"] == "french-v-corps-t1"
    assert jena_doc["startTime"] == "1806-10-14T06:00:00Z"
    times = {e["t"] for u in units.values() for e in u["state"]}
    assert max(times) == "1806-10-14T16:00:00Z"  # the end of turn 40
    # reinforcements have no place until they arrive
    log_start = GameLog.from_battle(jena).initial
    for uid in log_start.off_table:
        assert "location" not in units[uid]
    # eliminations and the umpire's notes are scenario events
    titles = [e["title"] for e in jena_doc["events"]]
    assert sum(t.endswith(" eliminated") for t in titles) == sum(
        1 for e in jena.events if isinstance(e, OrderStateChanged) and e.state == "eliminated"
    )
    assert "Fog on the Landgrafenberg" in titles


def test_jena_exported_draws_terrain_towns_and_objectives_on_the_map(jena, jena_doc):
    (layer,) = jena_doc["layerStack"]
    items = layer["items"]
    kinds = [i["userData"]["battlestudio"]["kind"] for i in items]
    sc = jena.scenario
    assert kinds.count("terrain") == len(sc.terrain) and kinds.count("town") == len(sc.towns)
    assert kinds.count("objective") == len(sc.objectives) and kinds[0] == "table"
    table = shape(items[0]["geometry"])
    closewitz = next(i for i in items if i["name"] == "Closewitz" and i["userData"]["battlestudio"]["kind"] == "town")
    assert table.contains(shape(closewitz["geometry"]))
    # 480 cm at 30 m/cm is 14.4 km: 0.205° of longitude at 50.9°N
    assert table.contains(Point(11.60, 50.95)) and not table.contains(Point(11.61, 50.95))


def test_jena_round_trip_gives_the_same_order_of_battle_and_places_at_every_turn(jena, jena_doc, tmp_path):
    path = tmp_path / "jena.json"
    path.write_text(json.dumps(jena_doc), encoding="utf-8")
    res = import_orbat_mapper(path)  # the georeference comes back from the table outline
    assert res.georef == JENA_GEOREF and res.problems() == []
    sc, orig = res.scenario, jena.scenario
    assert sc.oob == orig.oob and set(sc.units) == set(orig.units) and set(sc.commanders) == set(orig.commanders)
    assert all(sc.commanders[c].echelon == orig.commanders[c].echelon for c in orig.commanders)
    assert all(sc.units[u].arm is orig.units[u].arm for u in orig.units)
    a, b = GameLog.from_battle(jena), GameLog.from_battle(res.battle())
    ends_a, ends_b = _ends(jena.events), _ends(res.events)
    assert sorted(ends_a) == sorted(ends_b) == list(range(41))
    worst = 0.0
    for turn in range(41):
        sa, sb = a.state_at(ends_a[turn]), b.state_at(ends_b[turn])
        on_a, on_b = _on_table(sa), _on_table(sb)
        assert set(on_a) == set(on_b), turn
        worst = max([worst, *(math.dist(on_a[i], on_b[i]) for i in on_a)])
        assert {u: r.state for u, r in sa.units.items()} == {u: r.state for u, r in sb.units.items()}, turn
    assert worst < 1.0


def _ends(events: list[Any]) -> dict[int, int]:
    out = {0: 0}
    for i, e in enumerate(events):
        out[e.turn] = i + 1
    return out


def _on_table(state: Any) -> dict[str, tuple[float, float]]:
    recs = {**dict(state.units.items()), **dict(state.commanders.items())}
    return {i: r.position for i, r in recs.items() if i not in state.off_table}


def test_the_schema_catches_a_misspelt_field_and_nothing_is_written(jena, jena_doc, tmp_path, monkeypatch):
    bad = copy.deepcopy(jena_doc)
    bad["sides"][0]["groups"][0]["subUnits"][0]["nmae"] = "Napoleon"
    bad["sides"][1]["groups"][0]["subUnits"][0]["state"][0]["t"] = None
    errors = schema_errors(bad)
    assert any(e.startswith("$.sides[0].groups[0].subUnits[0]: Additional properties") for e in errors)
    assert any(e.startswith("$.sides[1].groups[0].subUnits[0].state[0].t:") for e in errors)
    import battlestudio.store.orbat_mapper_export as exp

    monkeypatch.setattr(exp, "export_orbat_mapper", lambda *a, **k: bad)
    out = tmp_path / "bad.json"
    with pytest.raises(SchemaError):
        write_orbat_mapper(jena, out, JENA_GEOREF)
    assert not out.exists()


def test_export_needs_a_georeference_and_says_which_field(jena, tmp_path, capsys):
    with pytest.raises(OrbatMapperExportError, match="^georef: the scenario has no georeference"):
        export_orbat_mapper(jena)
    from battlestudio.cli import main

    out = tmp_path / "jena.json"
    assert main(["export", str(JENA), "--format", "orbat-mapper", "--out", str(out)]) == 1
    assert "georef: the scenario has no georeference" in capsys.readouterr().err and not out.exists()
    assert main(["export", str(JENA), "--format", "orbat-mapper", "--out", str(out), "--georef", "11.4,50.9"]) == 0
    assert schema_errors(json.loads(out.read_text(encoding="utf-8"))) == []


def test_sidc_codes_round_trip():
    code = build_sidc("6", "121300", "16")
    parsed = parse_sidc(code)
    assert parsed is not None
    assert (parsed.identity, parsed.arm, parsed.echelon_name, parsed.is_headquarters) == (
        "6",
        Arm.CAVALRY,
        "battalion",
        False,
    )
    hq = parse_sidc(build_sidc("3", "121000", "22", hq=True))
    assert hq is not None and hq.is_headquarters and hq.arm is None and hq.echelon_name == "corps"
    assert parse_sidc("SFGPUCI----") is None  # a letter SIDC is not read


def test_an_imported_scenario_exports_back_with_its_ids_symbols_groups_and_places(tmp_path):
    res = import_orbat_mapper(ISSUE663)
    saved = tmp_path / "issue663.battle"  # through the SQLite file and back
    store.save(res.battle(), saved)
    doc = export_orbat_mapper(store.load(saved))  # georeference and clock kept from the import
    assert schema_errors(doc) == []
    src = load("issue663Scenario.json")
    assert doc["startTime"] == "2026-08-08T08:00:00Z"
    (side,) = doc["sides"]
    assert (side["id"], side["standardIdentity"], side["groups"][0]["id"]) == ("blue-side", "3", "blue-units")
    out = {u["id"]: u for u in _walk_units(doc)}
    for u in _walk_units(src):
        assert out[u["id"]]["sidc"] == u["sidc"] and out[u["id"]]["name"] == u["name"]
        assert out[u["id"]]["location"] == pytest.approx(u["location"], abs=1e-6)
    assert [e["title"] for e in doc["events"]] == [e["title"] for e in src["events"]]
