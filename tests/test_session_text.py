"""Game log lines in proper English number: "loses 1 figure (100 men)", "Lefebvre arrives"."""

from __future__ import annotations

from pathlib import Path

from battlestudio import store
from battlestudio.session.text import count, log_lines

JENA = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"


def test_count_uses_singular_for_one():
    assert count(1, "figure") == "1 figure" and count(2, "figure") == "2 figures"
    assert count(1, "man", "men") == "1 man" and count(100, "man", "men") == "100 men"
    assert count(0, "gun") == "0 guns"


def test_jena_log_lines_agree_in_number():
    lines = list(log_lines(store.load(JENA)))
    assert not any("(s)" in line or " 1 figures" in line or " 1 men" in line for line in lines)
    assert any("103e Ligne loses 1 figure (100 men)" in line for line in lines)
    assert any(line.endswith("| Lefebvre arrives: 6 units and generals enter") for line in lines)
    assert any("Augereau, Desjardin, Bierre, Durosnel arrive: 16 units and generals enter" in line for line in lines)
