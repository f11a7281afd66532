"""Fixtures for the replay tests: a small Jena 1806 scenario (Lannes's V Corps against
Tauentzien's advance guard at Closewitz, 06:00) and the synthetic 40-turn game."""

from __future__ import annotations

import pytest

from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.scenario import Reinforcement, Scenario, ScenarioInfo, Side
from battlestudio.model.units import Arm, Commander, Formation, Subtype, Unit
from battlestudio.session.synthetic import SyntheticGame, synthetic_game


@pytest.fixture
def jena() -> Scenario:
    """Suchet's division of V Corps facing Tauentzien near Closewitz; Rüchel arrives later."""
    s = Scenario(info=ScenarioInfo(title="Jena 1806, dawn", date="1806-10-14", ruleset="toe"))
    s.sides = {
        "french": Side("french", "French", ("France",), "#2040c0"),
        "prussian": Side("prussian", "Prussian", ("Prussia", "Saxony"), "#202020"),
    }
    cmd = [
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
        Commander("suchet", "Suchet", "french", "France", "division", (110.0, 45.0)),
        Commander("tauentzien", "Tauentzien", "prussian", "Prussia", "corps", (120.0, 150.0)),
        Commander("ruchel", "Rüchel", "prussian", "Prussia", "corps", (10.0, 170.0)),
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
        ),
        Unit(
            "rosen",
            "Rosen's grenadiers",
            "prussian",
            "Prussia",
            Arm.INFANTRY,
            Subtype.GRENADIERS,
            figures=7,
            men=700,
            position=(135.0, 128.0),
            facing=270.0,
        ),
        Unit(
            "ruchel-inf",
            "Rüchel's infantry",
            "prussian",
            "Prussia",
            Arm.INFANTRY,
            Subtype.LINE_INFANTRY,
            figures=30,
            men=3000,
            position=(5.0, 175.0),
            facing=0.0,
        ),
    ]
    s.commanders = {c.id: c for c in cmd}
    s.units = {u.id: u for u in units}
    s.oob = OrderOfBattle(
        [
            ("lannes", "suchet"),
            ("suchet", "claparede"),
            ("suchet", "vedel"),
            ("suchet", "suchet-foot"),
            ("tauentzien", "zweiffel"),
            ("tauentzien", "rosen"),
            ("ruchel", "ruchel-inf"),
        ]
    )
    s.reinforcements = {
        "r-ruchel": Reinforcement("r-ruchel", "prussian", "ruchel", 20, 28, (0.0, 170.0), 0.4, "Rüchel from Weimar"),
    }
    return s


@pytest.fixture(scope="session")
def forty_turns() -> SyntheticGame:
    """The synthetic 40-turn game on a 2 × 24-unit scenario (seed 1807: one in which a unit is eliminated)."""
    return synthetic_game(turns=40, units_per_side=24, seed=1807)
