"""Fixtures for the store tests: a small but complete Jena 1806 battle (Lannes's V Corps and
Soult's IV Corps against Tauentzien at Closewitz, fog at dawn) with terrain of every kind,
town zones, objectives, deployment zones, a reinforcement, standing orders and a short log."""

from __future__ import annotations

import pytest
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box

from battlestudio.model import (
    Arm,
    Commander,
    DeploymentZone,
    Formation,
    Objective,
    Order,
    OrderOfBattle,
    OrderStatus,
    Reinforcement,
    Scenario,
    ScenarioInfo,
    Side,
    Source,
    Subtype,
    TerrainFeature,
    TerrainKind,
    TownZone,
    Unit,
    default_town_polygon,
)
from battlestudio.replay.battle import Battle
import battlestudio.replay  # noqa: F401 - registers every event kind the replay package defines
from battlestudio.replay.events import BattleEvent, event_from_dict


def jena_battle() -> Battle:
    """The battle described in the module docstring (table 240 × 180 cm, Torden over Europa)."""
    s = Scenario(
        info=ScenarioInfo(
            title="Jena 1806",
            date="1806-10-14",
            place="Jena",
            ruleset="toe",
            parameters={"table1": {"zone_1": 30.0, "zone_2": 60.0}, "fog_until": "09:00"},
            first_turn="06:00",
            turns=40,
            description="Napoléon against Hohenlohe on the Landgrafenberg.",
        )
    )
    s.sides = {
        "french": Side("french", "Grande Armée", ("France",), "#2040c0"),
        "prussian": Side("prussian", "Prussian army", ("Prussia", "Saxony"), "#303030"),
    }
    cmd = [
        Commander(
            "napoleon",
            "Napoléon",
            "french",
            "France",
            "c_in_c",
            (120.0, 10.0),
            figures=6,
            order_capacity=3,
            command_ability=2,
        ),
        Commander(
            "lannes",
            "Lannes",
            "french",
            "France",
            "corps",
            (120.0, 30.0),
            figures=3,
            order_capacity=2,
            command_ability=1,
        ),
        Commander("soult", "Soult", "french", "France", "corps", (200.0, 30.0), figures=3, command_distance=25.5),
        Commander("hohenlohe", "Hohenlohe", "prussian", "Prussia", "c_in_c", (120.0, 175.0), figures=6),
        Commander("tauentzien", "Tauentzien", "prussian", "Prussia", "corps", (120.0, 150.0)),
    ]
    units = [
        Unit(
            "claparede",
            "Claparède's brigade",
            "french",
            "France",
            Arm.INFANTRY,
            Subtype.LIGHT_INFANTRY,
            figures=18,
            men=1800,
            position=(100.0, 60.0),
            facing=90.0,
        ),
        Unit(
            "vedel",
            "Vedel's brigade",
            "french",
            "France",
            Arm.INFANTRY,
            Subtype.LINE_INFANTRY,
            figures=24,
            men=2400,
            position=(125.0, 60.0),
            facing=90.0,
            formation=Formation.COLUMN,
        ),
        Unit(
            "suchet-foot",
            "Suchet's foot battery",
            "french",
            "France",
            Arm.ARTILLERY,
            Subtype.FOOT_ARTILLERY,
            figures=2,
            men=160,
            guns=8,
            position=(112.0, 58.0),
            ammunition=6,
        ),
        Unit(
            "st-hilaire",
            "Saint-Hilaire's division",
            "french",
            "France",
            Arm.INFANTRY,
            Subtype.LINE_INFANTRY,
            figures=40,
            men=4000,
            position=(200.0, 50.0),
            facing=100.0,
            attributes={"regiments": ["10e léger", "14e"]},
        ),
        Unit(
            "zweiffel",
            "Zweiffel's regiment",
            "prussian",
            "Prussia",
            Arm.INFANTRY,
            Subtype.LINE_INFANTRY,
            figures=16,
            men=1600,
            position=(110.0, 130.0),
            facing=270.0,
            state="U",
        ),
        Unit(
            "saxon-hussars",
            "Saxon hussars",
            "prussian",
            "Saxony",
            Arm.CAVALRY,
            Subtype.LIGHT_CAVALRY,
            figures=6,
            men=480,
            horses=480,
            position=(150.0, 140.0),
            facing=260.0,
        ),
    ]
    s.commanders = {c.id: c for c in cmd}
    s.units = {u.id: u for u in units}
    s.oob = OrderOfBattle(
        [
            ("napoleon", "lannes"),
            ("napoleon", "soult"),
            ("lannes", "claparede"),
            ("lannes", "vedel"),
            ("lannes", "suchet-foot"),
            ("soult", "st-hilaire"),
            ("hohenlohe", "tauentzien"),
            ("tauentzien", "zweiffel"),
            ("tauentzien", "saxon-hussars"),
        ]
    )
    s.terrain = {
        "landgrafenberg": TerrainFeature(
            "landgrafenberg",
            TerrainKind.HILL,
            Polygon([(90, 20), (150, 20), (150, 70), (90, 70)]),
            "Landgrafenberg",
            level=2,
        ),
        "isserstedt-wood": TerrainFeature(
            "isserstedt-wood",
            TerrainKind.WOODS,
            MultiPolygon([box(10, 80, 40, 110), box(45, 85, 60, 100)]),
            "Isserstedt forest",
        ),
        "saale": TerrainFeature(
            "saale", TerrainKind.RIVER, LineString([(0, 5), (80, 15), (240, 2)]), "Saale", width=3.0
        ),
        "muhltal-road": TerrainFeature(
            "muhltal-road", TerrainKind.ROAD, LineString([(60, 0), (100, 90), (110, 180)]), "Mühltal road", width=1.0
        ),
        "ford": TerrainFeature("ford", TerrainKind.FORD, Point(70.0, 13.75), "ford at Lobeda"),
        "marsh": TerrainFeature(
            "marsh", TerrainKind.MARSH, box(200, 150, 230, 170), properties={"passable_by": "infantry"}
        ),
    }
    s.towns = {
        "closewitz": TownZone("closewitz", "Closewitz", default_town_polygon((130.0, 120.0))),
        "cospeda": TownZone("cospeda", "Cospeda", default_town_polygon((90.0, 110.0)), capacity=2),
    }
    s.objectives = {
        "vierzehnheiligen": Objective("vierzehnheiligen", "Vierzehnheiligen", Point(100.0, 150.0), "french", 3)
    }
    s.deployment_zones = {
        "dz-french": DeploymentZone("dz-french", "french", "French bridgehead", box(0, 0, 240, 70)),
        "dz-soult": DeploymentZone("dz-soult", "french", "Soult's approach", box(180, 0, 240, 60), formation="soult"),
    }
    s.reinforcements = {"r-soult": Reinforcement("r-soult", "french", "soult", 4, 8, (240.0, 40.0), 0.5, "by Löbstedt")}
    s.orders = {"o-lannes": Order("o-lannes", "napoleon", "lannes", "A", (130.0, 120.0), OrderStatus.DELIVERED)}
    s.sources = [
        Source(
            "Petre, Napoleon's Conquest of Prussia 1806",
            "https://archive.org/details/napoleonsconques00petr",
            "public domain",
            "order of battle",
        )
    ]
    log = [
        {"kind": "phase_started", "turn": 1, "side": "french", "phase": "command", "name": "Command"},
        {
            "kind": "order_written",
            "turn": 1,
            "side": "french",
            "phase": "command",
            "order_id": "o-soult",
            "issuer": "napoleon",
            "recipient": "soult",
            "order_type": "M",
            "objective": [200.0, 90.0],
            "parameters": {},
            "cost": 1,
        },
        {
            "kind": "command_roll",
            "turn": 1,
            "side": "french",
            "phase": "command",
            "order_id": "o-soult",
            "roll": {"die": "d10", "raw": [7], "modifiers": [{"source": "KE", "value": 2}], "threshold": 6},
            "explanation": "7 + 2 ≥ 6",
        },
        {"kind": "phase_started", "turn": 1, "side": "french", "phase": "movement", "name": "Movement"},
        {
            "kind": "moved",
            "turn": 1,
            "side": "french",
            "phase": "movement",
            "id": "claparede",
            "path": [[100.0, 60.0], [100.0, 75.5]],
            "facing": 90.0,
        },
        {
            "kind": "annotation",
            "turn": 1,
            "side": "french",
            "phase": "movement",
            "title": "Fog",
            "text": "Lannes's men lose their way towards Closewitz.",
            "at": [120.0, 100.0],
            "ids": ["claparede"],
        },
    ]
    return Battle(scenario=s, events=[_event(d) for d in log])


def _event(data: dict) -> BattleEvent:
    """The event ``data`` describes; the base event at the same place if its kind is not
    registered (yet): the store persists events generically, whatever their kind."""
    try:
        return event_from_dict(data)
    except ValueError:
        return BattleEvent(data["turn"], data["side"], data["phase"])


@pytest.fixture
def jena() -> Battle:
    """A fresh copy of ``jena_battle()``."""
    return jena_battle()
