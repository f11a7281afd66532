"""The SQLite schema of a ``.battle`` file, as sqlmodel tables.

One table per scenario container, one row per record; column names are the record's field
names, except that a point field ``p`` becomes two REAL columns ``p_x`` and ``p_y`` (and the
georeference ``georef`` three, ``georef_lon``, ``georef_lat``, ``georef_bearing``), free-form
mappings and string lists are JSON text, and geometries are WKB blobs. ``meta`` holds the
format name and schema version. ``event`` holds the game log as (seq, turn, side, phase, kind,
payload) where payload is the JSON text of the event's own fields.

The tables live in their own ``MetaData`` so no other module's tables end up in a file.
"""

from __future__ import annotations

from sqlalchemy import Index, MetaData
from sqlmodel import Field, SQLModel

METADATA = MetaData()
"""Every table of a .battle file."""

APPLICATION_ID = 0x42415453
"""``PRAGMA application_id`` of a .battle file ("BATS"), so ``file(1)`` and we can tell it."""


class _Base(SQLModel):
    metadata = METADATA


class MetaRow(_Base, table=True):
    """Key/value metadata: ``format``, ``schema_version``, ``app_version``."""

    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str


class InfoRow(_Base, table=True):
    """The single ScenarioInfo row (id 1)."""

    __tablename__ = "scenario_info"
    id: int = Field(primary_key=True)
    title: str
    date: str
    place: str
    ruleset: str
    parameters: str
    table_width: float
    table_height: float
    ground_scale: float
    turn_minutes: int
    first_turn: str
    turns: int
    description: str
    georef_lon: float | None = None  # schema version 2: all three NULL = not georeferenced
    georef_lat: float | None = None
    georef_bearing: float | None = None


class SideRow(_Base, table=True):
    __tablename__ = "side"
    id: str = Field(primary_key=True)
    name: str
    nations: str
    colour: str


class UnitRow(_Base, table=True):
    __tablename__ = "unit"
    id: str = Field(primary_key=True)
    name: str
    side: str
    nation: str
    arm: str
    subtype: str | None = None
    quality: str
    figures: int
    bases: int | None = None
    men: int
    horses: int
    guns: int
    position_x: float
    position_y: float
    facing: float
    formation: str
    state: str
    ammunition: int | None = None
    figure_width: float
    figure_depth: float
    column_ranks: int
    attributes: str


class CommanderRow(_Base, table=True):
    __tablename__ = "commander"
    id: str = Field(primary_key=True)
    name: str
    side: str
    nation: str
    echelon: str
    position_x: float
    position_y: float
    facing: float
    figures: int
    order_capacity: int | None = None
    command_ability: int | None = None
    command_distance: float | None = None
    attributes: str


class TerrainRow(_Base, table=True):
    __tablename__ = "terrain"
    id: str = Field(primary_key=True)
    kind: str
    geometry: bytes
    name: str
    level: int | None = None
    width: float | None = None
    properties: str


class TownRow(_Base, table=True):
    __tablename__ = "town_zone"
    id: str = Field(primary_key=True)
    name: str
    polygon: bytes
    capacity: int


class ObjectiveRow(_Base, table=True):
    __tablename__ = "objective"
    id: str = Field(primary_key=True)
    name: str
    geometry: bytes
    side: str
    value: int


class DeploymentRow(_Base, table=True):
    __tablename__ = "deployment_zone"
    id: str = Field(primary_key=True)
    side: str
    name: str
    polygon: bytes
    formation: str


class ReinforcementRow(_Base, table=True):
    __tablename__ = "reinforcement"
    id: str = Field(primary_key=True)
    side: str
    formation: str
    earliest_turn: int
    latest_turn: int
    entry_point_x: float
    entry_point_y: float
    probability: float
    note: str


class OrderRow(_Base, table=True):
    __tablename__ = "standing_order"
    id: str = Field(primary_key=True)
    issuer: str
    recipient: str
    order_type: str
    objective_x: float | None = None
    objective_y: float | None = None
    status: str
    turn_issued: int
    parameters: str


class SourceRow(_Base, table=True):
    __tablename__ = "source"
    seq: int = Field(primary_key=True)
    title: str
    url: str
    licence: str
    note: str


class OobNodeRow(_Base, table=True):
    """Every node of the order of battle in graph order (the order subordinates are shown)."""

    __tablename__ = "oob_node"
    seq: int = Field(primary_key=True)
    id: str = Field(unique=True)


class OobEdgeRow(_Base, table=True):
    """``superior`` commands ``subordinate``; ``seq`` keeps each commander's subordinates in order."""

    __tablename__ = "oob_edge"
    seq: int = Field(primary_key=True)
    superior: str
    subordinate: str


class EventRow(_Base, table=True):
    """One battle event; ``seq`` is its 0-based index in the game log."""

    __tablename__ = "event"
    __table_args__ = (Index("ix_event_turn_side_phase", "turn", "side", "phase"),)
    seq: int = Field(primary_key=True)
    turn: int
    side: str
    phase: str
    kind: str
    payload: str


class KeyframeRow(_Base, table=True):
    """A stored game state (``store.keyframes``): the state after ``position`` events, at the
    start of phase (``turn``, ``side``, ``phase``); ``state`` is its JSON text. Schema version 4."""

    __tablename__ = "keyframe"
    seq: int = Field(primary_key=True)
    position: int
    turn: int
    side: str
    phase: str
    state: str


COLLECTION_TABLES = {
    "sides": SideRow,
    "commanders": CommanderRow,
    "units": UnitRow,
    "terrain": TerrainRow,
    "towns": TownRow,
    "objectives": ObjectiveRow,
    "deployment_zones": DeploymentRow,
    "reinforcements": ReinforcementRow,
    "orders": OrderRow,
}
"""Document collection key → table of its records."""

REQUIRED_TABLES = frozenset(METADATA.tables)
"""Names of the tables every .battle file of this schema version has."""
