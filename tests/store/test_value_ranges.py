"""Values of the right type but out of range are refused on load, naming file, path and value
(a unit of -3 figures used to load and then crash ``orders``, ``export-map`` and the GUI)."""

from __future__ import annotations

import json

import pytest

from battlestudio import store
from battlestudio.store import BattleFileError
from battlestudio.store.json_format import dumps


def _error(tmp_path, jena, edit) -> str:
    doc = json.loads(dumps(jena))
    edit(doc)
    src = tmp_path / "src.battle.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(BattleFileError) as info:
        store.load(src)
    msg = str(info.value)
    assert msg.startswith(f"{src}: ") and "\n" not in msg
    return msg


def _unit(doc, field, value):
    doc["units"][0][field] = value


@pytest.mark.parametrize("field", ["figures", "men", "horses", "guns", "bases", "ammunition"])
def test_negative_unit_counts(tmp_path, jena, field):
    msg = _error(tmp_path, jena, lambda d: _unit(d, field, -3))
    assert msg.endswith(f"units[0].{field}: must be >= 0, got -3")


def test_negative_commander_figures(tmp_path, jena):
    msg = _error(tmp_path, jena, lambda d: d["commanders"][0].__setitem__("figures", -1))
    assert msg.endswith("commanders[0].figures: must be >= 0, got -1")


@pytest.mark.parametrize(
    "field,value,tail",
    [
        ("table_width", 1e300, "info.table_width: must be > 0 and <= 100000, got 1e+300"),
        ("table_height", -5, "info.table_height: must be > 0 and <= 100000, got -5"),
        ("table_width", 0, "info.table_width: must be > 0 and <= 100000, got 0"),
        ("ground_scale", 0, "info.ground_scale: must be > 0 and <= 1e+06, got 0"),
        ("turn_minutes", 0, "info.turn_minutes: must be between 1 and 1440, got 0"),
        ("turns", 0, "info.turns: must be between 1 and 10000, got 0"),
        ("turns", 10**9, "info.turns: must be between 1 and 10000, got 1000000000"),
        ("first_turn", "25:00", 'info.first_turn: expected a time of day HH:MM, e.g. "06:00", got "25:00"'),
        ("first_turn", "dawn", 'info.first_turn: expected a time of day HH:MM, e.g. "06:00", got "dawn"'),
        ("date", "14 Oct 1806", 'info.date: expected an ISO date YYYY-MM-DD (or ""), got "14 Oct 1806"'),
        ("date", "1806-02-30", 'info.date: expected an ISO date YYYY-MM-DD (or ""), got "1806-02-30"'),
    ],
)
def test_bad_info_values(tmp_path, jena, field, value, tail):
    msg = _error(tmp_path, jena, lambda d: d["info"].__setitem__(field, value))
    assert msg.endswith(tail), msg


def test_empty_date_is_fine(tmp_path, jena):
    doc = json.loads(dumps(jena))
    doc["info"]["date"] = ""
    p = tmp_path / "ok.battle.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    assert store.load(p).scenario.info.date == ""


def test_huge_position(tmp_path, jena):
    msg = _error(tmp_path, jena, lambda d: _unit(d, "position", [1e200, 5.0]))
    assert msg.endswith("units[0].position[0]: must be >= -1e+06 and <= 1e+06, got 1e+200"), msg


def test_huge_geometry_coordinate(tmp_path, jena):
    def edit(d):
        d["objectives"][0]["geometry"] = {"type": "Point", "coordinates": [5.0, -1e30]}

    msg = _error(tmp_path, jena, edit)
    assert "objectives[0].geometry.coordinates[1]: must be >= -1e+06" in msg, msg


def test_sqlite_file_with_negative_figures_is_refused(tmp_path, jena):
    """The .battle format is checked by the same codec: rewrite a row, then load."""
    import sqlite3

    p = tmp_path / "jena.battle"
    store.save(jena, p)
    con = sqlite3.connect(p)
    con.execute("UPDATE unit SET figures = -3")
    con.commit()
    con.close()
    with pytest.raises(BattleFileError) as info:
        store.load(p)
    assert str(info.value).startswith(f"{p}: unit id=")  # the SQLite layer names the row
    assert str(info.value).endswith(".figures: must be >= 0, got -3")
