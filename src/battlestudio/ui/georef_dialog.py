"""Where the table lies on the Earth: the dialog that sets a scenario's georeference.

The georeference (``model.georef.Georeference``: the table origin's WGS84 longitude and
latitude, the bearing of the table's +x axis) is typed, or found from two known places: pick a
table point on the map (``ui.play.pick``), type the longitude and latitude of the place it
stands for, twice, and ``from_two_points`` turns the table onto them. It also says how far the
two places are apart against what the table and its ground scale make them (the scale ratio,
1.000 = exact), and warns when that is off by more than ``SCALE_WARNING`` (3 %): a wrong point
or a wrong ground scale. OK sets it as one undo step (``SetInfo``); "Not georeferenced"
removes it.

``GeorefField`` is the Properties dock's row for it (scenario info, nothing selected);
``edit_georeference(window)`` opens the dialog from Edit ▸ Georeference….
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from battlestudio.play.document import PlayDocument
from battlestudio.edits import SetInfo
from battlestudio.model.georef import Georeference, GeoreferenceError, from_two_points
from battlestudio.ui.play.pick import pick_point

if TYPE_CHECKING:
    from battlestudio.document import Document
    from battlestudio.ui.main_window import MainWindow
    from battlestudio.ui.map_view import MapView

SCALE_WARNING = 0.03
"""Relative misfit of the scale ratio above which the two-point placement warns."""


def georef_text(g: Georeference | None) -> str:
    """``11.5000° E 50.9000° N, +x at 90.0°`` or ``not georeferenced``."""
    if g is None:
        return "not georeferenced"
    lon = f"{abs(g.lon):.4f}° {'E' if g.lon >= 0 else 'W'}"
    lat = f"{abs(g.lat):.4f}° {'N' if g.lat >= 0 else 'S'}"
    return f"{lon} {lat}, +x at {g.bearing:.1f}°"


def _spin(lo: float, hi: float, decimals: int, suffix: str, value: float = 0.0) -> QDoubleSpinBox:
    s = QDoubleSpinBox()
    s.setRange(lo, hi)
    s.setDecimals(decimals)
    s.setSuffix(suffix)
    s.setValue(value)
    s.setKeyboardTracking(False)
    return s


class GeorefDialog(QDialog):
    """Set the georeference of ``document``'s scenario, picking table points on ``view``.

    Attributes
    ----------
    lon, lat, bearing : QDoubleSpinBox
        the georeference OK sets (degrees).
    points : list[dict[str, QDoubleSpinBox]]
        the two control points: table ``x``, ``y`` (cm) and the place's ``lon``, ``lat``.
    ratio : float | None
        the scale ratio of the last two-point placement.
    """

    def __init__(self, document: Document, view: MapView | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Georeference")
        self.setObjectName("georef_dialog")
        self.document = document
        self.view = view
        self.ratio: float | None = None
        info = document.scenario.info
        g = info.georef or Georeference(0.0, 0.0, 90.0)

        typed = QGroupBox("Table origin (bottom-left corner) and the direction of the table's x axis")
        form = QFormLayout(typed)
        # wider than the valid ranges, so a mistyped 95° stays 95° and is refused by name
        # instead of being clamped to 9° keystroke by keystroke
        self.lon = _spin(-999.0, 999.0, 7, "°", g.lon)
        self.lat = _spin(-999.0, 999.0, 7, "°", g.lat)
        self.bearing = _spin(0.0, 360.0, 3, "° from north", g.bearing % 360.0)
        self.bearing.setWrapping(True)
        form.addRow("Longitude (E +, W −)", self.lon)
        form.addRow("Latitude (N +, S −)", self.lat)
        form.addRow("+x bearing", self.bearing)

        known = QGroupBox("…or from two known places: a table point and the place it stands for, twice")
        grid = QGridLayout(known)
        for col, head in enumerate(("", "x", "y", "", "longitude", "latitude")):
            grid.addWidget(QLabel(f"<b>{head}</b>"), 0, col)
        self.points: list[dict[str, QDoubleSpinBox]] = []
        self.pick_buttons: list[QPushButton] = []
        w, h = info.table_width, info.table_height
        corners = [(0.0, 0.0), (w, h)]
        for i in range(2):
            p = {
                "x": _spin(-100_000.0, 100_000.0, 1, " cm", corners[i][0]),
                "y": _spin(-100_000.0, 100_000.0, 1, " cm", corners[i][1]),
                "lon": _spin(-999.0, 999.0, 7, "°", g.lon),
                "lat": _spin(-999.0, 999.0, 7, "°", g.lat),
            }
            pick = QPushButton("Pick on map")
            pick.setObjectName(f"georef_pick_{i}")
            pick.setEnabled(view is not None)
            pick.clicked.connect(lambda _c=False, i=i: self.pick(i))
            grid.addWidget(QLabel(f"Point {'AB'[i]}"), i + 1, 0)
            grid.addWidget(p["x"], i + 1, 1)
            grid.addWidget(p["y"], i + 1, 2)
            grid.addWidget(pick, i + 1, 3)
            grid.addWidget(p["lon"], i + 1, 4)
            grid.addWidget(p["lat"], i + 1, 5)
            self.points.append(p)
            self.pick_buttons.append(pick)
        self.place_button = QPushButton("Place the table on these two places")
        self.place_button.setObjectName("georef_place")
        self.place_button.clicked.connect(self.place_from_points)
        grid.addWidget(self.place_button, 3, 0, 1, 6)

        self.message = QLabel(f"Now: {georef_text(info.georef)}")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.clear_button = buttons.addButton("Not georeferenced", QDialogButtonBox.ButtonRole.DestructiveRole)
        self.clear_button.clicked.connect(self.remove)
        buttons.accepted.connect(self.apply)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons

        lay = QVBoxLayout(self)
        lay.addWidget(typed)
        lay.addWidget(known)
        lay.addWidget(self.message)
        lay.addWidget(buttons)
        self.read_only = isinstance(document, PlayDocument)
        if self.read_only:  # a game shown: the scenario is not edited, so nothing may be typed
            for box in (typed, known):
                box.setEnabled(False)
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            self.clear_button.setEnabled(False)
            self._say(
                f"Now: {georef_text(info.georef)}. The scenario is not changed while a game is shown: "
                "Game ▸ Back to Scenario Editor first.",
                True,
            )

    # -- the two known places -----------------------------------------------------------------
    def pick(self, i: int) -> None:
        """Let the user click control point ``i`` (0 or 1) on the map; the dialog hides meanwhile."""
        if self.view is None:
            return
        self.hide()
        hint = f"Click the table point of place {'AB'[i]}; Esc cancels"
        pick_point(self.view, hint, lambda point: self._picked(i, point))

    def _picked(self, i: int, point: tuple[float, float] | None) -> None:
        if point is not None:
            self.set_point(i, point)
        self.show()
        self.raise_()

    def set_point(self, i: int, table: tuple[float, float], lonlat: tuple[float, float] | None = None) -> None:
        """Use table point ``table`` (cm) and, if given, the place ``lonlat`` (degrees) as point ``i``."""
        p = self.points[i]
        p["x"].setValue(table[0])
        p["y"].setValue(table[1])
        if lonlat is not None:
            p["lon"].setValue(lonlat[0])
            p["lat"].setValue(lonlat[1])

    def place_from_points(self) -> Georeference | None:
        """Turn the table onto the two places: fill the typed fields and say the scale ratio
        (a warning beyond ``SCALE_WARNING``); None, with the reason shown, when it cannot."""
        a, b = ((p["x"].value(), p["y"].value(), p["lon"].value(), p["lat"].value()) for p in self.points)
        try:
            g, ratio = from_two_points(
                (a[0], a[1]), (a[2], a[3]), (b[0], b[1]), (b[2], b[3]), self.document.scenario.info.ground_scale
            )
        except GeoreferenceError as exc:
            self._say(str(exc), warning=True)
            return None
        self.ratio = ratio
        self.lon.setValue(g.lon)
        self.lat.setValue(g.lat)
        self.bearing.setValue(g.bearing % 360.0)
        scale = self.document.scenario.info.ground_scale
        text = f"Scale ratio {ratio:.3f}: the places lie {ratio * scale:.1f} m apart per table cm (scale {scale:g})."
        if abs(ratio - 1.0) > SCALE_WARNING:
            way = "farther apart" if ratio > 1 else "closer together"
            text += (
                f" Warning: the places are {abs(ratio - 1.0):.1%} {way} than the table and its ground scale make "
                "them; check the two points and the ground scale."
            )
        self._say(text, warning=abs(ratio - 1.0) > SCALE_WARNING)
        return g

    def _say(self, text: str, warning: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #b00000;" if warning else "")

    # -- applying -----------------------------------------------------------------------------
    def georeference(self) -> Georeference:
        """The georeference the typed fields hold."""
        return Georeference(self.lon.value(), self.lat.value(), self.bearing.value())

    def apply(self) -> None:
        """Set the typed georeference as one undo step and close (kept open, the field and
        value named, when it is not a valid place)."""
        try:
            g = self.georeference()
        except GeoreferenceError as exc:
            self._say(f"{exc}: correct it and press OK again.", warning=True)
            return
        self._set(g, "Set georeference")

    def remove(self) -> None:
        """Make the scenario not georeferenced (one undo step) and close."""
        self._set(None, "Remove georeference")

    def _set(self, g: Georeference | None, text: str) -> None:
        if self.document.scenario.info.georef == g:
            self.accept()
            return
        self.document.push(SetInfo({"georef": g}, text))
        if self.document.scenario.info.georef != g:  # a game being replayed refuses edits
            self._say("The scenario is not changed while a game is replayed: go back to the editor first.", True)
            return
        self.accept()


class GeorefField(QWidget):
    """The Properties dock's ``Georeference`` row: what is set, and a button for the dialog.
    ``set_value`` follows the editors' protocol (the dock calls it on every info change)."""

    def __init__(self, document: Document, form: QFormLayout) -> None:
        super().__init__()
        self.document = document
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.button = QPushButton("Set…")
        self.button.setObjectName("georef_button")
        self.button.clicked.connect(self.open_dialog)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.label, 1)
        lay.addWidget(self.button)
        self.widget = self
        self.dialog: GeorefDialog | None = None
        form.addRow("Georeference", self)
        self.set_value(document.scenario.info.georef)

    def set_value(self, value: Any, mixed: bool = False) -> None:
        self.label.setText(georef_text(value))

    def open_dialog(self) -> GeorefDialog:
        """Open the dialog for the dock's document, picking on the window's map if it has one."""
        window = self.window()
        self.dialog = GeorefDialog(self.document, getattr(window, "map_view", None), window)
        self.dialog.show()
        return self.dialog


def edit_georeference(window: MainWindow) -> GeorefDialog:
    """Edit ▸ Georeference…: the dialog for the window's document and map (not modal, so the
    map can be clicked)."""
    dialog = GeorefDialog(window.document, window.map_view, window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    dialog.show()
    return dialog
