"""Every kind of broken file raises a BattleFileError naming the file and what is wrong."""

from __future__ import annotations

import json
from pathlib import Path
import os
import random
import sqlite3

import pytest

from battlestudio import store
from battlestudio.store import BattleFileError
from battlestudio.store.json_format import dumps
from battlestudio.store.codec import SCHEMA_VERSION


@pytest.fixture
def json_doc(jena):
    return json.loads(dumps(jena))


def _write_doc(tmp_path, doc, name="bad.battle.json"):
    p = tmp_path / name
    p.write_text(json.dumps(doc), encoding="utf-8")
    return p


def _load_error(path) -> str:
    with pytest.raises(BattleFileError) as info:
        store.load(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: "), msg
    assert "\n" not in msg
    return msg


@pytest.mark.parametrize("name", ["x.battle", "x.battle.json"])
def test_missing_file(tmp_path, name):
    assert _load_error(tmp_path / name) == f"{tmp_path / name}: no such file"


@pytest.mark.parametrize("name", ["x.battle", "x.battle.json"])
def test_empty_file(tmp_path, name):
    (tmp_path / name).write_bytes(b"")
    assert _load_error(tmp_path / name).endswith("file is empty")


@pytest.mark.parametrize("name", ["x.battle", "x.battle.json"])
def test_random_bytes(tmp_path, name):
    (tmp_path / name).write_bytes(random.Random(1806).randbytes(4096))
    msg = _load_error(tmp_path / name)
    assert "not an SQLite database" in msg or "not UTF-8" in msg or "not valid JSON" in msg


def test_directory_instead_of_file(tmp_path):
    (tmp_path / "d.battle").mkdir()
    assert "is a directory" in _load_error(tmp_path / "d.battle")


def test_truncated_json(tmp_path, jena):
    text = dumps(jena)
    p = tmp_path / "t.battle.json"
    p.write_text(text[: len(text) // 2], encoding="utf-8")
    assert "not valid JSON" in _load_error(p) and "line" in _load_error(p)


def test_truncated_sqlite(tmp_path, jena):
    store.save(jena, tmp_path / "full.battle")
    data = (tmp_path / "full.battle").read_bytes()
    assert len(data) > 8192
    for cut in (100, 4096, len(data) // 2):
        p = tmp_path / f"cut{cut}.battle"
        p.write_bytes(data[:cut])
        msg = _load_error(p)
        assert "damaged" in msg or "tables" in msg or "missing" in msg, msg


def test_sqlite_with_garbage_pages(tmp_path, jena):
    store.save(jena, tmp_path / "g.battle")
    data = bytearray((tmp_path / "g.battle").read_bytes())
    data[4096:8192] = random.Random(14).randbytes(4096)
    (tmp_path / "g.battle").write_bytes(bytes(data))
    assert "damaged or unreadable" in _load_error(tmp_path / "g.battle")


def test_json_named_battle_and_battle_named_json(tmp_path, jena):
    store.save(jena, tmp_path / "j.battle.json")
    os.rename(tmp_path / "j.battle.json", tmp_path / "j.battle")
    assert "looks like JSON" in _load_error(tmp_path / "j.battle")
    store.save(jena, tmp_path / "s.battle")
    os.rename(tmp_path / "s.battle", tmp_path / "s.battle.json")
    assert "SQLite .battle file" in _load_error(tmp_path / "s.battle.json")


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: d["units"][3].__setitem__("facing", "north"), 'units[3].facing: expected a number, got "north"'),
        (lambda d: d["units"][0].__setitem__("men", 1.5), "units[0].men: expected an integer, got 1.5"),
        (lambda d: d["units"][0].__setitem__("men", True), "units[0].men: expected an integer, got true"),
        (
            lambda d: d["units"][1].__setitem__("arm", "dragoons"),
            'units[1].arm: expected one of infantry, cavalry, artillery, other; got "dragoons"',
        ),
        (
            lambda d: d["units"][2].__setitem__("position", [1.0]),
            "units[2].position: expected a point [x, y], got a list",
        ),
        (
            lambda d: d["units"][2].__setitem__("position", [1.0, "y"]),
            'units[2].position[1]: expected a number, got "y"',
        ),
        (lambda d: d["units"][0].pop("id"), "units[0].id: missing"),
        (lambda d: d["units"][0].__setitem__("colour", "blue"), "units[0].colour: unknown field"),
        (lambda d: d["units"][0].__setitem__("attributes", []), "units[0].attributes: expected an object, got a list"),
        (
            lambda d: d["commanders"][1].__setitem__("command_distance", "far"),
            'commanders[1].command_distance: expected a number, got "far"',
        ),
        (
            lambda d: d["sides"][0].__setitem__("nations", ["France", 3]),
            "sides[0].nations[1]: expected a string, got 3",
        ),
        (lambda d: d["info"].__setitem__("turns", "forty"), 'info.turns: expected an integer, got "forty"'),
        (lambda d: d["terrain"][0]["geometry"].__setitem__("type", "Circle"), "terrain[0].geometry.type: expected"),
        (
            lambda d: d["terrain"][2]["geometry"]["coordinates"][0].__setitem__(1, ["a", 2]),
            'terrain[2].geometry.coordinates[0][1][0]: expected a number, got "a"',
        ),
        (
            lambda d: d["terrain"][2]["geometry"].__setitem__("coordinates", [[[0, 0], [1, 1]]]),
            "terrain[2].geometry: invalid Polygon",
        ),
        (
            lambda d: d["towns"][0].__setitem__("polygon", {"type": "Point", "coordinates": [1, 2]}),
            'towns[0].polygon.type: expected Polygon, got "Point"',
        ),
        (lambda d: d["orders"][0].__setitem__("status", "lost"), "orders[0].status: expected one of written"),
        (lambda d: d["units"].append(dict(d["units"][0])), 'units[6].id: duplicate id "claparede" (also units[0])'),
        (lambda d: d.__setitem__("units", {}), "units: expected a list, got an object"),
        (
            lambda d: d["oob"][0].__setitem__("subordinates", "lannes"),
            "oob[0].subordinates: expected a list of strings",
        ),
        (lambda d: d["events"][1].__setitem__("turn", "1"), 'events[1].turn: expected an integer, got "1"'),
        (lambda d: d["events"][0].__setitem__("kind", "teleported"), "events[0]: unknown event kind 'teleported'"),
        (
            lambda d: d["events"][0].__setitem__("weather", "fog"),
            "events[0]: event 'phase_started' has no field(s) weather",
        ),
        (
            lambda d: d.__setitem__("schema_version", 99),
            "schema_version: written by a newer BattleStudio (schema version 99",
        ),
        (lambda d: d.__setitem__("format", "orbat-mapper"), "format: not a BattleStudio document"),
        (lambda d: d.__setitem__("unitz", []), "unitz: unknown key"),
    ],
)
def test_json_with_a_wrong_value_names_path_and_value(tmp_path, json_doc, mutate, expected):
    mutate(json_doc)
    p = _write_doc(tmp_path, json_doc)
    msg = _load_error(p)
    assert msg.startswith(f"{p}: {expected}"), msg


def test_json_top_level_not_an_object(tmp_path):
    p = tmp_path / "l.battle.json"
    p.write_text("[1, 2]", encoding="utf-8")
    assert _load_error(p) == f"{p}: expected a JSON object at the top, got a list"


def test_json_duplicate_key_and_nan_are_refused(tmp_path, jena):
    text = dumps(jena)
    p = tmp_path / "d.battle.json"
    p.write_text(text.replace('"title": "Jena 1806",', '"title": "Jena 1806", "title": "Auerstedt",'), encoding="utf-8")
    assert "key 'title': appears twice" in _load_error(p)
    p.write_text(text.replace('"facing": 90.0', '"facing": NaN', 1), encoding="utf-8")
    assert "NaN is not a number JSON allows" in _load_error(p)


def test_not_utf8(tmp_path, jena):
    p = tmp_path / "u.battle.json"
    p.write_bytes(dumps(jena).replace("Napoléon", "Napol\udce9on").encode("utf-8", "surrogateescape"))
    assert "not UTF-8 text" in _load_error(p)


def _sql(path, *statements):
    con = sqlite3.connect(path)
    for s in statements:
        con.execute(s)
    if con.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone():
        con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()


def test_sqlite_from_a_newer_version(tmp_path, jena):
    p = tmp_path / "new.battle"
    store.save(jena, p)
    _sql(p, "UPDATE meta SET value = '7' WHERE key = 'schema_version'", "CREATE TABLE keyframe_v7 (x)")
    msg = _load_error(p)
    assert f"written by a newer BattleStudio (schema version 7; this version reads up to {SCHEMA_VERSION})" in msg


def test_foreign_sqlite_database(tmp_path):
    p = tmp_path / "orbat.battle"
    _sql(p, "CREATE TABLE units (id TEXT, sidc TEXT)", "INSERT INTO units VALUES ('u1', 'SFGPUCI')")
    assert (
        _load_error(p)
        == f"{p}: not a BattleStudio file: an SQLite database without BattleStudio tables (tables found: units)"
    )


def test_sqlite_with_a_missing_table(tmp_path, jena):
    p = tmp_path / "m.battle"
    store.save(jena, p)
    _sql(p, "DROP TABLE town_zone")
    assert _load_error(p).endswith("damaged BattleStudio file: table(s) town_zone missing")


def test_sqlite_with_a_bad_value_names_table_row_and_column(tmp_path, jena):
    p = tmp_path / "v.battle"
    store.save(jena, p)
    _sql(p, "UPDATE unit SET facing = 'north' WHERE id = 'vedel'")
    assert _load_error(p) == f"{p}: unit id='vedel'.facing: expected a number, got \"north\""
    store.save(jena, p)
    _sql(p, "UPDATE terrain SET geometry = x'00ff' WHERE id = 'saale'")
    assert "terrain id='saale'.geometry: not a valid WKB geometry" in _load_error(p)
    store.save(jena, p)
    _sql(p, "UPDATE event SET payload = '{\"name\": ' WHERE seq = 0")
    assert "event seq=0.payload: not valid JSON" in _load_error(p)
    # a cell of the wrong kind is said in SQL's words, not Python's ("got NoneType")
    store.save(jena, p)
    _sql(p, "UPDATE event SET payload = x'7b7d' WHERE seq = 0")
    assert "event seq=0.payload: expected JSON text, got a blob of 2 bytes" in _load_error(p)
    store.save(jena, p)
    _sql(p, "UPDATE terrain SET geometry = 42 WHERE id = 'saale'")
    assert "terrain id='saale'.geometry: expected a WKB geometry blob, got the number 42" in _load_error(p)


def test_sqlite_with_an_empty_order_of_battle_id_names_the_row(tmp_path, jena):
    # found by the byte-flipping fuzz test: a damaged row read back as NULL reached networkx
    p = tmp_path / "n.battle"
    store.save(jena, p)
    _sql(p, "UPDATE oob_node SET id = x'00ff' WHERE seq = 0")
    assert _load_error(p) == f"{p}: oob_node seq=0.id: expected a non-empty text id, got b'\\x00\\xff'"
    store.save(jena, p)
    _sql(p, "UPDATE oob_edge SET subordinate = '' WHERE seq = 1")
    assert _load_error(p) == f"{p}: oob_edge seq=1.subordinate: expected a non-empty text id, got ''"


def test_loading_does_not_modify_the_file(tmp_path, jena):
    p = tmp_path / "r.battle"
    store.save(jena, p)
    before = p.read_bytes()
    store.load(p)
    assert p.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["r.battle"]


def test_unknown_suffix_is_refused(tmp_path, jena):
    with pytest.raises(ValueError, match=r"unknown file type; use a name ending in \.battle or \.battle\.json"):
        store.save(jena, tmp_path / "x.txt")
    assert not (tmp_path / "x.txt").exists()


# -- fuzzing: whatever is broken, the error is a BattleFileError ---------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.store.conftest import jena_battle  # noqa: E402

_JENA_TEXT = dumps(jena_battle())
_WRONG = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


def _leaves(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    yield path


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_wrong_value_anywhere_in_json_is_a_battle_file_error(tmp_path, data):
    doc = json.loads(_JENA_TEXT)
    paths = [p for p in _leaves(doc) if p]
    path = data.draw(st.sampled_from(paths))
    new = data.draw(_WRONG)
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    p = tmp_path / "fuzz.battle.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    try:
        store.load(p)
    except BattleFileError as err:
        assert str(err).startswith(f"{p}: ") and "\n" not in str(err)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(flips=st.lists(st.tuples(st.integers(0, 10**9), st.integers(1, 255)), min_size=1, max_size=20))
def test_any_damaged_bytes_in_sqlite_are_a_battle_file_error(tmp_path, flips):
    p = tmp_path / "fuzz.battle"
    store.save(jena_battle(), p)
    data = bytearray(p.read_bytes())
    for offset, xor in flips:
        data[offset % len(data)] ^= xor
    p.write_bytes(bytes(data))
    try:
        store.load(p)
    except BattleFileError as err:
        assert str(err).startswith(f"{p}: ") and "\n" not in str(err)


def test_huge_numbers_and_deep_nesting(tmp_path, json_doc):
    json_doc["units"][0]["facing"] = 10**400
    p = _write_doc(tmp_path, json_doc)
    assert _load_error(p).endswith("units[0].facing: number too large: " + ("1" + "0" * 400)[:57] + "...")
    p.write_text(
        '{"format": "battlestudio", "schema_version": 1, "info": {"parameters": {"a": '
        + "[" * 100000
        + "]" * 100000
        + "}}}",
        encoding="utf-8",
    )
    assert "nested too deeply" in _load_error(p)


def test_deeply_nested_event_payload(tmp_path, json_doc):
    json_doc["events"][2]["roll"] = "__DEEP__"
    p = tmp_path / "deep.battle.json"
    p.write_text(json.dumps(json_doc).replace('"__DEEP__"', "[" * 3000 + "]" * 3000), encoding="utf-8")
    assert "nested too deeply" in _load_error(p)


def test_an_event_object_field_given_a_list_is_refused_naming_the_field(tmp_path):
    """Found by the 10,000-input fuzz run: an order's ``parameters`` given as a list loaded, and
    `orders` then said "dictionary update sequence element #0 has length 1; 2 is required"."""
    doc = json.loads((Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json").read_text())
    i = next(n for n, e in enumerate(doc["events"]) if e["kind"] == "order_written")
    doc["events"][i]["parameters"] = ["x"]
    p = _write_doc(tmp_path, doc)
    assert _load_error(p) == (
        f"{p}: events[{i}]: event 'order_written': field parameters: expected an object {{...}}, got a list"
    )


def test_a_long_unknown_field_name_is_shortened_in_the_message(tmp_path, json_doc):
    """Found by the fuzz run: a 5,000-character field name was echoed whole."""
    json_doc["units"][2]["a" + "9" * 5_000] = 1
    msg = _load_error(_write_doc(tmp_path, json_doc))
    assert len(msg) < len(str(tmp_path)) + 400
    assert f"units[2].a{'9' * 36}...(5,001 characters): unknown field (a Unit has id, name," in msg
    del json_doc["units"][2]["a" + "9" * 5_000]
    json_doc["b" * 300] = 1
    msg = _load_error(_write_doc(tmp_path, json_doc))
    assert f": {'b' * 37}...(300 characters): unknown key (a document has " in msg


def test_a_cut_short_battle_file_and_json_are_said_in_plain_words(tmp_path, jena):
    """A fresh tester's truncated files: SQLite's "database disk image is malformed" alone, and
    JSON's "unterminated string starting at" with nothing after it."""
    p = tmp_path / "cut.battle"
    store.save(jena, p)
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    msg = _load_error(p)
    assert "the file is cut short or overwritten, so SQLite cannot read it" in msg and "open a backup copy" in msg
    q = tmp_path / "cut.battle.json"
    text = dumps(jena)
    q.write_text(text[: text.index('"name"', 5000) + 4], encoding="utf-8")
    msg = _load_error(q)
    assert ": not valid JSON: unterminated string" in msg and not msg.endswith("starting at")
