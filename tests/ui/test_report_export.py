"""Map exports (PNG, SVG, PDF pages with title, legend, scale bar, north arrow and the command
overlay) and game reports (HTML, PDF), through the API and the ``battlestudio`` command."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor, QImage

from battlestudio import store
from battlestudio.cli import main
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.ui.map_export import MapPage, export_map, page_title, resolve_at
from battlestudio.ui.report import default_turns, write_report
from tests.analysis import known_game


@pytest.fixture
def battle() -> Battle:
    return Battle(known_game.scenario(), known_game.events())


@pytest.fixture
def battle_file(tmp_path, battle):
    path = tmp_path / "known.battle.json"
    store.save(battle, path)
    return path


def red_pixels(img: QImage) -> int:
    """Pixels of the overlay's out-of-command red (#d0202a), give or take antialiasing."""
    n = 0
    for y in range(0, img.height(), 2):
        for x in range(0, img.width(), 2):
            c = QColor(img.pixel(x, y))
            n += c.red() > 180 and c.green() < 70 and c.blue() < 80
    return n


def test_resolve_at_turns_start_and_end(battle):
    log = GameLog.from_battle(battle)
    assert resolve_at(log, "start") == 0 and resolve_at(log, "end") == len(log) == resolve_at(log, 3)
    assert log.state_at(resolve_at(log, "2")).commanders["french-d1"].position == (100.0, 80.0)
    assert resolve_at(log, 0) == 0  # the deployment, as in replay --at
    assert resolve_at(log, "2:french") < resolve_at(log, "2")  # TURN:SIDE, as in replay --at
    with pytest.raises(ValueError, match="--at 9: the game log has no phase at 9; it holds turns 1–3"):
        resolve_at(log, 9)
    with pytest.raises(ValueError, match="is not a whole number; or start, end, 0"):
        resolve_at(log, "dawn")


def test_page_title_gives_date_and_game_time(battle):
    log = GameLog.from_battle(battle)
    assert page_title(battle, log, 0) == ("Known game", "1806-10-14 — deployment, 06:00")
    assert page_title(battle, log, resolve_at(log, 2))[1] == "1806-10-14 — Turn 2, 06:15–06:30, end of turn"
    assert page_title(battle, log, 3)[1].startswith("1806-10-14 — Turn 1, 06:00–06:15, French, orders")


def test_map_page_shows_the_out_of_command_marks(qapp, battle):
    log = GameLog.from_battle(battle)
    quiet = MapPage(battle, resolve_at(log, 1), (900, 900), True, log)
    rash = MapPage(battle, resolve_at(log, 2), (900, 900), True, log)
    bare = MapPage(battle, resolve_at(log, 2), (900, 900), False, log)
    try:
        assert rash.overlay.picture.out_of_command() == {"french-d1", "french-u1", "french-u2"}
        assert quiet.overlay.picture.out_of_command() == set()
        assert red_pixels(rash.image()) > red_pixels(quiet.image()) + 50
        assert bare.overlay is None and red_pixels(bare.image()) < red_pixels(rash.image())
        top_right = rash.image().copy(820, 0, 80, 60)  # the north arrow
        assert any(QColor(top_right.pixel(x, y)).value() < 60 for x in range(80) for y in range(60))
    finally:
        for p in (quiet, rash, bare):
            p.close()


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_export_map_formats(qapp, battle, tmp_path, suffix, magic):
    out = export_map(battle, 2, tmp_path / f"map{suffix}", width=800)
    data = out.read_bytes()
    assert data.startswith(magic) and len(data) > 5000
    if suffix == ".svg":
        text = data.decode("utf-8")
        assert "<title>Known game</title>" in text and "Turn 2, 06:15–06:30, end of turn" in text
        assert "N</text>" in text and "cm on the table = " in text  # north arrow and scale bar
    if suffix == ".png":
        img = QImage(str(out))
        assert img.width() == 800 and img.height() > 600


def test_export_map_refuses_bad_input(qapp, battle, tmp_path):
    with pytest.raises(ValueError, match="maps export as png, svg, pdf"):
        export_map(battle, 1, tmp_path / "map.gif")
    with pytest.raises(ValueError, match="--width must be 400 to 10000 pixels, got 100"):
        export_map(battle, 1, tmp_path / "map.png", width=100)
    with pytest.raises(ValueError, match="--width must be 400 to 10000 pixels, got 100000"):
        export_map(battle, 1, tmp_path / "map.png", width=100_000)
    with pytest.raises(OSError, match="does not exist"):
        export_map(battle, 1, tmp_path / "nowhere" / "map.pdf", width=400)


def test_html_report_has_maps_charts_and_highlights(qapp, battle, tmp_path):
    assert default_turns(GameLog.from_battle(battle)) == [0, 1, 3]
    page = write_report(battle, tmp_path / "r.html").read_text(encoding="utf-8")
    assert len(re.findall(r"<svg", page)) >= 3  # the charts, inline
    assert page.count("data:image/png;base64,") == 3  # deployment, turn 1, turn 3
    assert "A sure thing fails" in page and "2 of 3" in page
    assert "Order history per corps" in page and "Time out of command" in page


def test_pdf_report(qapp, battle, tmp_path):
    out = write_report(battle, tmp_path / "r.pdf", turns=[2])
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page") >= 3


def test_cli_report_and_export_map(qapp, battle_file, tmp_path, capsys):
    assert main(["report", str(battle_file), "--out", str(tmp_path / "r.html"), "--turns", "0,2"]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {tmp_path / 'r.html'}"
    assert (tmp_path / "r.html").read_text(encoding="utf-8").count("data:image/png;base64,") == 2
    assert main(["export-map", str(battle_file), "--at", "2", "--out", str(tmp_path / "m.svg")]) == 0
    assert (tmp_path / "m.svg").read_bytes().startswith(b"<?xml")
    capsys.readouterr()
    assert main(["export-map", str(battle_file), "--at", "9", "--out", str(tmp_path / "m.png")]) == 1
    assert capsys.readouterr().err == (
        f"battlestudio: {battle_file}: --at 9: the game log has no phase at 9; "
        "it holds turns 1–3, sides french, prussian, phases orders, firing, movement, attack\n"
    )
    assert main(["report", str(battle_file), "--out", str(tmp_path / "r.docx")]) == 2  # refused before reading
    assert f"--out {tmp_path / 'r.docx'}: cannot write .docx; name it .html or .pdf" in capsys.readouterr().err
    assert main(["export-map", str(tmp_path / "missing.battle"), "--out", str(tmp_path / "m.gif")]) == 2
    assert "cannot write .gif; name it .png, .svg or .pdf" in capsys.readouterr().err
    assert main(["report", str(battle_file), "--out", str(tmp_path / "r.html"), "--turns", "x"]) == 2
    assert main(["report", str(tmp_path / "missing.battle"), "--out", str(tmp_path / "r.html")]) == 1
    assert not (tmp_path / "m.png").exists()
