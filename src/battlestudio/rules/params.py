"""Ruleset numbers: loading ``resources/rulesets/<id>.toml`` and layering scenario parameters on top.

Each entry of a ruleset file has a ``status``: ``rule`` (printed in the rules), ``assumed`` (a best
reading, used as a default and reported whenever used) or ``missing`` (no default: the scenario
must supply it, or the rule is refused with ``MissingParameterError`` naming the parameter).
Scenario parameters (``ScenarioInfo.parameters``) override any entry under the same key, written
plain, with the ruleset id in front (``toe.zones_cm.army``) or, for a choice the rules leave to
the players or the scenario, as ``<id>.scenario.<key>`` (``toe.scenario.initiative``); keys of
missing values may be templates such as ``zones_cm.army`` or ``command_ability.France.corps``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Mapping

RULE = "rule"
ASSUMED = "assumed"
MISSING = "missing"
SCENARIO_CHOICE = "scenario"
"""The namespace of scenario choices under a ruleset's prefix: ``toe.scenario.initiative``."""


class RuleRefused(Exception):
    """A rule cannot be applied; the message says why in the user's terms."""


class MissingParameterError(RuleRefused):
    """A value the rules text does not give is absent from the scenario.

    Attributes
    ----------
    parameter : str
        the scenario parameter that would supply it (the most specific key asked for).
    rule : str
        the rule section that needs it.
    """

    def __init__(self, parameter: str, rule: str, why: str = "", tried: Iterable[str] = ()) -> None:
        self.parameter = parameter
        self.rule = rule
        tried = [t for t in tried if t != parameter]
        also = f" (or {', '.join(repr(t) for t in tried)})" if tried else ""
        text = f"{rule} needs scenario parameter {parameter!r}{also}"
        if why:
            text += f": {why}"
        super().__init__(text)


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One number of a ruleset file: its ``key``, ``value`` (None when missing), rule
    ``section``, ``status`` (rule / assumed / missing), ``text``, the ``ambiguity`` it reads
    (assumed), the scenario ``parameter`` template (missing), an ``example`` value and, for a
    reading named by a word, the ``choices`` it may take."""

    key: str
    value: Any
    section: str
    status: str
    text: str = ""
    ambiguity: str = ""
    parameter: str = ""
    example: Any = None
    choices: tuple[str, ...] = ()


def _resource_dir() -> Path:
    """``resources/rulesets`` of an installed wheel, or of the source checkout."""
    try:
        packaged = Path(str(resources.files("battlestudio") / "resources" / "rulesets"))
        if packaged.is_dir():
            return packaged
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - unusual installs
        pass
    return Path(__file__).resolve().parents[3] / "resources" / "rulesets"


@lru_cache(maxsize=16)
def load_ruleset_file(ruleset_id: str, path: str | None = None) -> tuple[dict[str, Any], dict[str, RuleEntry]]:
    """Read ``<id>.toml``: returns ``(header, entries)``.

    Raises
    ------
    RuleRefused
        when the file is absent, not TOML, or an entry lacks ``section``/``status`` or has an
        unknown status, or a non-missing entry has no ``value``; the message names file and key.
    """
    file = Path(path) if path else _resource_dir() / f"{ruleset_id}.toml"
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RuleRefused(f"ruleset file {file} not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise RuleRefused(f"ruleset file {file}: {exc}") from None
    entries: dict[str, RuleEntry] = {}
    for key, raw in data.get("rules", {}).items():
        status = raw.get("status")
        if status not in (RULE, ASSUMED, MISSING) or "section" not in raw:
            raise RuleRefused(f"ruleset file {file}: rules.{key} needs a section and a status of rule/assumed/missing")
        if status != MISSING and "value" not in raw:
            raise RuleRefused(f"ruleset file {file}: rules.{key} ({status}) has no value")
        entries[key] = RuleEntry(
            key=key,
            value=raw.get("value"),
            section=str(raw["section"]),
            status=status,
            text=str(raw.get("text", "")),
            ambiguity=str(raw.get("ambiguity", "")),
            parameter=str(raw.get("parameter", "")),
            example=raw.get("example"),
            choices=tuple(str(c) for c in raw.get("choices", ())),
        )
    return dict(data.get("ruleset", {})), entries


@dataclass
class RuleParameters:
    """A ruleset's numbers for one scenario: file entries with scenario overrides on top.

    ``assumed_used`` collects the keys of assumed readings actually consulted without a scenario
    override, so a result can say which best readings it relied on.
    """

    ruleset_id: str
    entries: Mapping[str, RuleEntry]
    scenario: Mapping[str, Any] = field(default_factory=dict)
    rule_name: str = ""
    assumed_used: set[str] = field(default_factory=set)

    @classmethod
    def for_ruleset(cls, ruleset_id: str, scenario: Mapping[str, Any] | None = None) -> RuleParameters:
        header, entries = load_ruleset_file(ruleset_id)
        return cls(ruleset_id, entries, dict(scenario or {}), str(header.get("name", ruleset_id)))

    def _find(self, key: str) -> tuple[bool, Any]:
        """A scenario value for ``key``, ``<ruleset id>.<key>`` (e.g. ``toe.zones_cm.army``) or
        ``<ruleset id>.scenario.<key>`` (a choice the rules leave to the scenario, e.g.
        ``toe.scenario.initiative``), first found in that order."""
        for k in (key, f"{self.ruleset_id}.{key}", f"{self.ruleset_id}.{SCENARIO_CHOICE}.{key}"):
            if k in self.scenario:
                return True, self.scenario[k]
        return False, None

    def get(self, key: str) -> Any:
        """Value of a rule or assumed entry; a scenario override wins.

        Raises
        ------
        KeyError
            for a key the file does not have; ``MissingParameterError`` for a missing entry the
            scenario does not supply.
        """
        found, value = self._find(key)
        if found:
            return value
        entry = self.entries[key]
        if entry.status == MISSING:
            raise MissingParameterError(key, f"{self.rule_name} {entry.section}", entry.text)
        if entry.status == ASSUMED:
            self.assumed_used.add(key)
        return entry.value

    def overridden(self, key: str) -> bool:
        """True when the scenario sets ``key`` itself (plain or with the ruleset prefix)."""
        return self._find(key)[0]

    def lookup(self, *keys: str) -> tuple[str, Any] | None:
        """First of ``keys`` the scenario supplies, as ``(key, value)``, or None."""
        for k in keys:
            found, value = self._find(k)
            if found and value is not None:
                return k, value
        return None

    def require(self, entry_key: str, *keys: str) -> tuple[str, Any]:
        """First of ``keys`` the scenario supplies, for the missing entry ``entry_key``.

        ``keys`` go from the most specific (e.g. ``zones_cm.France.army``) to the most general
        (``zones_cm.army``).

        Raises
        ------
        MissingParameterError
            naming the most general key (the last) when none is supplied, the others as
            alternatives.
        """
        found = self.lookup(*keys)
        if found is not None:
            return found
        entry = self.entries.get(entry_key)
        section = entry.section if entry else "?"
        raise MissingParameterError(keys[-1], f"{self.rule_name} {section}", entry.text if entry else "", keys[:-1])

    def assumptions(self) -> list[str]:
        """Sentences naming each assumed reading used so far (sorted by key)."""
        out = []
        for key in sorted(self.assumed_used):
            e = self.entries[key]
            out.append(f"assumed {key} = {e.value!r} ({e.ambiguity or e.section}): {e.text}")
        return out
