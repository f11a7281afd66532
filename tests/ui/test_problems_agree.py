"""``battlestudio check`` and the Problems dock list the same problems: every bundled scenario,
an edited one (the dock's incremental re-check), and 50 generated battles, most of them broken
on purpose (units off the table or stacked, broken references, geometry off the table, late or
inland reinforcements, units with bases but no figures).

The CLI runs through ``cli.main`` on the saved file; the dock is the real ``ProblemsPanel`` over a
``Document`` of the same file, read back from its list widget. The dock does not replay the
recorded game (the play layer reports that); every game here replays, so the lists are equal.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from battlestudio import store
from battlestudio.cli import main
from battlestudio.document import Document
from battlestudio.edits import MoveRecords
from battlestudio.model import Order, Reinforcement, Scenario, TerrainFeature, TerrainKind, TownZone
from battlestudio.replay.battle import Battle
from battlestudio.ui.panels.problems_panel import IDS_ROLE, ProblemsPanel
from battlestudio.validate import check_battle
from battlestudio.validate.placement import waiting
from tests.strategies import scenarios

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted((ROOT / "scenarios").glob("*.battle.json"))


def cli_problems(path: Path, capsys) -> tuple[int, list[tuple[str, str, str]]]:
    """Exit code and (severity, check, message) of each line ``battlestudio check`` prints."""
    capsys.readouterr()
    code = main(["check", str(path)])
    out = capsys.readouterr().out
    rows = []
    for line in out.splitlines():
        assert line.startswith(f"{path}: "), line
        severity, check, message = line[len(f"{path}: ") :].split(" ", 2)
        rows.append((severity, check.rstrip(":"), message))
    return code, rows


def dock_problems(panel: ProblemsPanel) -> list[tuple[str, str, str]]:
    """(severity, check, message) of each row the dock lists, read from the widget."""
    assert len(panel.rows()) == len(panel.problems)  # all listed, none held back
    rows = []
    for k in range(len(panel.rows())):
        item = panel.rows()[k]
        severity = item.toolTip(0).split(":", 1)[0]
        rows.append((severity, item.text(1), item.text(0)))
    return rows


def assert_agree(path: Path, panel: ProblemsPanel, capsys) -> list[tuple[str, str, str]]:
    code, cli = cli_problems(path, capsys)
    dock = dock_problems(panel)
    assert cli == dock
    assert code == (1 if any(sev == "error" for sev, _, _ in cli) else 0)
    expected = check_battle(store.load(path))
    assert [panel.rows()[k].data(0, IDS_ROLE) for k in range(len(dock))] == [list(p.subjects) for p in expected]
    summary = panel.summary.text()
    errors = sum(sev == "error" for sev, _, _ in dock)
    assert summary == ("No problems found." if not dock else f"{errors} errors, {len(dock) - errors} warnings")
    return cli


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_cli_and_dock_agree_on_every_bundled_scenario(path, qtbot, capsys):
    panel = ProblemsPanel(Document(store.load(path)))
    qtbot.addWidget(panel)
    assert assert_agree(path, panel, capsys) == []  # both clean


def test_cli_and_dock_agree_after_edits_in_the_dock(qtbot, capsys, tmp_path):
    src = ROOT / "scenarios" / "elchingen-1805.battle.json"
    doc = Document(store.load(src))
    panel = ProblemsPanel(doc)
    qtbot.addWidget(panel)
    s = doc.scenario
    a, b = sorted(s.units)[:2]
    w = s.info.table_width
    doc.push(MoveRecords("units", {a: (w + 2.0, 60.0), b: s.units[sorted(s.units)[2]].position}, None, "Move"))
    with qtbot.waitSignal(panel.count_changed, timeout=2000):  # the re-check 250 ms after the edit
        pass
    path = tmp_path / "edited.battle.json"
    store.save(doc.battle, path)
    found = assert_agree(path, panel, capsys)
    assert ("error", "unit.off_table") in {(sev, chk) for sev, chk, _ in found}
    assert ("warning", "unit.overlap") in {(sev, chk) for sev, chk, _ in found}


def break_scenario(s: Scenario, rng: random.Random) -> int:
    """Break ``s`` in a few of the ways a hand-edited or imported file goes wrong; how many."""
    w, h = s.info.table_width, s.info.table_height
    units, commanders = sorted(s.units), sorted(s.commanders)
    on_table = sorted(set(units) - waiting(s))  # a reinforcement's troops may wait off the table
    generals_on_table = sorted(set(commanders) - waiting(s))
    faults = 0

    def maybe(error: bool = True) -> bool:
        nonlocal faults
        hit = rng.random() < 0.35
        faults += hit and error
        return hit

    if on_table and maybe():  # a unit pushed over a table edge
        uid = rng.choice(on_table)
        s.units[uid] = s.units[uid].moved(rng.choice([(-3.0, h / 2), (w + 1.0, h / 3), (w / 2, h + 4.0)]))
    if len(units) > 1 and maybe(error=False):  # two units stacked: a warning only
        a, b = rng.sample(units, 2)
        s.units[a] = s.units[a].moved(s.units[b].position, s.units[b].facing)
    if generals_on_table and maybe():  # a general off the table
        cid = rng.choice(generals_on_table)
        s.commanders[cid] = s.commanders[cid].moved((w / 2, -10.0))
    if commanders and maybe():  # an order from nobody, to nobody
        s.orders["o-broken"] = Order("o-broken", "c-nobody", rng.choice(["u-nobody", commanders[0]]), "A")
    if units and maybe():  # a unit of a side the file does not have
        uid = rng.choice(units)
        s.units[uid] = replace(s.units[uid], side="swedish")
    if units and maybe():  # counted in bases, no figures
        uid = rng.choice(units)
        s.units[uid] = replace(s.units[uid], figures=0, bases=rng.randint(1, 6))
    if maybe():  # terrain wholly off the table, a town zone over the edge
        s.terrain["t-lost"] = TerrainFeature("t-lost", TerrainKind.WOODS, box(w + 10, 10, w + 30, 30), "Lost wood")
        s.towns["town-edge"] = TownZone("town-edge", "Edge", box(w - 5, h - 5, w + 5, h + 5))
    if commanders and maybe():  # reinforcements: too late, inland, for a formation that does not exist
        cid = rng.choice(commanders)
        side = s.commanders[cid].side
        s.reinforcements["rf-late"] = Reinforcement(
            "rf-late", side, cid, s.info.turns + 2, s.info.turns + 5, (0.0, h / 2)
        )
        s.reinforcements["rf-inland"] = Reinforcement("rf-inland", side, "ghost-corps", 2, 4, (w / 2, h / 2))
    if units and maybe():  # a unit left out of the order of battle
        s.oob.remove(rng.choice(units))
    if units and maybe():  # an id used twice
        uid = rng.choice(units)
        s.terrain[uid] = TerrainFeature(uid, TerrainKind.HILL, box(1, 1, 5, 5), "Hill with a unit's id")
    return faults


def test_cli_and_dock_agree_on_50_generated_battles(qtbot, capsys, tmp_path):
    broken: list[int] = []

    @settings(
        max_examples=50,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(scenarios(min_units=0, max_units=60, max_terrain=20, edge_cases=False), st.integers(0, 2**32 - 1))
    def agree(scenario: Scenario, seed: int) -> None:
        faults = break_scenario(scenario, random.Random(seed))
        path = tmp_path / "generated.battle.json"
        store.save(Battle(scenario=scenario), path)
        panel = ProblemsPanel(Document(store.load(path)))
        qtbot.addWidget(panel)
        found = assert_agree(path, panel, capsys)
        if faults:
            assert any(sev == "error" for sev, _, _ in found)
        broken.append(faults)

    agree()
    assert len(broken) == 50
    assert sum(1 for f in broken if f) >= 30  # most of them broken on purpose


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_the_windows_dock_agrees_with_check_anywhere_in_the_replay(path, qtbot, capsys, tmp_path):
    """Opened in the real window (a recorded game becomes a replay at its start), the dock lists
    what ``check`` prints for the file, at the start, in the middle and at the end of the game:
    the state at the cursor is not a scenario to check."""
    from tests.ui.window_helpers import make_window

    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(path)
    timeline = getattr(w.document, "timeline", None)
    places = [None] if timeline is None else ["start", "middle", "end"]
    for place in places:
        if place == "middle":
            timeline.seek(len(timeline.log) // 2)
        elif place == "end":
            timeline.to_end()
        w.problems_panel.check()
        code, cli = cli_problems(path, capsys)
        assert dock_problems(w.problems_panel) == cli == [], place
        assert code == 0


def test_the_windows_dock_and_check_word_an_unplayable_game_alike(qtbot, capsys, tmp_path, monkeypatch):
    import json

    from tests.ui.window_helpers import ModalRecorder

    modals = ModalRecorder(monkeypatch)  # the window warns once that the game cannot be replayed

    jena = next(p for p in BUNDLED if p.name.startswith("jena"))
    data = json.loads(jena.read_text())
    moved = next(e for e in data["events"] if e["kind"] == "moved")
    moved["id"] = "nobody"  # a move of a unit the scenario does not have
    bad = tmp_path / "jena-nobody.battle.json"
    bad.write_text(json.dumps(data))
    from tests.ui.window_helpers import make_window

    w = make_window(qtbot, tmp_path)
    w.files.open_path(bad)
    qtbot.waitUntil(lambda: any(p.check == "game.replay" for p in w.problems_panel.problems), timeout=20_000)
    code, cli = cli_problems(bad, capsys)
    assert code == 1 and dock_problems(w.problems_panel) == cli
    assert [c for _, c, _ in cli] == ["game.replay"] and "'nobody'" in cli[0][2]
    assert [kind for kind, _, _ in modals.calls] == ["warning"]
