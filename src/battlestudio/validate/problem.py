"""``Problem``: one thing wrong with a battle file, as both ``battlestudio check`` and the
Problems dock show it.

A problem has a severity (``"error"``: the scenario cannot be played as written — a broken
reference, a record off the table, an impossible number; ``"warning"``: it can, but probably
not as meant — overlapping units, a crowded town, an unknown ruleset term), a stable check id
(``"oob.cycle"``, ``"unit.off_table"``), the ids of the records involved (the first is the main
culprit) and a message that starts with the field at fault and names its value.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]
ERROR: Severity = "error"
WARNING: Severity = "warning"


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: ``severity``, ``check`` id, ``message`` (field and value), ``subjects`` (record ids)."""

    severity: Severity
    check: str
    message: str
    subjects: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.severity} {self.check}: {self.message}"


def error(check: str, message: str, *subjects: str) -> Problem:
    """An error of ``check`` about ``subjects``."""
    return Problem(ERROR, check, message, subjects)


def warning(check: str, message: str, *subjects: str) -> Problem:
    """A warning of ``check`` about ``subjects``."""
    return Problem(WARNING, check, message, subjects)


def ordered(problems: Iterable[Problem]) -> list[Problem]:
    """``problems`` with the errors first, each group in the order found."""
    found = list(problems)
    return [p for p in found if p.severity == ERROR] + [p for p in found if p.severity != ERROR]
