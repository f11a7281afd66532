"""A bounded fuzz sample over every input format (``tests/fuzz_corpus.py`` mutates real files):
reading a mutated file raises nothing but the project's own errors, each naming the file.
``bench/fuzz_inputs.py`` runs the long version (issue 27)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import fuzz_corpus as fc


@pytest.fixture(scope="module")
def seed_files(tmp_path_factory):
    return fc.seeds(tmp_path_factory.mktemp("fuzz-seeds"))


@pytest.mark.parametrize("fmt", fc.FORMATS)
def test_mutated_inputs_give_only_clear_errors(fmt, seed_files, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"fuzz-{fmt}")

    @settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.integers(min_value=0, max_value=2**32))
    def run(seed):
        path = fc.mutate(fmt, seed_files[fmt], out, random.Random(seed))
        exc = fc.run_reader(fmt, path)
        assert fc.acceptable(exc, path), f"{fmt} seed {seed}: {type(exc).__name__}: {exc}"

    run()
