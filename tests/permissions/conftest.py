"""The corpus world, built once per session and shared by the corpus and differential tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.permissions.chain import Verdict
from tests.permissions.corpus.catalog import EVERYDAY, SINGLE
from tests.permissions.harness import CorpusWorld

Decisions = dict[tuple[str, str], Verdict]


@pytest.fixture(scope="session")
def corpus_world() -> Iterator[CorpusWorld]:
    world = CorpusWorld()
    yield world
    world.close()


@pytest.fixture(scope="session")
def corpus_decisions(corpus_world: CorpusWorld) -> Decisions:
    """Every single-call adversarial entry in each of its configurations, and every everyday
    command in default mode with no rules, decided once by the product's chain."""
    pairs = [(a.steps[0], config) for a in SINGLE for config in a.configs]
    pairs += [(command, "default") for command in EVERYDAY]
    return corpus_world.decide_all(pairs)
