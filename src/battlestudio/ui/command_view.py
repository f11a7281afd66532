"""The command view in the main window: the command overlay on the map, the Odds dock and the
Analysis dock, kept on the window's document.

``CommandView(map_view, docks, document)`` puts the overlay on ``map_view``'s scene and its two
docks in ``docks`` (a ``DockHost``); the window connects its ``document_changed`` to
``set_document``. The overlay follows the document live — dragging a general in the editor moves
his zones, lines and marks, and the odds, on every mouse move. A document that replays a game
(one with ``state`` and ``timeline``) is shown at its cursor, the overlay and the charts computed with
the rule numbers recorded with the game when the ruleset's file changed since. The Analysis dock shows the charts
of the game recorded in the file, if any; clicking a turn moves the document's timeline, whose
cursor the overlay then shows.

A replaying document's overlay is drawn after the window's first frame (``hold`` until
``release``, which the window calls on ``PlayView.frame_done``): at ten times Leipzig it takes
~0.5 s, which the map does not wait for. Meanwhile the overlay shows nothing of the last
document and ``overlay_waiting`` is True.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer

from battlestudio.replay.game import GameLog
from battlestudio.rules import resolve_ruleset_id
from battlestudio.rules.fingerprint import recorded_parameters
from battlestudio.ui.command_overlay import CommandOverlay
from battlestudio.ui.panels.analysis_panel import AnalysisPanel
from battlestudio.ui.panels.odds_panel import OddsPanel
from battlestudio.ui.play.idle_slice import IdleSlice

if TYPE_CHECKING:
    from battlestudio.document import Document
    from battlestudio.replay.timeline import Timeline
    from battlestudio.ui.dock_host import DockHost
    from battlestudio.ui.map_view import MapView


class CommandView:
    """Command overlay on ``map_view``, Odds and Analysis docks (added to ``docks``), showing
    ``document`` until ``set_document``."""

    def __init__(self, map_view: MapView, docks: DockHost, document: Document) -> None:
        self.overlay = CommandOverlay(map_view.map_scene)
        self.odds_panel = OddsPanel()
        self.analysis_panel = AnalysisPanel()
        self.document = document
        self.timeline: Timeline | None = None
        self.overlay_waiting = False  # a replaying document's overlay waits for the first frame
        self._opening = False
        # while playing, the overlay and the odds follow a step in a slice of their own
        self._later = IdleSlice(self._show_position, lambda: self.timeline is not None and self.timeline.playing)
        self.docks = {
            "odds": docks.add_dock("dock_odds", "Odds", self.odds_panel, Qt.DockWidgetArea.RightDockWidgetArea),
            "analysis": docks.add_dock(
                "dock_analysis", "Analysis", self.analysis_panel, Qt.DockWidgetArea.BottomDockWidgetArea
            ),
        }
        docks.tabify("dock_properties", self.docks["odds"])
        docks.tabify("dock_problems", self.docks["analysis"])
        self.set_document(document)

    def set_document(self, doc: Document) -> None:
        """Follow ``doc``: overlay and odds live, analysis of its game; a replaying document (one
        with a ``timeline``) at its cursor (``bind_timeline``)."""
        self.document = doc
        self.bind_timeline(None)
        timeline = getattr(doc, "timeline", None)
        self.overlay_waiting = timeline is not None
        if self.overlay_waiting:  # drawn after the first frame (release)
            self.overlay.unbind()
            self.overlay.clear()
            info = doc.scenario.info
            self.overlay.set_rules(info.ruleset, info.parameters)
        else:
            self.overlay.bind(doc)
        self.odds_panel.bind(doc)
        self.analysis_panel.set_game(self._log(doc), doc.scenario)
        # a replaying document moves its own cursor: charts follow it and move it
        self.analysis_panel.bind_timeline(timeline)
        if timeline is not None:
            self._opening = True  # its first position waits for the first frame (release)
            try:
                self.bind_timeline(timeline)
            finally:
                self._opening = False

    @staticmethod
    def _log(doc: Document) -> GameLog:
        log = getattr(doc, "log", None)
        if isinstance(log, GameLog):  # a replaying document's own log: not replayed a second time
            return log
        try:
            return GameLog.from_battle(doc.battle)
        except ValueError:  # a log that cannot be replayed: show the scenario, analyse nothing
            return GameLog.from_scenario(doc.scenario)

    def release(self) -> None:
        """The window's first frame is shown: draw the waiting overlay in the next idle moment."""
        if self.overlay_waiting:
            QTimer.singleShot(0, self._draw_waiting)

    def _draw_waiting(self) -> None:
        if not self.overlay_waiting:
            return
        self.overlay_waiting = False
        if self.timeline is not None:
            self.overlay.show_state(self.timeline.state)

    def bind_timeline(self, timeline: Timeline | None) -> None:
        """Replay: show the state at ``timeline``'s cursor in the overlay and the odds, and
        move the cursor from the charts (None goes back to following the document)."""
        if self.timeline is not None:
            self.timeline.position_changed.disconnect(self._on_position)
        self._later.cancel()
        self.timeline = timeline
        if timeline is None:
            self.analysis_panel.bind_timeline(None)
            return
        self.overlay.unbind()
        info = self.document.scenario.info
        recorded = self.recorded_parameters()
        if recorded is not None:  # the past computed with the numbers it was played with
            self.overlay.set_rules(info.ruleset, recorded)
        self.analysis_panel.set_game(timeline.log, self.document.scenario, recorded)
        self.analysis_panel.bind_timeline(timeline)
        timeline.position_changed.connect(self._on_position)
        self._on_position(timeline.position)

    def recorded_parameters(self) -> dict[str, Any] | None:
        """The parameters that reproduce the rule numbers recorded with the shown game
        (``rules.fingerprint.recorded_parameters``); None when they are the numbers now."""
        record = getattr(getattr(self.document, "battle", None), "ruleset_record", None)
        if not record:
            return None
        info = self.document.scenario.info
        return recorded_parameters(record, resolve_ruleset_id(info.ruleset), info.parameters)

    def _on_position(self, pos: int) -> None:
        self._later(pos)

    def _show_position(self, _pos: int) -> None:
        if self.timeline is None:
            return
        s = self.document.scenario
        state = self.timeline.state
        if not (self.overlay_waiting and self._opening):  # a step after the opening one: drawn now
            self.overlay_waiting = False
            self.overlay.show_state(state)
        self.odds_panel.set_state(state, s.info.ruleset, s.info.parameters)
