"""Fixtures of the map tests: a realistic Elchingen 1805 table and a document over it.

Elchingen, 14 October 1805: Ney's VI Corps crosses the Danube at the broken bridge below the
village and storms the heights held by Riesch's corps. Names and strengths follow the fogofwar
OOB data in shared/data/oob (forces 101 and 102), broken down to regiments at about 100 men a
figure; the terrain is a plausible 240 × 180 cm table of the ground (south at the bottom).
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from shapely.geometry import LineString, Point, Polygon  # noqa: E402

from battlestudio.document import Document  # noqa: E402
from battlestudio.model import (  # noqa: E402
    Arm,
    Commander,
    Formation,
    Objective,
    Scenario,
    ScenarioInfo,
    Side,
    Subtype,
    TerrainFeature,
    TerrainKind,
    TownZone,
    Unit,
    default_town_polygon,
)
from battlestudio.replay.battle import Battle  # noqa: E402

INF = dict(arm=Arm.INFANTRY, subtype=Subtype.LINE_INFANTRY)
LIGHT = dict(arm=Arm.INFANTRY, subtype=Subtype.LIGHT_INFANTRY)
GREN = dict(arm=Arm.INFANTRY, subtype=Subtype.GRENADIERS)
HUSS = dict(arm=Arm.CAVALRY, subtype=Subtype.LIGHT_CAVALRY, figure_width=2.5, figure_depth=3.0)
HEAVY = dict(arm=Arm.CAVALRY, subtype=Subtype.HEAVY_CAVALRY, figure_width=2.5, figure_depth=3.0)
DRAG = dict(arm=Arm.CAVALRY, subtype=Subtype.MEDIUM_CAVALRY, figure_width=2.5, figure_depth=3.0)
FOOT = dict(
    arm=Arm.ARTILLERY,
    subtype=Subtype.FOOT_ARTILLERY,
    formation=Formation.UNLIMBERED,
    figure_width=3.0,
    figure_depth=4.0,
)
HORSE = dict(
    arm=Arm.ARTILLERY,
    subtype=Subtype.HORSE_ARTILLERY,
    formation=Formation.UNLIMBERED,
    figure_width=3.0,
    figure_depth=4.0,
)


def elchingen() -> Scenario:
    """The Elchingen table: 24 French and 21 Austrian units, 12 commanders, 19 terrain features."""
    s = Scenario(
        info=ScenarioInfo(
            title="Elchingen 1805",
            date="1805-10-14",
            place="Oberelchingen, Bavaria",
            ruleset="toe",
            table_width=240.0,
            table_height=180.0,
            ground_scale=30.0,
            turns=16,
            first_turn="08:00",
        )
    )
    s.sides = {
        "french": Side("french", "French Empire", ("France",), "#2a4fb0"),
        "austrian": Side("austrian", "Austria", ("Austria",), "#e8e0c8"),
    }
    F, A = "french", "austrian"
    cmd = [
        Commander(
            "c-ney", "Marshal Ney", F, "France", "corps", (120.0, 8.0), figures=3, order_capacity=3, command_ability=2
        ),
        Commander("c-loison", "Loison", F, "France", "division", (96.0, 40.0)),
        Commander("c-malher", "Malher", F, "France", "division", (160.0, 30.0)),
        Commander("c-colbert", "Colbert", F, "France", "brigade", (40.0, 26.0)),
        Commander("c-laplanche", "Laplanche", F, "France", "division", (205.0, 12.0)),
        Commander("c-seroux", "Seroux", F, "France", "brigade", (128.0, 18.0)),
        Commander("c-riesch", "FML Riesch", A, "Austria", "corps", (120.0, 168.0), facing=270.0, figures=3),
        Commander("c-loudon", "von Loudon", A, "Austria", "division", (92.0, 148.0), facing=270.0),
        Commander("c-hessen", "Hessen-Homburg", A, "Austria", "division", (170.0, 150.0), facing=270.0),
        Commander("c-mecsery", "Mecsery", A, "Austria", "brigade", (40.0, 150.0), facing=270.0),
        Commander("c-auersperg", "GM Auersperg", A, "Austria", "brigade", (205.0, 160.0), facing=270.0),
        Commander("c-ulm-art", "Oberst Rouvroy", A, "Austria", "brigade", (125.0, 138.0), facing=270.0),
    ]
    u = Unit
    units = [
        # Loison: Villatte and Roguet brigades, over the bridge and up the road
        u("u-6leger", "6e Léger", F, "France", men=1728, figures=17, position=(84.0, 50.0), **LIGHT),
        u("u-39ligne", "39e Ligne", F, "France", men=1640, figures=16, position=(104.0, 50.0), **INF),
        u(
            "u-69ligne",
            "69e Ligne",
            F,
            "France",
            men=1698,
            figures=17,
            position=(90.0, 36.0),
            formation=Formation.COLUMN,
            **INF,
        ),
        u(
            "u-76ligne",
            "76e Ligne",
            F,
            "France",
            men=2300,
            figures=23,
            position=(108.0, 36.0),
            formation=Formation.COLUMN,
            **INF,
        ),
        u("u-loison-bty", "Loison foot bty", F, "France", guns=4, figures=2, position=(124.0, 48.0), **FOOT),
        u("u-loison-hbty", "Loison horse section", F, "France", guns=2, figures=1, position=(131.0, 48.0), **HORSE),
        # Malher: Marcognet and Labassée
        u("u-25leger", "25e Léger", F, "France", men=1540, figures=15, position=(150.0, 42.0), **LIGHT),
        u("u-27ligne", "27e Ligne", F, "France", men=1520, figures=15, position=(168.0, 42.0), **INF),
        u(
            "u-50ligne",
            "50e Ligne",
            F,
            "France",
            men=1547,
            figures=15,
            position=(150.0, 24.0),
            formation=Formation.COLUMN,
            **INF,
        ),
        u(
            "u-59ligne",
            "59e Ligne",
            F,
            "France",
            men=1610,
            figures=16,
            position=(166.0, 24.0),
            formation=Formation.COLUMN,
            **INF,
        ),
        u("u-malher-bty", "Malher mixed bty", F, "France", guns=6, figures=3, position=(186.0, 40.0), **FOOT),
        # Colbert's light horse on the left
        u("u-10chass", "10e Chasseurs", F, "France", men=420, figures=5, position=(34.0, 36.0), **HUSS),
        u("u-3huss", "3e Hussards", F, "France", men=450, figures=5, position=(50.0, 36.0), **HUSS),
        # Laplanche's dragoons waiting south of the river on the right
        u("u-18drag", "18e Dragons", F, "France", men=300, figures=4, position=(192.0, 9.0), **DRAG),
        u("u-19drag", "19e Dragons", F, "France", men=290, figures=4, position=(204.0, 9.0), **DRAG),
        u("u-25drag", "25e Dragons", F, "France", men=240, figures=3, position=(216.0, 9.0), **DRAG),
        # Seroux's reserve artillery covering the crossing
        u("u-1foot", "1er Rgt à pied", F, "France", guns=8, figures=4, position=(104.0, 8.0), **FOOT),
        u("u-1foot-hv", "1er Rgt à pied (12-pdr)", F, "France", guns=4, figures=2, position=(140.0, 8.0), **FOOT),
        u("u-2horse", "2e Rgt à cheval", F, "France", guns=4, figures=2, position=(70.0, 8.0), **HORSE),
        # Austrians on the heights, facing south (down the table)
        u(
            "u-ir8",
            "IR 8 Erzherzog Ludwig",
            A,
            "Austria",
            men=2400,
            figures=24,
            position=(84.0, 112.0),
            facing=270.0,
            **INF,
        ),
        u(
            "u-blank6",
            "Blankenstein Hussars",
            A,
            "Austria",
            men=300,
            figures=4,
            position=(46.0, 120.0),
            facing=270.0,
            **HUSS,
        ),
        u("u-ir15", "IR 15 Riese", A, "Austria", men=2600, figures=26, position=(118.0, 122.0), facing=270.0, **INF),
        u(
            "u-ir35",
            "IR 35 Erzh. Maximilian",
            A,
            "Austria",
            men=2800,
            figures=28,
            position=(96.0, 134.0),
            facing=270.0,
            formation=Formation.COLUMN,
            **INF,
        ),
        u(
            "u-hohenz8",
            "Hohenzollern Cuirassiers",
            A,
            "Austria",
            men=300,
            figures=4,
            position=(62.0, 140.0),
            facing=270.0,
            **HEAVY,
        ),
        u(
            "u-schwarz2",
            "Schwarzenberg Uhlans",
            A,
            "Austria",
            men=150,
            figures=2,
            position=(30.0, 132.0),
            facing=270.0,
            **HUSS,
        ),
        u(
            "u-aus-hbty",
            "Cavalry battery",
            A,
            "Austria",
            guns=6,
            figures=3,
            position=(140.0, 118.0),
            facing=270.0,
            **HORSE,
        ),
        u(
            "u-ir54",
            "IR 54 Froon",
            A,
            "Austria",
            men=2000,
            figures=20,
            position=(124.0, 150.0),
            facing=270.0,
            formation=Formation.COLUMN,
            **INF,
        ),
        u(
            "u-gren57",
            "Gren. Colloredo",
            A,
            "Austria",
            men=600,
            figures=6,
            position=(142.0, 152.0),
            facing=270.0,
            formation=Formation.COLUMN,
            **GREN,
        ),
        u("u-ir42", "IR 42 Erbach", A, "Austria", men=3000, figures=30, position=(176.0, 118.0), facing=270.0, **INF),
        u(
            "u-franz2",
            "Erzh. Franz Cuirassiers",
            A,
            "Austria",
            men=300,
            figures=4,
            position=(206.0, 126.0),
            facing=270.0,
            **HEAVY,
        ),
        u(
            "u-ir3",
            "IR 3 Erzherzog Karl",
            A,
            "Austria",
            men=3200,
            figures=32,
            position=(170.0, 136.0),
            facing=270.0,
            formation=Formation.COLUMN,
            **INF,
        ),
        u(
            "u-ir24",
            "IR 24 Auersperg",
            A,
            "Austria",
            men=2800,
            figures=28,
            position=(200.0, 146.0),
            facing=270.0,
            formation=Formation.COLUMN,
            **INF,
        ),
        u(
            "u-gren-res",
            "Grenadier bns",
            A,
            "Austria",
            men=1200,
            figures=12,
            position=(186.0, 160.0),
            facing=270.0,
            formation=Formation.COLUMN,
            **GREN,
        ),
        u(
            "u-pos-bty",
            "Position battery",
            A,
            "Austria",
            guns=6,
            figures=3,
            position=(104.0, 118.0),
            facing=270.0,
            **FOOT,
        ),
    ]
    s.commanders = {c.id: c for c in cmd}
    s.units = {x.id: x for x in units}
    for sup, subs in {
        "c-ney": ["c-loison", "c-malher", "c-colbert", "c-laplanche", "c-seroux"],
        "c-loison": ["u-6leger", "u-39ligne", "u-69ligne", "u-76ligne", "u-loison-bty", "u-loison-hbty"],
        "c-malher": ["u-25leger", "u-27ligne", "u-50ligne", "u-59ligne", "u-malher-bty"],
        "c-colbert": ["u-10chass", "u-3huss"],
        "c-laplanche": ["u-18drag", "u-19drag", "u-25drag"],
        "c-seroux": ["u-1foot", "u-1foot-hv", "u-2horse"],
        "c-riesch": ["c-loudon", "c-hessen", "c-ulm-art"],
        "c-loudon": ["c-mecsery", "u-ir8", "u-ir15", "u-ir35", "u-aus-hbty", "u-ir54", "u-gren57"],
        "c-mecsery": ["u-blank6", "u-hohenz8", "u-schwarz2"],
        "c-hessen": ["c-auersperg", "u-ir42", "u-ir3"],
        "c-auersperg": ["u-franz2", "u-ir24", "u-gren-res"],
        "c-ulm-art": ["u-pos-bty"],
    }.items():
        for sub in subs:
            s.oob.add(sup, sub)
    T = TerrainFeature
    K = TerrainKind
    terrain = [
        T(
            "t-danube",
            K.RIVER,
            LineString([(0, 20), (40, 17), (80, 22), (120, 20), (160, 16), (200, 19), (240, 15)]),
            name="Danube",
            width=4.0,
        ),
        T("t-marsh-w", K.MARSH, Polygon([(0, 23), (30, 21), (55, 26), (40, 30), (10, 30), (0, 28)]), name="Riedwiesen"),
        T("t-marsh-e", K.MARSH, Polygon([(170, 20), (215, 22), (225, 28), (190, 30), (172, 26)])),
        T("t-bridge", K.BRIDGE, Polygon([(117, 15), (123, 15), (123, 26), (117, 26)]), name="Elchingen bridge"),
        T("t-ford", K.FORD, Point(60, 20.5), name="Thalfingen ford"),
        T(
            "t-hill-1",
            K.HILL,
            Polygon([(50, 95), (110, 85), (170, 90), (215, 110), (220, 165), (60, 175), (35, 140)]),
            name="Elchingen heights",
            level=1,
        ),
        T("t-hill-2", K.HILL, Polygon([(80, 110), (140, 104), (185, 120), (180, 160), (95, 165), (70, 140)]), level=2),
        T("t-hill-3", K.HILL, Polygon([(105, 135), (140, 130), (160, 145), (135, 160), (108, 155)]), level=3),
        T(
            "t-wood-haslach",
            K.WOODS,
            Polygon([(180, 60), (220, 55), (238, 80), (230, 100), (195, 96), (178, 80)]),
            name="Haslach wood",
        ),
        T("t-wood-w", K.WOODS, Polygon([(4, 60), (30, 55), (40, 75), (22, 92), (5, 85)]), name="Kesselbronn wood"),
        T(
            "t-road-main",
            K.ROAD,
            LineString([(120, 0), (120, 30), (112, 60), (118, 95), (122, 130), (120, 180)]),
            name="Bridge road",
        ),
        T("t-road-w", K.ROAD, LineString([(0, 110), (50, 118), (100, 124), (122, 130)]), name="Ulm road"),
        T("t-road-e", K.ROAD, LineString([(122, 130), (170, 134), (240, 128)])),
        T(
            "t-stream",
            K.STREAM,
            LineString([(150, 180), (154, 150), (148, 110), (160, 70), (165, 40), (162, 18)]),
            name="Mühlbach",
        ),
        T("t-hedge-1", K.HEDGE, LineString([(60, 60), (100, 66), (106, 80)])),
        T("t-hedge-2", K.HEDGE, LineString([(130, 62), (150, 60), (158, 76)])),
        T(
            "t-wall-abbey",
            K.WALL,
            LineString([(128, 150), (144, 150), (144, 162), (128, 162), (128, 150)]),
            name="Abbey wall",
        ),
        T("t-quarry", K.IMPASSABLE, Polygon([(20, 160), (32, 158), (34, 170), (22, 172)]), name="Quarry"),
        T("t-mill", K.BUILT_UP, Polygon([(158, 68), (164, 68), (164, 74), (158, 74)]), name="Mill"),
    ]
    s.terrain = {t.id: t for t in terrain}
    s.towns = {
        "town-ober": TownZone("town-ober", "Oberelchingen", default_town_polygon((120.0, 142.0))),
        "town-unter": TownZone("town-unter", "Unterelchingen", default_town_polygon((110.0, 70.0))),
        "town-thal": TownZone("town-thal", "Thalfingen", Polygon([(40, 40), (62, 40), (62, 52), (40, 52)]), capacity=2),
    }
    s.objectives = {
        "obj-abbey": Objective("obj-abbey", "Elchingen abbey", Point(136.0, 156.0), side=F, value=3),
        "obj-bridge": Objective("obj-bridge", "Bridge", Point(120.0, 22.0), side=A, value=2),
    }
    return s


@pytest.fixture
def scenario() -> Scenario:
    return elchingen()


@pytest.fixture
def document(scenario: Scenario) -> Document:
    return Document(Battle(scenario))


@pytest.fixture
def view(qtbot, document):
    from battlestudio.ui.map_view import MapView

    v = MapView(document)
    qtbot.addWidget(v)
    v.resize(1200, 900)
    v.show()
    qtbot.waitExposed(v)
    v.fit_table()
    return v


class Mouse:
    """Real mouse and key events on a MapView's viewport, positions in table cm or pixels."""

    def __init__(self, qtbot, view) -> None:
        self.qtbot = qtbot
        self.view = view

    def px(self, table_point):
        """Viewport pixel (QPoint) of a table point (cm)."""
        from battlestudio.ui.coords import table_to_scene

        return self.view.mapFromScene(table_to_scene(*table_point))

    def send(self, kind, pos, button, buttons, modifiers=None):
        from PySide6.QtCore import QPointF, Qt
        from PySide6.QtGui import QMouseEvent
        from PySide6.QtWidgets import QApplication

        vp = self.view.viewport()
        mods = modifiers if modifiers is not None else Qt.KeyboardModifier.NoModifier
        ev = QMouseEvent(kind, QPointF(pos), QPointF(vp.mapToGlobal(pos)), button, buttons, mods)
        QApplication.sendEvent(vp, ev)

    def press(self, pos, button=None, modifiers=None):
        from PySide6.QtCore import QEvent, Qt

        b = button or Qt.MouseButton.LeftButton
        self.send(QEvent.Type.MouseButtonPress, pos, b, b, modifiers)

    def move(self, pos, buttons=None, modifiers=None):
        from PySide6.QtCore import QEvent, Qt

        self.send(
            QEvent.Type.MouseMove,
            pos,
            Qt.MouseButton.NoButton,
            buttons if buttons is not None else Qt.MouseButton.NoButton,
            modifiers,
        )

    def release(self, pos, button=None, modifiers=None):
        from PySide6.QtCore import QEvent, Qt

        b = button or Qt.MouseButton.LeftButton
        self.send(QEvent.Type.MouseButtonRelease, pos, b, Qt.MouseButton.NoButton, modifiers)

    def click(self, pos, button=None, modifiers=None):
        self.press(pos, button, modifiers)
        self.release(pos, button, modifiers)

    def double_click(self, pos):
        from PySide6.QtCore import QEvent, Qt

        b = Qt.MouseButton.LeftButton
        self.press(pos)
        self.release(pos)
        self.send(QEvent.Type.MouseButtonDblClick, pos, b, b)
        self.release(pos)

    def drag(self, start, end, steps=5, button=None, modifiers=None):
        """Press at ``start``, move in ``steps`` to ``end``, release (viewport pixels)."""
        from PySide6.QtCore import QPoint, Qt

        b = button or Qt.MouseButton.LeftButton
        self.press(start, b, modifiers)
        for i in range(1, steps + 1):
            p = QPoint(start.x() + (end.x() - start.x()) * i // steps, start.y() + (end.y() - start.y()) * i // steps)
            self.move(p, b, modifiers)
        self.release(end, b, modifiers)

    def key(self, key, modifiers=None):
        from PySide6.QtCore import Qt

        self.qtbot.keyClick(self.view, key, modifiers or Qt.KeyboardModifier.NoModifier)


@pytest.fixture
def mouse(qtbot, view) -> Mouse:
    return Mouse(qtbot, view)
