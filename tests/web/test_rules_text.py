"""Where the clause texts come from: each ruleset's rules docs, package data beside its
scenarios (`data/<ruleset>/rules.md`), so that a wheel serves them as a checkout does
(tests/test_wheel.py checks an installed one)."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from dogfight.core.data import package_data
from dogfight.core.registry import find_ruleset
from dogfight.web import rules_text

from .helpers import client_for

REPO = Path(__file__).resolve().parents[2]


def test_each_builtin_ruleset_reads_its_rules_from_its_data_folder() -> None:
    for name in ("acta", "evo", "sfa"):
        ruleset = find_ruleset(name)
        for file in ruleset.rules_text():
            path = ruleset.data_folder() / file
            assert path.is_file(), path
            assert path.parent == package_data(name)
    assert find_ruleset("sfa").rules_text() == ("rules.md", "technologies.md")


def test_the_rules_are_package_data_in_the_wheel_config() -> None:
    """pyproject.toml ships the docs as package data (one copy, under src/)."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"data/**/*.md"' in text
    assert not list((REPO / "docs").glob("rules/*.md")), "a second copy of the rules"


def test_a_clause_is_served_with_its_text(tmp_path: Path) -> None:
    client: TestClient = client_for(tmp_path / "games.sqlite")
    reply = client.get("/api/rules/acta/ACTA-DOG-5")
    assert reply.status_code == 200, reply.text
    assert reply.json()["clause"] == "ACTA-DOG-5" and reply.json()["text"]
    # a bad clause id is named as such, before the docs are looked for
    assert "clause id" in client.get("/api/rules/acta/nope").json()["error"]
    assert rules_text.find_clause("sfa", "SFA-TEC-02").title
