"""Reading data files (YAML) with errors that name the file and the field."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import yaml

from dogfight.core.errors import DataError

T = TypeVar("T")


def read_yaml(path: Path | str) -> Any:
    """Parse a YAML file; any failure becomes a `DataError` naming the file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: cannot read ({exc.__class__.__name__}: {exc})") from None
    return parse_yaml(text, str(path))


def parse_yaml(text: str, where: str) -> Any:
    """Parse YAML text; syntax errors become a `DataError` with the line number."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataError(f"{where}:{line}: bad YAML: {problem}") from None


_PATH = re.compile(r" - at `\$(.*)`$")
_FIELD = re.compile(r"^Object (missing required|contains unknown) field `([^`]*)`")


def convert(raw: Any, kind: type[T], where: str) -> T:
    """Validate `raw` (parsed YAML/JSON) as `kind`.

    A failure becomes a `DataError` such as
    ``units/wasp.yaml: field 'weapons[0].range': Expected `float`, got `str```
    or ``units/wasp.yaml: field 'weapons[0].ad': missing``.
    """
    try:
        return msgspec.convert(raw, kind, strict=False)
    except msgspec.ValidationError as exc:
        message = str(exc)
        path = ""
        match = _PATH.search(message)
        if match:
            path = match.group(1).lstrip(".")
            message = message[: match.start()]
        named = _FIELD.match(message)
        if named:
            field = f"{path}.{named.group(2)}" if path else named.group(2)
            problem = "missing" if named.group(1).startswith("missing") else "unknown field"
            raise DataError(f"{where}: field '{field}': {problem}") from None
        raise DataError(f"{where}: field '{path or '(top level)'}': {message}") from None


def package_data(*parts: str) -> Path:
    """The path of a file or folder in the package's `data/` directory."""
    root = resources.files("dogfight") / "data"
    return Path(str(root.joinpath(*parts)))
