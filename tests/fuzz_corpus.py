"""Mutated input files of every format BattleStudio reads, and one way to run a reader on them.

Shared by ``tests/test_fuzz_inputs.py`` (a bounded hypothesis sample) and ``bench/fuzz_inputs.py``
(a long random run). A mutation is seeded (``random.Random``) and starts from a real file:
the bundled Elchingen ``.battle.json``, a ``.battle`` written by ``store.save``, the shared
``.oob`` files and CSV tables, a generated XLSX and an ORBAT Mapper scenario.

``run_reader(fmt, path)`` runs what a user would run on the file (``check``'s load and
validation, ``info``'s summary, ``log``'s lines; ``import_oob`` for the order-of-battle
formats) and returns ``None`` or the exception raised. ``acceptable(exc, path)`` says
whether it is one of the project's own errors naming the file.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import zipfile
from collections.abc import Callable
from typing import Any
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path("/work/shared/data/oob")
ELCHINGEN = ROOT / "scenarios" / "elchingen-1805.battle.json"
ORBAT = ROOT / "tests" / "data" / "orbat-mapper" / "narvik40-0.6.0.json"
LEVELS_MAP = ROOT / "tests" / "store" / "importers" / "data" / "waterloo_levels.toml"
FFU_MAP = ROOT / "tests" / "store" / "importers" / "data" / "fogofwar_force_unit.toml"

FORMATS = ("json", "battle", "oob", "csv", "fogofwar", "xlsx", "orbat")

HOSTILE_TEXT = [
    "",
    "inf",
    "-inf",
    "nan",
    "1e19",
    "1e400",
    "9" * 5000,
    "①",
    "\ufeff",
    "-1",
    "0x10",
    "1.4e53",
    '<b style="font-size:400px">HTML</b>',
    "\x1b[2J\x1b[31mred",
    "a" * 3000,
    "\t",
    '"',
    ",,,",
]
HOSTILE_JSON: list[object] = [
    None,
    "",
    "x",
    "\udfff",
    1e308,
    float("inf"),
    float("nan"),
    -1,
    10**400,
    2**63,
    [],
    {},
    [[[[[]]]]],
    True,
    "9" * 5000,
    "\x1b]0;title\x07",
    1.4e53,
]


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    kind = rng.randrange(6)
    if kind == 0 and b:  # flip bytes
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(b))
            b[i] = rng.randrange(256)
    elif kind == 1 and b:  # truncate
        del b[rng.randrange(len(b)) :]
    elif kind == 2:  # insert hostile text
        i = rng.randrange(len(b) + 1)
        b[i:i] = rng.choice(HOSTILE_TEXT).encode("utf-8", "surrogatepass")
    elif kind == 3 and b:  # duplicate a slice
        i = rng.randrange(len(b))
        j = min(len(b), i + rng.randint(1, 400))
        b[i:i] = b[i:j] * rng.randint(1, 50)
    elif kind == 4:  # invalid utf-8, NUL
        i = rng.randrange(len(b) + 1)
        b[i:i] = rng.choice([b"\xff\xfe", b"\x00", b"\xed\xbf\xbf", b"\xc3"])
    elif b:  # delete a slice
        i = rng.randrange(len(b))
        del b[i : i + rng.randint(1, 200)]
    return bytes(b)


def _lines_mutate(text: str, rng: random.Random, sep: str) -> str:
    """Cell/line mutations of a text table: a hostile value in a cell, a dropped column, a
    deep indentation, many repeated rows."""
    lines = text.splitlines()
    if not lines:
        return rng.choice(HOSTILE_TEXT)
    kind = rng.randrange(5)
    if kind == 0:
        i = rng.randrange(len(lines))
        cells = lines[i].split(sep)
        cells[rng.randrange(len(cells))] = rng.choice(HOSTILE_TEXT)
        lines[i] = sep.join(cells)
    elif kind == 1:  # drop a column everywhere
        n = len(lines[0].split(sep))
        k = rng.randrange(max(1, n))
        lines = [sep.join(c for j, c in enumerate(ln.split(sep)) if j != k) for ln in lines]
    elif kind == 2:  # deep indentation (oob) or many columns
        i = rng.randrange(len(lines))
        lines[i] = " " * rng.randint(1, 20000) + lines[i]
    elif kind == 3:  # many rows
        i = rng.randrange(len(lines))
        lines[i + 1 : i + 1] = [lines[i]] * rng.randint(1, 3000)
    else:  # a long line
        i = rng.randrange(len(lines))
        lines[i] = lines[i] + rng.choice(["(", " ", "x ", "1 ", "-"]) * rng.randint(100, 20000)
    return "\n".join(lines) + "\n"


def _json_paths(doc: object, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in list(doc.items())[:60]:
            out += _json_paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:8]):
            out += _json_paths(v, (*prefix, i))
    return out


def _json_mutate(doc: object, rng: random.Random) -> str:
    paths = [p for p in _json_paths(doc) if p]
    p = rng.choice(paths)
    parent: object = doc
    for k in p[:-1]:
        parent = parent[k]  # type: ignore[index]
    kind = rng.randrange(4)
    if kind == 0 and isinstance(parent, dict):
        del parent[p[-1]]
    elif kind == 1:
        depth = rng.choice([50, 5000, 100000])
        parent[p[-1]] = "@DEEP@"  # type: ignore[index]
        return json.dumps(doc).replace('"@DEEP@"', "[" * depth + "1" + "]" * depth, 1)
    else:
        parent[p[-1]] = rng.choice(HOSTILE_JSON)  # type: ignore[index]
    return json.dumps(doc, ensure_ascii=rng.random() < 0.5)


def _sqlite_mutate(path: Path, rng: random.Random) -> None:
    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        kind = rng.randrange(5)
        if kind == 0:
            con.execute(f'CREATE TRIGGER evil AFTER INSERT ON "{rng.choice(tables)}" BEGIN DELETE FROM unit; END')
        elif kind == 1:
            con.execute("CREATE VIEW extra AS SELECT 1")
        elif kind == 2:
            con.execute(f'ALTER TABLE "{rng.choice(tables)}" ADD COLUMN g TEXT GENERATED ALWAYS AS (hex(1)) VIRTUAL')
        else:
            t = rng.choice(tables)
            cols = [r[1] for r in con.execute(f'PRAGMA table_info("{t}")')]
            if cols:
                c = rng.choice(cols)
                v = rng.choice([None, "", "x", 1e308, -1, 2**62, "\udfff".encode("utf-8", "surrogatepass"), 1.4e53])
                con.execute(f'UPDATE "{t}" SET "{c}" = ? WHERE rowid IN (SELECT rowid FROM "{t}" LIMIT 1)', (v,))
        if rng.random() < 0.5:  # as a file saved before checksums: the values' own checks must hold
            con.execute("DELETE FROM meta WHERE key = 'checksums'")
        con.commit()
    except sqlite3.Error:
        pass
    finally:
        con.close()


def _xlsx_from_csv(csv_path: Path, out: Path) -> None:
    import csv

    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    with open(csv_path, encoding="utf-8") as f:
        for row in csv.reader(f):
            ws.append(row)
    wb.save(out)


def seeds(work: Path) -> dict[str, Path]:
    """The unmutated input of each format, written under ``work`` where it must be made."""
    from battlestudio import store

    work.mkdir(parents=True, exist_ok=True)
    out = {"json": ELCHINGEN, "oob": SHARED / "leipzig-1813-french.oob", "orbat": ORBAT}
    out["csv"] = SHARED / "waterloo-1815-from-pages.csv"
    battle = work / "seed.battle"
    if not battle.exists():
        store.save(store.load(ELCHINGEN), battle)
    out["battle"] = battle
    xlsx = work / "seed.xlsx"
    if not xlsx.exists():
        _xlsx_from_csv(out["csv"], xlsx)
    out["xlsx"] = xlsx
    out["fogofwar"] = SHARED / "fogofwar" / "force_unit.csv"
    return out


def mutate(fmt: str, seed_file: Path, out_dir: Path, rng: random.Random) -> Path:
    """Write one mutation of ``seed_file`` (of ``fmt``) under ``out_dir``; return the file to read
    (for ``fogofwar`` the folder of tables)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if fmt == "fogofwar":
        folder = out_dir / "fow"
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(SHARED / "fogofwar", folder)
        name = rng.choice(["force_unit.csv", "force.csv", "scenario.csv", "lookup_utype.csv", "lookup_condition.csv"])
        target = folder / name
        text = target.read_text(encoding="utf-8")
        target.write_bytes(
            _lines_mutate(text, rng, ",").encode("utf-8", "surrogatepass")
            if rng.random() < 0.7
            else _mutate_bytes(text.encode(), rng)
        )
        return folder
    suffix = {"json": ".battle.json", "battle": ".battle", "oob": ".oob", "csv": ".csv", "xlsx": ".xlsx"}
    target = out_dir / ("m" + suffix.get(fmt, ".json"))
    raw = seed_file.read_bytes()
    if fmt == "battle":
        target.write_bytes(raw)
        if rng.random() < 0.6:
            _sqlite_mutate(target, rng)
        else:
            target.write_bytes(_mutate_bytes(raw, rng))
        return target
    if fmt in ("json", "orbat") and rng.random() < 0.7:
        target.write_text(_json_mutate(json.loads(raw), rng), encoding="utf-8", errors="surrogatepass")
        return target
    if fmt in ("oob", "csv") and rng.random() < 0.7:
        text = _lines_mutate(raw.decode("utf-8"), rng, "," if fmt == "csv" else " ")
        target.write_bytes(text.encode("utf-8", "surrogatepass"))
        return target
    if fmt == "xlsx" and rng.random() < 0.5:
        _xlsx_mutate(seed_file, target, rng)
        return target
    target.write_bytes(_mutate_bytes(raw, rng))
    return target


