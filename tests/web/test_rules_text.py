"""Where the clause texts come from: the rules docs of a source checkout, and the
one-line answer of a server installed without one."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dogfight.web import rules_text

from .helpers import client_for

REPO = Path(__file__).resolve().parents[2]


def installed(tmp_path: Path) -> Path:
    """Where the module sits in a non-editable install: site-packages, no docs above."""
    module = tmp_path / "venv" / "lib" / "site-packages" / "dogfight" / "web" / "rules_text.py"
    module.parent.mkdir(parents=True)
    return module


def test_the_docs_are_found_above_the_package_or_in_the_current_folder(tmp_path: Path) -> None:
    assert rules_text.rules_dir() == REPO / "docs" / "rules"
    module = installed(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert rules_text.rules_dir(module, elsewhere) is None
    # an installed server started in a checkout reads that checkout's docs
    assert rules_text.rules_dir(module, REPO) == REPO / "docs" / "rules"


def test_an_installed_server_says_how_to_get_the_rules_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = installed(tmp_path)
    real = rules_text.rules_dir
    monkeypatch.setattr(rules_text, "rules_dir", lambda: real(module, tmp_path))
    client: TestClient = client_for(tmp_path / "games.sqlite")
    reply = client.get("/api/rules/acta/ACTA-GEN-2")
    assert reply.status_code == 404
    message = reply.json()["error"]
    assert message == rules_text.NOT_INSTALLED
    assert "docs/rules/" in message and "dogfight serve" in message
    assert "pip install -e ." in message
    # a bad clause id is still named as such, before the docs are looked for
    assert "clause id" in client.get("/api/rules/acta/nope").json()["error"]
