"""Names shown in lists: the bundled Elchingen has two "Avantgarde", two "Reserve Bde" and two
"Reserve Bde (cavalry)" (one in each Austrian division); each list shows them with their
division general, and by id where even that does not tell them apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.model.names import display_names, labelled
from battlestudio.replay.battle import Battle
from battlestudio.replay.flow_events import Moved, PhaseStarted
from battlestudio.session.text import log_lines

ELCHINGEN = Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json"


@pytest.fixture
def elchingen():
    return store.load(ELCHINGEN).scenario


def test_duplicates_get_their_superior_and_the_rest_their_own_name(elchingen):
    names = display_names(elchingen)
    assert names["austrian-avantgarde"] == "Avantgarde (von Loudon)"
    assert names["austrian-avantgarde-2"] == "Avantgarde (von Hessen-Homburg)"
    assert names["austrian-reserve-bde-cavalry-2"] == "Reserve Bde (cavalry) (von Hessen-Homburg)"
    assert set(names) == set(elchingen.units) | set(elchingen.commanders)
    assert len(set(names.values())) == len(names)  # every list entry can be told apart
    for rid, shown in names.items():
        rec = elchingen.record(rid)
        if sum(r.name == rec.name for r in (*elchingen.units.values(), *elchingen.commanders.values())) == 1:
            assert shown == rec.name


def test_the_same_superior_falls_back_to_the_id(elchingen):
    # both Avantgarde under von Loudon (a realistic slip of an imported order of battle)
    elchingen.oob.remove("austrian-avantgarde-2")
    elchingen.oob.add("austrian-1st-div", "austrian-avantgarde-2")
    names = display_names(elchingen)
    assert names["austrian-avantgarde"] == "Avantgarde (von Loudon, austrian-avantgarde)"
    assert names["austrian-avantgarde-2"] == "Avantgarde (von Loudon, austrian-avantgarde-2)"
    elchingen.oob.remove("austrian-avantgarde-2")  # no superior at all
    assert display_names(elchingen)["austrian-avantgarde-2"] == "Avantgarde (austrian-avantgarde-2)"


def test_labelled_adds_a_detail_inside_the_parentheses():
    assert labelled("Avantgarde", "Avantgarde (von Loudon)", "austrian") == "Avantgarde (von Loudon, austrian)"
    assert labelled("FML Riesch", "FML Riesch", "corps") == "FML Riesch (corps)"
    assert labelled("Reserve Bde (cavalry)", "Reserve Bde (cavalry)", "") == "Reserve Bde (cavalry)"


def test_the_game_log_names_duplicates_apart(elchingen):
    u = elchingen.units["austrian-avantgarde-2"]
    to = (u.position[0] + 5.0, u.position[1])
    events = [
        PhaseStarted(1, "french", "orders", name="Orders"),
        Moved(1, "french", "orders", id="austrian-avantgarde-2", path=(u.position, to)),
    ]
    lines = list(log_lines(Battle(elchingen, events)))
    assert "Avantgarde (von Hessen-Homburg) moves 5.0 cm" in lines[-1]
