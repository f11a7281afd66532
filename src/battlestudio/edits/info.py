"""Scenario metadata edits: ``SetInfo`` replaces fields of the frozen ``ScenarioInfo``; ``SetParameters``
sets and removes its ruleset parameters."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any
from collections.abc import Iterable, Mapping

from battlestudio.edits.base import Change, Edit
from battlestudio.model.scenario import ScenarioInfo, Scenario

_INFO_FIELDS = frozenset(f.name for f in fields(ScenarioInfo))


class SetInfo(Edit):
    """Set fields of the scenario's ``ScenarioInfo`` (title, table size in cm, ground scale…).

    Parameters
    ----------
    changes : Mapping[str, Any]
        field name → new value.
    text : str
        undo label; default ``"Edit scenario info"``.

    Raises
    ------
    ValueError
        for a name that is not a ``ScenarioInfo`` field.
    """

    def __init__(self, changes: Mapping[str, Any], text: str = "Edit scenario info") -> None:
        bad = sorted(set(changes) - _INFO_FIELDS)
        if bad:
            raise ValueError(f"ScenarioInfo has no field {', '.join(map(repr, bad))}")
        self.changes = dict(changes)
        self.text = text
        self._old: ScenarioInfo | None = None

    def do(self, scenario: Scenario) -> list[Change]:
        self._old = scenario.info
        scenario.info = replace(scenario.info, **self.changes)
        return [Change("info", frozenset(self.changes))]

    def undo(self, scenario: Scenario) -> list[Change]:
        assert self._old is not None, "undo before do"
        scenario.info = self._old
        return [Change("info", frozenset(self.changes))]


class SetParameters(Edit):
    """Set and remove entries of ``ScenarioInfo.parameters`` (ruleset parameters, house rules).

    Parameters
    ----------
    values : Mapping[str, Any]
        parameter key → new value.
    remove : Iterable[str]
        keys to take out (the ruleset's own value applies again); a key also in ``values`` is set.
    text : str
        undo label; default ``"Set ruleset parameters"``.
    """

    def __init__(
        self, values: Mapping[str, Any], remove: Iterable[str] = (), text: str = "Set ruleset parameters"
    ) -> None:
        self.values = dict(values)
        self.remove = frozenset(remove) - set(self.values)
        self.text = text
        self._old: ScenarioInfo | None = None

    def do(self, scenario: Scenario) -> list[Change]:
        self._old = scenario.info
        kept = {k: v for k, v in scenario.info.parameters.items() if k not in self.remove}
        scenario.info = replace(scenario.info, parameters={**kept, **self.values})
        return [Change("info", frozenset({"parameters"}))]

    def undo(self, scenario: Scenario) -> list[Change]:
        assert self._old is not None, "undo before do"
        scenario.info = self._old
        return [Change("info", frozenset({"parameters"}))]
