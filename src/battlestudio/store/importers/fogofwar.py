"""Importer of the fogofwar ("Action Front") tables: force + force_unit + lookup tables.

The tables (steveoc64/fogofwar, MIT; ``shared/data/oob/SOURCES.md`` §1) hold, per scenario, the
top-level commands (``force.csv``: nation, commander, level, command rating, inspiration,
condition) and their order of battle (``force_unit.csv``: a dotted ``path`` under the force,
``utype`` command/infantry/cavalry/artillery/other, ``bayonets`` and ``sabres`` = men, ``guns``
= real pieces, ``rating``/``cav_type``/``gunnery_type``/``drill`` codes). The ``lookup_*.csv``
tables decode the codes.

Rows are read as the data gives them, with four transformations, each reported as a note:
a row with both bayonets and sabres becomes an infantry and a cavalry unit; guns on an infantry
or cavalry row become an attached battery (6 guns or more) or stay on the unit as battalion
guns (fewer); a row nested under a unit row goes to that unit's commander; the ``_Copy`` suffix
the game's editor gave a copied row (which its user then made into another unit: ``9e
Hussar_Copy`` beside ``10e Hussar``) is dropped from the name. A row that cannot
be read (bad number, unknown code) yields a warning naming file and row, and so does a unit
row with no bayonets, sabres or guns (kept with 0 men, or skipped when it would be an empty
cavalry unit).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from battlestudio.model.side_colours import side_colour
from battlestudio.model.scenario import Scenario, Side, Source
from battlestudio.model.units import Arm, Commander, Echelon, Quality, Subtype, Unit
from battlestudio.store.importers.common import (
    MAX_STRENGTH,
    IdMaker,
    ImportResult,
    ImportWarning,
    OobImportError,
    MAX_DEPTH,
    csv_rows,
    slug,
    whole_number,
)
from battlestudio.rules.toe.scale import BATTERY_CATEGORY, map_echelon

LICENCE = "MIT (Copyright (c) 2016 SteveOC)"
REPO = "https://github.com/steveoc64/fogofwar"
BATTALION_GUNS_MAX = 5
"""Guns on an infantry/cavalry row up to this many stay on it as battalion guns; more become
an attached battery (an importer reading of the data, not a rule)."""

LEVEL_ECHELON = {1: Echelon.ARMY.value, 2: Echelon.CORPS.value, 3: Echelon.DIVISION.value, 4: Echelon.BRIGADE.value}
"""lookup_cmd_level id → echelon (5 Battalion and 6 Company have no Torden over Europa twin)."""

RATING_QUALITY = {
    "Guard": Quality.GUARD,
    "Grenadier": Quality.ELITE,
    "Elite": Quality.ELITE,
    "Crack Line": Quality.CRACK,
    "Regular Line": Quality.REGULAR,
    "Reserve Line": Quality.CONSCRIPT,
    "Conscript": Quality.CONSCRIPT,
    "Landwehr": Quality.MILITIA,
    "Militia": Quality.MILITIA,
    "Rabble": Quality.RABBLE,
}
"""lookup_rating name → Quality."""

_Row = dict[str, str]
"""One CSV row, column → cell."""

HEAVY_CAV = {"Cuirassier", "Heavy Dragoons", "Carabiniers"}
MEDIUM_CAV = {"Dragoons"}
LIGHT_DRILL = {"French Legere", "Drilled Light Infantry", "Irregular Light Infantry"}


COLUMNS = {
    "force.csv": (
        "id",
        "scenario_id",
        "nation",
        "name",
        "commander_name",
        "level",
        "rating",
        "inspiration",
        "condition",
    ),
    "force_unit.csv": (
        "id",
        "force_id",
        "path",
        "name",
        "commander_name",
        "nation",
        "utype",
        "cmd_level",
        "drill",
        "bayonets",
        "rating",
        "sabres",
        "cav_type",
        "cav_rating",
        "guns",
        "gunnery_type",
        "horse_guns",
    ),
    "scenario.csv": ("id", "name"),
    "lookup_cmd_rating.csv": ("id", "name", "effect"),
    "lookup_inspiration.csv": ("id", "name", "effect"),
    "lookup_condition.csv": ("id", "name", "effect"),
}
"""Columns each table must have (a ``lookup_*.csv`` not listed needs ``id`` and ``name``); others are ignored."""


class _Tables:
    """The CSV tables of one fogofwar directory, with lookups by id.

    Every table's header is checked for the columns the import reads (``COLUMNS``) before a
    row is used, and every row holds each column (an empty cell reads ``""``); a lookup's
    ``effect`` must be a whole number (a minus sign allowed)."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.warnings: list[ImportWarning] = []  # short rows, named by table and row
        self.rowno: dict[int, int] = {}  # id(row) -> its line in the file
        self.force = self._unique(self._rows("force.csv"), "force.csv")
        self.force_unit = self._unique(self._rows("force_unit.csv"), "force_unit.csv")
        self.scenario = self._rows("scenario.csv", required=False)
        self.lookup = {
            name: {r["id"].strip(): r for r in self._rows(f"lookup_{name}.csv")}
            for name in (
                "utype",
                "cmd_level",
                "rating",
                "cmd_rating",
                "inspiration",
                "condition",
                "drill",
                "cav_type",
                "gunnery",
            )
        }

    def _rows(self, name: str, required: bool = True) -> list[dict[str, str]]:
        p = self.dir / name
        if not p.exists():
            if required:
                raise OobImportError(
                    f"{self.dir}: table {name}: missing; a fogofwar import reads the folder holding the tables "
                    "force.csv, force_unit.csv and lookup_*.csv (give the folder, or a file in it)"
                )
            return []
        _, rows = csv_rows(p, COLUMNS.get(name, ("id", "name")), warnings=self.warnings)
        out = []
        for rowno, r in rows:
            self.rowno[id(r)] = rowno
            effect = r.get("effect")
            if effect is not None and whole_number(effect.strip().removeprefix("-")) is None:
                raise OobImportError(f"{p}: row {rowno}: column 'effect': {effect!r} is not a whole number")
            out.append(r)
        return out

    def _unique(self, rows: list[dict[str, str]], name: str) -> list[dict[str, str]]:
        """The rows with an id not seen on an earlier row; each repeat is a warning naming its line
        (a repeated force would otherwise import its whole subtree once per copy)."""
        first: dict[str, int] = {}
        out = []
        for r in rows:
            rowno = self.rowno.get(id(r), 0)
            key = r["id"].strip()
            if key in first:
                self.warnings.append(
                    ImportWarning(
                        str(self.dir / name),
                        rowno,
                        f"id {key!r} was given already on row {first[key]}; row skipped",
                        _render(r),
                    )
                )
                continue
            first[key] = rowno
            out.append(r)
        return out