def _xlsx_mutate(seed_file: Path, target: Path, rng: random.Random) -> None:
    import openpyxl

    wb = openpyxl.load_workbook(seed_file)
    kind = rng.randrange(3)
    if kind == 0:
        ws = wb.active
        r, c = rng.randint(1, ws.max_row), rng.randint(1, ws.max_column)
        ws.cell(r, c).value = rng.choice([None, 1e19, float("inf"), -5, "①", "x" * 3000, 2.5])
    elif kind == 1:
        ws = wb.active
        ws.delete_cols(rng.randint(1, ws.max_column))
    else:
        ws = wb.active
        ws.title = "Other"
    wb.save(target)
    if rng.random() < 0.3:  # a workbook without its sheet
        with zipfile.ZipFile(target) as z:
            members = {n: z.read(n) for n in z.namelist() if "worksheets/" not in n}
        with zipfile.ZipFile(target, "w") as z:
            for n, d in members.items():
                z.writestr(n, d)


def run_reader(fmt: str, path: Path, png: Path | None = None) -> BaseException | None:
    """Read ``path`` the way the CLI does for ``fmt``; the exception raised, or None."""
    try:
        if fmt in ("json", "battle"):
            from battlestudio import store
            from battlestudio.session.text import log_lines
            from battlestudio.store.summary import summarize
            from battlestudio.validate import check_battle

            battle = store.load(path)
            check_battle(battle)
            summarize(battle)
            if battle.events:
                try:
                    list(log_lines(battle, None))
                except ValueError as exc:  # the CLI names the file in front of these
                    if not str(exc):
                        raise
            return None
        import_result(fmt, path)
        return None
    except BaseException as exc:  # noqa: BLE001 - the harness classifies every exception
        if isinstance(exc, KeyboardInterrupt):
            raise
        return exc


def import_result(fmt: str, path: Path) -> Any:
    """``import_oob`` of ``path`` read as ``fmt`` (an order-of-battle format), as the CLI calls it."""
    from battlestudio.store.importers import import_oob

    if fmt in ("csv", "xlsx"):
        return import_oob([path], fmt, mapping=LEVELS_MAP)
    if fmt == "fogofwar":
        return import_oob([path], "fogofwar", scenario_id=18)
    return import_oob([path], "orbat-mapper" if fmt == "orbat" else fmt)


def acceptable(exc: BaseException | None, path: Path) -> bool:
    """True for no error, or one of the project's own errors whose message names ``path``."""
    from battlestudio.store.errors import BattleFileError
    from battlestudio.store.importers.common import OobImportError

    if exc is None:
        return True
    if not isinstance(exc, (BattleFileError, OobImportError)):
        return False
    return str(path) in str(exc) or path.name in str(exc)


Reader = Callable[[str, Path], "BaseException | None"]
