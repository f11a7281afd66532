"""The audit of the Regimental rules (docs/rules/regimental-audit.md) agrees with the rule list
the traceability table reads (docs/rules/regimental-rules.toml): the same rules of seed 003 in the
same order, with the same status, code and tests; its headline counts and percentage are the
list's; every section of the seed has rules; every code entry cites its section and every test
exists (``trace.rule_problems``); and at least 90 % of the rules are correct (issue 18)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from tests.test_rules_trace import _trace

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


def _audit_rows() -> list[tuple[str, str, str, list[str], list[str]]]:
    text = (DOCS / "regimental-audit.md").read_text(encoding="utf-8")
    body = text.split("## Every rule", 1)[1]
    rows = []
    for line in body.splitlines():
        if not line.startswith("| ") or line.startswith("| § ") or line.startswith("|---"):
            continue
        sec, rule, status, code, tests = (c.strip() for c in line.strip("|").split(" | "))
        rows.append((sec, rule, status, re.findall(r"`([^`]+)`", code), re.findall(r"`([^`]+)`", tests)))
    return rows


def test_the_audit_table_is_the_rule_list_of_the_trace():
    rules = tomllib.loads((DOCS / "regimental-rules.toml").read_text(encoding="utf-8"))["rule"]
    listed = [(r["section"], r["text"], r["audit"], r["code"], r["tests"]) for r in rules]
    assert _audit_rows() == listed
    for r in rules:
        assert r["status"] == ("done" if r["audit"] == "correct" else "left"), r["text"]
        assert r["audit"] == "correct" or r.get("note", "").startswith(r["audit"] + ": "), r["text"]


def test_the_headline_counts_are_the_lists_and_at_least_90_percent_is_correct():
    rows = _audit_rows()
    n = len(rows)
    counts = {s: sum(1 for r in rows if r[2] == s) for s in ("correct", "partial", "missing")}
    assert sum(counts.values()) == n
    text = (DOCS / "regimental-audit.md").read_text(encoding="utf-8")
    head = (
        f"{n} implementable rules, {counts['correct']} correct, {counts['partial']} partial, "
        f"{counts['missing']} missing:\n{100 * counts['correct'] / n:.0f} % implemented correctly"
    )
    assert head in text
    assert counts["correct"] >= 0.9 * n
    trace = (DOCS / "regimental-trace.md").read_text(encoding="utf-8")
    assert f"{n} rules: {counts['correct']} done" in trace and f"{n - counts['correct']} left" in trace


def test_every_section_has_rules_and_the_trace_finds_no_problem():
    mod = _trace()
    known = {s for s, _ in mod.REGIMENTAL_SECTIONS}
    assert {r[0] for r in _audit_rows()} == known
    code = mod.code_citations("regimental", known)
    assert mod.rule_problems("regimental", code) == []