def _int(row: dict[str, str], col: str, file: str, rowno: int, warnings: list[ImportWarning]) -> int:
    raw = (row.get(col) or "").strip()
    if raw == "":
        return 0
    if raw.startswith("-") and whole_number(raw[1:]) is not None:
        warnings.append(ImportWarning(file, rowno, f"column {col!r}: negative value {raw}; read as 0", _render(row)))
        return 0
    v = whole_number(raw)
    if v is None or v > MAX_STRENGTH:
        expected = "a whole number" if v is None else f"at most {MAX_STRENGTH:,}"
        shown = raw if len(raw) <= 40 else raw[:37] + "..."
        warnings.append(
            ImportWarning(file, rowno, f"column {col!r}: {shown!r} is not {expected}; read as 0", _render(row))
        )
        return 0
    return v


def _render(row: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in row.items() if k in ("id", "force_id", "path", "name") and v)


def import_fogofwar(
    directory: str | Path,
    scenario_id: int | None = None,
    force_ids: Iterable[int] | None = None,
    sides: dict[str, str] | None = None,
    scenario: Scenario | None = None,
) -> ImportResult:
    """Import fogofwar forces and their units.

    Parameters
    ----------
    directory : str | Path
        folder holding ``force.csv``, ``force_unit.csv`` and the ``lookup_*.csv`` tables (a path
        to one of those files is accepted too).
    scenario_id : int | None
        import the forces of this fogofwar scenario (1 Jena-Auerstedt, 17 Eylau, 18 Elchingen);
        may be left out only when the tables hold one scenario.
    force_ids : iterable of int | None
        import exactly these forces (in this order); overrides ``scenario_id``.
    sides : dict[str, str] | None
        nation → side id; default the slug of the force's nation (``"france"``).
    scenario : Scenario | None
        scenario to add to (a new one by default).

    Returns
    -------
    ImportResult
        ``roots`` holds one commander id per force, in force order.

    Raises
    ------
    OobImportError
        when a table is missing or unreadable, no force matches, or neither ``force_ids`` nor
        ``scenario_id`` is given while the tables hold several scenarios (the message lists
        their ids and names).
    """
    d = Path(directory)
    if d.is_file():
        d = d.parent
    t = _Tables(d)
    fu_file = str(d / "force_unit.csv")
    sc = scenario if scenario is not None else Scenario()
    ids = IdMaker(sc.all_ids())
    warnings: list[ImportWarning] = list(t.warnings)
    if force_ids is not None:
        wanted = [str(i) for i in force_ids]
        by_id = {f["id"]: f for f in t.force}
        missing = [i for i in wanted if i not in by_id]
        if missing:
            raise OobImportError(f"{d / 'force.csv'}: no force with id {', '.join(missing)}")
        forces = [by_id[i] for i in wanted]
    elif scenario_id is not None:
        forces = [f for f in t.force if f["scenario_id"] == str(scenario_id)]
        if not forces:
            raise OobImportError(f"{d / 'force.csv'}: no force belongs to scenario {scenario_id}")
    else:
        forces = list(t.force)
        in_tables = sorted({f["scenario_id"] for f in forces}, key=lambda x: (len(x), x))
        if len(in_tables) > 1:
            names = {r.get("id", ""): (r.get("name") or "").strip() for r in t.scenario}
            listed = ", ".join(f"{i} ({names[i]})" if names.get(i) else i for i in in_tables)
            raise OobImportError(
                f"{d / 'force.csv'}: the tables hold {len(in_tables)} scenarios; choose one "
                f"with --scenario-id: {listed}"
            )
    rows_by_force: dict[str, list[tuple[int, dict[str, str]]]] = {}
    for r in t.force_unit:
        i = t.rowno.get(id(r), 0)
        rows_by_force.setdefault(r["force_id"], []).append((i, r))
    known_forces = {f["id"] for f in t.force}
    for rowno, r in ((i, r) for fid, rs in rows_by_force.items() if fid not in known_forces for i, r in rs):
        warnings.append(
            ImportWarning(fu_file, rowno, f"force_id {r['force_id']!r} is not in force.csv; row skipped", _render(r))
        )
    roots: list[str] = []
    for f in forces:
        roots.append(_import_force(t, f, rows_by_force.get(f["id"], []), sc, ids, warnings, sides or {}, fu_file))
    sc.sources.append(
        Source(
            "fogofwar / Action Front order-of-battle tables (steveoc64/fogofwar, database/actionfront.sql)",
            REPO,
            LICENCE,
            "forces: " + ", ".join(f"{f['id']} {f['name']}" for f in forces),
        )
    )
    sc.info = replace(
        sc.info,
        parameters={
            **sc.info.parameters,
            "toe.assumed.command_ability_from": (
                "fogofwar lookup_cmd_rating.effect (Magnificent +2 … Blithering Idiot -2)"
            ),
        },
    )
    return ImportResult(sc, warnings, roots)


