"""The committed rule traceability tables (docs/rules/<ruleset>-trace.md) are the ones
docs/rules/trace.py writes from today's code, rule numbers and tests, and they trace what the
code cites: e.g. Torden over Europa's chapter 5 reactions and chapter 6 fire to their modules and tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _trace():
    spec = importlib.util.spec_from_file_location("trace_rules", ROOT / "docs" / "rules" / "trace.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("ruleset", ["toe", "gda", "regimental", "belle-alliance"])
def test_the_committed_trace_is_current(ruleset):
    text = _trace().table(ruleset)
    committed = (ROOT / "docs" / "rules" / f"{ruleset}-trace.md").read_text(encoding="utf-8")
    assert text == committed, f"run: python docs/rules/trace.py {ruleset} > docs/rules/{ruleset}-trace.md"


def test_sections_are_traced_to_the_code_and_tests_that_cite_them():
    mod = _trace()
    known = {s for s, _ in mod.TOE_SECTIONS}
    assert mod._cited("(2.7-2.11), 1.5 cm, 4.6.3 and 5.2 'større'", known) == {
        "2.7",
        "2.8",
        "2.9",
        "2.10",
        "2.11",
        "4.6.3",
        "5.2",
    }
    code = mod.code_citations("toe", known)
    assert "reactions.declare_resolve" in code["5.1"] and any(c.startswith("fire") for c in code["6.1"])
    tests = mod.test_citations(("test_toe_",), known)
    assert "test_toe_reactions" in tests["5.4"]


def test_gda_rules_are_cited_by_heading_item_and_letter():
    """The Russian text has no section numbers: headings, numbered items with ranges and the
    support prohibitions' letters are the citations."""
    mod = _trace()
    known = {s for s, _ in mod.RULESETS["gda"][1]}
    cite = mod.RULESETS["gda"][3]
    assert cite("restrictions 1 and 16; ПРОВЕДЕНИЕ АТАКИ 1-3; prohibitions А–В; refused: Ж — x", known) == {
        "R 1",
        "R 16",
        "ПР 1",
        "ПР 2",
        "ПР 3",
        "З А",
        "З Б",
        "З В",
        "З Ж",
    }
    code = mod.code_citations("gda", known, cite)
    assert "attacks.check_support" in code["З Г"] and "attacks.check_attack" in code["R 10"]
    tests = mod.test_citations(("test_gda_",), known, cite)
    assert "test_gda_rest::test_d9_an_enemy_within_5_cm_of_the_target_is_involved_in_the_attack" in tests["З Г"]
