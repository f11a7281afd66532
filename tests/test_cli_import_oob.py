"""``battlestudio import-oob``, and ``check``/``info`` on the bundled scenarios."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.cli import main

DATA = Path("/work/shared/data/oob")
SCEN = Path(__file__).resolve().parents[1] / "scenarios"


def test_import_oob_fogofwar_prints_summary_and_writes(tmp_path, capsys):
    out = tmp_path / "elchingen.battle.json"
    code = main(
        ["import-oob", str(DATA / "fogofwar"), "--format", "fogofwar", "--scenario-id", "18", "--out", str(out)]
    )
    cap = capsys.readouterr()
    assert code == 0
    assert "men: 38,620" in cap.out and "commanders: 8 (corps 2, division 6)" in cap.out
    assert "force_unit.csv:344: note: 3400 bayonets and 300 sabres" in cap.err
    assert len(store.load(out).scenario.units) == 22


def test_import_oob_warns_with_file_and_line_and_keeps_going(tmp_path, capsys):
    src = tmp_path / "bad.oob"
    src.write_text(
        "!French 1806\n!Indent 2\nVI-Corps - Ney\n  1eme Division - Marchand\n"
        "    6eme Legere - 4 bases sparkly light\n    39eme Ligne - -2 bases line\n",
        encoding="utf-8",
    )
    out = tmp_path / "bad.battle"
    assert main(["import-oob", str(src), "--format", "oob", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"{src}:5: warning: unknown grade/type word(s) 'sparkly'" in err
    assert f"{src}:6: warning: negative strength -2 bases" in err
    assert len(store.load(out).scenario.units) == 2


def test_import_oob_never_overwrites_without_force(tmp_path, capsys):
    out = tmp_path / "keep.battle.json"
    out.write_text("precious", encoding="utf-8")
    code = main(["import-oob", str(DATA / "leipzig-1813-french.oob"), "--format", "oob", "--out", str(out)])
    assert code == 1 and out.read_text(encoding="utf-8") == "precious"
    assert "already exists" in capsys.readouterr().err
    assert main(["import-oob", "x.csv", "--format", "csv", "--out", str(tmp_path / "x.battle")]) == 1
    assert "x.csv: cannot read file" in capsys.readouterr().err
    assert main(["import-oob", "x.oob", "--format", "json", "--out", str(tmp_path / "x.battle")]) == 2
    assert main(["import-oob", str(tmp_path / "nope.oob"), "--format", "oob", "--out", str(tmp_path / "y.battle")]) == 1
    assert "nope.oob: cannot read file" in capsys.readouterr().err


def _source(force_ids: set[str]) -> dict[str, dict[str, int]]:
    nation = {r["id"]: r["nation"] for r in csv.DictReader(open(DATA / "fogofwar/force.csv", encoding="utf-8"))}
    out: dict[str, dict[str, int]] = {}
    for r in csv.DictReader(open(DATA / "fogofwar/force_unit.csv", encoding="utf-8")):
        if r["force_id"] in force_ids:
            d = out.setdefault(nation[r["force_id"]], {"men": 0, "guns": 0})
            d["men"] += int(r["bayonets"]) + int(r["sabres"])
            d["guns"] += int(r["guns"])
    return out


@pytest.mark.parametrize(
    "name,forces,sides",
    [
        ("elchingen-1805.battle.json", {"101", "102"}, {"French": "french", "Austria": "austrian"}),
        (
            "jena-1806.battle.json",
            {"1", "4", "5", "6", "7", "8", "10", "11", "92"},
            {"French": "french", "Prussia": "prussian"},
        ),
    ],
)
def test_check_passes_and_info_totals_match_the_source(name, forces, sides, capsys):
    path = str(SCEN / name)
    assert main(["check", path]) == 0
    capsys.readouterr()
    assert main(["info", "--json", path]) == 0
    info = json.loads(capsys.readouterr().out)
    src = _source(forces)
    src = {("French" if k == "France" else k): v for k, v in src.items()}
    sc = store.load(path).scenario
    for nation, side in sides.items():
        off_table = sum(
            n
            for c in sc.commanders.values()
            if c.side == side
            for n in c.attributes.get("unrepresented_guns", {}).values()
        )
        assert info["sides"][side]["men"] == src[nation]["men"]
        # guns on the table are the one-third-rule gun models (1.3); the rest is recorded, not lost
        assert info["sides"][side]["guns"] + off_table == src[nation]["guns"]
        assert info["sides"][side]["units"] == sum(1 for u in sc.units.values() if u.side == side)


def test_import_oob_refuses_binary_and_non_utf8_files_naming_the_byte_offset(tmp_path, capsys):
    rand = tmp_path / "rand.oob"
    rand.write_bytes(bytes((i * 73 + 41) % 256 for i in range(2048)))  # 2 KB of byte noise
    out = tmp_path / "rand.battle.json"
    assert main(["import-oob", str(rand), "--format", "oob", "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{rand}: not a text file (NUL byte at byte offset" in err
    assert not out.exists()
    latin = tmp_path / "latin.oob"
    latin.write_bytes("!French 1806\nVI Corps - Ney\n  Légère - 4 bases\n".encode("latin-1"))
    assert main(["import-oob", str(latin), "--format", "oob", "--out", str(out)]) == 1
    assert f"{latin}: not UTF-8 text (byte 0xe9 at byte offset 31)" in capsys.readouterr().err
    assert not out.exists()


def test_lines_that_are_neither_command_nor_unit_are_warned_and_skipped(tmp_path, capsys):
    src = tmp_path / "mixed.oob"
    src.write_text(
        "!French 1806\nVI Corps - Ney\n  1eme Division - Marchand\n    13e Legere 1400 men\n"
        "    6eme Legere - 4 bases light\n    ÿþ§§ garbage ¤¤\n  Corps Artillery\n"
        "    12pdr Battery - HvF\n",
        encoding="utf-8",
    )
    out = tmp_path / "mixed.battle.json"
    assert main(["import-oob", str(src), "--format", "oob", "--no-convert", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"{src}:4: warning: neither a command line ('Name - Commander') nor a unit line" in err
    assert "'1400 men' is not a strength this format reads" in err
    assert f"{src}:6: warning: neither a command line" in err
    sc = store.load(out).scenario
    assert sorted(c.attributes["formation"] for c in sc.commanders.values()) == [
        "1eme Division",
        "Corps Artillery",
        "VI Corps",
    ]
    assert sorted(u.name for u in sc.units.values()) == ["12pdr Battery", "6eme Legere"]


def test_an_import_that_yields_nothing_fails_and_writes_nothing(tmp_path, capsys):
    empty = tmp_path / "empty.oob"
    empty.write_text("", encoding="utf-8")
    out = tmp_path / "empty.battle.json"
    assert main(["import-oob", str(empty), "--format", "oob", "--out", str(out)]) == 1
    assert f"{empty}: nothing imported (no command or unit line found)" in capsys.readouterr().err
    only_junk = tmp_path / "junk.oob"
    only_junk.write_text("!French 1806\n#### ####\n", encoding="utf-8")
    assert main(["import-oob", str(only_junk), "--format", "oob", "--out", str(out)]) == 1
    assert f"{only_junk}:2: warning: neither a command line" in capsys.readouterr().err
    assert not out.exists()


WATERLOO_MAP = Path(__file__).resolve().parent / "store" / "importers" / "data" / "waterloo_levels.toml"


def test_import_oob_checks_the_files_real_type_against_format(tmp_path, capsys):
    out = tmp_path / "w.battle.json"
    csv_file = DATA / "waterloo-1815-from-pages.csv"
    assert main(["import-oob", str(csv_file), "--format", "xlsx", "--map", str(WATERLOO_MAP), "--out", str(out)]) == 1
    assert (
        f"{csv_file}: --format xlsx, but the file is not an XLSX workbook (not a zip archive)"
        in capsys.readouterr().err
    )
    import openpyxl

    book = tmp_path / "waterloo.csv"  # an XLSX workbook under a .csv name
    wb = openpyxl.Workbook()
    for row in csv.reader(open(csv_file, encoding="utf-8")):
        wb.active.append(row)
    wb.save(book)
    assert main(["import-oob", str(book), "--format", "csv", "--map", str(WATERLOO_MAP), "--out", str(out)]) == 1
    assert f"{book}: --format csv, but the file is a zip archive" in capsys.readouterr().err
    assert not out.exists()
    # read by its declared format, not by its name
    assert main(["import-oob", str(book), "--format", "xlsx", "--map", str(WATERLOO_MAP), "--out", str(out)]) == 0
    assert out.exists()


def test_options_that_the_format_does_not_read_are_usage_errors(tmp_path, capsys):
    out = tmp_path / "x.battle.json"
    oob = str(DATA / "leipzig-1813-french.oob")
    assert main(["import-oob", oob, "--format", "oob", "--map", str(WATERLOO_MAP), "--out", str(out)]) == 2
    assert "--map is only read with --format csv or xlsx, not oob" in capsys.readouterr().err
    assert (
        main(
            [
                "import-oob",
                str(DATA / "fogofwar"),
                "--format",
                "fogofwar",
                "--map",
                str(WATERLOO_MAP),
                "--scenario-id",
                "18",
                "--out",
                str(out),
            ]
        )
        == 2
    )
    assert "--map is only read with --format csv or xlsx, not fogofwar" in capsys.readouterr().err
    assert main(["import-oob", oob, "--format", "oob", "--scenario-id", "1", "--out", str(out)]) == 2
    assert "--scenario-id is only read with --format fogofwar" in capsys.readouterr().err
    assert not out.exists()


def test_fogofwar_with_several_scenarios_needs_scenario_id_and_lists_them(tmp_path, capsys):
    out = tmp_path / "all.battle.json"
    assert main(["import-oob", str(DATA / "fogofwar"), "--format", "fogofwar", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert (
        "force.csv: the tables hold 3 scenarios; choose one with --scenario-id: "
        "1 (Jena Auerstadt), 17 (Eylau), 18 (Battle of Elchingen)" in err
    )
    assert not out.exists()


def test_a_malformed_mapping_is_one_clear_line_not_an_internal_error(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[hierarchy]\nlevels = 5\n[columns]\nmen = 7\n", encoding="utf-8")
    out = tmp_path / "w.battle.json"
    code = main(
        [
            "import-oob",
            str(DATA / "waterloo-1815-from-pages.csv"),
            "--format",
            "csv",
            "--map",
            str(bad),
            "--out",
            str(out),
        ]
    )
    err = capsys.readouterr().err
    assert code == 1 and "internal error" not in err
    assert f"{bad}: [hierarchy] levels = 5: expected a list of column names" in err
    assert not out.exists()


def test_import_oob_help_points_to_the_mapping_docs(capsys):
    assert main(["import-oob", "--help"]) == 0
    assert "docs/import-mapping.md" in capsys.readouterr().out
    assert (Path(__file__).resolve().parents[1] / "docs" / "import-mapping.md").exists()


def test_zero_men_units_are_warned_on_import_and_flagged_by_check(tmp_path, capsys):
    src = DATA / "waterloo-1815-from-pages.csv"
    out = tmp_path / "waterloo.battle.json"
    assert main(["import-oob", str(src), "--format", "csv", "--map", str(WATERLOO_MAP), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    rows = list(csv.DictReader(open(src, encoding="utf-8")))
    # row 5 (I Corps, 1st Division, Brigade Quiot; the header is row 1) has empty men and guns cells
    assert (rows[3]["brigade"], rows[3]["men"], rows[3]["guns"]) == ("Brigade Quiot", "", "")
    assert f"{src}:5: warning: unit 'Brigade Quiot' has no men and no guns" in err
    assert err.count("has no men and no guns") == 67
    assert main(["check", str(out)]) == 1
    flagged = [ln for ln in capsys.readouterr().out.splitlines() if " error unit.no_strength: " in ln]
    sc = store.load(out).scenario
    empty = sorted(u for u, rec in sc.units.items() if rec.men == 0 and rec.figures == 0 and not rec.bases)
    assert len(flagged) == len(empty) > 0
    assert all(any(f"units[{u!r}].men" in ln for ln in flagged) for u in empty)


def test_a_table_without_a_mapping_is_read_by_the_guessed_columns_and_says_so(tmp_path, capsys):
    """Without --map the columns are guessed from the header as the Import dialog guesses them
    (a fresh tester found the command refusing what the dialog reads); a note names each guess
    and the columns not read. A header naming no unit column still needs a mapping."""
    src = DATA / "waterloo-1815-from-pages.csv"
    mapped, guessed = tmp_path / "mapped.battle.json", tmp_path / "guessed.battle.json"
    assert main(["import-oob", str(src), "--format", "csv", "--map", str(WATERLOO_MAP), "--out", str(mapped)]) == 0
    capsys.readouterr()
    assert main(["import-oob", str(src), "--format", "csv", "--out", str(guessed)]) == 0
    err = capsys.readouterr().err
    assert f"{src}:1: note: no --map: the columns were guessed from the header: side as side, army as level 1" in err
    assert "brigade as level 4, commander as commander" in err and "; not read: source_page" in err
    a, b = store.load(mapped).scenario, store.load(guessed).scenario
    assert len(b.units) == len(a.units) > 50 and len(b.commanders) == len(a.commanders)
    assert sum(u.figures for u in b.units.values()) == sum(u.figures for u in a.units.values())
    bare = tmp_path / "bare.csv"
    bare.write_text("colour,size\nblue,3\n", encoding="utf-8")
    assert main(["import-oob", str(bare), "--format", "csv", "--out", str(tmp_path / "bare.battle")]) == 1
    err = capsys.readouterr().err
    assert "without --map, and no column of the header (colour, size) names a unit" in err
    assert not (tmp_path / "bare.battle").exists()
