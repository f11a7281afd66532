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


def test_ruleset_states_read_as_words_not_python_data():
    """General d'Armée brigade states and Regimental activations are mappings in the flags; the
    log names what changed in words (the ids as names), never a raw dict."""
    from dataclasses import replace

    from battlestudio.rules import get_ruleset
    from battlestudio.session import GameSession

    elchingen = JENA.with_name("elchingen-1805.battle.json")
    for rid in ("gda", "regimental"):
        b = store.load(elchingen)
        b.scenario.info = replace(b.scenario.info, ruleset=rid, parameters={**b.scenario.info.parameters, "adcs": 3})
        s = GameSession(b, get_ruleset(rid), seed=5)
        s.start()
        for _ in range(8):
            for f in s.checks_due():
                s.command_check(f)
            if s.activation_choices():
                s.choose_activation(s.activation_choices()[0])
            s.next_phase()
        lines = list(log_lines(b))
        assert not [line for line in lines if "{" in line or "': " in line or "('" in line], rid
        if rid == "gda":
            assert any("state steady" in line for line in lines)
        else:
            assert any(": next activation " in line and "formation " in line and "turn 1" in line for line in lines)


def test_a_rulesets_own_event_reads_in_words():
    """A tester saw "toe_combat_marked {'unit': 'french-bde-roguet', 'mark': {...}}" in the
    event list: a ruleset's own event reads with the unit's name and its fields in words."""
    from battlestudio.replay.state import GameState
    from battlestudio.rules.toe.combat_marks import CombatMarked
    from battlestudio.session.text import describe

    b = store.load(JENA)
    state = GameState.from_scenario(b.scenario)
    uid = next(iter(state.units))
    e = CombatMarked(turn=1, side="french", phase="attack", unit=uid, mark={"attacker": True, "against": uid})
    text = describe(e, state)
    assert "{" not in text and "'" not in text
    assert text.startswith(f"{state.units[uid].name}: toe combat marked") and "attacker yes" in text


def test_jena_log_reads_in_words_not_flags():
    """No raw values a program would print (True, None, "winner attacker") in the bundled
    game's log; a melee names who won."""
    import re

    lines = list(log_lines(store.load(JENA)))
    raw = [line for line in lines if re.search(r"\b(True|False|None)\b|winner (attacker|defender|draw)", line)]
    assert raw == []
    melees = [line for line in lines if "| melee: " in line]
    assert len(melees) > 50
    assert any(re.search(r"melee: 100e Ligne against [^:]+: 100e Ligne wins", line) for line in melees)
    assert any(": a draw" in line for line in melees)
