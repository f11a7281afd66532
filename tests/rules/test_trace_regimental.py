"""The committed Regimental traceability table (docs/rules/regimental-trace.md) is the one
docs/rules/trace.py writes today, and it traces the seed's named sections (headings such as
«Дистанция командования») as well as its numbered ones."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _trace():
    spec = importlib.util.spec_from_file_location("trace_rules", ROOT / "docs" / "rules" / "trace.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_committed_regimental_trace_is_current():
    text = _trace().table("regimental")
    committed = (ROOT / "docs" / "rules" / "regimental-trace.md").read_text(encoding="utf-8")
    assert text == committed, "run: python docs/rules/trace.py regimental > docs/rules/regimental-trace.md"


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
