"""The toml block of docs/architecture.md works: the entry point it shows, given as an
installed plugin's would be, loads the example ruleset of the page's Python block.

The page's Python blocks and commands are run, and their output compared, by
tests/test_docs_examples.py like every page's."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def _blocks(language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(PAGE.read_text()) if lang == language]


def _python(code: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=env
    )


def test_the_page_has_the_blocks_this_test_knows() -> None:
    """A new kind of block would go unchecked: the page holds only these."""
    languages = {lang for lang, _ in FENCE.findall(PAGE.read_text())}
    assert languages == {"python", "toml", "console"}
    assert len(_blocks("python")) >= 4


def test_the_entry_point_loads_the_example_ruleset(tmp_path: Path) -> None:
    """The toml block, as an installed package's metadata: the registry finds the
    example ruleset through it."""
    [toml] = _blocks("toml")
    points = tomllib.loads(toml)["project"]["entry-points"]
    [(group, named)] = points.items()
    assert group == "dogfight.rulesets"
    [(name, value)] = named.items()
    module, _, attr = value.partition(":")
    [source] = [b for b in _blocks("python") if f"class {attr}(" in b]
    package = tmp_path / module.split(".")[0]
    package.mkdir()
    (package / "__init__.py").write_text("")
    (tmp_path / (module.replace(".", "/") + ".py")).write_text(source)
    code = textwrap.dedent(
        f"""
        import importlib.metadata as md
        points = [md.EntryPoint({name!r}, {value!r}, {group!r})]
        md.entry_points = lambda **kw: points if kw.get("group") == {group!r} else []
        from dogfight.core.registry import find_ruleset
        print(type(find_ruleset({name!r})).__name__)
        """
    )
    done = _python(code, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == attr