def _lookup_name(t: _Tables, table: str, code: str) -> str | None:
    row = t.lookup[table].get(code.strip())
    return row["name"] if row else None


def _import_force(
    t: _Tables,
    f: _Row,
    rows: list[tuple[int, _Row]],
    sc: Scenario,
    ids: IdMaker,
    warnings: list[ImportWarning],
    sides: dict[str, str],
    fu_file: str,
) -> str:
    nation = f["nation"].strip()
    side = sides.get(nation, slug(nation))
    if side not in sc.sides:
        sc.sides[side] = Side(side, nation, (nation,), side_colour(nation, (s.colour for s in sc.sides.values())))
    level = LEVEL_ECHELON.get(whole_number(f["level"]) or 0)
    force_file = str(t.dir / "force.csv")
    if level is None:
        warnings.append(
            ImportWarning(
                force_file, 0, f"force {f['id']}: level {f['level']!r} has no echelon; read as corps", f["name"], "note"
            )
        )
        level = Echelon.CORPS.value
    order = [e.value for e in Echelon]
    highest = min(
        (
            order.index(LEVEL_ECHELON[whole_number(r["cmd_level"]) or 0])
            for _, r in rows
            if r["utype"].strip() == "1" and (whole_number(r["cmd_level"]) or 0) in LEVEL_ECHELON
        ),
        default=len(order),
    )
    if highest == order.index(level) or (highest < order.index(level) and level == Echelon.BRIGADE.value):
        raised = order[max(highest - 1, 0)]
        warnings.append(
            ImportWarning(
                force_file,
                0,
                f"force {f['id']} ({f['name']}) is a {level} over commands "
                f"of echelon {order[highest]}; read as a {raised}",
                f["name"],
                "note",
            )
        )
        level = raised
    attrs: dict[str, Any] = {"formation": f["name"], "source_id": f"force:{f['id']}"}
    ke: int | None = None
    for col, table in (("rating", "cmd_rating"), ("inspiration", "inspiration"), ("condition", "condition")):
        row = t.lookup[table].get(f[col].strip())
        if row is None and f[col].strip():
            warnings.append(ImportWarning(force_file, 0, f"force {f['id']}: unknown {col} code {f[col]!r}", f["name"]))
        elif row is not None:
            attrs[f"fogofwar_{table}"] = row["name"]
            attrs[f"fogofwar_{table}_effect"] = int(row["effect"])
            if table == "cmd_rating":
                ke = int(row["effect"])
    root = ids.make(side, f["name"])
    sc.commanders[root] = Commander(
        root,
        f["commander_name"].strip() or f["name"],
        side,
        nation,
        level,
        figures=_FIGS[level],
        command_ability=ke,
        attributes=attrs,
    )
    sc.oob.add_node(root)
    node_of: dict[str, str] = {}  # path -> commander id (commands) or unit id (units)
    cmd_of: dict[str, str] = {}  # path -> commander id responsible for that path
    for rowno, r in sorted(rows, key=lambda x: (x[1]["path"].count("."), x[0])):
        path = r["path"].strip()
        if path.count(".") >= MAX_DEPTH:
            warnings.append(
                ImportWarning(
                    fu_file, rowno, f"column 'path': more than {MAX_DEPTH} levels deep; row skipped", _render(r)
                )
            )
            continue
        parent_path = path.rsplit(".", 1)[0] if "." in path else ""
        parent = root
        while parent_path:
            if parent_path in cmd_of:
                parent = cmd_of[parent_path]
                if node_of[parent_path] != parent:
                    warnings.append(
                        ImportWarning(
                            fu_file,
                            rowno,
                            f"row nested under unit row {parent_path!r}; attached to that unit's commander",
                            _render(r),
                            "note",
                        )
                    )
                break
            parent_path = parent_path.rsplit(".", 1)[0] if "." in parent_path else ""
        else:
            if "." in path:
                warnings.append(
                    ImportWarning(
                        fu_file,
                        rowno,
                        f"no row for the parent path of {path!r}; attached to the force commander",
                        _render(r),
                    )
                )
        utype = r["utype"].strip()
        if utype == "1":
            cid = _command(t, r, rowno, parent, side, nation, sc, ids, warnings, fu_file)
            node_of[path] = cid
            cmd_of[path] = cid
        elif utype in ("2", "3", "4", "5"):
            made = _units(t, r, rowno, side, nation, ids, warnings, fu_file)
            for u in made:
                sc.units[u.id] = u
                sc.oob.add(parent, u.id)
            node_of[path] = made[0].id if made else parent
            cmd_of[path] = parent
        else:
            warnings.append(ImportWarning(fu_file, rowno, f"unknown utype {utype!r}; row skipped", _render(r)))
    return root


