"""Paste into another document: the copied records' sides are mapped onto the document's (same
id, name or nation), or onto the sides the caller chose or added — never onto a missing side."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.edits.clipboard import copy_records, paste_edit, side_mapping
from battlestudio.model.scenario import Side

BUNDLED = {p.name.split("-")[0]: p for p in (Path(__file__).parents[1] / "scenarios").glob("*.battle.json")}


def _load(name: str):
    return store.load(BUNDLED[name]).scenario


def test_sides_match_by_id_name_or_a_shared_nation():
    elchingen, jena, leipzig = _load("elchingen"), _load("jena"), _load("leipzig")
    austrians = [u for u, r in elchingen.units.items() if r.side == "austrian"][:3]
    french = [u for u, r in elchingen.units.items() if r.side == "french"][:2]
    clip = copy_records(elchingen, austrians + french)
    assert set(clip.sides) == {"austrian", "french"}
    assert side_mapping(jena, clip) == ({"french": "french"}, ["austrian"])  # Jena has no Austrian side
    assert side_mapping(leipzig, clip) == ({"austrian": "allied", "french": "french"}, [])  # Austria is allied
    # a name equal but for case and accents matches too (no nation given)
    clip2 = copy_records(elchingen, austrians)
    renamed = jena.copy()
    renamed.sides["kaiserlich"] = Side("kaiserlich", "ÄUSTRIA: Riesch's corps")
    assert side_mapping(renamed, clip2)[0] == {"austrian": "kaiserlich"}


def test_paste_maps_sides_and_refuses_a_missing_one():
    elchingen, jena = _load("elchingen"), _load("jena")
    austrians = [u for u, r in elchingen.units.items() if r.side == "austrian"][:3]
    clip = copy_records(elchingen, austrians)
    with pytest.raises(ValueError, match=r"side \"Austria: Riesch's corps\" \(austrian\) is not in this document"):
        paste_edit(jena, clip)
    edit, ids = paste_edit(jena, clip, sides={"austrian": "prussian"})
    edit.do(jena)
    assert {jena.units[i].side for i in ids} == {"prussian"}
    edit.undo(jena)
    assert not set(ids) & set(jena.units)
    side = Side("austrian", "Austria: Riesch's corps", ("Austria",), "#f0f0f0")
    edit, ids = paste_edit(jena, clip, sides={"austrian": "austrian"}, new_sides={"austrian": side})
    edit.do(jena)
    assert jena.sides["austrian"] == side and {jena.units[i].side for i in ids} == {"austrian"}
    edit.undo(jena)
    assert "austrian" not in jena.sides
