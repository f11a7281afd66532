"""``info`` and ``log`` print names from a file with terminal control characters escaped: a
name holding an escape sequence cannot clear the screen or retitle the terminal (issue 27)."""

from __future__ import annotations

import json
from dataclasses import replace

from battlestudio import store
from battlestudio.cli import main, terminal_text
from tests.store.conftest import jena_battle

EVIL = "French\x1b]0;pwned\x07\x1b[2J\u202e\x9b"


def _file(tmp_path):
    b = jena_battle()
    b.scenario.sides["french"] = replace(b.scenario.sides["french"], name=EVIL)
    uid = sorted(b.scenario.units)[0]
    b.scenario.units[uid] = replace(b.scenario.units[uid], name="Line\x1b[31m")
    path = tmp_path / "evil.battle.json"
    store.save(b, path)
    return path


def test_info_and_log_escape_control_characters(tmp_path, capsys):
    path = _file(tmp_path)
    for args in (["info", str(path)], ["log", str(path)]):
        assert main(args) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out and "\x9b" not in out
    assert main(["info", str(path)]) == 0
    assert "French\\x1b]0;pwned\\x07\\x1b[2J\\u202e\\x9b" in capsys.readouterr().out
    assert main(["info", "--json", str(path)]) == 0
    info = json.loads(capsys.readouterr().out)  # still valid JSON, the name intact
    assert any(s["name"] == EVIL for s in info["sides"].values())


def test_terminal_text_keeps_ordinary_text():
    assert terminal_text("Français · Turn 1\tleft\nnext") == "Français · Turn 1\tleft\nnext"