_FIGS = {"c_in_c": 6, "army": 4, "corps": 3, "division": 2, "brigade": 2}


def _command(
    t: _Tables,
    r: _Row,
    rowno: int,
    parent: str,
    side: str,
    nation: str,
    sc: Scenario,
    ids: IdMaker,
    warnings: list[ImportWarning],
    fu_file: str,
) -> str:
    lvl = r["cmd_level"].strip()
    src = LEVEL_ECHELON.get(whole_number(lvl) or 0)
    if src is None:
        name = _lookup_name(t, "cmd_level", lvl) or lvl
        warnings.append(
            ImportWarning(
                fu_file,
                rowno,
                f"command level {name!r} has no Torden over Europa echelon; read as one below its superior",
                _render(r),
                "note",
            )
        )
        src = Echelon.BRIGADE.value
    if src == Echelon.BRIGADE.value and re.search(r"\bdiv", r["name"], re.IGNORECASE):
        warnings.append(
            ImportWarning(
                fu_file,
                rowno,
                "command level Brigade on a row named a division; read as a division",
                _render(r),
                "note",
            )
        )
        src = Echelon.DIVISION.value
    ech, note = map_echelon(src, nation, None, sc.commanders[parent].echelon)
    if note:
        warnings.append(ImportWarning(fu_file, rowno, note, _render(r), "note"))
    name = _row_name(r, rowno, warnings, fu_file)
    cid = ids.make(side, name)
    attrs = {"formation": name, "source_id": f"force_unit:{r['id']}", "source_echelon": src}
    if r.get("descr"):
        attrs["description"] = r["descr"].strip()
    sc.commanders[cid] = Commander(
        cid,
        r["commander_name"].strip() or name,
        side,
        (r["nation"] or nation).strip(),
        ech,
        figures=_FIGS[ech],
        attributes=attrs,
    )
    sc.oob.add(parent, cid)
    return cid


