"""GeoJSON export: a battle's table and troops at one point of its game as a FeatureCollection.

One Feature per terrain feature, town zone, objective and deployment zone of the scenario,
and per unit (its footprint polygon) and commander (a point) on the table at the chosen log
position (reinforcements not yet arrived are left out; eliminated units stay, with state
``eliminated``). Every Feature's ``id`` is the record's id and its ``properties`` hold
``kind`` (``terrain``, ``town``, ``objective``, ``deployment_zone``, ``unit``, ``commander``)
and ``name`` and the record's own values (``side``, ``arm``, ``formation``, ``figures``,
``men``, ``state`` = order state, ``superior`` = the commander above it in the order of
battle then, ...).

Coordinates: for a georeferenced scenario (``ScenarioInfo.georef``) WGS84 longitude and
latitude in degrees, RFC 7946 order (lon, lat), through ``model.georef.to_lonlat``; a unit's
``bearing`` is then its facing as a compass bearing. Otherwise table cm (x to the right, y up,
origin at the table's bottom-left corner) with a ``crs`` member, as in the 2008 GeoJSON
specification, naming a local engineering CRS in cm by its WKT (``TABLE_CRS_WKT``; GDAL and
pyproj read it). Polygons are written with counter-clockwise outer rings (RFC 7946 §3.1.6).
The top-level ``battlestudio`` member says what was exported: title, the position and its
turn, side and phase, the table size, ground scale and georeference.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import GeometryCollection, MultiPolygon, Polygon, mapping
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from battlestudio.model.georef import Georeference, to_lonlat
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.store.atomic import atomic_write

TABLE_CRS_WKT = (
    'ENGCRS["BattleStudio table",'
    'EDATUM["table origin: the bottom-left corner of the table"],'
    "CS[Cartesian,2],"
    'AXIS["table x",east,ORDER[1],LENGTHUNIT["centimetre",0.01]],'
    'AXIS["table y",north,ORDER[2],LENGTHUNIT["centimetre",0.01]]]'
)
"""The local engineering CRS of a table that is not georeferenced: Cartesian x, y in cm."""

KINDS = ("terrain", "town", "objective", "deployment_zone", "unit", "commander")
"""Values of a Feature's ``kind`` property, in the order the features are written."""


def feature_collection(battle: Battle, log: GameLog | None = None, position: int | None = None) -> dict[str, Any]:
    """The FeatureCollection of ``battle`` with the troops as they stand at log ``position``
    (0 = the deployment; None = the end of the log) of ``log`` (default: the battle's game).

    Raises
    ------
    ValueError
        when the recorded game cannot be replayed to ``position``, or a position outside the log.
    """
    log = log if log is not None else GameLog.from_battle(battle)
    pos = len(log) if position is None else position
    if not 0 <= pos <= len(log):
        raise ValueError(f"log position {pos} is outside the game log (0 to {len(log)})")
    state = log.state_at(pos)
    sc = battle.scenario
    info = sc.info
    place = _placer(info.georef, info.ground_scale)
    features: list[dict[str, Any]] = []

    def add(rid: str, geometry: BaseGeometry, props: dict[str, Any]) -> None:
        features.append({"type": "Feature", "id": rid, "geometry": place(geometry), "properties": props})

    for rid, t in sorted(sc.terrain.items()):
        props: dict[str, Any] = {"kind": "terrain", "id": rid, "name": t.name, "terrain": t.kind.value}
        props.update(level=t.level, width_cm=t.width)
        if t.properties:
            props["attributes"] = dict(t.properties)
        add(rid, t.geometry, props)
    for rid, z in sorted(sc.towns.items()):
        add(rid, z.polygon, {"kind": "town", "id": rid, "name": z.name, "capacity": z.capacity})
    for rid, o in sorted(sc.objectives.items()):
        add(rid, o.geometry, {"kind": "objective", "id": rid, "name": o.name, "side": o.side, "value": o.value})
    for rid, d in sorted(sc.deployment_zones.items()):
        props = {"kind": "deployment_zone", "id": rid, "name": d.name, "side": d.side, "formation": d.formation}
        add(rid, d.polygon, props)
    for rid, u in sorted(state.units.items()):
        if rid in state.off_table:
            continue
        props = {
            "kind": "unit",
            "id": rid,
            "name": u.name,
            "side": u.side,
            "nation": u.nation,
            "arm": u.arm.value,
            "subtype": u.subtype.value if u.subtype is not None else None,
            "quality": u.quality,
            "formation": u.formation.value,
            "figures": u.figures,
            "men": u.men,
            "horses": u.horses,
            "guns": u.guns,
            "state": u.state,
            "superior": state.oob.superior(rid) if rid in state.oob else None,
            "facing": u.facing,
            **_bearing(info.georef, u.facing),
        }
        add(rid, u.footprint(), props)
    for rid, c in sorted(state.commanders.items()):
        if rid in state.off_table:
            continue
        props = {
            "kind": "commander",
            "id": rid,
            "name": c.name,
            "side": c.side,
            "nation": c.nation,
            "echelon": c.echelon,
            "figures": c.figures,
            "superior": state.oob.superior(rid) if rid in state.oob else None,
        }
        add(rid, shapely.Point(c.position), props)
    doc: dict[str, Any] = {"type": "FeatureCollection"}
    if info.georef is None:
        doc["crs"] = {"type": "name", "properties": {"name": TABLE_CRS_WKT}}
    doc["battlestudio"] = _about(battle, log, pos)
    doc["features"] = features
    return doc


