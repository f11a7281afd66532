"""Ruleset actions: what a player or the umpire may do in the open phase beyond orders.

An action (fire, melee, morale test, rally, resupply, square test, leader casualty test, …) is
declared by a ruleset as an ``ActionSpec`` for one subject in the open phase, with its legality
and the parameters it needs (``ParameterSpec``, as the order form). The window shows the spec,
``preview_action`` gives the exact odds before the roll, ``resolve_action`` rolls through the
session's dice and returns events with ``RollRecord`` explanations. Where the seed lost a table
the spec says so in ``umpire_table`` and lists the ``umpire_result`` fields: the umpire enters
the table's result and everything around the table is still computed and validated.

Rulesets never mutate state: each call takes the ``GameState`` and returns records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any
from collections.abc import Mapping

from battlestudio.replay.events import BattleEvent
from battlestudio.rules.dice import RollRecord

#: subject kinds an action may have
SUBJECT_KINDS = ("unit", "commander", "formation", "none")


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action a subject may take now.

    ``id`` is stable within the ruleset (``fire``, ``melee``, ``morale_test``, ``rally``,
    ``resupply``, …); ``label`` in English, ``term`` the ruleset's own word, ``rule`` its
    section. ``subject_kind`` is one of ``SUBJECT_KINDS``. ``parameters`` use the order form's
    ``ParameterSpec`` kinds plus ``unit`` / ``enemy_unit`` / ``friendly_unit`` (one id; with
    ``multiple`` > 1 a tuple of ids), ``int`` and ``choice``. ``unavailable`` says why the
    action is not legal now ("" = legal). ``umpire_table`` names the missing table or scenario
    parameter (e.g. ``"Table 5 (fire), toe.fire_table"``) when the result must be entered by the
    umpire; ``umpire_result`` are then the fields he enters (``int`` with ``max_value``, or
    ``choice``); an action may offer them also when it can roll (``umpire_table`` "").
    """

    id: str
    label: str
    term: str = ""
    rule: str = ""
    subject_kind: str = "unit"
    parameters: tuple[Any, ...] = ()  # ParameterSpec (rules.protocol), kept untyped to avoid a cycle
    umpire_result: tuple[Any, ...] = ()
    unavailable: str = ""
    umpire_table: str = ""
    note: str = ""

    @property
    def legal(self) -> bool:
        return not self.unavailable

    @property
    def rolls(self) -> bool:
        """Whether the program can roll this action (no missing table)."""
        return not self.umpire_table


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """What is asked: ``action`` id for ``subject`` (a unit, commander or formation id; "" for
    ``none``), the ``parameters`` filled in, and ``umpire_result`` when the umpire enters the
    table's result instead of rolling (None: roll)."""

    action: str
    subject: str = ""
    parameters: Mapping[str, Any] = field(default_factory=dict)
    umpire_result: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ActionPreview:
    """Before the roll: ``legal`` (else ``reason``), the ``explanation`` of what will be rolled
    and why (modifiers with their sources), the exact ``odds`` of each pass/fail roll as
    (label, probability) and the ``outcomes`` of a table roll as (result, probability);
    ``umpire_entry`` when the result must be entered (the missing table is named in
    ``reason``/``explanation``); ``assumed`` readings used."""

    action: str
    subject: str
    legal: bool
    reason: str = ""
    explanation: str = ""
    odds: tuple[tuple[str, Fraction], ...] = ()
    outcomes: tuple[tuple[str, Fraction], ...] = ()
    umpire_entry: bool = False
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionOutcome:
    """After the roll (or the umpire's entry): ``status`` ``resolved`` or ``refused`` (nothing
    happens; ``explanation`` says why), the ``events`` to record (the action's own event first,
    its consequences after), the ``rolls`` made, the ``explanation`` naming every rule used."""

    status: str
    explanation: str
    events: tuple[BattleEvent, ...] = ()
    rolls: tuple[RollRecord, ...] = ()
    assumed: tuple[str, ...] = ()

    @property
    def resolved(self) -> bool:
        return self.status == "resolved"


def refused(reason: str) -> ActionOutcome:
    """An outcome that records nothing, with ``reason``."""
    return ActionOutcome("refused", reason)
