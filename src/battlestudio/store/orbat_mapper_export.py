"""Export of a battle as an ORBAT Mapper scenario (format version 3.4.0), checked against the
transcribed schema (``resources/schemas/orbat-mapper-3.4.0.schema.json``) before it is written.

What is written: one side per BattleStudio side (standard identity 3 for the first, 6 for the
second), the order of battle as units with recursive ``subUnits`` (commanders as headquarters:
SIDC digit 8 = 2, echelon amplifier from their echelon; units with the infantry, cavalry or
field-artillery entity and their echelon, or the SIDC they were imported with), men, guns and
horses as TO&E, each record's place at the deployment (``location``) and at the end of every
turn where it changed (state entries at start + n · turn minutes, ``via`` the points it passed
in that turn, a holding entry at the end of the turn before a move so ORBAT Mapper's
interpolation keeps every turn's end exact), order-state changes as ``status``, a record
leaving the table as ``location: null``; annotations, eliminations and removals as scenario
events; the table outline (carrying the georeference in ``userData.battlestudio``), terrain,
towns and objectives as an overlay layer of geometry items in WGS84.

Raises ``OrbatMapperExportError`` (a ``ValueError``) naming the missing field: no
georeference, no date to start the clock; ``SchemaError`` lists the schema violations of a
document before anything is written.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta, UTC
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import shapely
import shapely.geometry
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from battlestudio.model.georef import Georeference, to_lonlat
from battlestudio.model.units import Arm, Commander, Unit
from battlestudio.replay.battle import Battle
from battlestudio.replay.events import Annotation, BattleEvent, Moved, OrderStateChanged, UnitRemoved
from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState
from battlestudio.store.atomic import atomic_write
from battlestudio.store.importers.common import slug
from battlestudio.store.importers.orbat_mapper_sidc import (
    ARM_ENTITY,
    COMBINED_ARMS,
    ECHELON_AMPLIFIER,
    ECHELON_CODES,
    build_sidc,
    with_identity,
)

VERSION = "3.4.0"
SCHEMA_FILE = "orbat-mapper-3.4.0.schema.json"
IDENTITIES = ("3", "6", "4", "1")
"""Standard identity per side, in the scenario's side order: friend, hostile, neutral, unknown."""
UNIT_ECHELON = {Arm.INFANTRY: "17", Arm.CAVALRY: "17", Arm.ARTILLERY: "15", Arm.OTHER: "00"}
"""Echelon amplifier of a unit that names none (regiment; battery for guns)."""
DIGITS = 7
"""Decimals of a written longitude or latitude (1e-7 degree is about 1 cm of ground)."""
STYLES: Mapping[str, Mapping[str, Any]] = {
    "woods": {"fill": "#3a7a3a", "fill-opacity": 0.4, "stroke": "#2a5a2a"},
    "hill": {"fill": "#a08050", "fill-opacity": 0.3, "stroke": "#806030"},
    "river": {"stroke": "#3060c0", "stroke-width": 3},
    "stream": {"stroke": "#3060c0", "stroke-width": 2},
    "road": {"stroke": "#808080", "stroke-width": 2},
    "marsh": {"fill": "#60a0a0", "fill-opacity": 0.3},
    "town": {"fill": "#b04030", "fill-opacity": 0.4, "stroke": "#802010"},
    "objective": {"fill": "#e0b000", "fill-opacity": 0.2, "stroke": "#c09000", "stroke-width": 2},
    "table": {"fill-opacity": 0.0, "stroke": "#404040", "stroke-width": 1},
}


class OrbatMapperExportError(ValueError):
    """A battle that cannot be exported as it stands; the message names the missing field."""


class SchemaError(ValueError):
    """A document that does not satisfy the ORBAT Mapper schema; ``errors`` are the violations,
    each ``"$.path: message"``."""

    def __init__(self, errors: Sequence[str]) -> None:
        shown = "; ".join(errors[:5]) + (f"; … ({len(errors)} in all)" if len(errors) > 5 else "")
        super().__init__(f"not a valid ORBAT Mapper {VERSION} scenario: {shown}")
        self.errors = list(errors)


