"""Bad and hostile order-of-battle files end in an ``OobImportError`` naming the file, the row
(or line, or JSON path), the field, the value and what was expected, never in a Python error;
and no input costs more than its documented limits allow."""

from __future__ import annotations

import csv
import shutil
import time
import zipfile
from pathlib import Path

import pytest

from battlestudio.store.importers import OobImportError, import_oob
from battlestudio.store.importers.common import IdMaker, csv_rows
from battlestudio.store.importers.republique5 import MAX_LINE, _is_name

DATA = Path("/work/shared/data/oob")
HERE = Path(__file__).parent / "data"
LEVELS = HERE / "waterloo_levels.toml"


def _fogofwar_copy(tmp_path: Path) -> Path:
    d = tmp_path / "fow"
    shutil.copytree(DATA / "fogofwar", d)
    return d


def _drop_column(path: Path, column: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    k = lines[0].split(",").index(column)
    path.write_text("\n".join(",".join(c for j, c in enumerate(ln.split(",")) if j != k) for ln in lines) + "\n")


@pytest.mark.parametrize(
    "table,column",
    [
        ("force.csv", "scenario_id"),
        ("force.csv", "commander_name"),
        ("force_unit.csv", "force_id"),
        ("lookup_condition.csv", "effect"),
        ("lookup_utype.csv", "id"),
    ],
)
def test_fogofwar_missing_column_named(tmp_path, table, column):
    d = _fogofwar_copy(tmp_path)
    _drop_column(d / table, column)
    with pytest.raises(OobImportError) as info:
        import_oob([d], "fogofwar", scenario_id=18)
    msg = str(info.value)
    assert msg.startswith(f"{d / table}: row 1: column(s) {column!r} missing from the header")
    assert "expected " in msg


def test_fogofwar_short_row_and_bad_numbers(tmp_path):
    d = _fogofwar_copy(tmp_path)
    fu = d / "force_unit.csv"
    with open(fu, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    h = rows[0]
    n = next(i for i, r in enumerate(rows) if r[1] == "101" and r[h.index("utype")] == "2")  # scenario 18 infantry
    rows[n][h.index("bayonets")] = "①"
    rows[n][h.index("sabres")] = "9" * 5000
    rows[n + 1] = rows[n + 1][:4]  # a short row: the missing cells read as empty
    with open(fu, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    res = import_oob([d], "fogofwar", scenario_id=18)
    msgs = [str(w) for w in res.problems() if w.line == n + 1]
    assert any("column 'bayonets': '①' is not a whole number; read as 0" in m for m in msgs), msgs
    assert any("column 'sabres': '9999" in m and "is not a whole number" in m for m in msgs), msgs
    assert all(m.startswith(f"{fu}:{n + 1}: ") for m in msgs)


def test_fogofwar_effect_not_a_number(tmp_path):
    d = _fogofwar_copy(tmp_path)
    t = d / "lookup_condition.csv"
    lines = t.read_text(encoding="utf-8").splitlines()
    cells = lines[1].split(",")
    cells[2] = "inf"
    lines[1] = ",".join(cells)
    t.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(
        OobImportError, match=r"lookup_condition.csv: row 2: column 'effect': 'inf' is not a whole number"
    ):
        import_oob([d], "fogofwar", scenario_id=18)


def test_csv_hostile_strengths_are_warnings(tmp_path):
    src = DATA / "waterloo-1815-from-pages.csv"
    with open(src, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    col = rows[0].index("men")
    for value, row in zip(["inf", "nan", "1e19", "1" * 5000], rows[1:], strict=False):
        row[col] = value
    out = tmp_path / "w.csv"
    with open(out, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    res = import_oob([out], "csv", mapping=LEVELS, convert=False)
    bad = [str(w) for w in res.problems() if "column 'men'" in w.message]
    assert len(bad) == 4, bad
    assert all(m.startswith(f"{out}:") and "expected 0 to 10,000,000" in m for m in bad)
    assert max(u.men for u in res.scenario.units.values()) <= 10_000_000


def test_csv_row_limit_names_the_row(tmp_path):
    p = tmp_path / "many.csv"
    p.write_text("a,b\n" + "1,2\n" * 20, encoding="utf-8")
    header, rows = csv_rows(p, ("a",), max_rows=10)
    with pytest.raises(OobImportError, match=r"many.csv: row 12: more than 10 rows"):
        list(rows)


def test_csv_fifo_refused_at_once(tmp_path):
    import os

    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(OobImportError, match="pipe.csv: not a regular file"):
        import_oob([fifo], "csv", mapping=LEVELS)


def _xlsx(tmp_path: Path) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    for line in (DATA / "waterloo-1815-from-pages.csv").read_text(encoding="utf-8").splitlines()[:20]:
        ws.append(line.split(","))
    out = tmp_path / "w.xlsx"
    wb.save(out)
    return out


def test_xlsx_without_sheet(tmp_path):
    good = _xlsx(tmp_path)
    bad = tmp_path / "nosheet.xlsx"
    with zipfile.ZipFile(good) as z, zipfile.ZipFile(bad, "w") as out:
        for n in z.namelist():
            if "worksheets/" not in n:
                out.writestr(n, z.read(n))
    with pytest.raises(OobImportError) as info:
        import_oob([bad], "xlsx", mapping=LEVELS)
    assert str(info.value).startswith(f"{bad}: ")


def test_xlsx_not_a_zip(tmp_path):
    bad = tmp_path / "broken.xlsx"
    bad.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    with pytest.raises(OobImportError, match=r"broken.xlsx: not a readable XLSX workbook"):
        import_oob([bad], "xlsx", mapping=LEVELS)


def test_xlsx_with_a_zip_version_python_cannot_read(tmp_path):
    """Found by the 10,000-input fuzz run: a flipped 'version needed to extract' byte made
    ``zipfile`` raise NotImplementedError, which ended as an internal error."""
    raw = bytearray(_xlsx(tmp_path).read_bytes())
    at = raw.find(b"PK\x01\x02")  # the first central directory entry
    raw[at + 6 : at + 8] = (101).to_bytes(2, "little")  # version 10.1 needed to extract
    bad = tmp_path / "version.xlsx"
    bad.write_bytes(bytes(raw))
    with pytest.raises(OobImportError) as info:
        import_oob([bad], "xlsx", mapping=LEVELS)
    said = str(info.value)
    assert said.startswith(f"{bad}: not a readable XLSX workbook (its zip archive uses a feature")
    assert "zip file version 10.1" in said and "save it again" in said


def test_orbat_mapper_deep_nesting(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text('{"type": "ORBAT-mapper", "a": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(OobImportError, match=r"deep.json: nested too deeply: more than 200 levels"):
        import_oob([p], "orbat-mapper")


def test_oob_long_line_is_skipped_quickly(tmp_path):
    src = (DATA / "leipzig-1813-french.oob").read_text(encoding="utf-8").splitlines()
    long_name = "12e " + "a" * 39_000 + "!"  # the old name pattern backtracked quadratically here
    p = tmp_path / "long.oob"
    p.write_text("\n".join([*src, "    " + long_name + " - Someone", "  " + "Div " * 400 + "?"]) + "\n")
    t = time.perf_counter()
    res = import_oob([p], "oob", convert=False)
    assert time.perf_counter() - t < 5  # generous: 20 s before, ~0.05 s now
    msgs = [w for w in res.problems() if w.line == len(src) + 1]
    assert msgs and f"more than {MAX_LINE:,}; skipped" in msgs[0].message


def test_oob_name_check_is_linear_and_unchanged():
    assert _is_name("1eme Division - Morand".split(" - ")[0])
    assert _is_name("12e Ligne") and _is_name("Friant") and _is_name("3.Bn Garde")
    assert not _is_name("12") and not _is_name("12 34") and not _is_name("Morand!") and not _is_name("")
    t = time.perf_counter()
    assert not _is_name("1" + "a " * 20_000 + "!")
    assert time.perf_counter() - t < 1


def test_oob_deep_indentation_and_huge_numbers(tmp_path):
    p = tmp_path / "deep.oob"
    lines = ["!French 1813", "Armee - Napoleon"]
    lines += [" " * (2 * i) + f"Div {i} - General {i}" for i in range(1, 200)]
    lines += ["  12e Ligne - " + "9" * 5000 + " bases", "!Indent " + "9" * 5000]
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = import_oob([p], "oob", convert=False)
    assert any("more than 64; line skipped" in w.message for w in res.problems())
    assert all(str(w).startswith(f"{p}:") for w in res.problems())


def test_id_maker_linear_on_many_clashes():
    ids = IdMaker()
    t = time.perf_counter()
    made = [ids.make("french", "Line") for _ in range(50_000)]
    assert time.perf_counter() - t < 5
    assert len(set(made)) == 50_000 and made[:3] == ["french-line", "french-line-2", "french-line-3"]


def test_a_csv_byte_that_is_not_utf8_is_named_on_its_row(tmp_path):
    """A fresh tester's garbage CSV: the bad byte on row 3 was reported on row 1 (the text
    reader decodes a block ahead of the CSV parser)."""
    p = tmp_path / "g.csv"
    p.write_bytes(b"name,men\nA,100\nB\xff,200\n")
    from battlestudio.store.importers.common import csv_rows

    with pytest.raises(OobImportError) as info:
        list(csv_rows(p, ("name", "men"))[1])
    assert str(info.value) == f"{p}: row 3: not readable CSV (not UTF-8 text: byte 0xff; save it as UTF-8)"
