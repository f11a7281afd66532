"""Club play's pure rules (``session.club``) on the bundled Elchingen 1805 battle: who acts for
which units under nested claims, and who keeps a phase open."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.state import GameState
from battlestudio.session.club import (
    acting_sides,
    busy_text,
    busy_umpires,
    holder,
    holdings,
    refusal_text,
    refusals,
    umpires_in_phase,
)

ELCHINGEN = Path(__file__).parent.parent / "scenarios" / "elchingen-1805.battle.json"


@pytest.fixture(scope="module")
def state() -> GameState:
    return GameState.from_scenario(store.load(ELCHINGEN).scenario)


def test_nearest_claim_wins(state: GameState) -> None:
    claims = {"french-vi-corps": "ann", "french-2eme-division": "bea"}
    oob = state.oob
    assert holder(oob, claims, "french-bde-roguet") == "bea"  # Loison's division inside Ney's corps
    assert holder(oob, claims, "french-2eme-division") == "bea"
    assert holder(oob, claims, "french-bde-delabassee") == "ann"  # Malher's: only the corps is claimed
    assert holder(oob, claims, "french-vi-corps") == "ann"
    assert holder(oob, claims, "austrian-avantgarde") is None  # nobody holds Riesch's corps


def test_refusals_name_the_holder_and_formation(state: GameState) -> None:
    scenario = store.load(ELCHINGEN).scenario
    claims = {"french-2eme-division": "bea", "french-cav-bde": "ann"}
    ids = ["french-bde-roguet", "french-10e-chasseur", "austrian-avantgarde", "french-bde-roguet"]
    found = refusals(state.oob, claims, "ann", ids)
    assert [(r.node, r.formation, r.umpire) for r in found] == [("french-bde-roguet", "french-2eme-division", "bea")]
    text = refusal_text(scenario, found)
    assert "Bde Roguet" in text and "Loison" in text and "umpire bea" in text and "only bea" in text
    assert refusals(state.oob, claims, "bea", ids) == [type(found[0])("french-10e-chasseur", "french-cav-bde", "ann")]
    assert refusal_text(scenario, []) == ""


def test_holdings_count_troops_on_the_table(state: GameState) -> None:
    claims = {"french-2eme-division": "bea", "austrian-1st-div": "carl", "french-vi-corps": "ann"}
    held = holdings(state, claims)
    members = [n for n in state.oob.all_subordinates("french-2eme-division")] + ["french-2eme-division"]
    on_table = [n for n in members if n not in state.off_table and (n in state.units or n in state.commanders)]
    assert held["bea"] == {"french": len(on_table)}
    assert set(held["carl"]) == {"austrian"}
    assert held["ann"]["french"] > 0
    gone = state.evolve(off_table=state.off_table | set(on_table))
    assert holdings(gone, claims)["bea"] == {}  # a formation off the table holds nothing


def test_busy_umpires_follow_who_acts_and_who_closed(state: GameState) -> None:
    claims = {"french-2eme-division": "bea", "french-3eme-division": "ann", "austrian-1st-div": "carl"}
    sides = ["french", "austrian"]
    assert acting_sides("active", "french", sides) == ["french"]
    assert acting_sides("passive", "french", sides) == ["austrian"]
    assert acting_sides("both", "french", sides) == sides
    assert umpires_in_phase(state, claims, ["french"]) == ["ann", "bea"]
    assert busy_umpires(state, claims, ["french"], closed=[]) == ["ann", "bea"]
    assert busy_umpires(state, claims, ["french"], closed=["bea"]) == ["ann"]
    assert busy_umpires(state, claims, ["french"], closed=["bea", "ann"]) == []
    assert busy_umpires(state, claims, sides, closed=["bea", "ann"]) == ["carl"]
    assert busy_umpires(state, {}, sides, closed=[]) == []  # nobody holds anything: nobody to wait for
    assert busy_text(["ann", "bea"], "bea") == "ann and you still busy"
    assert busy_text(["ann", "carl"], "bea") == "waiting for ann and carl"
    assert busy_text([], "bea") == ""
