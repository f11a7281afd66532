"""Importer of orders of battle kept in a table (CSV or XLSX), read through a column mapping.

The mapping is a TOML file (or the same dict; ``docs/import-mapping.md`` says the same for
users). Sections and keys (anything else is refused, naming the file, the key and the value;
``tabular_mapping.load_mapping`` checks them)::

    [hierarchy]       # how rows nest: exactly one of path, id (+ parent) or levels
    path = "path"          # column with a path such as "3eme_Division.12e_Ligne"; each part
                           # is a command above the row ("_" reads as a space)
    separator = "."        # (path) what splits the path; default "."
    prefix = "force_id"    # (path, optional) column whose value puts each path under a top command
    id = "id"              # column with the row's own id ...
    parent = "parent_id"   # ... and the column with its superior's id (empty: a top entry)
    levels = ["army", "corps", "division", "brigade"]
                           # one column per echelon, top first, each named once; a row sits
                           # under the names in the columns left of its last filled one (under
                           # all of them when its name differs from the last); the row's side
                           # is part of the path, so equal names on two sides are two commands
    sheet = "OOB"          # (XLSX, optional) worksheet; default the first

    [columns]         # each value a column name of the header (quoted string)
    name = "name"               # name of the formation or unit (needed unless levels)
    commander = "commander_name"  # person commanding it
    men = ["bayonets", "sabres"]  # men, horses and guns may list several columns to add up
    horses = "sabres"
    guns = "guns"               # real pieces
    bases = "battalions"        # game elements (battalions...) for a unit without a head count
    arm = "utype"               # read through [values.arm], else inf/cav/art/hq words
    quality = "rating"          # read through [values.quality], else a Quality or grade word
    nation = "nation"
    side = "nation"             # read through [values.side], else slugged
    echelon = "cmd_level"       # read through [values.echelon], else an Echelon value
    year = "year"               # used to map echelons (e.g. a 1806 French corps)

    [values.arm]      # source value -> infantry | cavalry | artillery | other | command
    "1" = "command"
    [values.quality]  # source value -> guard | elite | veteran | crack | regular | conscript |
    "5" = "regular"   #                 militia | rabble
    [values.echelon]  # source value -> c_in_c | army | corps | division | brigade
    "2" = "corps"
    [values.side]     # source value -> side id (all values are quoted strings)
    French = "french"

    [defaults]        # when a column is not mapped or a cell is empty
    side = "french"
    nation = "France"
    quality = "regular"
    arm = "infantry"       # used when no arm column is mapped
    year = 1806            # a number, or a string of digits

    [source]          # where the data comes from (goes into Scenario.sources)
    title = "Waterloo order of battle"
    url = "https://example.org/waterloo"
    licence = "CC BY-SA 4.0"

A row becomes a commander when its arm maps to ``command`` (or is empty while an arm column is
mapped) or when other rows sit under it; any other row becomes a unit. Strengths on commander
rows are kept as ``stated_men``/``stated_guns`` attributes, not counted twice. Every value that
cannot be read yields an ``ImportWarning`` naming the file and the row (the header is row 1), and
so does a unit with neither men nor guns (it is kept, with 0 men).
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Mapping

from battlestudio.model.side_colours import side_colour
from battlestudio.model.scenario import Scenario, Side, Source
from battlestudio.model.units import SUBTYPE_ARM, Arm, Commander, Quality, Subtype, Unit
from battlestudio.store.importers.common import (
    MAX_DEPTH,
    MAX_ROWS,
    MAX_STRENGTH,
    IdMaker,
    ImportResult,
    ImportWarning,
    OobImportError,
    check_input_file,
    clean_text,
    csv_rows,
    slug,
    strength,
)
from battlestudio.store.importers.republique5 import _source_echelon
from battlestudio.store.importers.tabular_mapping import ECHELONS, Mapping_, load_mapping
from battlestudio.store.importers.republique5_words import GRADES, NATIONS
from battlestudio.rules.toe.scale import map_echelon

ARM_ALIASES = {
    "inf": "infantry",
    "infantry": "infantry",
    "i": "infantry",
    "cav": "cavalry",
    "cavalry": "cavalry",
    "c": "cavalry",
    "art": "artillery",
    "arty": "artillery",
    "artillery": "artillery",
    "a": "artillery",
    "other": "other",
    "command": "command",
    "hq": "command",
    "": "command",
}
"""Arm words understood without a ``[values.arm]`` table."""
SUBTYPE_ALIASES: dict[tuple[str, str], str] = {
    ("infantry", "line"): "line_infantry",
    ("infantry", "light"): "light_infantry",
    ("infantry", "skirmishers"): "skirmishers",
    ("infantry", "grenadiers"): "grenadiers",
    ("cavalry", "light"): "light_cavalry",
    ("cavalry", "medium"): "medium_cavalry",
    ("cavalry", "heavy"): "heavy_cavalry",
    ("artillery", "foot"): "foot_artillery",
    ("artillery", "horse"): "horse_artillery",
    ("artillery", "heavy"): "heavy_artillery",
    ("artillery", "12pdr"): "heavy_artillery",
    ("", "horse artillery"): "horse_artillery",
    ("", "ha"): "horse_artillery",
    ("", "foot artillery"): "foot_artillery",
    ("", "fa"): "foot_artillery",
}
"""Subtype words (with the row's arm) understood without a ``[values.subtype]`` table."""
ESTIMATE_RE = re.compile(
    r"(?:(?:c|ca|circa|about|approx|approximately|some|around|est)\.?\s*|~\s*|≈\s*)"
    r"(?P<a>[0-9][0-9,_]*(?:\.[0-9]+)?)\s*\??|(?P<b>[0-9][0-9,_]*(?:\.[0-9]+)?)\s*\?",
    re.I,
)
"""A strength given as an estimate: ``c. 400``, ``ca 400``, ``~400``, ``about 400``, ``400?``."""
STATED_TOLERANCE = 0.05
"""A command row's stated men or guns agree with the units under it within this fraction."""


def estimate(text: str) -> int | None:
    """The number of an estimated strength (``"c. 400"``, ``"~400"``, ``"400?"`` → 400), or
    None when ``text`` is not written as an estimate."""
    m = ESTIMATE_RE.fullmatch(text.strip())
    if m is None:
        return None
    return strength(m.group("a") or m.group("b"))


_FIGS = {"c_in_c": 6, "army": 4, "corps": 3, "division": 2, "brigade": 2}


def _check_kind(path: Path, fmt: str) -> None:
    """Refuse a file whose content is not ``fmt`` (an XLSX workbook is a zip archive)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError as e:
        raise OobImportError(f"{path}: cannot read ({e.strerror or e})") from e
    is_zip = head.startswith(b"PK\x03\x04")
    if fmt == "xlsx" and not is_zip:
        raise OobImportError(
            f"{path}: --format xlsx, but the file is not an XLSX workbook (not a zip archive); "
            "for a CSV file use --format csv"
        )
    if fmt == "csv" and is_zip:
        raise OobImportError(
            f"{path}: --format csv, but the file is a zip archive (an XLSX workbook?); use --format xlsx"
        )


def read_header(
    path: str | Path, fmt: str | None = None, sheet: str | None = None, rows: int = 0
) -> tuple[list[str], list[dict[str, str]]]:
    """The column names of a CSV or XLSX file (its first row), as a mapping names them, and
    its first ``rows`` rows (column → cell).

    Raises
    ------
    OobImportError
        for a file that cannot be read, or whose content is not ``fmt``.
    """
    header, it = _read_rows(Path(path), sheet, fmt, [])
    first: list[dict[str, str]] = []
    for _n, row in it:
        if len(first) >= rows:
            break
        first.append(row)
    return header, first


def _read_rows(
    path: Path, sheet: str | None, fmt: str | None = None, warnings: list[ImportWarning] | None = None
) -> tuple[list[str], Iterable[tuple[int, dict[str, str]]]]:
    """Header and (row number, row) pairs of a CSV or XLSX file; the header is row 1.

    ``fmt`` (``"csv"`` or ``"xlsx"``) is checked against the file's content; without it the
    suffix decides. A CSV file is read row by row; both stop with an ``OobImportError`` past
    ``MAX_ROWS`` rows, and a file over ``MAX_FILE_BYTES`` is refused before it is read.
    """
    check_input_file(path)
    if fmt is not None:
        _check_kind(path, fmt)
    if fmt == "xlsx" or (fmt is None and path.suffix.lower() in (".xlsx", ".xlsm")):
        return _read_xlsx(path, sheet)
    return csv_rows(path, warnings=warnings)


def _cell(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return str(v)


XLSX_MAX_MEMBERS = 10_000
"""Most members (files) read from an XLSX zip archive; a workbook has a few dozen."""
XLSX_MAX_MEMBER_BYTES = 64 << 20
"""Largest unpacked size of one XLSX member (64 MiB; a sheet of 100,000 rows is about 20 MiB)."""
XLSX_MAX_TOTAL_BYTES = 256 << 20
"""Largest unpacked size of all XLSX members together (256 MiB)."""
XLSX_MAX_RATIO = 100
"""Highest compression ratio of a member over 1 MiB unpacked (real sheets compress 5-30 to 1)."""
XLSX_MAX_COLUMNS = 1_000
"""Most columns read from a worksheet row (a mapping names a few dozen)."""


def check_xlsx_archive(path: Path) -> None:
    """Refuse an XLSX file whose zip members would be costly to unpack, before anything is
    extracted: more than ``XLSX_MAX_MEMBERS`` members, a member over ``XLSX_MAX_MEMBER_BYTES``
    or compressed more than ``XLSX_MAX_RATIO`` to 1, or more than ``XLSX_MAX_TOTAL_BYTES`` in all
    (the sizes in the zip directory; Python's ``zipfile`` never unpacks more than they say).

    Raises
    ------
    OobImportError
        naming the file, the member and the limit; or that the file is not a zip archive.
    """
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            members = z.infolist()
    except (OSError, zipfile.BadZipFile, ValueError, EOFError) as e:
        raise OobImportError(f"{path}: not a readable XLSX workbook (not a valid zip archive: {e})") from e
    except NotImplementedError as e:  # a zip version or compression method zipfile does not read
        raise OobImportError(
            f"{path}: not a readable XLSX workbook (its zip archive uses a feature this reader lacks: {e}); "
            "save it again from the spreadsheet program"
        ) from e
    if len(members) > XLSX_MAX_MEMBERS:
        raise OobImportError(
            f"{path}: the workbook holds {len(members):,} zip members, more than the "
            f"{XLSX_MAX_MEMBERS:,} an import reads"
        )
    total = 0
    for m in members:
        total += m.file_size
        if m.file_size > XLSX_MAX_MEMBER_BYTES:
            raise OobImportError(
                f"{path}: zip member {clean_text(m.filename)!r}: unpacks to {m.file_size:,} bytes, more than "
                f"the {XLSX_MAX_MEMBER_BYTES:,} an import unpacks from one member"
            )
        if m.file_size > 1 << 20 and m.file_size > XLSX_MAX_RATIO * max(1, m.compress_size):
            ratio = m.file_size // max(1, m.compress_size)
            raise OobImportError(
                f"{path}: zip member {clean_text(m.filename)!r}: compressed {ratio:,} to 1 "
                f"({m.compress_size:,} bytes unpack to {m.file_size:,}), more than the {XLSX_MAX_RATIO} to 1 "
                "an import unpacks (a zip bomb?)"
            )
        if total > XLSX_MAX_TOTAL_BYTES:
            raise OobImportError(
                f"{path}: zip member {clean_text(m.filename)!r}: the members up to it unpack to {total:,} bytes, "
                f"more than the {XLSX_MAX_TOTAL_BYTES:,} an import unpacks from one workbook"
            )


def _openpyxl() -> Any:
    """openpyxl, checked to parse with ``defusedxml`` (no entity expansion, no external
    references); OobImportError when it would not."""
    import openpyxl
    from openpyxl.xml import functions

    safe = getattr(openpyxl, "DEFUSEDXML", False) is True and "defusedxml" in getattr(
        functions.iterparse, "__module__", ""
    )
    if not safe:
        raise OobImportError(
            "XLSX import is off: openpyxl would parse the workbook's XML without defusedxml "
            "(install the defusedxml package, and do not set OPENPYXL_DEFUSEDXML=False)"
        )
    return openpyxl


def _xlsx_reason(e: BaseException, defused: type[BaseException]) -> str:
    """What is wrong with a workbook openpyxl could not read, in one line: an entity or DTD
    refused by defusedxml (openpyxl wraps it in a ValueError), else the first line of its
    message and of the error under it."""
    chain: list[BaseException] = []
    cur: BaseException | None = e
    while cur is not None and len(chain) < 10:
        chain.append(cur)
        cur = cur.__cause__ or cur.__context__
    for c in chain:
        if isinstance(c, defused):
            return (
                f"refused: the workbook's XML declares entities or a DTD ({type(c).__name__}), "
                "which an import does not expand"
            )
    said = [
        (str(c).strip().splitlines() or [type(c).__name__])[0].removeprefix("Unable to read workbook: ") for c in chain
    ]
    return f"not a readable XLSX workbook ({'; '.join(dict.fromkeys(said))[:300]})"


def _read_xlsx(path: Path, sheet: str | None) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    check_xlsx_archive(path)
    openpyxl = _openpyxl()
    from defusedxml import DefusedXmlException  # type: ignore[import-untyped]  # no stubs

    try:
        with open(path, "rb") as fh:  # a file object: openpyxl would refuse a name not ending .xlsx
            wb = openpyxl.load_workbook(io.BytesIO(fh.read()), read_only=True, data_only=True)
    except Exception as e:  # noqa: BLE001 - openpyxl raises many kinds for a bad file
        raise OobImportError(f"{path}: {_xlsx_reason(e, DefusedXmlException)}") from e
    try:
        if sheet is not None and sheet not in wb.sheetnames:
            raise OobImportError(f"{path}: no sheet {sheet!r} (sheets: {', '.join(wb.sheetnames) or 'none'})")
        if not wb.worksheets:
            raise OobImportError(f"{path}: the workbook has no worksheet")
        ws = wb[sheet] if sheet else wb.worksheets[0]
        rows = []
        n = 1
        try:
            if hasattr(ws, "reset_dimensions"):  # a read-only sheet: not the size the file claims
                ws.reset_dimensions()
            first = list(next(ws.iter_rows(max_row=1, values_only=True), ()))
            while first and _cell(first[-1]).strip() == "":
                first.pop()
            if len(first) > XLSX_MAX_COLUMNS:
                raise OobImportError(
                    f"{path}: row 1: {len(first):,} columns, more than the {XLSX_MAX_COLUMNS:,} an import reads"
                )
            header = [clean_text(_cell(c)) for c in first]
            # rows no wider than the header: a cell far to the right (column XFD) costs nothing
            it = ws.iter_rows(min_row=2, max_col=max(1, len(header)), values_only=True)
            for n, values in enumerate(it, start=2):
                if n - 1 > MAX_ROWS:
                    raise OobImportError(f"{path}: row {n}: more than {MAX_ROWS:,} rows (the most an import reads)")
                cells = [_cell(v) for v in values]
                if any(c.strip() for c in cells):
                    rows.append((n, dict(zip(header, cells, strict=False))))
        except OobImportError:
            raise
        except DefusedXmlException as e:
            raise OobImportError(f"{path}: row {n}: {_xlsx_reason(e, DefusedXmlException)}") from e
        except Exception as e:  # noqa: BLE001 - a damaged sheet's XML fails in many ways
            import zipfile

            if isinstance(e, zipfile.BadZipFile):  # a member's data does not match its zip checksum
                said = str(e).replace("Bad CRC-32 for file", "wrong checksum of zip member")
                raise OobImportError(f"{path}: row {n}: the workbook's zip archive is damaged ({said})") from e
            raise OobImportError(f"{path}: row {n}: the worksheet cannot be read ({type(e).__name__}: {e})") from e
        return header, rows
    finally:
        wb.close()


def import_table(
    path: str | Path,
    mapping: str | Path | Mapping[str, Any],
    scenario: Scenario | None = None,
    sheet: str | None = None,
    fmt: str | None = None,
) -> ImportResult:
    """Import a CSV or XLSX order of battle through ``mapping``.

    Parameters
    ----------
    path : str | Path
        ``.csv``, ``.xlsx`` file.
    mapping : TOML path or dict
        see the module docstring.
    scenario : Scenario | None
        scenario to add to (a new one by default).
    sheet : str | None
        worksheet of an XLSX file (default: ``[hierarchy] sheet`` or the first).
    fmt : str | None
        ``"csv"`` or ``"xlsx"``: read the file as that, after checking its content is that
        (default: by the file's suffix).

    Returns
    -------
    ImportResult

    Raises
    ------
    OobImportError
        for an unreadable file or mapping, a file whose content is not ``fmt``, or a mapped
        column missing from the header.
    """
    m = load_mapping(mapping)
    path = Path(path)
    early: list[ImportWarning] = []  # short CSV rows, found while the rows are read
    header, rows = _read_rows(path, sheet or m.hierarchy.get("sheet"), fmt, early)
    needed = [c for v in m.columns.values() for c in (v if isinstance(v, list) else [v])]
    needed += [m.hierarchy[k] for k in ("path", "prefix", "id", "parent") if k in m.hierarchy]
    needed += list(m.hierarchy.get("levels", []))
    missing = list(dict.fromkeys(c for c in needed if c not in header))
    if missing and not any(header):
        raise OobImportError(
            f"{path}: row 1: no header (the file or sheet is empty); expected the columns "
            f"{', '.join(map(repr, missing))} named in {m.origin}"
        )
    if missing:
        raise OobImportError(
            f"{path}: row 1: column(s) {', '.join(map(repr, missing))} named in {m.origin} "
            f"missing from the header ({', '.join(h for h in header if h)})"
        )
    builder = _Builder(path, m, scenario if scenario is not None else Scenario())
    builder.warnings = early
    return builder.run(rows)


_Entry = tuple[int, dict[str, str], str, str]
"""A row of the table: (row number, row, parent key, display name)."""


class _Builder:
    """Turns mapped rows into commanders, units and OOB edges."""

    def __init__(self, path: Path, m: Mapping_, sc: Scenario) -> None:
        self.path, self.m, self.sc = path, m, sc
        self.file = str(path)
        self.ids = IdMaker(sc.all_ids())
        self.warnings: list[ImportWarning] = []
        self.side_rows: dict[str, Mapping[str, str]] = {}
        """Key of a command made for a path (no row of its own) → a row under it, for its side."""
        self.estimated: dict[int, list[str]] = {}
        """Row number → the columns whose strength was written as an estimate."""

    def warn(self, rowno: int, msg: str, row: Mapping[str, str] | None = None, severity: str = "warning") -> None:
        text = ",".join(v for v in (row or {}).values() if v)[:120]
        self.warnings.append(ImportWarning(self.file, rowno, msg, text, severity))

    def col(self, row: Mapping[str, str], key: str) -> str:
        c = self.m.columns.get(key)
        return (row.get(c) or "").strip() if isinstance(c, str) else ""

    def number(self, row: Mapping[str, str], key: str, rowno: int) -> int:
        cols = self.m.columns.get(key)
        total = 0
        for c in cols if isinstance(cols, list) else [cols] if cols else []:
            raw = (row.get(c) or "").strip()
            if not raw:
                continue
            v = strength(raw)
            if v is None and (v := estimate(raw)) is not None:
                self.estimated.setdefault(rowno, []).append(c)
                self.warn(rowno, f"column {c!r}: {raw!r} read as an estimate of {v:,}", row)
            if v is None:
                shown = raw if len(raw) <= 40 else raw[:37] + "..."
                why = f"negative strength {shown}" if raw.startswith("-") else f"{shown!r} is not a number"
                self.warn(rowno, f"column {c!r}: {why} (expected 0 to {MAX_STRENGTH:,}); read as 0", row)
                continue
            total += v
        return min(total, MAX_STRENGTH)

    def keys(self, row: Mapping[str, str], rowno: int) -> tuple[str, str, str] | None:
        """(key, parent key, display name) of a row."""
        h = self.m.hierarchy
        if self.m.mode == "id":
            key = (row.get(h["id"]) or "").strip()
            if not key:
                self.warn(rowno, f"empty id in column {h['id']!r}; row skipped", row)
                return None
            return key, (row.get(h["parent"]) or "").strip(), self.col(row, "name") or key
        if self.m.mode == "path":
            p = (row.get(h["path"]) or "").strip()
            if not p:
                self.warn(rowno, f"empty path in column {h['path']!r}; row skipped", row)
                return None
            sep = h.get("separator", ".")
            parts = [x for x in p.split(sep)]
            if len(parts) > MAX_DEPTH:
                self.warn(rowno, f"column {h['path']!r}: more than {MAX_DEPTH} levels deep; row skipped", row)
                return None
            if "prefix" in h:
                parts = [f"{h['prefix']} {(row.get(h['prefix']) or '').strip()}"] + parts
            return "\x1f".join(parts), "\x1f".join(parts[:-1]), self.col(row, "name") or parts[-1].replace("_", " ")
        levels = [(row.get(c) or "").strip() for c in h["levels"]]
        depth = max((i for i, v in enumerate(levels) if v), default=-1)
        if depth < 0:
            self.warn(rowno, "no level column filled; row skipped", row)
            return None
        parts = levels[: depth + 1]
        name = self.col(row, "name")
        if name and name != parts[-1]:  # the row's own name, under every filled level
            parts.append(name)
        # the side is part of the key: equal names on two sides are two formations
        scope = f"{self._side_id(row)}\x1d" if "side" in self.m.columns or "nation" in self.m.columns else ""
        path = [p for p in parts[:-1] if p]
        return (
            scope + "\x1f".join(parts),
            scope + "\x1f".join(path) if path else "",
            name or parts[-1],
        )

    def run(self, rows: Iterable[tuple[int, dict[str, str]]]) -> ImportResult:
        entries: dict[str, _Entry] = {}
        for rowno, row in rows:
            k = self.keys(row, rowno)
            if k is None:
                continue
            key, parent, name = k
            if key in entries and self.m.mode == "levels":
                self.warn(rowno, f"same names as row {entries[key][0]}; imported as a separate entry", row, "note")
                key = f"{key}\x1e{rowno}"
            if key in entries:
                self.warn(
                    rowno,
                    f"duplicate entry {key.replace(chr(31), ' / ')!r} (first on row {entries[key][0]}); row skipped",
                    row,
                )
                continue
            entries[key] = (rowno, row, parent, name)
        # parents that have no row of their own become commands (path and levels modes)
        for key in list(entries):
            parent = entries[key][2]
            while parent and parent not in entries:
                if self.m.mode == "id":
                    self.warn(entries[key][0], f"parent id {parent!r} not found; row made a top entry", entries[key][1])
                    entries[key] = (*entries[key][:2], "", entries[key][3])
                    break
                label = parent.split("\x1f")[-1].split("\x1d")[-1]
                self.warn(entries[key][0], f"no row for {label!r}; created a command for it", entries[key][1], "note")
                grand = "\x1f".join(parent.split("\x1f")[:-1])
                entries[parent] = (entries[key][0], {}, grand, label.replace("_", " "))
                # a command made for a path takes the side of the rows under it
                self.side_rows[parent] = entries[key][1] or self.side_rows.get(key, {})
                parent = grand
        has_children = {e[2] for e in entries.values() if e[2]}
        node: dict[str, str] = {}
        roots: list[str] = []
        order = sorted(entries, key=lambda k: (self._depth(k, entries), entries[k][0]))
        for key in order:
            rowno, row, parent, name = entries[key]
            pid = node.get(parent) if parent else None
            arm_raw = self.col(row, "arm")
            arm: str | None
            if "arm" not in self.m.columns:
                arm = self.m.defaults.get("arm", "infantry")
            else:
                arm = self.m.values.get("arm", {}).get(arm_raw) or ARM_ALIASES.get(arm_raw.lower())
            if arm is None:
                self.warn(rowno, f"unknown arm {arm_raw!r}; read as infantry", row)
                arm = "infantry"
            if not row or arm == "command" or key in has_children:
                if row and arm not in ("command",) and key in has_children:
                    self.warn(
                        rowno,
                        f"row has rows under it, so it is read as a command (its arm {arm_raw!r} kept as an attribute)",
                        row,
                        "note",
                    )
                nid = self._commander(key, rowno, row, name, pid, arm_raw)
                if pid is None:
                    roots.append(nid)
            else:
                nid = self._unit(rowno, row, name, pid, arm)
                if pid is None:
                    self.warn(rowno, "unit with no command above it", row)
            node[key] = nid
        self._check_stated(node.values())
        title = self.m.source.get("title", f"order-of-battle table {self.path.name}")
        self.sc.sources.append(
            Source(
                title,
                self.m.source.get("url", ""),
                self.m.source.get("licence", ""),
                f"imported from {self.path.name} with "
                + ("a column mapping" if self.m.origin == "mapping" else f"mapping {Path(self.m.origin).name}"),
            )
        )
        return ImportResult(self.sc, self.warnings, roots)

    def _check_stated(self, nodes: Iterable[str]) -> None:
        """Check each command row's stated men and guns against the sum of the units under
        it: a note when they agree within
        ``STATED_TOLERANCE``, a warning naming the row when they do not."""
        for cid in nodes:
            c = self.sc.commanders.get(cid)
            if c is None or not ("stated_men" in c.attributes or "stated_guns" in c.attributes):
                continue
            units = [self.sc.units[u] for u in self.sc.oob.all_subordinates(cid) if u in self.sc.units]
            attrs = c.attributes
            said: list[str] = []
            agree = True
            for k, word in (("men", "men"), ("guns", "guns")):
                stated = attrs.get(f"stated_{k}")
                if stated is None:
                    continue
                total = sum(getattr(u, k) for u in units)
                said.append(f"{stated:,} {word} stated, {total:,} in the units under it")
                agree = agree and abs(total - stated) <= STATED_TOLERANCE * stated
            blank = sum(1 for u in units if u.men == 0 and u.guns == 0)
            row = attrs.get("source_row", 0)
            name = attrs.get("formation", c.name)
            text = f"{name}: " + "; ".join(said)
            if agree:
                self.warn(row, text + " (they agree)", None, "note")
            else:
                gap = (
                    "; no unit under it"
                    if not units
                    else f"; {blank} of its {len(units)} units have no strength in the table"
                    if blank
                    else ""
                )
                self.warn(row, f"{text}: they disagree{gap} (the stated totals are kept as attributes)", None)

    def _depth(self, key: str, entries: Mapping[str, _Entry]) -> int:
        d, p = 0, entries[key][2]
        while p and p in entries and d < 100:
            d, p = d + 1, entries[p][2]
        return d

    def _side_id(self, row: Mapping[str, str]) -> str:
        """The side id a row is read on (its side column, else the defaults or its nation)."""
        nation = self.col(row, "nation") or self.m.defaults.get("nation", "")
        raw = self.col(row, "side")
        side: str = (
            self.m.values.get("side", {}).get(raw, slug(raw))
            if raw
            else self.m.defaults.get("side") or slug(nation or "side")
        )
        return side

    def _side(self, row: Mapping[str, str], rowno: int) -> tuple[str, str]:
        """The row's side id and nation: the nation column, else the defaults, else the nation
        the side's own name says ("Prussian" → Prussia, ``republique5_words.NATIONS``), so a
        table without a nation column still reads its Prussian brigades by 1.3."""
        raw = self.col(row, "side")
        nation = self.col(row, "nation") or self.m.defaults.get("nation", "") or NATIONS.get(raw.strip().lower(), "")
        side = self._side_id(row)
        if side not in self.sc.sides:
            taken = (s.colour for s in self.sc.sides.values())
            self.sc.sides[side] = Side(
                side, raw or nation or side, (nation,) if nation else (), side_colour(nation or raw or side, taken)
            )
        return side, nation

    def _commander(self, key: str, rowno: int, row: Mapping[str, str], name: str, pid: str | None, arm_raw: str) -> str:
        hint = self.side_rows.get(key)
        side, nation = (
            self._side(row or hint or {}, rowno)
            if row or hint
            else ((self.sc.commanders[pid].side, self.sc.commanders[pid].nation) if pid else self._side({}, rowno))
        )
        raw = self.col(row, "echelon") if row else ""
        src = self.m.values.get("echelon", {}).get(raw) or (raw.lower() if raw.lower() in ECHELONS else "")
        if raw and not src:
            self.warn(rowno, f"unknown echelon {raw!r}; read from the name", row)
        if not src and self.m.mode == "levels" and key.count("\x1f") < len(self.m.hierarchy["levels"]):
            col = self.m.hierarchy["levels"][key.count("\x1f")]
            src = col.lower() if col.lower() in ECHELONS else ""
        if not src:
            src = _source_echelon(name, pid, self.sc)
        year_raw = self.col(row, "year") if row else ""
        year_raw = year_raw or str(self.m.defaults.get("year", ""))
        year = int(year_raw) if year_raw.isascii() and year_raw.isdigit() and len(year_raw) <= 4 else None
        ech, note = map_echelon(src, nation, year, self.sc.commanders[pid].echelon if pid else None)
        if note:
            self.warn(rowno, note, row, "note")
        person = self.col(row, "commander") if row else ""
        attrs: dict[str, Any] = {"formation": name, "source_row": rowno, "source_echelon": src}
        if year is not None:
            attrs["year"] = year  # the source's date, for 1.3's Prussian brigade (scale.read_prussian_brigades)
        for k in ("men", "guns"):
            v = self.number(row, k, rowno) if row else 0
            if v:
                attrs[f"stated_{k}"] = v
        if rowno in self.estimated and row:
            attrs["stated_estimated"] = True
        if arm_raw:
            attrs["source_arm"] = arm_raw
        cid = self.ids.make(side, name)
        self.sc.commanders[cid] = Commander(
            cid, person or name, side, nation, ech, figures=_FIGS[ech], attributes=attrs
        )
        if pid:
            self.sc.oob.add(pid, cid)
        else:
            self.sc.oob.add_node(cid)
        return cid

    def _unit(self, rowno: int, row: Mapping[str, str], name: str, pid: str | None, arm: str) -> str:
        side, nation = self._side(row, rowno)
        qraw = self.col(row, "quality")
        q = self.m.values.get("quality", {}).get(qraw) or (
            qraw.lower()
            if qraw.lower() in {x.value for x in Quality}
            else GRADES[qraw.lower()].value
            if qraw.lower() in GRADES
            else ""
        )
        if qraw and not q:
            self.warn(rowno, f"unknown quality {qraw!r}; read as {self.m.defaults.get('quality', 'regular')}", row)
        attrs: dict[str, Any] = {"source_row": rowno}
        if self.col(row, "commander"):
            attrs["commander"] = self.col(row, "commander")
        uid = self.ids.make(side, name)
        men, guns = self.number(row, "men", rowno), self.number(row, "guns", rowno)
        bases = (self.number(row, "bases", rowno) or None) if "bases" in self.m.columns else None  # None: not given
        figures = self.number(row, "figures", rowno) if "figures" in self.m.columns else 0
        if figures:
            attrs["source_figures"] = figures
        if rowno in self.estimated:
            attrs["men_estimated"] = True
            attrs["men_estimate"] = "the source gives " + ", ".join(
                f"{c} {(row.get(c) or '').strip()!r}" for c in self.estimated[rowno]
            )
        subtype, arm = self._subtype(row, rowno, arm)
        if men == 0 and guns == 0 and not bases and not figures:
            cols = self.m.columns.get("men")
            where = f"column(s) {cols!r} empty or 0" if cols else "no men column mapped"
            self.warn(
                rowno, f"unit {name!r} has no men and no guns ({where}); imported with 0 men: fill in its strength", row
            )
        self.sc.units[uid] = Unit(
            uid,
            name,
            side,
            nation,
            arm=Arm(arm),
            quality=q or self.m.defaults.get("quality", "regular"),
            men=men,
            horses=self.number(row, "horses", rowno),
            guns=guns,
            bases=bases,
            subtype=subtype,
            figures=figures,
            attributes=attrs,
        )
        if pid:
            self.sc.oob.add(pid, uid)
        return uid

    def _subtype(self, row: Mapping[str, str], rowno: int, arm: str) -> tuple[Subtype | None, str]:
        """The row's subtype (``[values.subtype]``, a subtype name, or a word such as ``horse``
        read with the arm) and its arm (the subtype's when the row gives no arm)."""
        raw = self.col(row, "subtype")
        if not raw:
            return None, arm
        word = " ".join(raw.lower().replace("_", " ").replace("-", " ").split())
        value = (
            self.m.values.get("subtype", {}).get(raw)
            or (word.replace(" ", "_") if word.replace(" ", "_") in {t.value for t in Subtype} else None)
            or SUBTYPE_ALIASES.get((arm, word))
            or SUBTYPE_ALIASES.get(("", word))
        )
        if value is None:
            self.warn(rowno, f"unknown subtype {raw!r}; none set (one of {', '.join(t.value for t in Subtype)})", row)
            return None, arm
        st = Subtype(value)
        own = SUBTYPE_ARM[st].value
        if own != arm:
            if "arm" in self.m.columns and self.col(row, "arm"):
                self.warn(rowno, f"subtype {raw!r} is {own}, not {arm}; arm read as {own}", row)
            arm = own
        return st, arm
