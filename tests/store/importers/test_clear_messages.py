"""Messages the fresh tester found unclear (issue 27): each now names the file and the place
(row, table, JSON path) in the layout ``FILE: PLACE: what: expected``, and a short CSV row is
a warning naming it instead of passing without a word."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from battlestudio.store.importers import OobImportError, import_oob

DATA = Path("/work/shared/data/oob")
LEVELS = Path(__file__).parent / "data" / "waterloo_levels.toml"
ORBAT = Path(__file__).resolve().parents[2] / "data" / "orbat-mapper" / "narvik40-0.6.0.json"


def _error(*args, **kwargs) -> str:
    with pytest.raises(OobImportError) as err:
        import_oob(*args, **kwargs)
    return str(err.value)


def test_an_empty_csv_says_it_has_no_header(tmp_path):
    p = tmp_path / "empty.csv"
    p.write_text("")
    msg = _error([p], "csv", mapping=LEVELS)
    assert msg.startswith(f"{p}: row 1: no header (the file or sheet is empty); expected the columns 'commander'"), msg
    assert msg.endswith(f"'brigade' named in {LEVELS}")
    assert "()" not in msg


def test_a_missing_column_names_row_1_and_the_header(tmp_path):
    p = tmp_path / "cols.csv"
    p.write_text("army,corps,commander,men,guns,arm,side\nArmée du Nord,I,,,,,\n", encoding="utf-8")
    msg = _error([p], "csv", mapping=LEVELS)
    assert msg.startswith(f"{p}: row 1: column(s) 'division', 'brigade' named in {LEVELS}"), msg
    assert msg.endswith("missing from the header (army, corps, commander, men, guns, arm, side)")


def test_fogofwar_on_a_lone_csv_names_the_folder_and_the_missing_table(tmp_path):
    lone = tmp_path / "units" / "force_unit.csv"
    lone.parent.mkdir()
    shutil.copy(DATA / "fogofwar" / "force_unit.csv", lone)
    msg = _error([lone], "fogofwar", scenario_id=18)
    assert msg.startswith(f"{lone.parent}: table force.csv: missing; a fogofwar import reads the folder"), msg
    assert msg.count("force.csv") == 2 and "missing fogofwar table" not in msg


def test_orbat_mapper_whole_file_errors_have_no_bare_dollar(tmp_path):
    p = tmp_path / "o.json"
    p.write_text('{"type": "ORBAT-mapper", ', encoding="utf-8")
    msg = _error([p], "orbat-mapper")
    assert msg.startswith(f"{p}: not JSON: ") and "$:" not in msg, msg
    assert "line 1 column" in msg


def test_a_short_csv_row_is_a_warning_naming_the_row_and_the_columns(tmp_path):
    src = (DATA / "waterloo-1815-from-pages.csv").read_text(encoding="utf-8").splitlines()
    header = src[0].split(",")
    cut = src[:5]
    cut[3] = ",".join(src[3].split(",")[:2])  # row 4 keeps two cells
    p = tmp_path / "short.csv"
    p.write_text("\n".join(cut) + "\n", encoding="utf-8")
    res = import_oob([p], "csv", mapping=LEVELS)
    short = [w for w in res.warnings if "cell(s), the header has" in w.message]
    assert len(short) == 1 and short[0].line == 4 and short[0].severity == "warning"
    assert short[0].message.startswith(f"2 cell(s), the header has {len(header)}: column(s) {header[2]!r}")
    assert str(short[0]).startswith(f"{p}:4: warning: 2 cell(s)")


def test_a_short_fogofwar_row_is_a_warning_too(tmp_path):
    d = tmp_path / "fow"
    shutil.copytree(DATA / "fogofwar", d)
    lines = (d / "force_unit.csv").read_text(encoding="utf-8").splitlines()
    lines[1] = ",".join(lines[1].split(",")[:3])
    (d / "force_unit.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = import_oob([d], "fogofwar", scenario_id=18)
    short = [w for w in res.warnings if "cell(s), the header has" in w.message]
    assert [(Path(w.file).name, w.line) for w in short] == [("force_unit.csv", 2)]


def test_orbat_mapper_field_errors_keep_their_json_path(tmp_path):
    text = ORBAT.read_text(encoding="utf-8").replace('"type": "ORBAT-mapper"', '"type": "other"', 1)
    p = tmp_path / "t.json"
    p.write_text(text, encoding="utf-8")
    assert _error([p], "orbat-mapper").startswith(f"{p}: $.type: ")


def test_a_warning_is_one_line_when_a_cell_holds_line_breaks():
    from battlestudio.store.importers.common import ImportWarning

    w = ImportWarning("/x/force_unit.csv", 7, "column 'men': 'a\nb' is not a number", "The\nBattle of\r\nX")
    assert str(w) == "/x/force_unit.csv:7: warning: column 'men': 'a b' is not a number  [The Battle of X]"


def test_an_unclosed_quote_in_a_csv_is_an_error_naming_the_row(tmp_path):
    # a fresh tester's broken CSV imported as one unit named "Loison,Ney,french,abc\nBde X,..."
    src = (DATA / "waterloo-1815-from-pages.csv").read_text(encoding="utf-8").splitlines()
    cut = src[:6]
    cut[2] = '"' + cut[2]  # row 3 opens a quote that nothing closes
    p = tmp_path / "unclosed.csv"
    p.write_text("\n".join(cut) + "\n", encoding="utf-8")
    msg = _error([p], "csv", mapping=LEVELS)
    assert msg.startswith(f"{p}: row 3: not readable CSV (") and "quote" in msg
    q = tmp_path / "open.csv"
    q.write_text('name,side\n"Loison,french\nBde X,french\n', encoding="utf-8")
    from battlestudio.store.importers.common import csv_rows

    _header, rows = csv_rows(q)
    with pytest.raises(OobImportError, match=r"row 2: not readable CSV \(a quote .* is never closed"):
        list(rows)