# -- the schema ---------------------------------------------------------------------------------
def schema_path() -> Path:
    """The transcribed JSON Schema, in an installed wheel or in the source checkout."""
    try:
        packaged = Path(str(resources.files("battlestudio") / "resources" / "schemas" / SCHEMA_FILE))
        if packaged.is_file():
            return packaged
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - unusual installs
        pass
    return Path(__file__).resolve().parents[3] / "resources" / "schemas" / SCHEMA_FILE


@lru_cache(maxsize=1)
def orbat_mapper_schema() -> dict[str, Any]:
    """The ORBAT Mapper 3.4.0 scenario schema (JSON Schema draft 2020-12)."""
    data: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return data


def schema_errors(doc: Any) -> list[str]:
    """Every violation of the schema by ``doc``, as ``"$.path: message"``, in document order."""
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no stubs installed

    validator = Draft202012Validator(orbat_mapper_schema())
    out = []
    for err in sorted(validator.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path]):
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
        out.append(f"{where}: {err.message}")
    return out


# -- the export --------------------------------------------------------------------------------
def scenario_georef(battle: Battle) -> Georeference | None:
    """The georeference the scenario carries (``info.georef``), None when it has none."""
    return battle.scenario.info.georef


def start_time(battle: Battle, start: datetime | str | None = None) -> datetime:
    """The clock time of the deployment: ``start``, else the ORBAT Mapper start the scenario was
    imported with, else its date at its first turn's time (UTC).

    Raises
    ------
    OrbatMapperExportError
        when none is given and ``info.date`` is empty or not a date.
    """
    if isinstance(start, datetime):
        return start if start.tzinfo else start.replace(tzinfo=UTC)
    info = battle.scenario.info
    text = start
    if text is None:
        src = info.parameters.get("orbat_mapper.source")
        if isinstance(src, Mapping) and isinstance(src.get("startTime"), str):
            text = src["startTime"]
    try:
        if text is None:
            if not info.date:
                raise OrbatMapperExportError(
                    "info.date: the scenario has no date to start ORBAT Mapper's clock; give --start"
                )
            text = f"{info.date}T{info.first_turn or '00:00'}:00"
        t = datetime.fromisoformat(text)
    except ValueError as exc:
        if isinstance(exc, OrbatMapperExportError):
            raise
        raise OrbatMapperExportError(f"start: {text!r} is not a date and time (e.g. 1806-10-14T06:00)") from None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def export_orbat_mapper(
    battle: Battle,
    georef: Georeference | None = None,
    *,
    start: datetime | str | None = None,
    time_zone: str = "UTC",
    now: datetime | None = None,
) -> dict[str, Any]:
    """The ORBAT Mapper 3.4.0 document of ``battle`` (see the module docstring), plain JSON
    values only.

    Raises
    ------
    OrbatMapperExportError
        when there is no georeference (none given and none in the scenario) or no start time.
    """
    sc = battle.scenario
    georef = georef or scenario_georef(battle)
    if georef is None:
        raise OrbatMapperExportError(
            "georef: the scenario has no georeference, so its places cannot be put on the map; "
            "give one (--georef LON,LAT[,BEARING]: the table origin and the bearing of its x axis)"
        )
    t0 = start_time(battle, start)
    minutes = sc.info.turn_minutes
    scale = sc.info.ground_scale

    def lonlat(points: Iterable[tuple[float, float]]) -> list[list[float]]:
        pts = list(points)
        if not pts:
            return []
        out = to_lonlat(georef, scale, pts)
        return [[round(float(a), DIGITS), round(float(b), DIGITS)] for a, b in out]

    def at(turn: int) -> str:
        return _iso(t0 + timedelta(minutes=minutes * turn))

    log = GameLog.from_battle(battle)
    ends = _turn_ends(battle.events)
    states = [(0, log.initial)] + [(turn, log.state_at(pos)) for turn, pos in ends]
    via = _vias(battle.events)
    ident = {sid: IDENTITIES[min(i, len(IDENTITIES) - 1)] for i, sid in enumerate(sc.sides)}
    src_sides = sc.info.parameters.get("orbat_mapper.sides")
    if isinstance(src_sides, Mapping):
        for sid, d in src_sides.items():
            if sid in ident and isinstance(d, Mapping) and isinstance(d.get("standardIdentity"), str):
                ident[sid] = d["standardIdentity"]

    # per record: where and how it stands at each turn's end
    timelines: dict[str, list[dict[str, Any]]] = {}
    base_loc: dict[str, list[float] | None] = {}
    for nid in [*sc.commanders, *sc.units]:
        entries: list[dict[str, Any]] = []
        prev_place: tuple[float, float] | None = None
        prev_state = ""
        last_entry_turn = 0
        for turn, st in states:
            rec = _record(st, nid)
            place = rec.position if rec is not None and nid not in st.off_table else None
            state = rec.state if isinstance(rec, Unit) else ""
            if turn == 0:
                base_loc[nid] = lonlat([place])[0] if place is not None else None
                prev_place, prev_state = place, state
                continue
            entry: dict[str, Any] = {}
            if place != prev_place and not (place and prev_place and _close(place, prev_place)):
                if place is None:
                    entry["location"] = None
                else:
                    passed = [p for p in via.get((nid, turn), []) if prev_place is None or not _close(p, prev_place)]
                    if prev_place is not None and last_entry_turn < turn - 1:
                        hold = {"id": f"{nid}-t{turn - 1}", "t": at(turn - 1), "location": lonlat([prev_place])[0]}
                        entries.append(hold)
                    entry["location"] = lonlat([place])[0]
                    if passed and prev_place is not None:
                        entry["via"] = lonlat(passed)
            if state and state != prev_state:
                entry["status"] = state
            if entry:
                entries.append({"id": f"{nid}-t{turn}", "t": at(turn), **entry})
                last_entry_turn = turn
            prev_place, prev_state = place, state
        timelines[nid] = entries

    statuses = sorted(
        {u.state for u in sc.units.values()} | {e["status"] for es in timelines.values() for e in es if "status" in e}
    )

    def node(nid: str) -> dict[str, Any]:
        rec = sc.commanders.get(nid) or sc.units[nid]
        kids = [c for c in sc.oob.subordinates(nid) if c in sc.commanders or c in sc.units]
        out: dict[str, Any] = {"id": nid, "name": rec.name, "sidc": _sidc(sc, rec, ident.get(rec.side, "1"))}
        attrs = rec.attributes
        for key in ("shortName", "description", "externalUrl"):
            if isinstance(attrs.get(f"orbat_mapper.{key}"), str):
                out[key] = attrs[f"orbat_mapper.{key}"]
        if base_loc.get(nid) is not None:
            out["location"] = base_loc[nid]
        if isinstance(rec, Unit):
            if rec.men:
                out["personnel"] = [{"name": "Men", "count": rec.men}]
            equipment = [{"name": n, "count": c} for n, c in (("Guns", rec.guns), ("Horses", rec.horses)) if c]
            if equipment:
                out["equipment"] = equipment
            if rec.state:
                out["status"] = rec.state
        out["state"] = timelines.get(nid, [])
        out["subUnits"] = [node(c) for c in kids]
        return out

    groups_param = sc.info.parameters.get("orbat_mapper.groups")
    group_names: Mapping[str, Any] = groups_param if isinstance(groups_param, Mapping) else {}
    roots = [n for n in sc.oob.roots() if n in sc.commanders or n in sc.units]
    roots += [n for n in [*sc.commanders, *sc.units] if n not in sc.oob]
    sides = []
    for sid, side in sc.sides.items():
        by_group: dict[str, list[str]] = {}
        for n in roots:
            rec = sc.commanders.get(n) or sc.units[n]
            if rec.side == sid:
                g = rec.attributes.get("orbat_mapper.group")
                by_group.setdefault(str(g) if g else f"{sid}-forces", []).append(n)
        groups = []
        for gid, members in by_group.items():
            gname = group_names.get(gid, {}).get("name") if isinstance(group_names.get(gid), Mapping) else None
            groups.append({"id": gid, "name": gname or side.name, "subUnits": [node(n) for n in members]})
        sides.append(
            {
                "id": sid,
                "name": side.name,
                "standardIdentity": ident[sid],
                "symbolOptions": {"fillColor": side.colour},
                "groups": groups,
                "subUnits": [],
            }
        )

    table_lonlat = lonlat(box(0, 0, sc.info.table_width, sc.info.table_height).exterior.coords)
    lons = [p[0] for p in table_lonlat]
    lats = [p[1] for p in table_lonlat]
    stamp = _iso(now or datetime.now(UTC))
    doc: dict[str, Any] = {
        "id": f"battlestudio-{slug(sc.info.title)}",
        "type": "ORBAT-mapper",
        "version": VERSION,
        "meta": {"createdDate": stamp, "lastModifiedDate": stamp},
        "name": sc.info.title,
        "description": sc.info.description,
        "startTime": _iso(t0),
        "timeZone": time_zone,
        "symbologyStandard": "app6d",
        "sides": sides,
        "events": _events(battle, lonlat, at),
        "layerStack": [
            {
                "id": "battlestudio-table",
                "kind": "overlay",
                "name": "BattleStudio table: terrain, towns, objectives",
                "items": _items(battle, georef, table_lonlat, lonlat),
            }
        ],
        "equipment": [{"name": "Guns"}, {"name": "Horses"}],
        "personnel": [{"name": "Men"}],
        "supplyCategories": [],
        "settings": {
            "rangeRingGroups": [],
            "statuses": [{"name": s} for s in statuses],
            "supplyClasses": [],
            "supplyUoMs": [],
            "boundingBox": [min(lons), min(lats), max(lons), max(lats)],
            "symbolFillColors": [],
            "customSymbols": [],
        },
    }
    plain: dict[str, Any] = json.loads(json.dumps(doc))
    return plain


