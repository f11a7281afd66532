"""The Regimental traceability table (docs/rules/regimental-trace.md; kept current by
tests/test_rules_trace.py) traces the seed's named sections (headings such as
«Дистанция командования») as well as its numbered ones."""

from __future__ import annotations

from tests.test_rules_trace import _trace


def test_named_and_numbered_sections_are_cited():
    mod = _trace()
    known = {s for s, _ in mod.REGIMENTAL_SECTIONS}
    assert mod._cited("(3.3-3.3.3; Дистанция командования; Тест на мораль)", known) == {
        "3.3",
        "3.3.1",
        "3.3.3",
        "Дистанция командования",
        "Тест на мораль",
    }
    assert mod._cited("при движении через лес (перемещение)", known) == {"Перемещение"}
    code = mod.code_citations("regimental", known)
    assert "organisation.convert_units" in code["1.2"] and "geometry.situation" in code["3.4.1"]
    table = mod.table("regimental")
    traced = int(table.split(" of ")[0].rsplit("\n", 1)[-1])
    assert traced >= 0.9 * len(mod.REGIMENTAL_SECTIONS)  # every section cited by code and a test