COPY_SUFFIX = "_Copy"
"""What the fogofwar editor appends to the name (and path) of a row its user copied. The user
renames the copy into another unit and the suffix stays: ``9e Hussar_Copy`` is the 9e Hussars,
copied from the 10e Hussar row beside it (Treilhard's brigade of V Corps held both regiments)."""


def _row_name(r: _Row, rowno: int, warnings: list[ImportWarning], fu_file: str) -> str:
    """The row's name without the editor's copy suffix (a note says so)."""
    name = r["name"].strip() or r["path"]
    if name.endswith(COPY_SUFFIX) and name[: -len(COPY_SUFFIX)].strip():
        name = name[: -len(COPY_SUFFIX)].strip()
        warnings.append(
            ImportWarning(
                fu_file,
                rowno,
                f"name {r['name'].strip()!r} ends with the fogofwar editor's "
                f"copy suffix (a user's copy of a row, renamed); read as {name!r}",
                _render(r),
                "note",
            )
        )
    return name


def _quality(
    t: _Tables, code: str, r: _Row, rowno: int, warnings: list[ImportWarning], fu_file: str
) -> tuple[str, str]:
    name = _lookup_name(t, "rating", code)
    if name is None:
        warnings.append(
            ImportWarning(fu_file, rowno, f"unknown rating code {code!r}; read as Regular Line", _render(r))
        )
        return Quality.REGULAR.value, ""
    return RATING_QUALITY.get(name, Quality.REGULAR).value, name