def write_orbat_mapper(
    battle: Battle,
    path: str | os.PathLike[str],
    georef: Georeference | None = None,
    *,
    start: datetime | str | None = None,
    time_zone: str = "UTC",
) -> Path:
    """Export ``battle`` to ``path`` (atomically, after checking the document against the
    schema); returns the path.

    Raises
    ------
    OrbatMapperExportError, SchemaError
        nothing is written then.
    """
    doc = export_orbat_mapper(battle, georef, start=start, time_zone=time_zone)
    errors = schema_errors(doc)
    if errors:
        raise SchemaError(errors)
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"

    def fill(tmp: str) -> None:
        Path(tmp).write_text(text, encoding="utf-8")

    atomic_write(path, fill)
    return Path(path)


# -- pieces ------------------------------------------------------------------------------------
def _iso(t: datetime) -> str:
    if t.utcoffset() == timedelta(0):
        return t.strftime("%Y-%m-%dT%H:%M:%S") + "Z"
    return t.isoformat(timespec="seconds")


def _close(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) < 1e-6


def _record(state: GameState, nid: str) -> Unit | Commander | None:
    return state.units.get(nid) or state.commanders.get(nid)


def _turn_ends(events: Sequence[BattleEvent]) -> list[tuple[int, int]]:
    """(turn, position after its last event) for every turn with events, ascending."""
    out: list[tuple[int, int]] = []
    for i, e in enumerate(events):
        if out and out[-1][0] == e.turn:
            out[-1] = (e.turn, i + 1)
        else:
            out.append((e.turn, i + 1))
    return out


