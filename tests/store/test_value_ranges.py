"""Values of the right type but out of range are refused on load, naming file, path and value
(a unit of -3 figures used to load and then crash ``orders``, ``export-map`` and the GUI)."""

from __future__ import annotations

import json
import re

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
    assert re.search(rf"units\[0\]\.{field}: must be between 0 and [0-9]+, got -3$", msg), msg


def test_negative_commander_figures(tmp_path, jena):
    msg = _error(tmp_path, jena, lambda d: d["commanders"][0].__setitem__("figures", -1))
    assert msg.endswith("commanders[0].figures: must be between 0 and 10000, got -1")


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
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()
    with pytest.raises(BattleFileError) as info:
        store.load(p)
    assert str(info.value).startswith(f"{p}: unit id=")  # the SQLite layer names the row
    assert str(info.value).endswith(".figures: must be between 0 and 10000, got -3")


@pytest.mark.parametrize(
    "field,value,tail",
    [
        ("figure_width", 1.4e53, "units[0].figure_width: must be > 0 and <= 50, got 1.4e+53"),
        ("figure_depth", 0, "units[0].figure_depth: must be > 0 and <= 50, got 0"),
        ("column_ranks", 0, "units[0].column_ranks: must be between 1 and 100, got 0"),
        ("men", 10**12, "units[0].men: must be between 0 and 10000000, got 1000000000000"),
        ("guns", 10**6, "units[0].guns: must be between 0 and 100000, got 1000000"),
        ("figures", 10**9, "units[0].figures: must be between 0 and 10000, got 1000000000"),
    ],
)
def test_unit_upper_bounds(tmp_path, jena, field, value, tail):
    """One flipped byte (figure_width 1.5 -> 1.4e53) used to pass check and then fill memory drawing the map."""
    assert _error(tmp_path, jena, lambda d: _unit(d, field, value)).endswith(tail)


def test_unit_upper_bounds_in_a_battle_file(tmp_path, jena):
    import sqlite3

    path = tmp_path / "j.battle"
    store.save(jena, path)
    con = sqlite3.connect(path)
    con.execute("UPDATE unit SET figure_width = 1.4e53 WHERE id = (SELECT min(id) FROM unit)")
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()
    with pytest.raises(BattleFileError, match=r"figure_width: must be > 0 and <= 50, got 1.4e\+53"):
        store.load(path)


@pytest.mark.parametrize(
    "edit,tail",
    [
        (lambda d: _unit(d, "id", "a\udfffb"), "units[0].id: not valid Unicode text (a lone surrogate U+DFFF"),
        (lambda d: _unit(d, "name", "\udfff"), "units[0].name: not valid Unicode text (a lone surrogate U+DFFF"),
        (lambda d: _unit(d, "id", "a\x1b[2Jb"), "units[0].id: an identifier must be printable text; U+001B"),
        (lambda d: _unit(d, "id", "x" * 501), "units[0].id: text of 501 characters, more than 500"),
        (lambda d: d["info"]["parameters"].__setitem__("k", ["\ud800"]), "info.parameters.k[0]: not valid Unicode"),
    ],
)
def test_identifiers_and_text_that_could_not_be_saved(tmp_path, jena, edit, tail):
    """What opens can be saved: a lone surrogate used to load and then fail at Save."""
    msg = _error(tmp_path, jena, edit)
    assert tail in msg, msg


def test_empty_point_refused_in_both_formats(tmp_path, jena):
    """An empty Point used to load and then raise a GEOSException in ``replay --png``."""
    import sqlite3

    import shapely
    from shapely.geometry import Point

    msg = _error(
        tmp_path, jena, lambda d: d["objectives"][0].__setitem__("geometry", {"type": "MultiPoint", "coordinates": []})
    )
    assert msg.endswith(
        "objectives[0].geometry.coordinates: an empty MultiPoint (a geometry needs at least one position)"
    )
    path = tmp_path / "j.battle"
    store.save(jena, path)
    con = sqlite3.connect(path)
    con.execute("UPDATE objective SET geometry = ?", (shapely.to_wkb(Point()),))
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()
    with pytest.raises(BattleFileError, match=r"j.battle: objective id='[^']+'.geometry: an empty Point"):
        store.load(path)


def test_not_a_regular_file_refused_at_once(tmp_path):
    import os

    fifo = tmp_path / "pipe.battle.json"
    os.mkfifo(fifo)
    with pytest.raises(BattleFileError, match=r"pipe.battle.json: not a regular file"):
        store.load(fifo)
