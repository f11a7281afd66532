"""``battlestudio import-oob --ruleset``: the scenario written is for that ruleset, its units at
its scale (the Regimental rules: bases at 75 men a figure, brigades split into regiments),
each unit that cannot be converted warned on stderr; an unknown ruleset is named."""

from __future__ import annotations

from pathlib import Path

from battlestudio import store
from battlestudio.cli import main

DATA = Path("/work/shared/data/oob")


def test_import_oob_for_the_regimental_rules_writes_regiments_and_warns_per_unit(tmp_path, capsys):
    out = tmp_path / "elchingen.battle.json"
    args = ["import-oob", str(DATA / "fogofwar"), "--format", "fogofwar", "--scenario-id", "18"]
    assert main([*args, "--ruleset", "regimental", "--out", str(out)]) == 0
    cap = capsys.readouterr()
    sc = store.load(out).scenario
    assert sc.info.ruleset == "regimental"
    parts = sorted(
        (u.bases, u.figures) for u in sc.units.values() if u.attributes.get("split_from") == "austria-avantgarde"
    )
    assert parts == [(4, 22), (4, 23)]  # 3400 men: 45 figures, 8 bases, two regiments (1.2)
    assert "Avantgarde: 8 bases are a brigade (1.2: two regiments a brigade): split into 2 regiments of 4, 4" in cap.err
    assert "conversion to the Regimental rules scale: " in cap.err and "a cavalry regiment has 4 (1.2)" in cap.err
    assert "Torden over Europa" not in cap.err
    assert all(u.attributes.get("scale") == "regimental" for u in sc.units.values() if u.arm.value != "artillery")


def test_an_unknown_ruleset_is_named_with_the_installed_ones(tmp_path, capsys):
    out = tmp_path / "x.battle.json"
    oob = DATA / "republique5/scenarios/jena-auerstadt-1806/VI-Corps.oob"
    assert main(["import-oob", str(oob), "--format", "oob", "--ruleset", "regimentl", "--out", str(out)]) != 0
    err = capsys.readouterr().err
    assert "unknown ruleset 'regimentl'; use one of" in err and "regimental" in err
    assert not out.exists()
