"""Reading data files (YAML) with errors that name the file and the field."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import yaml

from dogfight.core.errors import DataError, UnknownName

T = TypeVar("T")
S = TypeVar("S")


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


def load_typed_file(path: Path, spec_type: type[S], build: Callable[[S, str], T], noun: str) -> T:
    """Read one data file whose `id` must match its file name: parse, validate against
    `spec_type` (errors name the file, the `noun` and its id, and the field), build."""
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise DataError(f"{path}: a {noun} file must be a mapping of field: value")
    where = f"{path}: {noun} '{raw['id']}'" if isinstance(raw.get("id"), str) else str(path)
    spec = convert(raw, spec_type, where)
    ident = getattr(spec, "id", None)
    if ident != path.stem:
        raise DataError(f"{path}: field 'id': '{ident}' must match the file name '{path.stem}'")
    return build(spec, str(path))


def lookup(name: str, builtin: Mapping[str, T], extra: Mapping[str, T] | None, what: str) -> T:
    """An entry by id from `extra` (a scenario's own) first, then `builtin`; an
    UnknownName listing the known ids otherwise."""
    if extra and name in extra:
        return extra[name]
    if name in builtin:
        return builtin[name]
    raise UnknownName(f"no {what} '{name}'; known: {', '.join(sorted(builtin))}")
