"""The Belle Alliance traceability table (docs/rules/belle-alliance-trace.md; kept current by
tests/test_rules_trace.py) lists every section of 4.1.1-4.1.8 with code and tests,
and every rule of its rule list names code that cites the rule's section and tests that exist."""

from __future__ import annotations

import tomllib

from tests.test_rules_trace import ROOT, _trace


def test_every_section_and_every_rule_has_code_and_a_test():
    mod = _trace()
    known = {s for s, _ in mod.BA_SECTIONS}
    assert {f"4.1.{i}" for i in range(1, 9)} <= known
    code = mod.code_citations("belle_alliance", known)
    tests = mod.test_citations(("test_belle_alliance",), known)
    assert all(code.get(s) and tests.get(s) for s in known), sorted(
        s for s in known if not (code.get(s) and tests.get(s))
    )
    assert mod.rule_problems("belle-alliance", code) == []
    rules = tomllib.loads((ROOT / "docs" / "rules" / "belle-alliance-rules.toml").read_text(encoding="utf-8"))["rule"]
    assert {r["section"] for r in rules} == known
    assert {r["status"] for r in rules} <= {"done", "umpire", "left"}
    assert all(r.get("note") for r in rules if r["status"] != "done")


def test_a_rule_naming_code_that_does_not_cite_it_is_a_problem(monkeypatch, tmp_path):
    mod = _trace()
    known = {s for s, _ in mod.BA_SECTIONS}
    code = mod.code_citations("belle_alliance", known)
    bad = tmp_path / "docs" / "rules"
    bad.mkdir(parents=True)
    (bad / "x.toml").write_text(
        '[[rule]]\nsection = "4.1.7"\ntext = "t"\nstatus = "done"\ncode = ["paths.in_cover"]\n'
        'tests = ["test_belle_alliance::test_no_such_test"]\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(mod, "ROOT", tmp_path)
    monkeypatch.setitem(mod.RULE_LISTS, "belle-alliance", "x.toml")
    monkeypatch.setattr(mod, "test_names", lambda: set())
    assert mod.rule_problems("belle-alliance", code) == [
        "rule 1 (4.1.7): paths.in_cover does not cite 4.1.7",
        "rule 1 (4.1.7): no test test_belle_alliance::test_no_such_test",
    ]
