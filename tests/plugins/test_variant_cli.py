"""An unchanged subclass of a built-in ruleset, registered before the CLI is built (as
an entry point is), works in every command as its parent does (issue 12, acceptance):
the same battles, exact odds and duels, under its own name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

RUN = """
import sys
from dogfight.core.registry import all_rulesets, register
from tests.acta.test_rules_once import DogfightVariant
from tests.plugins.acta_variant import ActaVariant

all_rulesets()
register(ActaVariant())
register(DogfightVariant())
from dogfight.cli.main import app

app(sys.argv[1:], prog_name="dogfight")
"""


def dogfight(*args: str) -> str:
    """stdout of `dogfight ARGS` with the variant registered as a plugin would be."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "COLUMNS": "100", "PATH": ""},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("odds", "{r}", "dogfight", "wasp", "zaresh", "--attacker-support", "1", "--json"),
        ("odds", "{r}", "attack", "zaresh", "Phaser-3F", "wasp", "--range", "1.5", "--json"),
        ("battle", "{r}/furball", "--seed", "3", "--json"),
        ("duel", "{r}", "wasp", "zaresh", "--battles", "20", "--seed", "2", "--json"),
    ],
    ids=["odds-dogfight", "odds-attack", "battle", "duel"],
)
def test_the_variant_answers_as_its_parent(args: tuple[str, ...]) -> None:
    parent = json.loads(dogfight(*(a.format(r="acta") for a in args)))
    variant = json.loads(dogfight(*(a.format(r="acta-variant") for a in args)))
    assert variant.pop("ruleset", "acta-variant") == "acta-variant"
    parent.pop("ruleset", None)
    assert variant == parent


def test_dogfight_odds_follow_a_variant_rule() -> None:
    """ACTA-DOG-5 varied (the Dogfight score counts twice): `dogfight odds` of the
    variant reads the variant's rule function, as the engine does."""
    args = ("dogfight", "wasp", "zaresh", "--json")
    base = json.loads(dogfight("odds", "acta", *args))
    varied = json.loads(dogfight("odds", "acta-double-dogfight", *args))
    assert (base["attacker_bonus"], base["defender_bonus"]) == (2, 1)
    assert (varied["attacker_bonus"], varied["defender_bonus"]) == (4, 2)
    assert varied["attacker_wins"] > base["attacker_wins"]