def write_geojson(doc: dict[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write the FeatureCollection ``doc`` to ``path`` as UTF-8 JSON, atomically (a failure
    leaves no file and any old one intact); return the path.

    Raises
    ------
    OSError
        when the file cannot be written (``OUT: the folder DIR does not exist`` …).
    ValueError
        for a value JSON cannot hold (a non-finite number).
    """
    data = (json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n").encode("utf-8")

    def fill(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    atomic_write(path, fill)
    return Path(path)


def export_geojson(battle: Battle, path: str | os.PathLike[str], at: str | int = "end") -> Path:
    """Write ``battle`` at ``at`` (the ``--at`` syntax of ``replay``: ``start``, ``end``, ``TURN``,
    ``TURN:SIDE``, ``TURN:SIDE:PHASE``; ``session.text.position_at``) to the GeoJSON file ``path``.

    Raises
    ------
    ValueError
        for an ``at`` the game log does not hold (naming it and what the log holds), or a game
        that cannot be replayed; nothing is written.
    OSError
        when the file cannot be written; nothing is written.
    """
    from battlestudio.session.text import position_at

    log = GameLog.from_battle(battle)
    return write_geojson(feature_collection(battle, log, position_at(log, at)), path)


def _placer(georef: Georeference | None, ground_scale: float) -> Any:
    """``geometry -> GeoJSON geometry dict``: table cm as they are, or WGS84 lon/lat."""

    def place(geometry: BaseGeometry) -> dict[str, Any]:
        g = geometry
        if georef is not None:
            g = shapely.transform(g, lambda xy: to_lonlat(georef, ground_scale, xy))
        return dict(mapping(_counter_clockwise(g)))

    return place


def _counter_clockwise(g: BaseGeometry) -> BaseGeometry:
    """``g`` with every polygon's outer ring counter-clockwise and holes clockwise."""
    if isinstance(g, Polygon):
        return orient(g, 1.0)
    if isinstance(g, MultiPolygon):
        return MultiPolygon([orient(p, 1.0) for p in g.geoms])
    if isinstance(g, GeometryCollection):
        return GeometryCollection([_counter_clockwise(p) for p in g.geoms])
    return g


def _bearing(georef: Georeference | None, facing: float) -> dict[str, float]:
    """``{"bearing": compass degrees}`` of a table facing (degrees counter-clockwise from +x)
    on a georeferenced table, else nothing."""
    return {} if georef is None else {"bearing": (georef.bearing - facing) % 360.0}


def _about(battle: Battle, log: GameLog, pos: int) -> dict[str, Any]:
    info = battle.scenario.info
    cur = log.cursor_at(pos)
    g = info.georef
    return {
        "title": info.title,
        "date": info.date,
        "place": info.place,
        "position": pos,
        "turn": cur.turn,
        "side": cur.side,
        "phase": cur.phase,
        "table_cm": [info.table_width, info.table_height],
        "ground_scale": info.ground_scale,
        "georef": None if g is None else {"lon": g.lon, "lat": g.lat, "bearing": g.bearing},
        "coordinates": "WGS84 longitude, latitude (degrees)" if g is not None else "table cm (x, y)",
    }
