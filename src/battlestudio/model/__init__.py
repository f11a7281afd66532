"""The domain model: plain, Qt-free, SQL-free data in table centimetres."""

from battlestudio.model.geometry import EPS, Point, UnitRect, normalize_angle, unit_rect
from battlestudio.model.oob import OobProblem, OrderOfBattle
from battlestudio.model.orders import Order, OrderStatus
from battlestudio.model.scenario import (
    DeploymentZone,
    Objective,
    Reinforcement,
    Scenario,
    ScenarioInfo,
    Side,
    Source,
)
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone, default_town_polygon
from battlestudio.model.units import (
    Arm,
    Commander,
    Echelon,
    Formation,
    OrderState,
    Quality,
    Subtype,
    Unit,
)

__all__ = [
    "EPS",
    "Point",
    "UnitRect",
    "normalize_angle",
    "unit_rect",
    "OobProblem",
    "OrderOfBattle",
    "Order",
    "OrderStatus",
    "DeploymentZone",
    "Objective",
    "Reinforcement",
    "Scenario",
    "ScenarioInfo",
    "Side",
    "Source",
    "TerrainFeature",
    "TerrainKind",
    "TownZone",
    "default_town_polygon",
    "Arm",
    "Commander",
    "Echelon",
    "Formation",
    "OrderState",
    "Quality",
    "Subtype",
    "Unit",
]
