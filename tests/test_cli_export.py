"""``battlestudio export FILE --format geojson`` and the georeference in ``battlestudio info``:
what they print, what they write, and that a bad option or output writes nothing."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from shapely.geometry import shape

from battlestudio import store
from battlestudio.cli import main
from battlestudio.model.georef import Georeference
from tests.store.conftest import jena_battle

JENA = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"


@pytest.fixture
def placed(tmp_path) -> Path:
    b = jena_battle()
    b.scenario.info = replace(b.scenario.info, georef=Georeference(-3.25, -12.5, 271.0))
    path = tmp_path / "placed.battle"
    store.save(b, path)
    return path


def test_info_shows_the_georeference_in_text_and_json(placed, capsys):
    assert main(["info", str(placed)]) == 0
    assert "\ngeoreference: origin 3.2500 W 12.5000 S, +x bearing 271.0 deg\n" in capsys.readouterr().out
    assert main(["info", str(placed), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["georef"] == {"lon": -3.25, "lat": -12.5, "bearing": 271.0} and info["ground_scale"] == 30.0


def test_info_says_when_a_scenario_is_not_georeferenced(capsys):
    assert main(["info", str(JENA)]) == 0
    assert "\nnot georeferenced\n" in capsys.readouterr().out
    assert main(["info", str(JENA), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["georef"] is None


def test_export_geojson_of_jena_at_a_turn(tmp_path, capsys):
    out = tmp_path / "jena.geojson"
    assert main(["export", str(JENA), "--format", "geojson", "--at", "6:french", "--out", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    said = capsys.readouterr().out
    assert said == f"wrote {out} ({len(doc['features'])} features, table cm (x, y))\n"
    about = doc["battlestudio"]
    assert (about["turn"], about["side"]) == (6, "french") and "crs" in doc
    assert all(shape(f["geometry"]).is_valid for f in doc["features"])


def test_export_geojson_of_a_georeferenced_file_is_in_lon_lat(placed, tmp_path, capsys):
    out = tmp_path / "placed.json"
    assert main(["export", str(placed), "--format", "geojson", "--out", str(out)]) == 0
    assert "WGS84" in capsys.readouterr().out
    doc = json.loads(out.read_text(encoding="utf-8"))
    lonlat = [shape(f["geometry"]).bounds for f in doc["features"]]
    assert all(-3.4 < x0 <= x1 < -3.1 and -12.6 < y0 <= y1 < -12.4 for x0, y0, x1, y1 in lonlat)


@pytest.mark.parametrize(
    "args,code,message",
    [
        (["--at", "x"], 2, "--at 'x': the turn 'x' is not a whole number"),
        (["--at", "99"], 1, f"{JENA}: --at 99: the game log has no phase at 99; it holds turns 1–40"),
        (["--at", "3:austrian"], 1, "the game log has no phase at 3:austrian"),
        (["--out", "{tmp}/no/such/folder/x.geojson"], 1, "x.geojson: the folder {tmp}/no/such/folder does not exist"),
        (["--out", "{tmp}/dir.geojson"], 1, "{tmp}/dir.geojson: is a folder, not a file"),
        (["--out", "{tmp}/x.png"], 2, "cannot write .png; name it .geojson or .json"),
        (["--format", "kml"], 2, "invalid choice: 'kml'"),
    ],
)
def test_bad_options_write_nothing_and_say_why(tmp_path, capsys, args, code, message):
    old = tmp_path / "x.geojson"
    old.write_text("the previous export\n", encoding="utf-8")
    (tmp_path / "dir.geojson").mkdir()
    argv = ["export", str(JENA), "--format", "geojson", "--at", "end", "--out", str(old)]
    for i in range(0, len(args), 2):
        at = argv.index(args[i])
        argv[at + 1] = args[i + 1].format(tmp=tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(argv) == code
    err = capsys.readouterr().err
    assert message.format(tmp=tmp_path) in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert old.read_text(encoding="utf-8") == "the previous export\n"


def test_a_bad_input_file_is_named(tmp_path, capsys):
    bad = tmp_path / "bad.battle.json"
    bad.write_text('{"format": "battlestudio", "schema_version": 2, "info": {"georef": {"lat": 95}}}', "utf-8")
    assert main(["export", str(bad), "--format", "geojson", "--out", str(tmp_path / "x.geojson")]) == 1
    assert f"{bad}: info.georef.lon: missing" in capsys.readouterr().err
    assert not (tmp_path / "x.geojson").exists()
