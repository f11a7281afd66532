"""Ruleset knowledge stays in ``battlestudio.rules``: no module outside it names a ruleset id
as a string (``"toe"``, ``'gda'``, …); they ask the registry and the ``Ruleset`` Protocol."""

from __future__ import annotations

import re
from pathlib import Path

from battlestudio.rules import available_rulesets

SRC = Path(__file__).resolve().parents[1] / "src" / "battlestudio"
RULES = SRC / "rules"


def quoted_ids() -> re.Pattern[str]:
    """A quoted string that is exactly an installed ruleset's id or its package name."""
    names = set(available_rulesets()) | {rid.replace("-", "_") for rid in available_rulesets()}
    alternatives = "|".join(sorted(map(re.escape, names)))
    return re.compile(r"""['"](""" + alternatives + r""")['"]""")


def test_the_pattern_finds_the_ids_it_is_for():
    pattern = quoted_ids()
    assert {
        pattern.search(t) is not None
        for t in ('x = "toe"', "get_ruleset('gda')", '"belle-alliance"', "'belle_alliance'", '"regimental"')
    } == {True}
    assert pattern.search('"toe.scale.battery_fraction"') is None and pattern.search("toes") is None


def test_no_module_outside_rules_names_a_ruleset_id():
    pattern = quoted_ids()
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if RULES in path.parents:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(SRC.parent)}:{n}: {line.strip()}")
    assert found == []
