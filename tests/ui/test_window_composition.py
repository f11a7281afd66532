"""The window as composition: ``MainWindow`` announces each shown document once
(``document_changed``) and every dock and controller follows it; the controllers (file
commands, command view, play view) get the map view, a ``DockHost`` and a status callback,
never the window, and speak to it through signals — a recorded game's problems reach the
Problems dock, PlayView's messages reach the status bar, and PlayView runs on a bare
``QMainWindow`` with no ``MainWindow`` at all."""

from __future__ import annotations

import json
import types

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu

from battlestudio.document import Document
from battlestudio.replay.battle import Battle
from battlestudio.ui.dock_host import DockHost
from battlestudio.ui.main_window import MainWindow
from battlestudio.ui.map_view import MapView
from battlestudio.ui.play.controller import PlayView
from battlestudio.play.document import PlayDocument
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")


def test_opening_a_file_announces_the_document_once_and_every_dock_shows_it(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    announced: list[Document] = []
    w.document_changed.connect(announced.append)

    assert w.files.open_path(JENA, ask=False)

    assert len(announced) == 1
    doc = announced[0]
    assert doc is w.document and isinstance(doc, PlayDocument) and doc.path == JENA  # a recorded game: replay
    s = doc.scenario
    # the map, the docks and the controllers all show that document
    assert w.map_view.document is doc
    on_table = {u for u in doc.state.units if u not in doc.state.off_table}
    assert set(w.map_view.map_scene.items_by_kind["units"]) == on_table
    assert w.oob_panel.document is doc and w.oob_panel.model.rowCount() > 0
    assert w.properties_panel.document is doc
    assert w.problems_panel.document is doc
    assert w.files.document is doc and w.command_view.document is doc and w.play_view.doc is doc
    assert w.command_view.timeline is doc.timeline  # the overlay shows the state at the replay cursor
    assert w.play_view.dock.isVisible() and "Start of the game" in w.play_view.panel.bar.where.text()
    assert w.windowTitle() == f"{JENA.name}[*] — BattleStudio"
    layers = {
        w.layers_panel.tree.topLevelItem(i).child(j).data(0, Qt.ItemDataRole.UserRole + 1)
        for i in range(w.layers_panel.tree.topLevelItemCount())
        for j in range(w.layers_panel.tree.topLevelItem(i).childCount())
    }
    assert set(w.map_view.layer_names()) == layers and "command" in layers  # the Layers dock: this map's layers
    assert all(w.layers_panel.item(n) is not None for n in w.map_view.layer_names())
    assert {"blue", "red"}.isdisjoint(s.sides)  # not the empty scenario's sides any more

    # a second file: announced once more, and nothing still shows the first
    assert w.files.open_path(ELCHINGEN, ask=False)
    assert len(announced) == 2 and announced[1] is w.document and w.document.path == ELCHINGEN
    assert not isinstance(w.document, PlayDocument)
    assert w.oob_panel.document is w.document and w.problems_panel.document is w.document
    assert w.command_view.timeline is None and w.play_view.doc is w.document
    assert "Editing the scenario" in w.play_view.strip.text()


def test_a_recorded_games_problems_reach_the_problems_dock_and_stay_with_their_document(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    data = json.loads(JENA.read_text())
    next(e for e in data["events"] if e["kind"] == "fired")["unit"] = "ghost"
    bad = tmp_path / "jena-ghost.battle.json"
    bad.write_text(json.dumps(data))
    w = make_window(qtbot, tmp_path)

    assert w.files.open_path(bad)
    qtbot.waitUntil(lambda: bool(modals.of("warning")), timeout=20_000)  # found by the idle check
    qtbot.waitUntil(lambda: not isinstance(w.document, PlayDocument))
    shown = w.document
    top = w.problems_panel.rows()[0]
    assert top.text(1) == "game.replay" and "no unit 'ghost'" in top.text(0)
    errors = sum(p.severity == "error" for p in w.problems_panel.problems)
    assert errors >= 1 and w.problems_label.text().startswith(f"{errors} errors")  # counted in the status bar

    assert w.files.open_path(JENA, ask=False)  # another document: its problems, not the last one's
    assert all(p.check != "game.replay" for p in w.problems_panel.problems)

    w.set_document(shown)  # the bad one again: its game's problem comes back with it
    assert w.problems_panel.problems[0].check == "game.replay"
    assert len(modals.of("warning")) == 1  # warned once per document


def test_the_status_bar_shows_play_views_messages(qtbot, tmp_path, monkeypatch, scenario):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, Document(Battle(scenario)))
    status = w.statusBar()

    w.play_view.actions["order"].setEnabled(True)  # as a shortcut could reach it before the game starts
    w.play_view.actions["order"].trigger()
    assert status.currentMessage() == "Start the game first (Game ▸ Start Game)."

    w.play_view.seed = 5
    w.play_view.actions["start"].trigger()
    assert isinstance(w.document, PlayDocument) and w.document.recording
    w.play_view.actions["next_phase"].trigger()
    k = w.document.session.key
    assert status.currentMessage().startswith(f"Now {k} (")


def _holders(root: object, target: type) -> list[str]:
    """Paths from ``root`` through Python attributes, containers, bound methods and closures to an
    instance of ``target`` (Qt parent links are not followed: ownership is not a reference)."""
    found: list[str] = []
    seen: set[int] = set()

    def walk(obj: object, path: str, depth: int) -> None:
        if isinstance(obj, target):
            found.append(path)
            return
        if id(obj) in seen or depth > 8 or isinstance(obj, (str, bytes, int, float, bool, type, types.ModuleType)):
            return
        seen.add(id(obj))
        if isinstance(obj, types.MethodType):
            walk(obj.__self__, path + ".__self__", depth + 1)
            return
        if isinstance(obj, types.FunctionType):
            for i, cell in enumerate(obj.__closure__ or ()):
                walk(cell.cell_contents, f"{path}.<closure {i}>", depth + 1)
            return
        if isinstance(obj, dict):
            for k, v in obj.items():
                walk(v, f"{path}[{k!r}]", depth + 1)
            return
        if isinstance(obj, (list, tuple, set, frozenset)):
            for i, v in enumerate(obj):
                walk(v, f"{path}[{i}]", depth + 1)
            return
        for k, v in getattr(obj, "__dict__", {}).items():
            walk(v, f"{path}.{k}", depth + 1)

    walk(root, "controller", 0)
    return found


def test_no_controller_holds_the_window(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(JENA, ask=False)
    controllers = {
        "files": w.files,
        "command_view": w.command_view,
        "play_view": w.play_view,
        "idle_check": w.play_view.check,
        "replay_marks": w.play_view.marks,
    }
    for name, c in controllers.items():
        assert not any(isinstance(v, MainWindow) for v in vars(c).values()), name
        # nor anything reachable from it: its panels, callbacks (status: the status bar's), closures
        assert _holders(c, MainWindow) == [], name
    planted = [lambda: w]  # the walk does find the window where a closure holds it
    assert _holders(planted, MainWindow) == ["controller[0].<closure 0>"]
    assert not hasattr(w.play_view, "window") and not hasattr(w.command_view, "window")


def test_play_view_runs_on_a_bare_main_window(qtbot, scenario):
    """PlayView needs a map view, a dock host and a status callback: a plain QMainWindow will do."""
    host_window = QMainWindow()
    qtbot.addWidget(host_window)
    doc = Document(Battle(scenario))
    view = MapView(doc)
    host_window.setCentralWidget(view)
    docks_menu = QMenu("Docks", host_window)
    host = DockHost(host_window, docks_menu)
    problems = host.add_dock("dock_problems", "Problems", QLabel("problems"), Qt.DockWidgetArea.BottomDockWidgetArea)
    said: list[tuple[str, int]] = []
    pv = PlayView(view, host, lambda text, ms: said.append((text, ms)), doc, host_window)
    requested: list[Document] = []
    pv.document_requested.connect(requested.append)
    pv.document_requested.connect(view.set_document)
    pv.document_requested.connect(pv.document_set)

    assert pv.dock.objectName() == "dock_replay" and host_window.tabifiedDockWidgets(problems) == [pv.dock]
    assert [a.text() for a in docks_menu.actions()] == ["Problems", "Replay", "Actions"]
    assert host_window.findChild(QMenu, "menu_game") is not None
    pv.open_order_dialog()
    assert said == [("Start the game first (Game ▸ Start Game).", 10_000)]
    pv.seed = 1
    play = pv.start_game()
    assert requested == [play] and isinstance(play, PlayDocument) and view.document is play
    assert pv.actions["next_phase"].isEnabled()
