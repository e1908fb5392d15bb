"""Ruleset hooks are typed over the ruleset's own state and action types (issue 12 item
5): mypy --strict accepts a ruleset that keeps to them and catches one that does not,
where `Any` let the mismatch through before."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parents[2]

HEADER = """
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from dogfight.core.events import EventLog
from dogfight.core.options import OptionValue
from dogfight.core.ruleset import Outcome, Ruleset
from dogfight.core.scenario import Scenario


class Good(msgspec.Struct, kw_only=True):
    turn: int
    sides: tuple[str, str]
    active: str = ""
    outcome: Outcome | None = None

    def clone(self) -> "Good":
        return self


class Go(msgspec.Struct, frozen=True):
    to: int


class Base(Ruleset[Good, Go]):
    name = "typed"
    title = "typed"

    def setup(self, scenario: Scenario, options: Mapping[str, OptionValue], log: EventLog) -> Good:
        return Good(turn=1, sides=("a", "b"))

    def legal_actions(self, state: Good) -> list[Go]:
        return [Go(to=1)]

    def check(self, state: Good, action: Go) -> None:
        pass

    def apply(self, state: Good, action: Go, log: EventLog) -> None:
        pass

    def unit_names(self) -> list[str]:
        return []

    def describe_unit(self, name: str) -> dict[str, Any]:
        return {}

    def check_unit_file(self, path: Path) -> str:
        return ""
"""


def _mypy(tmp_path: Path, body: str) -> tuple[int, str]:
    path = tmp_path / "typed_ruleset.py"
    path.write_text(HEADER + textwrap.dedent(body))
    out, err, status = mypy_api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(path)]
    )
    return status, out + err


@pytest.mark.slow
def test_mypy_holds_a_ruleset_to_its_state_and_action_types(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MYPYPATH", str(ROOT / "src"))
    status, out = _mypy(tmp_path, "")
    assert status == 0, out
    # Hooks that take or give the wrong types are caught:
    status, out = _mypy(
        tmp_path,
        """
        class Wrong(Base):
            def legal_actions(self, state: Good) -> list[str]:
                return ["north"]

            def check(self, state: int, action: Go) -> None:
                pass

        def use(rules: Ruleset[Good, Go], state: Good) -> int:
            return rules.legal_actions(state)[0].to + rules.sample_state(state, "a", None).turn
        """,
    )
    assert status == 1
    assert 'Return type "list[str]" of "legal_actions" incompatible' in out
    assert 'Argument 1 of "check" is incompatible' in out
    assert 'Argument 3 to "sample_state" of "Ruleset" has incompatible type "None"' in out
    # A state lacking what the core reads (here `outcome` and `clone`) is refused:
    status, out = _mypy(
        tmp_path,
        """
        class Bare(msgspec.Struct):
            turn: int
            sides: tuple[str, str]
            active: str

        def rules_of(rules: Ruleset[Bare, Go]) -> None:
            pass
        """,
    )
    assert status == 1 and 'Type argument "Bare" of "Ruleset" must be a subtype of "State"' in out
