"""A small but real scenario for tests (Elchingen, 14 October 1805).

Strengths and names follow the fogofwar OOB data in shared/data/oob (force 101 Ney's VI Corps,
force 102 Riesch's corps); positions and terrain are a plausible table layout.
"""

from __future__ import annotations

from shapely.geometry import LineString, Polygon

from battlestudio.model import (
    Arm,
    Commander,
    Formation,
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


def elchingen_scenario() -> Scenario:
    """Ney's VI Corps (part) against Riesch at Elchingen on a 240 × 180 cm table."""
    s = Scenario(
        info=ScenarioInfo(
            title="Elchingen 1805", date="1805-10-14", place="Elchingen", table_width=240.0, table_height=180.0
        )
    )
    s.sides = {
        "french": Side("french", "French Empire", ("France",), "#2a4fb0"),
        "austrian": Side("austrian", "Austria", ("Austria",), "#e8e0c8"),
    }
    cmd = [
        Commander(
            "c-ney",
            "Marshal Michel Ney",
            "french",
            "France",
            "corps",
            (120.0, 20.0),
            order_capacity=3,
            command_ability=2,
        ),
        Commander("c-loison", "Louis Henri Loison", "french", "France", "division", (100.0, 40.0)),
        Commander("c-malher", "Jean-Pierre Firmin Malher", "french", "France", "division", (160.0, 35.0)),
        Commander("c-colbert", "Colbert-Chabanais", "french", "France", "brigade", (60.0, 35.0)),
        Commander("c-riesch", "FML Riesch", "austrian", "Austria", "corps", (120.0, 160.0), facing=270.0),
        Commander("c-loudon", "von Loudon", "austrian", "Austria", "division", (110.0, 140.0), facing=270.0),
    ]
    inf = dict(arm=Arm.INFANTRY, subtype=Subtype.LINE_INFANTRY)
    units = [
        Unit("u-villatte", "Bde Villatte", "french", "France", men=3400, figures=34, position=(95.0, 55.0), **inf),
        Unit("u-roguet", "Bde Roguet", "french", "France", men=3400, figures=34, position=(130.0, 55.0), **inf),
        Unit(
            "u-loison-bty",
            "Loison foot battery",
            "french",
            "France",
            arm=Arm.ARTILLERY,
            subtype=Subtype.FOOT_ARTILLERY,
            guns=4,
            figures=2,
            position=(112.0, 58.0),
            formation=Formation.UNLIMBERED,
        ),
        Unit("u-delabassee", "Bde Delabassee", "french", "France", men=3200, figures=32, position=(160.0, 50.0), **inf),
        Unit(
            "u-marcognet",
            "Bde de Marcognet",
            "french",
            "France",
            men=2900,
            figures=29,
            position=(190.0, 50.0),
            formation=Formation.COLUMN,
            **inf,
        ),
        Unit(
            "u-10chass",
            "10e Chasseurs",
            "french",
            "France",
            arm=Arm.CAVALRY,
            subtype=Subtype.LIGHT_CAVALRY,
            men=140,
            figures=2,
            position=(55.0, 50.0),
            figure_width=2.5,
            figure_depth=3.0,
        ),
        Unit(
            "u-3huss",
            "3e Hussards",
            "french",
            "France",
            arm=Arm.CAVALRY,
            subtype=Subtype.LIGHT_CAVALRY,
            men=150,
            figures=2,
            position=(65.0, 50.0),
            figure_width=2.5,
            figure_depth=3.0,
        ),
        Unit(
            "u-avantgarde",
            "Avantgarde",
            "austrian",
            "Austria",
            men=3400,
            figures=34,
            position=(90.0, 125.0),
            facing=270.0,
            **inf,
        ),
        Unit(
            "u-centre",
            "Centre Bde",
            "austrian",
            "Austria",
            men=3600,
            figures=36,
            position=(125.0, 125.0),
            facing=270.0,
            **inf,
        ),
        Unit(
            "u-aus-bty",
            "Horse battery",
            "austrian",
            "Austria",
            arm=Arm.ARTILLERY,
            subtype=Subtype.HORSE_ARTILLERY,
            guns=8,
            figures=4,
            position=(150.0, 130.0),
            facing=270.0,
        ),
    ]
    s.commanders = {c.id: c for c in cmd}
    s.units = {u.id: u for u in units}
    for sup, sub in [
        ("c-ney", "c-loison"),
        ("c-ney", "c-malher"),
        ("c-ney", "c-colbert"),
        ("c-loison", "u-villatte"),
        ("c-loison", "u-roguet"),
        ("c-loison", "u-loison-bty"),
        ("c-malher", "u-delabassee"),
        ("c-malher", "u-marcognet"),
        ("c-colbert", "u-10chass"),
        ("c-colbert", "u-3huss"),
        ("c-riesch", "c-loudon"),
        ("c-loudon", "u-avantgarde"),
        ("c-loudon", "u-centre"),
        ("c-loudon", "u-aus-bty"),
    ]:
        s.oob.add(sup, sub)
    s.terrain = {
        "t-danube": TerrainFeature(
            "t-danube", TerrainKind.RIVER, LineString([(0, 8), (80, 12), (160, 6), (240, 10)]), name="Danube", width=4.0
        ),
        "t-heights": TerrainFeature(
            "t-heights",
            TerrainKind.HILL,
            Polygon([(70, 110), (170, 105), (180, 150), (60, 155)]),
            name="Elchingen heights",
            level=1,
        ),
        "t-wood": TerrainFeature(
            "t-wood", TerrainKind.WOODS, Polygon([(190, 120), (230, 115), (235, 160), (195, 165)]), name="Eichwald"
        ),
    }
    s.towns = {
        "z-ober": TownZone("z-ober", "Ober-Elchingen", default_town_polygon((120.0, 118.0))),
        "z-unter": TownZone("z-unter", "Unter-Elchingen", default_town_polygon((120.0, 80.0))),
    }
    return s
