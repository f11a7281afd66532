"""Torden over Europa 1.3 (issue 16 D9): "the Prussian brigade counts as a division", a reading
the importers apply with the assumed ``prussian_brigade_years`` ([] = every year) and the year
of the source, or of the scenario the import is for. On every path that brings an order of
battle in: ``import_oob`` (what ``battlestudio import-oob`` and the Import dialog call),
``document.import_edit`` (the Import dialog's undo step) and ``document.paste_into``; an 1815
source and one of 1806–1813, the seed's Prussian 9th Brigade (Leipzig 1813, republique5)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from battlestudio.cli.main import main
from battlestudio.document import import_edit, paste_into
from battlestudio.edits.clipboard import copy_records
from battlestudio.store.importers import OobImportError, import_oob
from tests.elchingen import elchingen_scenario

KLUX = Path("/work/shared/data/oob/republique5/scenarios/leipzig-1813/Prussian-9-Bde.oob")
WINDOW = {"toe.prussian_brigade_years": [1806, 1813]}
"""A scenario that keeps the reading to the Wars of Liberation and before."""


def source(tmp_path: Path, year: int | None) -> Path:
    """The Prussian 9th Brigade as a republique5 file dated ``year`` (None: no year stated)."""
    text = KLUX.read_text(encoding="utf-8").replace("!Prussia 1813", f"!Prussia {year}" if year else "!Prussia")
    path = tmp_path / f"klux-{year or 'undated'}.oob"
    path.write_text(text, encoding="utf-8")
    return path


def klux(sc):
    return next(c for c in sc.commanders.values() if c.attributes.get("formation") == "Prussian 9th Brigade")


@pytest.mark.parametrize("year", [1815, 1810])
def test_import_oob_reads_the_brigade_by_its_sources_year(tmp_path, year):
    assert klux(import_oob([source(tmp_path, year)], "oob").scenario).echelon == "division"  # [] = every year
    res = import_oob([source(tmp_path, year)], "oob", parameters=WINDOW)
    assert klux(res.scenario).echelon == ("brigade" if year == 1815 else "division")
    if year == 1815:
        assert any("stays a brigade" in str(w) and "1806-1813 (1.3)" in str(w) for w in res.warnings)
    # the source's year wins over the scenario's
    other = 1810 if year == 1815 else 1815
    assert klux(import_oob([source(tmp_path, year)], "oob", year=other, parameters=WINDOW).scenario).echelon == (
        "brigade" if year == 1815 else "division"
    )


def test_an_undated_source_takes_the_scenarios_year(tmp_path):
    undated = source(tmp_path, None)
    assert klux(import_oob([undated], "oob", year=1815, parameters=WINDOW).scenario).echelon == "brigade"
    assert klux(import_oob([undated], "oob", year=1810, parameters=WINDOW).scenario).echelon == "division"
    assert klux(import_oob([undated], "oob", parameters=WINDOW).scenario).echelon == "brigade"  # no year at all
    with pytest.raises(OobImportError, match=r"prussian_brigade_years = \[1813\].*\[first, last\]"):
        import_oob([undated], "oob", parameters={"toe.prussian_brigade_years": [1813]})


@pytest.mark.parametrize("year", [1815, 1810])
def test_battlestudio_import_oob_applies_the_reading(tmp_path, capsys, year):
    out = tmp_path / "klux.battle.json"
    assert main(["import-oob", str(source(tmp_path, year)), "--format", "oob", "--out", str(out)]) == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    text = json.dumps(written)
    assert '"echelon": "division"' in text and "Prussian 9th Brigade" in text
    assert "Prussian brigade acts as a division (Torden over Europa 1.3)" in capsys.readouterr().err


def _target(date: str, parameters=None):
    sc = elchingen_scenario()
    sc.info = replace(sc.info, date=date, parameters={**sc.info.parameters, **(parameters or {})})
    return sc


@pytest.mark.parametrize("date, expected", [("1815-06-18", "brigade"), ("1810-07-01", "division")])
def test_the_import_step_reads_it_with_the_documents_year_and_parameters(tmp_path, date, expected):
    imported = import_oob([source(tmp_path, None)], "oob").scenario  # undated: a division by default
    assert klux(imported).echelon == "division"
    target = _target(date, WINDOW)
    side = next(iter(imported.sides))
    edit, _nodes = import_edit(target, imported, {side: next(iter(target.sides))})
    edit.do(target)
    assert klux(target).echelon == expected
    assert any("1.3" in n for n in edit.notes) == (expected == "brigade")
    # an 1815 source keeps 1815 in a document of 1810
    dated = import_oob([source(tmp_path, 1815)], "oob").scenario
    target = _target("1810-07-01", WINDOW)
    edit, _nodes = import_edit(target, dated, {next(iter(dated.sides)): next(iter(target.sides))})
    edit.do(target)
    assert klux(target).echelon == "brigade"


@pytest.mark.parametrize("year, expected", [(1815, "brigade"), (1812, "division")])
def test_paste_reads_it_with_the_target_documents_reading(tmp_path, year, expected):
    imported = import_oob([source(tmp_path, year)], "oob").scenario
    assert klux(imported).echelon == "division"
    clip = copy_records(imported, [klux(imported).id, *imported.oob.all_subordinates(klux(imported).id)])
    for target, want in ((_target("1813-10-16", WINDOW), expected), (_target("1815-06-18"), "division")):
        made = paste_into(target, clip, source_ruleset="toe", sides={"prussia": "austrian"})
        assert made is not None
        edit, ids = made
        edit.do(target)
        pasted = [target.commanders[i] for i in ids if i in target.commanders]
        assert [c.echelon for c in pasted if c.attributes.get("formation") == "Prussian 9th Brigade"] == [want]
        assert any("stays a brigade" in n for n in edit.notes) == (want == "brigade")
