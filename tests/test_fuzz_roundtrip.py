"""Property over the fuzz corpus (issue 27): every mutated file that opens can be saved in
both formats and reopens as the same document (``json_format.dumps`` equal), so nothing a
user opens is lost at Save. A bounded hypothesis sample runs in CI (seconds); the mutations
are ``tests/fuzz_corpus.py``'s, applied to the bundled scenarios and a short recorded game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.store.errors import BattleFileError
from battlestudio.store.json_format import dumps
from tests import fuzz_corpus as fc


@pytest.fixture(scope="module")
def seed_files(tmp_path_factory):
    seeds = fc.seeds(tmp_path_factory.mktemp("roundtrip-seeds"))
    jena = store.load(fc.ROOT / "scenarios" / "jena-1806.battle.json")
    game = Battle(jena.scenario, list(jena.events[:120]), ruleset_record=jena.ruleset_record)
    d = seeds["battle"].parent
    store.save(game, d / "game.battle.json")
    store.save(game, d / "game.battle")
    return {"json": [seeds["json"], d / "game.battle.json"], "battle": [seeds["battle"], d / "game.battle"]}


def reopened_equal(battle: Battle, tmp, name: str) -> None:
    """Save ``battle`` as ``name`` in ``tmp``, reopen it, and check the document is unchanged."""
    text = dumps(battle)
    for target in (tmp / f"{name}.battle.json", tmp / f"{name}.battle"):
        store.save(battle, target)
        again = store.load(target)
        assert dumps(again) == text, f"{target.name} changed on the way through"
        store.save(again, target)  # and saved again from what was read
        assert dumps(store.load(target)) == text


@pytest.mark.parametrize("fmt", ["json", "battle"])
def test_every_mutated_file_that_opens_saves_and_reopens_identically(fmt, seed_files, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"roundtrip-{fmt}")
    opened = []

    @settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.integers(min_value=0, max_value=2**32), st.booleans())
    def run(seed, game):
        rng = random.Random(seed)
        path = fc.mutate(fmt, seed_files[fmt][game], out / "in", rng)
        try:
            battle = store.load(path)
        except BattleFileError:
            return  # refused: nothing to save
        opened.append(seed)
        reopened_equal(battle, out, "saved")

    run()
    assert opened, "no mutated file opened: the sample tests nothing"


@pytest.mark.parametrize("fmt", ["oob", "csv", "fogofwar", "xlsx", "orbat"])
def test_every_mutated_import_saves_and_reopens_identically(fmt, tmp_path_factory):
    from battlestudio.store.importers import OobImportError

    seeds = fc.seeds(tmp_path_factory.mktemp(f"imp-seeds-{fmt}"))
    out = tmp_path_factory.mktemp(f"imp-{fmt}")
    imported = []

    @settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.integers(min_value=0, max_value=2**32))
    def run(seed):
        path = fc.mutate(fmt, seeds[fmt], out / "in", random.Random(seed))
        try:
            res = fc.import_result(fmt, path)
        except OobImportError:
            return
        imported.append(seed)
        reopened_equal(Battle(res.scenario, list(getattr(res, "events", []))), out, "imported")

    run()
    assert imported, "no mutated file imported: the sample tests nothing"


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(
    x=st.floats(min_value=-0.0, max_value=400.0, allow_subnormal=True),
    y=st.floats(min_value=0.0, max_value=240.0, allow_subnormal=True),
    name=st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40),
)
def test_positions_and_names_survive_both_formats(tmp_path_factory, x, y, name):
    from dataclasses import replace

    from tests.store.conftest import jena_battle

    battle = jena_battle()
    uid = next(iter(battle.scenario.units))
    battle.scenario.units[uid] = replace(battle.scenario.units[uid], position=(x, y), name=name)
    reopened_equal(battle, tmp_path_factory.mktemp("pos"), "p")