def _vias(events: Sequence[BattleEvent]) -> dict[tuple[str, int], list[tuple[float, float]]]:
    """The points every record passed in each turn (every moved path's points but the last)."""
    out: dict[tuple[str, int], list[tuple[float, float]]] = {}
    for e in events:
        if isinstance(e, Moved) and len(e.path) > 1:
            pts = out.setdefault((e.id, e.turn), [])
            for p in e.path[:-1]:
                if not pts or not _close(pts[-1], p):
                    pts.append(p)
    return out


def _sidc(sc: Any, rec: Unit | Commander, identity: str) -> str:
    kept = rec.attributes.get("orbat_mapper.sidc")
    if isinstance(kept, str) and kept:
        return with_identity(kept, identity)
    if isinstance(rec, Unit):
        echelon = ECHELON_CODES.get(str(rec.attributes.get("echelon", "")), UNIT_ECHELON[rec.arm])
        return build_sidc(identity, ARM_ENTITY[rec.arm], echelon)
    arms = {sc.units[u].arm for u in sc.oob.all_subordinates(rec.id) if u in sc.units}
    entity = ARM_ENTITY[arms.pop()] if len(arms) == 1 else COMBINED_ARMS if arms else ARM_ENTITY[Arm.OTHER]
    return build_sidc(identity, entity, ECHELON_AMPLIFIER.get(rec.echelon, "00"), hq=True)