def _units(
    t: _Tables,
    r: _Row,
    rowno: int,
    side: str,
    nation: str,
    ids: IdMaker,
    warnings: list[ImportWarning],
    fu_file: str,
) -> list[Unit]:
    utype = r["utype"].strip()
    before = len(warnings)
    bay = _int(r, "bayonets", fu_file, rowno, warnings)
    sab = _int(r, "sabres", fu_file, rowno, warnings)
    guns = _int(r, "guns", fu_file, rowno, warnings)
    unreadable = len(warnings) > before  # a cell that is not a number is warned already
    name = _row_name(r, rowno, warnings, fu_file)
    base_attrs = {"source_id": f"force_unit:{r['id']}"}
    if r.get("descr"):
        base_attrs["description"] = r["descr"].strip()
    unit_nation = (r["nation"] or nation).strip()
    out: list[Unit] = []
    if utype == "4":
        out.append(_battery(t, r, rowno, name, guns, ids, side, unit_nation, base_attrs, warnings, fu_file))
        return out
    if utype == "5":
        q, qn = _quality(t, r["rating"], r, rowno, warnings, fu_file)
        out.append(
            Unit(
                ids.make(side, name),
                name,
                arm=Arm.OTHER,
                quality=q,
                men=bay + sab,
                horses=sab,
                guns=guns,
                attributes={**base_attrs, "fogofwar_rating": qn},
                side=side,
                nation=unit_nation,
            )
        )
        return out
    if bay > 0 or (utype == "2" and sab == 0):
        q, qn = _quality(t, r["rating"], r, rowno, warnings, fu_file)
        drill = _lookup_name(t, "drill", r["drill"]) or ""
        sub = (
            Subtype.GRENADIERS
            if qn == "Grenadier"
            else Subtype.LIGHT_INFANTRY
            if drill in LIGHT_DRILL
            else Subtype.LINE_INFANTRY
        )
        out.append(
            Unit(
                ids.make(side, name),
                name,
                arm=Arm.INFANTRY,
                subtype=sub,
                quality=q,
                men=bay,
                attributes={**base_attrs, "fogofwar_rating": qn, "fogofwar_drill": drill},
                side=side,
                nation=unit_nation,
            )
        )
    if sab > 0:
        code = r["cav_rating"] if r["cav_rating"].strip() not in ("", "0") else r["rating"]
        q, qn = _quality(t, code, r, rowno, warnings, fu_file)
        ct = _lookup_name(t, "cav_type", r["cav_type"])
        if ct is None:
            warnings.append(
                ImportWarning(fu_file, rowno, f"unknown cav_type {r['cav_type']!r}; read as light cavalry", _render(r))
            )
        sub = (
            Subtype.HEAVY_CAVALRY
            if ct in HEAVY_CAV
            else Subtype.MEDIUM_CAVALRY
            if ct in MEDIUM_CAV
            else Subtype.LIGHT_CAVALRY
        )
        cname = name if not out else f"{name} (cavalry)"
        out.append(
            Unit(
                ids.make(side, cname),
                cname,
                arm=Arm.CAVALRY,
                subtype=sub,
                quality=q,
                men=sab,
                horses=sab,
                attributes={**base_attrs, "fogofwar_rating": qn, "fogofwar_cav_type": ct or ""},
                side=side,
                nation=unit_nation,
            )
        )
        if len(out) == 2:
            warnings.append(
                ImportWarning(
                    fu_file,
                    rowno,
                    f"{bay} bayonets and {sab} sabres: split into an infantry and a cavalry unit",
                    _render(r),
                    "note",
                )
            )
    if guns > 0:
        if guns > BATTALION_GUNS_MAX or not out:
            out.append(
                _battery(t, r, rowno, f"{name} battery", guns, ids, side, unit_nation, base_attrs, warnings, fu_file)
            )
            warnings.append(
                ImportWarning(
                    fu_file,
                    rowno,
                    f"{guns} guns on a {'cavalry' if utype == '3' else 'infantry'} row: made an attached battery",
                    _render(r),
                    "note",
                )
            )
        else:
            out[0] = replace(out[0], guns=guns, attributes={**out[0].attributes, "battalion_guns": guns})
            warnings.append(
                ImportWarning(fu_file, rowno, f"{guns} guns kept on the unit as battalion guns", _render(r), "note")
            )
    if not out:
        warnings.append(
            ImportWarning(fu_file, rowno, f"unit {name!r} has no bayonets, sabres or guns; row skipped", _render(r))
        )
    elif not unreadable and all(u.men == 0 and u.guns == 0 for u in out):
        warnings.append(
            ImportWarning(
                fu_file,
                rowno,
                f"unit {name!r} has no bayonets, sabres or guns; imported with 0 men: fill in its strength",
                _render(r),
            )
        )
    return out


def _battery(
    t: _Tables,
    r: _Row,
    rowno: int,
    name: str,
    guns: int,
    ids: IdMaker,
    side: str,
    unit_nation: str,
    base_attrs: dict[str, str],
    warnings: list[ImportWarning],
    fu_file: str,
) -> Unit:
    gname = _lookup_name(t, "gunnery", r["gunnery_type"])
    if gname is None:
        warnings.append(
            ImportWarning(fu_file, rowno, f"unknown gunnery_type {r['gunnery_type']!r}; read as 6lb", _render(r))
        )
    if guns == 0:
        warnings.append(ImportWarning(fu_file, rowno, "artillery row with 0 guns", _render(r)))
    horse = r["horse_guns"].strip().lower() in ("t", "true", "1")
    sub = Subtype.HORSE_ARTILLERY if horse else Subtype.HEAVY_ARTILLERY if gname == "12lb" else Subtype.FOOT_ARTILLERY
    q, qn = _quality(t, r["rating"], r, rowno, warnings, fu_file)
    return Unit(
        ids.make(side, name),
        name,
        arm=Arm.ARTILLERY,
        subtype=sub,
        quality=q,
        guns=guns,
        bases=1,
        attributes={
            **base_attrs,
            "gun_category": BATTERY_CATEGORY[sub],
            "fogofwar_gunnery": gname or "",
            "fogofwar_rating": qn,
        },
        side=side,
        nation=unit_nation,
    )
