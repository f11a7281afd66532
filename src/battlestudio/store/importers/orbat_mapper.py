"""Importer of ORBAT Mapper scenario files (``.json``, ``type: "ORBAT-mapper"``): the order of
battle, the units' places on the map and their timed state as a recorded game.

ORBAT Mapper (orbat-mapper/orbat-mapper, MIT) keeps sides → side groups → units with recursive
``subUnits`` (since 3.x a side may also hold units directly). A unit with sub-units, or whose
SIDC marks a headquarters, becomes a ``Commander`` (echelon from the SIDC's echelon amplifier,
brigade for anything below); every other unit becomes a ``Unit`` whose arm comes from the SIDC's
entity (infantry 1211, cavalry 1213, field artillery 1303; anything else is ``other`` with a
warning naming the unit). Men come from the TO&E personnel (``onHand`` where given, else
``count``), guns and horses from equipment named so. Nothing is dropped: every ORBAT Mapper
unit becomes a unit or a commander.

Places are WGS84 ``[lon, lat]``; a ``Georeference`` (given, or derived from the extent of every
place in the file: the table origin a margin south-west of their bounding box, +x east, the
table as large as the extent plus that margin) turns them into table cm at ``ground_scale``.

Time: the game starts at ``start`` (default the file's ``startTime``) and each turn lasts
``turn_minutes`` (default 15); turn n covers (start + (n-1)·m, start + n·m], so a state entry at
a turn's end belongs to that turn. Entries at or before the start set the deployment. Later
entries become, in their turn: ``Moved`` (``via`` points then ``location`` as the path),
``ReinforcementArrived`` (a unit first placed after the start), ``UnitRemoved`` (``location:
null`` never followed by a place), ``OrderStateChanged`` (a ``status`` naming an order state, or
a SIDC turned to destroyed → ``eliminated``), ``Attached`` (a timed ``hierarchy`` move) and
``Annotation`` (other statuses, titled entries, the scenario's ``events``); one phase per turn.

Versions read: 3.2.0 to 3.6.0 (ORBAT Mapper's own upgrader changes nothing in units, state or
events from 3.2.0 on); 0.5.0 and 0.6.0 are upgraded first (``orbat_mapper_upgrade``); other
older files are refused naming their version (open and save them in ORBAT Mapper first), and so
are newer ones.

Bad input raises ``OrbatMapperError`` naming the file and the JSON path of the field
(``$.sides[0].groups[1].subUnits[3].id``): a missing or repeated id, a unit nested inside
itself, a time or place that cannot be read, or places with no georeference when derivation is
switched off.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, UTC
from pathlib import Path
from typing import Any

import shapely.geometry

from battlestudio.model.georef import Georeference, from_lonlat, to_lonlat
from battlestudio.model.scenario import Reinforcement, Scenario, ScenarioInfo, Side, Source
from battlestudio.model.units import (
    DEFAULT_FIGURE_SIZE,
    ECHELON_RANK,
    Arm,
    Commander,
    Echelon,
    Formation,
    OrderState,
    Unit,
)
from battlestudio.replay.battle import Battle
from battlestudio.replay.events import (
    Annotation,
    BattleEvent,
    Moved,
    OrderStateChanged,
    PhaseStarted,
    ReinforcementArrived,
    TurnEnded,
    UnitRemoved,
)
from battlestudio.replay.order_events import Attached
from battlestudio.rules.toe.scale import figures_from_men, ground_scale_m_per_cm
from battlestudio.store.importers.common import ImportResult
from battlestudio.store.importers.orbat_mapper_read import (
    Entry,
    Node,
    Reader,
    entries,
    read_orbat_mapper,
    strength,
    walk,
)
from battlestudio.store.importers.orbat_mapper_sidc import COMMANDER_ECHELON, DESTROYED, parse_sidc
from battlestudio.store.importers.orbat_mapper_upgrade import upgrade

DEFAULT_TURN_MINUTES = ScenarioInfo().turn_minutes
DEFAULT_GROUND_SCALE = ground_scale_m_per_cm()
"""Metres per table cm of an import that states none: Torden over Europa 1.1, 1 m = 3 km."""
PHASE = "movement"
"""Phase id of the one phase each imported turn has."""
ORDER_STATE_BY_STATUS = {s.value.lower(): s.value for s in OrderState}
"""ORBAT Mapper status names (case-insensitive) read as order states."""
PALETTE = ("#2a4fb0", "#b03020", "#2a8a3a", "#8a6a20", "#6a2a8a")


@dataclass
class OrbatMapperImport(ImportResult):
    """An ``ImportResult`` with the recorded game and the mapping used.

    Attributes
    ----------
    events : list[BattleEvent]
        the timed state as a game log (empty when nothing changes after the start).
    georef : Georeference | None
        where the table lies (None when the file places nothing).
    start : datetime | None
        the clock time of the deployment; turn n ends ``n * turn_minutes`` later.
    turn_minutes : int
    units_in : int
        ORBAT Mapper units read (each is now a unit or a commander).
    """

    events: list[BattleEvent] = field(default_factory=list)
    georef: Georeference | None = None
    start: datetime | None = None
    turn_minutes: int = DEFAULT_TURN_MINUTES
    units_in: int = 0

    def battle(self) -> Battle:
        """The scenario with its recorded game."""
        return Battle(self.scenario, list(self.events))


# -- the clock -------------------------------------------------------------------------------
class _Clock:
    def __init__(self, start: datetime, minutes: int) -> None:
        self.start = start
        self.minutes = minutes

    def turn(self, t: datetime) -> int:
        """0 for the deployment (t at or before the start), else the turn whose end is at or after t."""
        seconds = (t - self.start).total_seconds()
        if seconds <= 0:
            return 0
        return max(1, math.ceil(round(seconds, 3) / (60 * self.minutes)))

    def label(self, turn: int) -> str:
        a = self.start + timedelta(minutes=self.minutes * (turn - 1))
        b = a + timedelta(minutes=self.minutes)
        return f"{a:%Y-%m-%d %H:%M}–{b:%H:%M}"


# -- the georeference --------------------------------------------------------------------------
def derive_georef(
    lonlats: Sequence[tuple[float, float]], ground_scale: float, margin_cm: float | None = None
) -> tuple[Georeference, float, float]:
    """A georeference for places ``lonlats`` (WGS84 degrees): +x east, the origin ``margin``
    south-west of their bounding box, and the table (width, height) in cm that holds them with
    that margin on every side. ``margin_cm`` defaults to 5 % of the larger extent, at least 10 cm.
    """
    lons = [p[0] for p in lonlats]
    lats = [p[1] for p in lonlats]
    corner = Georeference(min(lons), min(lats), 90.0)
    xy = from_lonlat(corner, ground_scale, list(lonlats))
    x0, y0 = xy.min(axis=0)
    x1, y1 = xy.max(axis=0)
    margin = margin_cm if margin_cm is not None else max(10.0, 0.05 * max(x1 - x0, y1 - y0))
    lon, lat = to_lonlat(corner, ground_scale, [(x0 - margin, y0 - margin)])[0]
    georef = Georeference(float(lon), float(lat), 90.0)
    xy = from_lonlat(georef, ground_scale, list(lonlats))
    width = float(max(xy[:, 0].max() + margin, 2 * margin))
    height = float(max(xy[:, 1].max() + margin, 2 * margin))
    return georef, math.ceil(width), math.ceil(height)


def embedded_georef(doc: Mapping[str, Any]) -> tuple[Georeference, float, float, float] | None:
    """The georeference a BattleStudio export left in its table outline (an overlay item whose
    ``userData.battlestudio.georef`` holds lon, lat, bearing), with ground scale and table size."""
    for layer in doc.get("layerStack") or []:
        if not isinstance(layer, Mapping) or layer.get("kind") != "overlay":
            continue
        for item in layer.get("items") or []:
            bs = (item.get("userData") or {}).get("battlestudio") if isinstance(item, Mapping) else None
            if isinstance(bs, Mapping) and isinstance(bs.get("georef"), Mapping):
                g = bs["georef"]
                try:
                    return (
                        Georeference(float(g["lon"]), float(g["lat"]), float(g.get("bearing", 90.0))),
                        float(bs["ground_scale"]),
                        float(bs["table_width"]),
                        float(bs["table_height"]),
                    )
                except (KeyError, TypeError, ValueError):
                    return None
    return None


# -- the import ----------------------------------------------------------------------------------
def import_orbat_mapper(
    path: str | Path,
    georef: Georeference | None = None,
    *,
    ground_scale: float | None = None,
    turn_minutes: int | None = None,
    start: datetime | str | None = None,
    derive: bool = True,
) -> OrbatMapperImport:
    """Import the ORBAT Mapper scenario in ``path`` (see the module docstring).

    Parameters
    ----------
    georef : Georeference | None
        where the table lies; None: the one a BattleStudio export embedded, else (``derive``)
        one derived from the extent of the file's places.
    ground_scale : float | None
        metres per table cm (default: the embedded one, else Torden over Europa's 1 m = 3 km,
        1.1: ``DEFAULT_GROUND_SCALE``).
    turn_minutes : int | None
        minutes per turn (default 15).
    start : datetime | str | None
        the clock time of the deployment (default the file's ``startTime``, else its earliest
        state entry); an ISO string is accepted.

    Raises
    ------
    OrbatMapperError
        naming the file and the JSON path of the bad field; nothing is returned then.
    """
    return import_orbat_mapper_data(
        read_orbat_mapper(path),
        str(path),
        georef,
        ground_scale=ground_scale,
        turn_minutes=turn_minutes,
        start=start,
        derive=derive,
    )


def import_orbat_mapper_data(
    doc: Mapping[str, Any],
    file: str = "<orbat-mapper>",
    georef: Georeference | None = None,
    *,
    ground_scale: float | None = None,
    turn_minutes: int | None = None,
    start: datetime | str | None = None,
    derive: bool = True,
) -> OrbatMapperImport:
    """``import_orbat_mapper`` of an already parsed document; ``file`` names it in messages."""
    r = Reader(file)
    doc, version = upgrade(r, doc)
    if turn_minutes is not None and turn_minutes < 1:
        raise r.fail("turn_minutes", f"{turn_minutes} is not a turn length (1 minute or more)")
    sides, nodes, groups = walk(r, doc)
    timelines = {uid: entries(r, n) for uid, n in nodes.items()}

    # places, read and checked first so a bad one fails before anything is built
    base_loc: dict[str, tuple[float, float] | None] = {}
    lonlats: list[tuple[float, float]] = []
    first_place_path = ""
    for uid, n in nodes.items():
        loc = n.data.get("location")
        base_loc[uid] = r.position(loc, f"{n.path}.location") if loc is not None else None
        if base_loc[uid] is not None:
            lonlats.append(base_loc[uid])  # type: ignore[arg-type]
            first_place_path = first_place_path or f"{n.path}.location"
        for e in timelines[uid]:
            if e.data.get("location") is not None:
                lonlats.append(r.position(e.data["location"], f"{e.path}.location"))
                first_place_path = first_place_path or f"{e.path}.location"
            for k, v in enumerate(r.arr(e.data, "via", e.path)):
                lonlats.append(r.position(v, f"{e.path}.via[{k}]"))
    events_in = [r.obj(ev, f"$.events[{i}]") for i, ev in enumerate(r.arr(doc, "events", "$"))]

    # clock
    if isinstance(start, str):
        start_t = r.time(start, "start")
    elif isinstance(start, datetime):
        start_t = start if start.tzinfo else start.replace(tzinfo=UTC)
    elif doc.get("startTime") is not None:
        start_t = r.time(doc["startTime"], "$.startTime")
    else:
        times = [e.t for es in timelines.values() for e in es]
        start_t = min(times) if times else datetime(1800, 1, 1, tzinfo=UTC)
        r.note(f"the file has no startTime; the game starts at {start_t.isoformat()}")
    clock = _Clock(start_t, turn_minutes or DEFAULT_TURN_MINUTES)

    # georeference and table
    embedded = embedded_georef(doc)
    scale = ground_scale
    table: tuple[float, float] | None = None
    if georef is None and embedded is not None:
        georef, emb_scale, tw, th = embedded
        scale = scale or emb_scale
        table = (tw, th)
        r.note(f"georeference from the BattleStudio table outline: {georef.lon}, {georef.lat}, {georef.bearing}")
    scale = scale or DEFAULT_GROUND_SCALE
    if scale <= 0:
        raise r.fail("ground_scale", f"{scale} is not a ground scale (metres per table cm, above 0)")
    if georef is None and lonlats:
        if not derive:
            raise r.fail(
                first_place_path,
                "the file places units on the map but no georeference was given (--georef LON,LAT[,BEARING])",
            )
        georef, tw, th = derive_georef(lonlats, scale)
        table = (tw, th)
        r.note(
            f"georeference derived from the extent of the file's places: origin {georef.lon:.6f}, "
            f"{georef.lat:.6f}, +x east; table {tw:.0f} × {th:.0f} cm at {scale:g} m/cm"
        )

    def cm(lonlat: tuple[float, float]) -> tuple[float, float]:
        assert georef is not None
        x, y = from_lonlat(georef, scale, [lonlat])[0]
        return (round(float(x), 4), round(float(y), 4))

    # per node: deployment place and status, and the timed changes
    sc = Scenario()
    for i, (sid, side, _spath) in enumerate(sides):
        colour = (
            (side.get("symbolOptions") or {}).get("fillColor")
            if isinstance(side.get("symbolOptions"), Mapping)
            else None
        )
        sc.sides[sid] = Side(
            sid,
            str(side.get("name") or sid),
            (),
            colour
            if isinstance(colour, str) and colour.startswith("#") and len(colour) == 7
            else PALETTE[i % len(PALETTE)],
        )

    init_loc: dict[str, tuple[float, float] | None] = {}
    init_status: dict[str, str] = {}
    later: dict[str, list[tuple[int, Entry]]] = {}
    for uid, n in nodes.items():
        loc = base_loc[uid]
        status = n.data.get("status") if isinstance(n.data.get("status"), str) else ""
        rest = []
        for e in timelines[uid]:
            turn = clock.turn(e.t)
            if turn == 0:
                if "location" in e.data:
                    loc = (
                        r.position(e.data["location"], f"{e.path}.location") if e.data["location"] is not None else None
                    )
                if isinstance(e.data.get("status"), str):
                    status = e.data["status"]
            else:
                rest.append((turn, e))
        init_loc[uid] = loc
        init_status[uid] = status or ""
        later[uid] = rest

    def first_later_place(uid: str) -> tuple[int, tuple[float, float]] | None:
        for turn, e in later[uid]:
            if e.data.get("location") is not None:
                return turn, r.position(e.data["location"], f"{e.path}.location")
        return None

    # commanders never placed: at the centre of their units' first places, when those have one
    synthetic: dict[str, tuple[int, tuple[float, float]]] = {}

    def first_place(uid: str) -> tuple[int, tuple[float, float]] | None:
        if init_loc[uid] is not None:
            return 0, init_loc[uid]  # type: ignore[return-value]
        got = first_later_place(uid)
        if got is not None or not nodes[uid].children:
            return got
        kids = [p for p in (first_place(c) for c in nodes[uid].children) if p is not None]
        if not kids:
            return None
        turn = min(k[0] for k in kids)
        at = [k[1] for k in kids if k[0] == turn]
        centre = (sum(p[0] for p in at) / len(at), sum(p[1] for p in at) / len(at))
        synthetic[uid] = (turn, centre)
        return turn, centre

    firsts = {uid: first_place(uid) for uid in nodes}
    for uid, (turn, centre) in synthetic.items():
        if turn == 0:
            init_loc[uid] = centre
        r.note(
            f"{_label(nodes[uid])} has no place in the file; placed at the centre of its units"
            + (f" when they first appear (turn {turn})" if turn else "")
        )

    # who waits off the table: nodes first placed after the start whose whole formation waits too
    def waits(uid: str) -> bool:
        return init_loc[uid] is None and all(waits(c) for c in nodes[uid].children)

    reinforcement_of: dict[str, str] = {}
    if georef is None:
        if nodes:
            r.note("the file places no unit on the map; every unit stands at the table origin")
    else:
        for uid, n in nodes.items():
            if not waits(uid) or (n.parent is not None and waits(n.parent)):
                continue
            members = [uid, *_descendants(nodes, uid)]
            placed = [(m, f) for m in members if (f := firsts[m]) is not None]
            rid = f"orbat-mapper-arrival-{uid}"
            for m in members:
                reinforcement_of[m] = rid
            if placed:
                turns = [f[0] for _m, f in placed]
                own = firsts[uid]
                entry = own[1] if own is not None else placed[0][1][1]
                note = "placed on the map after the start in the ORBAT Mapper file"
                sc.reinforcements[rid] = Reinforcement(rid, n.side, uid, min(turns), max(turns), cm(entry), 1.0, note)
            else:
                note = "never placed on the map in the ORBAT Mapper file: stays off the table"
                sc.reinforcements[rid] = Reinforcement(rid, n.side, uid, 1, 1, (0.0, 0.0), 0.0, note)
                r.note(f"{_label(n)} is never placed on the map; it is in the order of battle, off the table")
        for uid, n in nodes.items():
            own = firsts[uid]
            if init_loc[uid] is None and uid not in reinforcement_of and own is not None:
                init_loc[uid] = own[1]
                r.note(
                    f"{_label(n)} first appears at turn {own[0]} but units under it are on the table "
                    "from the start; placed there at the start"
                )

    # records
    for uid, n in nodes.items():
        u = n.data
        name = str(u.get("name") or uid)
        sidc_code = str(u.get("sidc") or "")
        sidc = parse_sidc(sidc_code)
        if sidc_code and sidc is None:
            r.warn(f"{_label(n)}: SIDC {sidc_code!r} is not a 20-digit code; arm and echelon unknown", n.path)
        place = init_loc[uid]
        if place is None:
            place = firsts[uid][1] if firsts[uid] is not None else None  # type: ignore[index]
        pos = cm(place) if place is not None and georef is not None else (0.0, 0.0)
        attrs: dict[str, Any] = {"source_id": f"orbat-mapper:{uid}"}
        if sidc_code:
            attrs["orbat_mapper.sidc"] = sidc_code
        if n.group:
            attrs["orbat_mapper.group"] = n.group
        for key in ("shortName", "description", "externalUrl"):
            if isinstance(u.get(key), str) and u[key]:
                attrs[f"orbat_mapper.{key}"] = u[key]
        status = init_status[uid]
        men, horses, guns = strength(u)
        if n.children or (sidc is not None and sidc.is_headquarters):
            ech = COMMANDER_ECHELON.get(sidc.echelon) if sidc else None
            if ech is None and sidc is not None and sidc.echelon_name:
                ech = Echelon.BRIGADE.value
                r.note(f"{_label(n)}: a {sidc.echelon_name} headquarters; commands as a brigade (the lowest echelon)")
            elif ech is None:
                ech = _echelon_below(sc, n)
                r.note(f"{_label(n)}: no echelon in its SIDC; commands as {ech}")
            if status:
                attrs["orbat_mapper.status"] = status
            if men or guns:
                attrs["orbat_mapper.strength"] = {"men": men, "horses": horses, "guns": guns}
            sc.commanders[uid] = Commander(uid, name, n.side, echelon=ech, position=pos, attributes=attrs)
        else:
            arm = sidc.arm if sidc else None
            if arm is None:
                what = (
                    "not a land unit"
                    if sidc and not sidc.is_land_unit
                    else f"entity {sidc.entity}"
                    if sidc
                    else "no SIDC"
                )
                r.warn(f"{_label(n)}: {what}; imported with arm 'other'", sidc_code)
                arm = Arm.OTHER
            if sidc and sidc.echelon_name:
                attrs["echelon"] = sidc.echelon_name
            state = OrderState.O.value
            if status:
                if status.lower() in ORDER_STATE_BY_STATUS:
                    state = ORDER_STATE_BY_STATUS[status.lower()]
                else:
                    attrs["orbat_mapper.status"] = status
            if sidc and sidc.status == DESTROYED:
                state = OrderState.ELIMINATED.value
            figures = (
                figures_from_men(men, arm) if arm in (Arm.INFANTRY, Arm.CAVALRY) else (1 if arm is Arm.ARTILLERY else 0)
            )
            fig_w, fig_d = DEFAULT_FIGURE_SIZE[arm]
            sc.units[uid] = Unit(
                uid,
                name,
                n.side,
                arm=arm,
                figures=figures,
                men=men,
                horses=horses,
                guns=guns,
                position=pos,
                formation=Formation.UNLIMBERED if arm is Arm.ARTILLERY else Formation.LINE,
                state=state,
                figure_width=fig_w,
                figure_depth=fig_d,
                attributes=attrs,
            )
        sc.oob.add_node(uid)
        if n.parent is not None:
            sc.oob.add(n.parent, uid)

    # the game
    timed: list[tuple[int, datetime, int, BattleEvent]] = []  # (turn, t, order, event)
    seq = 0

    def add(turn: int, t: datetime, event: BattleEvent) -> None:
        nonlocal seq
        seq += 1
        timed.append((turn, t, seq, event))

    for uid, n in nodes.items():
        is_unit = uid in sc.units
        arrived = uid not in reinforcement_of
        removed = False
        last_place_turn = max((turn for turn, e in later[uid] if e.data.get("location") is not None), default=0)
        synth = synthetic.get(uid)
        if synth is not None and synth[0] > 0 and not arrived:
            x, y = cm(synth[1])
            add(
                synth[0],
                clock.start + timedelta(minutes=clock.minutes * synth[0]),
                ReinforcementArrived(synth[0], "", PHASE, reinforcement_of[uid], ((uid, x, y, 90.0),)),
            )
            arrived = True
        for turn, e in later[uid]:
            d = e.data
            if removed:
                r.note(f"{_label(n)}: entry at {e.path} comes after the unit left the map; not imported")
                continue
            if "location" in d:
                if d["location"] is None:
                    if turn >= last_place_turn and arrived:
                        add(
                            turn,
                            e.t,
                            UnitRemoved(
                                turn, "", PHASE, uid, reason=f"taken off the map in ORBAT Mapper at {e.t.isoformat()}"
                            ),
                        )
                        removed = True
                    elif arrived:
                        r.note(
                            f"{_label(n)} is off the map from {e.t.isoformat()} until it comes back; "
                            "BattleStudio keeps it at its last place meanwhile",
                            e.path,
                        )
                else:
                    path_pts = [cm(r.position(v, f"{e.path}.via[{k}]")) for k, v in enumerate(r.arr(d, "via", e.path))]
                    end = cm(r.position(d["location"], f"{e.path}.location"))
                    if not arrived:
                        add(
                            turn,
                            e.t,
                            ReinforcementArrived(
                                turn, "", PHASE, reinforcement_of[uid], ((uid, end[0], end[1], 90.0),)
                            ),
                        )
                        arrived = True
                    else:
                        add(turn, e.t, Moved(turn, "", PHASE, uid, tuple([*path_pts, end])))
            if isinstance(d.get("status"), str) and d["status"]:
                s = d["status"]
                if is_unit and s.lower() in ORDER_STATE_BY_STATUS:
                    add(
                        turn,
                        e.t,
                        OrderStateChanged(
                            turn, "", PHASE, uid, ORDER_STATE_BY_STATUS[s.lower()], f"status {s!r} in ORBAT Mapper"
                        ),
                    )
                else:
                    add(
                        turn,
                        e.t,
                        Annotation(
                            turn, "", PHASE, text=f"{n.data.get('name') or uid}: status {s}", ids=(uid,), title="status"
                        ),
                    )
            if isinstance(d.get("sidc"), str):
                new = parse_sidc(d["sidc"])
                if is_unit and new is not None and new.status == DESTROYED:
                    add(
                        turn,
                        e.t,
                        OrderStateChanged(
                            turn,
                            "",
                            PHASE,
                            uid,
                            OrderState.ELIMINATED.value,
                            "symbol changed to destroyed in ORBAT Mapper",
                        ),
                    )
                else:
                    r.note(f"{_label(n)}: symbol change to {d['sidc']!r} not imported", e.path)
            hierarchy = d.get("hierarchy")
            if isinstance(hierarchy, Mapping):
                sup = _hierarchy_superior(hierarchy, nodes, sc)
                if sup is None or sup == uid or uid in sc.oob.chain_of_command(sup):
                    r.warn(
                        f"{_label(n)}: hierarchy move at {e.path} names no commander it can go under; not imported",
                        json.dumps(dict(hierarchy)),
                    )
                else:
                    add(turn, e.t, Attached(turn, "", PHASE, uid, sup))
            if isinstance(d.get("title"), str) and d["title"]:
                text = " — ".join(
                    str(d[k]) for k in ("title", "subTitle", "description") if isinstance(d.get(k), str) and d[k]
                )
                add(turn, e.t, Annotation(turn, "", PHASE, text=text, ids=(uid,), title=str(d["title"])))
            if d.get("update") or d.get("diff"):
                r.note(f"{_label(n)}: TO&E change at {e.path} not imported (strengths are the starting ones)")

    for i, ev in enumerate(events_in):
        path = f"$.events[{i}]"
        if "startTime" not in ev:
            raise r.fail(f"{path}.startTime", "missing (every scenario event needs its time)")
        t = r.time(ev["startTime"], f"{path}.startTime")
        turn = max(1, clock.turn(t))
        where: Mapping[str, Any] = ev["where"] if isinstance(ev.get("where"), Mapping) else {}
        ids = tuple(str(x) for x in where.get("units", []) if str(x) in nodes) if where.get("type") == "units" else ()
        at = None
        if where.get("type") == "geometry" and georef is not None:
            try:
                c = shapely.geometry.shape(where["geometry"]).centroid
                at = cm(r.position([c.x, c.y], f"{path}.where.geometry"))
            except (KeyError, TypeError, ValueError, AttributeError):
                r.warn(f"{path}.where.geometry cannot be read as GeoJSON; the event is pinned nowhere")
        text = " — ".join(str(ev[k]) for k in ("subTitle", "description") if isinstance(ev.get(k), str) and ev[k])
        add(
            turn,
            t,
            Annotation(
                turn, "", PHASE, text=text or str(ev.get("title", "")), at=at, ids=ids, title=str(ev.get("title", ""))
            ),
        )

    events = _as_game(timed, clock)
    last_turn = max((e.turn for e in events), default=0)
    if table is None:
        table = _table_for(sc)
    sc.info = ScenarioInfo(
        title=str(doc.get("name") or Path(file).stem),
        date=clock.start.date().isoformat(),
        place="",
        parameters={
            "orbat_mapper.source": {
                "id": str(doc.get("id", "")),
                "version": version,
                "startTime": clock.start.isoformat(),
                "timeZone": str(doc.get("timeZone", "")),
                "symbologyStandard": str(doc.get("symbologyStandard", "")),
            },
            "orbat_mapper.groups": groups,
            "orbat_mapper.sides": {
                sid: {"standardIdentity": str(side.get("standardIdentity", ""))} for sid, side, _p in sides
            },
        },
        georef=georef,
        table_width=float(table[0]),
        table_height=float(table[1]),
        ground_scale=scale,
        turn_minutes=clock.minutes,
        first_turn=f"{clock.start:%H:%M}",
        turns=max(1, last_turn),
        description=str(doc.get("description") or ""),
    )
    sc.sources.append(
        Source(
            title=f"ORBAT Mapper scenario: {sc.info.title}",
            url="",
            licence="",
            note=f"{Path(file).name}, format version {version}",
        )
    )
    for p in sc.validate_oob():
        r.warn(f"order of battle: {p.code}: {p.message}")
    return OrbatMapperImport(
        sc,
        r.warnings,
        roots=sc.oob.roots(),
        events=events,
        georef=georef,
        start=clock.start,
        turn_minutes=clock.minutes,
        units_in=len(nodes),
    )


def _as_game(timed: list[tuple[int, datetime, int, BattleEvent]], clock: _Clock) -> list[BattleEvent]:
    """The events in turn and time order, each turn opened by a ``PhaseStarted`` and closed by
    a ``TurnEnded``."""
    out: list[BattleEvent] = []
    timed.sort(key=lambda x: (x[0], x[1], x[2]))
    current = None
    for turn, _t, _seq, ev in timed:
        if turn != current:
            if current is not None:
                out.append(TurnEnded(current, "", PHASE))
            out.append(PhaseStarted(turn, "", PHASE, name=f"ORBAT Mapper state, {clock.label(turn)}"))
            current = turn
        out.append(ev)
    if current is not None:
        out.append(TurnEnded(current, "", PHASE))
    return out


def _descendants(nodes: Mapping[str, Node], uid: str) -> list[str]:
    out: list[str] = []
    stack = list(reversed(nodes[uid].children))
    while stack:
        c = stack.pop()
        out.append(c)
        stack.extend(reversed(nodes[c].children))
    return out


def _centre(points: Sequence[tuple[float, float] | None]) -> tuple[float, float] | None:
    pts = [p for p in points if p is not None]
    if not pts:
        return None
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def _label(n: Node) -> str:
    return f"{n.path} {n.data.get('name') or n.id!r}" if n.data.get("name") else n.path


def _echelon_below(sc: Scenario, n: Node) -> str:
    """One echelon below the superior's (brigade at most), army for a root."""
    order = [e.value for e in Echelon]
    if n.parent is None or n.parent not in sc.commanders:
        return Echelon.ARMY.value
    rank = ECHELON_RANK.get(sc.commanders[n.parent].echelon, len(order) - 2)
    return order[min(rank + 1, len(order) - 1)]


def _hierarchy_superior(h: Mapping[str, Any], nodes: Mapping[str, Node], sc: Scenario) -> str | None:
    """The commander a timed hierarchy move puts the unit under: the target itself ("on"), or
    the target's parent (``parentId``, else its superior now) for "above"/"below"."""
    target = str(h.get("targetId", ""))
    if h.get("placement", "on") == "on":
        return target if target in sc.commanders or (target in nodes and target not in sc.units) else None
    parent = h.get("parentId") or sc.oob.superior(target)
    return str(parent) if parent and str(parent) in sc.commanders else None


def _table_for(sc: Scenario) -> tuple[float, float]:
    places = [u.position for u in sc.units.values()] + [c.position for c in sc.commanders.values()]
    xs = [p[0] for p in places]
    ys = [p[1] for p in places]
    if not xs:
        return (ScenarioInfo().table_width, ScenarioInfo().table_height)
    return (max(10.0, math.ceil(max(xs) + 10)), max(10.0, math.ceil(max(ys) + 10)))