def _events(battle: Battle, lonlat: Any, at: Any) -> list[dict[str, Any]]:
    sc = battle.scenario
    out: list[dict[str, Any]] = []

    def name(nid: str) -> str:
        rec = sc.units.get(nid) or sc.commanders.get(nid)
        return rec.name if rec else nid

    for i, e in enumerate(battle.events):
        ev: dict[str, Any] | None = None
        if isinstance(e, Annotation):
            title = e.title or (e.text[:60] + ("…" if len(e.text) > 60 else "")) or "Note"
            ev = {"title": title, "description": e.text}
            if e.at is not None:
                ev["where"] = {"type": "geometry", "geometry": {"type": "Point", "coordinates": lonlat([e.at])[0]}}
            elif e.ids:
                ev["where"] = {"type": "units", "units": list(e.ids)}
        elif isinstance(e, OrderStateChanged) and e.state == "eliminated":
            ev = {"title": f"{name(e.unit)} eliminated", "where": {"type": "units", "units": [e.unit]}}
            if e.reason:
                ev["subTitle"] = e.reason
        elif isinstance(e, UnitRemoved):
            ev = {"title": f"{name(e.id)} leaves the field", "where": {"type": "units", "units": [e.id]}}
            if e.reason:
                ev["subTitle"] = e.reason
        if ev is not None:
            out.append({"id": f"event-{i + 1}", "startTime": at(e.turn), **ev})
    return out


def _geojson(geom: BaseGeometry, lonlat_arr: Any) -> dict[str, Any]:
    moved = shapely.transform(geom, lonlat_arr)
    mapped: dict[str, Any] = json.loads(json.dumps(shapely.geometry.mapping(moved)))
    return mapped


def _items(battle: Battle, georef: Georeference, table: list[list[float]], lonlat: Any) -> list[dict[str, Any]]:
    sc = battle.scenario

    def arr(xy: np.ndarray) -> np.ndarray:
        if len(xy) == 0:
            return xy
        return np.round(to_lonlat(georef, sc.info.ground_scale, xy), DIGITS)

    def item(
        iid: str, name: str, geom: BaseGeometry, style: Mapping[str, Any], data: Mapping[str, Any]
    ) -> dict[str, Any]:
        g = _geojson(geom, arr)
        return {
            "id": iid,
            "kind": "geometry",
            "name": name,
            "geometry": g,
            "geometryMeta": {"geometryKind": g["type"]},
            "style": dict(style),
            "userData": {"battlestudio": dict(data)},
        }

    info = sc.info
    out = [
        {
            "id": "battlestudio-table-outline",
            "kind": "geometry",
            "name": f"Table ({info.table_width:g} × {info.table_height:g} cm at {info.ground_scale:g} m/cm)",
            "geometry": {"type": "Polygon", "coordinates": [table]},
            "geometryMeta": {"geometryKind": "Polygon"},
            "style": dict(STYLES["table"]),
            "userData": {
                "battlestudio": {
                    "kind": "table",
                    "georef": {"lon": georef.lon, "lat": georef.lat, "bearing": georef.bearing},
                    "ground_scale": info.ground_scale,
                    "table_width": info.table_width,
                    "table_height": info.table_height,
                }
            },
        }
    ]
    for t in sc.terrain.values():
        data = {"kind": "terrain", "terrain": t.kind.value, "id": t.id, "level": t.level, "width": t.width}
        out.append(item(f"terrain-{t.id}", t.name or t.kind.value, t.geometry, STYLES.get(t.kind.value, {}), data))
    for z in sc.towns.values():
        out.append(
            item(
                f"town-{z.id}", z.name, z.polygon, STYLES["town"], {"kind": "town", "id": z.id, "capacity": z.capacity}
            )
        )
    for o in sc.objectives.values():
        data = {"kind": "objective", "id": o.id, "side": o.side, "value": o.value}
        out.append(item(f"objective-{o.id}", o.name, o.geometry, STYLES["objective"], data))
    return out
