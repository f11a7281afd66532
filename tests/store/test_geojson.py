"""GeoJSON export of the bundled Jena 1806 (with its recorded game), read back as a GIS would:
shapely for the geometries, pyproj for the coordinates (WGS84 when georeferenced, the stated
local CRS in cm when not)."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
import shapely
from pyproj import CRS, Geod
from shapely.geometry import shape

from battlestudio import store
from battlestudio.model.georef import Georeference
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.session.text import position_at
from battlestudio.store.geojson import TABLE_CRS_WKT, export_geojson, feature_collection

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"
PLACE = Georeference(lon=11.48, lat=50.88, bearing=80.0)  # the table's south-west corner, turned 10° off east
GEOD = Geod(ellps="WGS84")


@pytest.fixture(scope="module")
def jena() -> Battle:
    return store.load(JENA)


@pytest.fixture(scope="module")
def log(jena) -> GameLog:
    return GameLog.from_battle(jena)


def _on_table(state, kind: str) -> dict:
    return {k: v for k, v in getattr(state, kind).items() if k not in state.off_table}


def _read(path: Path) -> dict:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["type"] == "FeatureCollection"
    return doc


def _originals(jena: Battle, state) -> dict[str, shapely.Geometry]:
    sc = jena.scenario
    out = {k: t.geometry for k, t in sc.terrain.items()}
    out |= {k: z.polygon for k, z in sc.towns.items()}
    out |= {k: o.geometry for k, o in sc.objectives.items()}
    out |= {k: d.polygon for k, d in sc.deployment_zones.items()}
    out |= {k: u.footprint() for k, u in _on_table(state, "units").items()}
    out |= {k: shapely.Point(c.position) for k, c in _on_table(state, "commanders").items()}
    return out


def _check_features(doc: dict, jena: Battle, state) -> None:
    """Every feature valid, one per record, the properties a map needs."""
    sc = jena.scenario
    kinds = Counter(f["properties"]["kind"] for f in doc["features"])
    assert kinds == {
        "terrain": len(sc.terrain),
        "town": len(sc.towns),
        "objective": len(sc.objectives),
        "deployment_zone": len(sc.deployment_zones),
        "unit": len(_on_table(state, "units")),
        "commander": len(_on_table(state, "commanders")),
    }
    assert len({f["id"] for f in doc["features"]}) == len(doc["features"])
    for f in doc["features"]:
        g = shape(f["geometry"])
        assert g.is_valid and not g.is_empty, (f["id"], shapely.is_valid_reason(g))
        for poly in getattr(g, "geoms", [g]):
            if poly.geom_type == "Polygon":
                assert poly.exterior.is_ccw, f["id"]  # RFC 7946 §3.1.6: outer rings counter-clockwise
    units = {f["id"]: f["properties"] for f in doc["features"] if f["properties"]["kind"] == "unit"}
    for uid, u in _on_table(state, "units").items():
        p = units[uid]
        assert (p["name"], p["side"], p["arm"], p["formation"], p["figures"], p["men"], p["state"]) == (
            u.name,
            u.side,
            u.arm.value,
            u.formation.value,
            u.figures,
            u.men,
            u.state,
        )
        assert p["superior"] == state.oob.superior(uid)
    towns = [f["properties"] for f in doc["features"] if f["properties"]["kind"] == "town"]
    assert sorted(t["name"] for t in towns) == sorted(z.name for z in sc.towns.values())


def test_jena_in_table_cm_states_its_local_crs(jena, log, tmp_path):
    pos = position_at(log, "12")
    state = log.state_at(pos)
    out = export_geojson(jena, tmp_path / "jena.geojson", "12")
    doc = _read(out)
    _check_features(doc, jena, state)
    crs = CRS.from_user_input(doc["crs"]["properties"]["name"])
    assert doc["crs"]["properties"]["name"] == TABLE_CRS_WKT
    assert crs.type_name == "Engineering CRS"
    assert [(a.direction, a.unit_name, a.unit_conversion_factor) for a in crs.axis_info] == [
        ("east", "centimetre", 0.01),
        ("north", "centimetre", 0.01),
    ]
    about = doc["battlestudio"]
    assert (about["turn"], about["position"], about["georef"]) == (12, pos, None)
    originals = _originals(jena, state)
    for f in doc["features"]:
        assert shape(f["geometry"]).equals(originals[f["id"]]), f["id"]  # the table cm themselves


def test_jena_georeferenced_is_wgs84_and_comes_back_to_the_table_within_1_cm(jena, log, tmp_path):
    placed = Battle(replace(jena.scenario, info=replace(jena.scenario.info, georef=PLACE)), jena.events)
    scale = placed.scenario.info.ground_scale
    state = log.state_at(len(log))
    doc = _read(export_geojson(placed, tmp_path / "jena.geojson"))
    assert "crs" not in doc  # RFC 7946: WGS84, no crs member
    _check_features(doc, placed, state)
    assert doc["battlestudio"]["georef"] == {"lon": 11.48, "lat": 50.88, "bearing": 80.0}

    def to_table(lon: float, lat: float) -> tuple[float, float]:
        # independent of the projection: the geodesic from the origin keeps distance and azimuth
        azimuth, _, metres = GEOD.inv(PLACE.lon, PLACE.lat, lon, lat)
        theta = math.radians(PLACE.bearing - azimuth)  # counter-clockwise from the table's +x
        r = metres / scale
        return (r * math.cos(theta), r * math.sin(theta)) if metres > 0 else (0.0, 0.0)

    originals = _originals(placed, state)
    info = placed.scenario.info
    checked = total = on_table = 0
    for f in doc["features"]:
        g = shape(f["geometry"])
        minx, miny, maxx, maxy = g.bounds
        assert 11.3 < minx <= maxx < 11.8 and 50.8 < miny <= maxy < 51.0, f["id"]  # lon, lat in this order
        back = shapely.transform(g, lambda pts: [to_table(lon, lat) for lon, lat in pts])
        assert shapely.hausdorff_distance(back, originals[f["id"]]) < 1.0, f["id"]
        xy = shapely.get_coordinates(back)
        total += len(xy)
        checked += sum(1 for x, y in xy if -1 <= x <= info.table_width + 1 and -1 <= y <= info.table_height + 1)
        on_table += sum(
            1
            for x, y in shapely.get_coordinates(originals[f["id"]])
            if -1 <= x <= info.table_width + 1 and -1 <= y <= info.table_height + 1
        )
    # every vertex of Jena on its table comes back onto it (a few retreat past the edge at the end)
    assert checked == on_table and total > 800 and on_table > 0.95 * total
    units = [f for f in doc["features"] if f["properties"]["kind"] == "unit"]
    u = state.units[units[0]["id"]]
    assert units[0]["properties"]["bearing"] == pytest.approx((80.0 - u.facing) % 360.0)


def test_the_deployment_and_the_end_differ_as_the_game_moved(jena, log):
    start = feature_collection(jena, log, 0)
    end = feature_collection(jena, log, len(log))
    assert start["battlestudio"]["turn"] == 0 and end["battlestudio"]["turn"] == max(log.turns())
    moved = {f["id"]: f["geometry"] for f in start["features"] if f["properties"]["kind"] == "unit"}
    after = {f["id"]: f["geometry"] for f in end["features"] if f["properties"]["kind"] == "unit"}
    assert sum(1 for k in moved.keys() & after.keys() if moved[k] != after[k]) > 10


def test_a_position_outside_the_log_writes_nothing(jena, log, tmp_path):
    with pytest.raises(ValueError, match="outside the game log"):
        feature_collection(jena, log, len(log) + 1)
    with pytest.raises(ValueError, match="the game log has no phase at 99"):
        export_geojson(jena, tmp_path / "x.geojson", "99")
    assert list(tmp_path.iterdir()) == []
