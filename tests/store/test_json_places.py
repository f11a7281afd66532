"""A broken ``.battle.json`` names the place of the fault (issue 27): the line and column of a
syntax error or of a NaN/Infinity, the key given twice; never Python's words."""

from __future__ import annotations

import pytest

from battlestudio import store
from battlestudio.store import BattleFileError
from battlestudio.store.json_format import dumps
from tests.store.conftest import jena_battle


def _error(tmp_path, text: str) -> BattleFileError:
    p = tmp_path / "b.battle.json"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(BattleFileError) as err:
        store.load(p)
    assert str(err.value).startswith(f"{p}: ")
    return err.value


def test_a_syntax_error_names_line_and_column_first(tmp_path):
    text = dumps(jena_battle())
    lines = text.splitlines()
    lines[5] = lines[5].replace(":", "", 1)
    err = _error(tmp_path, "\n".join(lines))
    assert err.where == "line 6 column 14" or err.where.startswith("line 6 column "), err
    assert err.what.startswith("not valid JSON: expecting ':' delimiter")


def test_infinity_names_where_it_stands(tmp_path):
    text = dumps(jena_battle()).replace('"turns": 40', '"turns": Infinity', 1)
    line = text[: text.index("Infinity")].count("\n") + 1
    err = _error(tmp_path, text)
    assert err.where.startswith(f"line {line} column ") and "Infinity is not a number JSON allows" in err.what


def test_a_key_given_twice_is_named(tmp_path):
    text = dumps(jena_battle()).replace('"turns": 40', '"turns": 40, "turns": 3', 1)
    err = _error(tmp_path, text)
    assert err.where == "key 'turns'" and err.what.startswith("appears twice in one object")


def test_deep_nesting_is_said_in_words(tmp_path):
    err = _error(tmp_path, '{"format": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert err.what.startswith("nested too deeply") and "Recursion" not in str(err)


def test_a_number_too_long_for_python_is_said_in_words(tmp_path):
    text = dumps(jena_battle()).replace('"turns": 40', '"turns": ' + "9" * 5000, 1)
    line = text[: text.index("9" * 5000)].count("\n") + 1
    err = _error(tmp_path, text)
    assert err.where.startswith(f"line {line} column ") and err.what.startswith("a number of more than 4,300 digits")
    assert "sys.set_int_max_str_digits" not in str(err)
