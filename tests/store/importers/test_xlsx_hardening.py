"""Hostile XLSX workbooks (issue 27): entity expansion is off (openpyxl with defusedxml), zip
members are checked for count, size and compression ratio before anything is unpacked, and a
worksheet's claimed or far-off cells cost nothing; each refusal names the member and the limit."""

from __future__ import annotations

import resource
import time
import zipfile
from pathlib import Path

import pytest

from battlestudio.store.importers import OobImportError, import_oob
from battlestudio.store.importers import tabular

DATA = Path("/work/shared/data/oob")
LEVELS = Path(__file__).parent / "data" / "waterloo_levels.toml"


def _xlsx(tmp_path: Path, rows: int = 20) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    for line in (DATA / "waterloo-1815-from-pages.csv").read_text(encoding="utf-8").splitlines()[:rows]:
        ws.append(line.split(","))
    out = tmp_path / "w.xlsx"
    wb.save(out)
    return out


def _rewrite(src: Path, dst: Path, replace: dict[str, bytes], add: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
        for n in z.namelist():
            out.writestr(n, replace.get(n, z.read(n)))
        for n, data in (add or {}).items():
            out.writestr(n, data)
    return dst


def _error(path: Path) -> str:
    with pytest.raises(OobImportError) as err:
        import_oob([path], "xlsx", mapping=LEVELS)
    return str(err.value)


def test_openpyxl_parses_with_defusedxml():
    import openpyxl
    from openpyxl.xml import functions

    assert openpyxl.DEFUSEDXML is True
    assert functions.iterparse.__module__.startswith("defusedxml")
    assert tabular._openpyxl() is openpyxl


def test_xlsx_import_is_refused_when_openpyxl_would_not_use_defusedxml(tmp_path, monkeypatch):
    import openpyxl

    monkeypatch.setattr(openpyxl, "DEFUSEDXML", False)
    assert "XLSX import is off: openpyxl would parse the workbook's XML without defusedxml" in _error(_xlsx(tmp_path))


LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10) for i in range(1, 10))
    + b']><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1">'
    b"<si><t>&lol9;</t></si></sst>"
)


def test_billion_laughs_in_the_shared_strings_is_refused_without_expanding(tmp_path):
    good = _xlsx(tmp_path)
    with zipfile.ZipFile(good) as z:
        types = z.read("[Content_Types].xml")
    assert "xl/sharedStrings.xml" not in zipfile.ZipFile(good).namelist()
    part = (
        b'<Override PartName="/xl/sharedStrings.xml" '
        b'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'
    )
    bad = _rewrite(
        good,
        tmp_path / "laughs.xlsx",
        {"[Content_Types].xml": types.replace(b"</Types>", part)},
        {"xl/sharedStrings.xml": LAUGHS},
    )
    t = time.monotonic()
    msg = _error(bad)
    assert time.monotonic() - t < 5
    assert msg.startswith(f"{bad}: ") and "declares entities or a DTD" in msg, msg


def test_an_entity_in_a_worksheet_is_refused(tmp_path):
    good = _xlsx(tmp_path)
    with zipfile.ZipFile(good) as z:
        sheet = z.read("xl/worksheets/sheet1.xml")
    evil = (b'<!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + sheet).replace(
        b"<sheetData>", b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&x;</t></is></c></row>', 1
    )
    bad = _rewrite(good, tmp_path / "entity.xlsx", {"xl/worksheets/sheet1.xml": evil})
    msg = _error(bad)
    assert msg.startswith(f"{bad}: ") and "declares entities or a DTD" in msg and "root:" not in msg, msg


def test_a_zip_bomb_member_is_refused_naming_the_member_and_the_ratio(tmp_path):
    good = _xlsx(tmp_path)
    bomb = _rewrite(good, tmp_path / "bomb.xlsx", {"xl/worksheets/sheet1.xml": b" " * (40 << 20)})
    assert bomb.stat().st_size < 200_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    msg = _error(bomb)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 30_000  # kB: nothing unpacked
    assert f"{bomb}: zip member 'xl/worksheets/sheet1.xml': compressed " in msg
    assert "more than the 100 to 1 an import unpacks" in msg


def test_a_member_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    good = _xlsx(tmp_path, rows=200)
    with zipfile.ZipFile(good) as z:
        sizes = {i.filename: i.file_size for i in z.infolist()}
    limit = max(v for k, v in sizes.items() if k != "xl/worksheets/sheet1.xml")
    assert sizes["xl/worksheets/sheet1.xml"] > limit
    monkeypatch.setattr(tabular, "XLSX_MAX_MEMBER_BYTES", limit)
    msg = _error(good)
    assert f"zip member 'xl/worksheets/sheet1.xml': unpacks to {sizes['xl/worksheets/sheet1.xml']:,} bytes" in msg
    assert f"more than the {limit:,} an import unpacks from one member" in msg


def test_too_many_members_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tabular, "XLSX_MAX_MEMBERS", 50)
    good = _xlsx(tmp_path)
    bad = _rewrite(good, tmp_path / "many.xlsx", {}, {f"xl/media/x{i}.bin": b"x" for i in range(60)})
    assert "zip members, more than the 50 an import reads" in _error(bad)


def test_far_off_cells_and_a_claimed_huge_sheet_cost_nothing(tmp_path):
    good = _xlsx(tmp_path)
    with zipfile.ZipFile(good) as z:
        sheet = z.read("xl/worksheets/sheet1.xml")
    import re

    sheet = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:XFD1048576"/>', sheet)
    far = b'<row r="5000"><c r="XFD5000" t="inlineStr"><is><t>far</t></is></c></row></sheetData>'
    sheet = sheet.replace(b"</sheetData>", far, 1)
    bad = _rewrite(good, tmp_path / "far.xlsx", {"xl/worksheets/sheet1.xml": sheet})
    t = time.monotonic()
    res = import_oob([bad], "xlsx", mapping=LEVELS)
    assert time.monotonic() - t < 5
    plain = import_oob([good], "xlsx", mapping=LEVELS)
    assert res.summary == plain.summary and sum(res.summary.units_by_arm.values()) == 11


def test_a_header_wider_than_the_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tabular, "XLSX_MAX_COLUMNS", 5)
    msg = _error(_xlsx(tmp_path))
    assert "w.xlsx: row 1: " in msg and "columns, more than the 5 an import reads" in msg


def test_a_member_whose_zip_checksum_is_wrong_is_named_in_words(tmp_path):
    bad = Path(__file__).resolve().parents[2] / "data" / "fuzz" / "bad-crc.xlsx"  # found by the long fuzz run
    msg = _error(bad)
    assert "the workbook's zip archive is damaged (wrong checksum of zip member 'xl/worksheets/sheet1.xml')" in msg
    assert "BadZipFile" not in msg
