"""The bundled Waterloo 1815 in the window: the Problems dock finds what `battlestudio check`
finds (nothing, then the same error after a move off the table), the battle switches to each other
ruleset through the Properties dock with the report of what does not carry over, and File ▸
Import… reads the Waterloo table with the scenario's own mapping."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialogButtonBox

from battlestudio.cli import main
from battlestudio.edits import MoveRecords
from battlestudio.ui.import_dialog import ImportDialog
from tests.ui.window_helpers import ModalRecorder, make_window

SCEN = Path(__file__).resolve().parents[2] / "scenarios"
WATERLOO = SCEN / "waterloo-1815.battle.json"
CSV = Path("/work/shared/data/oob/waterloo-1815-from-pages.csv")


def _cli_findings(path: Path, capsys) -> list[tuple[str, str]]:
    """(check, message) of every line `battlestudio check` prints for ``path``."""
    capsys.readouterr()
    main(["check", str(path)])
    out: list[tuple[str, str]] = []
    for line in capsys.readouterr().out.splitlines():
        head, sep, rest = line.partition(": ")
        if not sep or rest.startswith(("0 error", "no problem")):
            continue
        severity_check, _, message = rest.partition(": ")
        if " " in severity_check:
            out.append((severity_check.split(" ", 1)[1], message))
    return out


def test_the_problems_dock_and_check_agree_before_and_after_a_unit_leaves_the_table(
    qtbot, tmp_path, monkeypatch, capsys
):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(WATERLOO, ask=False)
    assert w.problems_panel.problems == [] and w.problems_panel.summary.text() == "No problems found."
    assert w.problems_label.text() == "No problems"
    assert _cli_findings(WATERLOO, capsys) == []
    # Quiot's brigade pushed past the south edge (reinforcements waiting off the table are not errors)
    w.document.push(MoveRecords("units", {"french-brigade-quiot": (130.0, -20.0)}, text="Move 1 unit"))
    w.problems_panel.check()
    copy = tmp_path / "waterloo-moved.battle.json"
    assert w.files.save_as(copy)
    shown = [(p.check, p.message) for p in w.problems_panel.problems]
    assert shown == _cli_findings(copy, capsys)
    assert [c for c, _ in shown if c == "unit.off_table"] and "Brigade Quiot" in shown[0][1]
    assert w.problems_label.text().startswith("1 errors")


@pytest.mark.parametrize("ruleset", ["gda", "regimental", "belle-alliance"])
def test_switching_to_another_ruleset_shows_what_does_not_carry_over(qtbot, tmp_path, monkeypatch, ruleset):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(WATERLOO, ask=False)
    reports = []
    panel = w.properties_panel
    panel.confirm_switch = lambda report: reports.append(report) or True
    combo: QComboBox = panel.editors["info"]["ruleset"].widget
    combo.setCurrentIndex(combo.findData(ruleset))
    combo.activated.emit(combo.currentIndex())
    assert w.document.scenario.info.ruleset == ruleset
    (rep,) = reports
    lines = rep.lines()
    assert any("Echelon 'army'" in line and "allied-army-of-the-lower-rhine" in line for line in lines)
    assert any("not used by" in line for line in lines)  # the Torden over Europa placeholders
    assert len(w.document.scenario.units) == 105  # nothing is dropped
    w.document.undo()
    assert w.document.scenario.info.ruleset == "toe"


def test_file_import_reads_the_waterloo_table_with_the_scenarios_mapping(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)

    def script(d: ImportDialog) -> None:
        for edit, text in ((d.files_edit, str(CSV)), (d.mapping_edit, str(SCEN / "waterloo-1815.toml"))):
            edit.clear()
            qtbot.keyClicks(edit, text)
            qtbot.keyClick(edit, Qt.Key.Key_Return)
        assert d.imported is not None, d.status.text()
        qtbot.mouseClick(d.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    monkeypatch.setattr(ImportDialog, "exec", lambda self: script(self) or self.result())
    w.actions["import"].trigger()
    sc = w.document.scenario
    assert set(sc.sides) == {"french", "allied"}  # Wellington's and Blücher's armies one side
    names = {c.name for c in sc.commanders.values()}
    assert {"Napoleon", "Wellington", "Blücher", "Bülow", "Zieten", "Pirch I"} <= names


def test_a_game_starts_and_runs_a_phase_with_everyone_in_command(qtbot, tmp_path, monkeypatch):
    from battlestudio.play.document import PlayDocument

    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(WATERLOO, ask=False)
    w.play_view.seed = 1815
    w.play_view.actions["start"].trigger()
    assert isinstance(w.document, PlayDocument) and w.document.recording
    w.play_view.actions["next_phase"].trigger()
    key = w.document.session.key
    assert key.turn == 1 and key.side == "french"  # the French have the initiative (scenario choice)
    assert w.statusBar().currentMessage().startswith(f"Now {key} (")
    # nobody starts out of command; the Prussians wait (off the table in the game state) until they arrive
    from battlestudio.rules.toe.command import check_command
    from battlestudio.rules.toe.common import params_for

    state = w.document.session.state
    report = check_command(state, params_for(dict(w.document.battle.scenario.info.parameters)))
    assert report.refusals == () and all(f.within for f in report.findings)
    assert "allied-13th-brigade" in state.off_table
