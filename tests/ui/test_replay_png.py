"""``battlestudio replay FILE --at TURN[:SIDE[:PHASE]] --png OUT`` and ``render_map_png``: the
bundled Jena game drawn offscreen at a point of the log, labels and title included."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from battlestudio import store
from battlestudio.cli import main
from battlestudio.replay.game import GameLog
from battlestudio.session.text import position_for
from battlestudio.ui.export import render_map_png, title_for

REPO = Path(__file__).resolve().parents[2]
JENA = REPO / "scenarios" / "jena-1806.battle.json"


def _colours(img: QImage, step: int = 7) -> set[int]:
    return {img.pixel(x, y) for x in range(0, img.width(), step) for y in range(0, img.height(), step)}


def test_replay_at_turn_12_writes_the_map(qapp, tmp_path, capsys):
    out = tmp_path / "x.png"
    assert main(["replay", str(JENA), "--at", "12", "--png", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    img = QImage(str(out))
    assert img.width() == 1600 and img.height() > 1000
    assert len(_colours(img)) > 50


def test_the_picture_follows_the_cursor(qapp, tmp_path):
    battle = store.load(JENA)
    log = GameLog.from_battle(battle)
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    render_map_png(battle, position_for(log, 2), a, 600, log=log)
    render_map_png(battle, position_for(log, 30, "french", "movement"), b, 600, log=log)
    ia, ib = QImage(str(a)), QImage(str(b))
    assert ia.width() == ib.width() == 600  # the height follows the legend: it lists what is drawn then
    assert ia != ib
    assert (
        title_for(battle, log.cursor_at(position_for(log, 12)))
        == "Jena 1806 — turn 12 (08:45), Prussia and Saxony: Hohenlohe's army, reorganisation"
    )


def test_replay_refuses_bad_places(qapp, tmp_path, capsys):
    out = tmp_path / "x.png"
    assert main(["replay", str(JENA), "--at", "99", "--png", str(out)]) == 1
    assert "no phase at 99; it holds turns 1–40" in capsys.readouterr().err
    assert main(["replay", str(JENA), "--at", "3:austrian", "--png", str(out)]) == 1
    assert "sides french, prussian" in capsys.readouterr().err
    assert main(["replay", str(JENA), "--at", "soon", "--png", str(out)]) == 2
    assert main(["replay", str(JENA), "--at", "3", "--png", str(tmp_path / "x.jpg")]) == 2
    assert main(["replay", str(JENA), "--at", "3", "--png", str(out), "--width", "50"]) == 2
    assert not out.exists()


def test_replay_as_a_subprocess_without_a_display(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    out = tmp_path / "x.png"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "battlestudio",
            "replay",
            str(JENA),
            "--at",
            "12:prussian:fire",
            "--png",
            str(out),
            "--width",
            "800",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
    )
    assert r.returncode == 0, r.stderr
    assert QImage(str(out)).width() == 800
