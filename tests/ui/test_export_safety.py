"""Exports never damage an existing file: ``export-map`` (PNG, SVG, PDF), ``report`` (HTML,
PDF) and ``replay --png`` write a temp file beside the target and replace it only when the
whole picture or page was written; a failure leaves the old file byte for byte, no temp file
behind, and no "wrote" line. Widths and options are refused before any painting."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from battlestudio.cli import main

REPO = Path(__file__).resolve().parents[2]
JENA = REPO / "scenarios" / "jena-1806.battle.json"
OLD = b"the user's earlier export, kept safe\n"


def _boom(*_a, **_k):
    raise RuntimeError("painting failed half way")


def _assert_untouched(target: Path, capsys) -> None:
    assert target.read_bytes() == OLD
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]
    out = capsys.readouterr()
    assert "wrote" not in out.out
    assert "Traceback" not in out.err and len(out.err.strip().splitlines()) == 1


@pytest.mark.parametrize("suffix", ["png", "svg", "pdf"])
def test_export_map_failure_keeps_the_old_file(qapp, tmp_path, capsys, monkeypatch, suffix):
    from battlestudio.ui import map_export

    target = tmp_path / f"map.{suffix}"
    target.write_bytes(OLD)
    monkeypatch.setattr(map_export.MapPage, "paint", _boom)
    assert main(["export-map", str(JENA), "--at", "3", "--out", str(target), "--width", "600"]) == 1
    _assert_untouched(target, capsys)


def test_export_map_png_save_failure_keeps_the_old_file(qapp, tmp_path, capsys, monkeypatch):
    target = tmp_path / "map.png"
    target.write_bytes(OLD)

    def half_save(self, name, *a):
        Path(name).write_bytes(b"\x89PNG half")  # what a crash in the encoder leaves
        return False

    monkeypatch.setattr(QImage, "save", half_save)
    assert main(["export-map", str(JENA), "--out", str(target), "--width", "600"]) == 1
    _assert_untouched(target, capsys)


def test_replay_png_failure_keeps_the_old_file(qapp, tmp_path, capsys, monkeypatch):
    target = tmp_path / "turn.png"
    target.write_bytes(OLD)
    monkeypatch.setattr(QImage, "save", lambda self, name, *a: False)
    assert main(["replay", str(JENA), "--at", "2", "--png", str(target), "--width", "400"]) == 1
    assert capsys.readouterr().err.strip() == f"battlestudio: {target}: could not write the PNG"
    target_after = target.read_bytes()
    assert target_after == OLD and [p.name for p in tmp_path.iterdir()] == [target.name]


@pytest.mark.parametrize("suffix", ["html", "pdf"])
def test_report_failure_keeps_the_old_file(qapp, tmp_path, capsys, monkeypatch, suffix):
    from battlestudio.ui import report

    target = tmp_path / f"report.{suffix}"
    target.write_bytes(OLD)
    monkeypatch.setattr(report, "text_document" if suffix == "pdf" else "render_html", _boom)
    assert main(["report", str(JENA), "--out", str(target), "--turns", "0,2", "--width", "400"]) == 1
    _assert_untouched(target, capsys)


def test_export_map_replaces_the_old_file_when_it_succeeds(qapp, tmp_path, capsys):
    target = tmp_path / "map.svg"
    target.write_bytes(OLD)
    assert main(["export-map", str(JENA), "--at", "2:french", "--out", str(target), "--width", "600"]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {target}"
    assert target.read_bytes().lstrip().startswith(b"<?xml")
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_replay_accepts_start_end_and_zero(qapp, tmp_path, capsys):
    for at in ("start", "0", "end"):
        out = tmp_path / f"{at}.png"
        assert main(["replay", str(JENA), "--at", at, "--png", str(out), "--width", "300"]) == 0
        assert QImage(str(out)).width() == 300
    assert capsys.readouterr().out.count("wrote") == 3
