"""Fixtures registering the test plugins for one test only (the registry is global: a
plugin left registered would show up in other tests' lists of rulesets and scenarios)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dogfight.core import registry
from dogfight.core.ruleset import Ruleset

from .acta_variant import ActaVariant
from .toy import ToyRuleset


def _registered(monkeypatch: pytest.MonkeyPatch, ruleset: Ruleset) -> Ruleset:
    registry.all_rulesets()  # the built-in ones first, as in a real run
    monkeypatch.setattr(registry, "_RULESETS", dict(registry._RULESETS))
    return registry.register(ruleset)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Ruleset]:
    """The toy ruleset, registered for this test."""
    yield _registered(monkeypatch, ToyRuleset())


@pytest.fixture
def variant(monkeypatch: pytest.MonkeyPatch) -> Iterator[Ruleset]:
    """acta under the name 'acta-variant', registered for this test."""
    yield _registered(monkeypatch, ActaVariant())
