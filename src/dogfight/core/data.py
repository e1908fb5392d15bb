"""Reading data files (YAML) with errors that name the file and the field."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import msgspec.inspect
import yaml

from dogfight.core.errors import DataError
from dogfight.core.limits import check_regular_file, check_tree
from dogfight.core.names import resolve, suggest

T = TypeVar("T")
S = TypeVar("S")

SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""PyYAML's safe loader, its C build (libyaml) where installed: the same documents
and errors, parsed several times faster (a web server parses each uploaded scenario
while it answers other games)."""


def read_yaml(path: Path | str) -> Any:
    """Parse a YAML file; any failure becomes a `DataError` naming the file.

    Only a regular file is read (a folder, FIFO or device is refused without opening
    it), and what it holds is checked by `check_tree`: finite numbers within 64 bits,
    bounded nesting and size.
    """
    path = Path(path)
    check_regular_file(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: cannot read (not UTF-8 text)") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return parse_yaml(text, str(path))


def parse_yaml(text: str, where: str) -> Any:
    """Parse YAML text; syntax errors become a `DataError` with the line number, and a
    structure bomb (too deep, too many values once aliases are expanded) is refused.
    Numbers (no NaN, infinity or >64-bit integer) are checked by `convert`."""
    try:
        data = yaml.load(text, Loader=SAFE_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if "nesting depth" in problem:  # libyaml's own limit: as deep nesting reads below
            raise DataError(f"{where}: nested too deeply to read") from None
        raise DataError(f"{where}:{line}: bad YAML: {problem}") from None
    except RecursionError:
        raise DataError(f"{where}: nested too deeply to read") from None
    # Size and depth now, before anything walks the data; the numbers when the data is
    # converted (`convert`), where the error can name the unit as well as the field.
    check_tree(data, where, numbers=False)
    return data


_PATH = re.compile(r" - at `\$(.*)`$")
_FIELD = re.compile(r"^Object (missing required|contains unknown) field `([^`]*)`")


def convert(raw: Any, kind: type[T], where: str) -> T:
    """Validate `raw` (parsed YAML/JSON) as `kind`.

    A failure becomes a `DataError` such as
    ``units/wasp.yaml: field 'weapons[0].range': Expected `float`, got `str```
    or ``units/wasp.yaml: field 'weapons[0].ad': missing``.
    """
    check_tree(raw, where)
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
            if named.group(1).startswith("missing"):
                raise DataError(f"{where}: field '{field}': missing") from None
            hint = suggest(named.group(2), field_names(kind, path))
            raise DataError(f"{where}: field '{field}': unknown field{hint}") from None
        raise DataError(f"{where}: field '{path or '(top level)'}': {message}") from None


_SEGMENT = re.compile(r"\[[^\]]*\]|[^.\[\]]+")


def field_names(kind: Any, path: str) -> list[str]:
    """The field names the data file may use at `path` ('sides[0].units[1]') inside a
    `kind` (a msgspec Struct), for "did you mean"; [] where the path leads to no Struct."""
    info = _one_struct(msgspec.inspect.type_info(kind))
    for segment in _SEGMENT.findall(path):
        if segment.startswith("["):
            if isinstance(info, msgspec.inspect.DictType):
                info = info.value_type
            elif isinstance(info, msgspec.inspect.CollectionType):
                info = info.item_type
            elif isinstance(info, msgspec.inspect.TupleType) and info.item_types:
                info = info.item_types[0]
            else:
                return []
        elif isinstance(info, msgspec.inspect.StructType):
            matches = [f.type for f in info.fields if f.encode_name == segment]
            if not matches:
                return []
            info = matches[0]
        else:
            return []
        info = _one_struct(info)
    if isinstance(info, msgspec.inspect.StructType):
        return [f.encode_name for f in info.fields]
    return []


def _one_struct(info: msgspec.inspect.Type) -> msgspec.inspect.Type:
    """An optional value's type (`X | None` is `X` here)."""
    if isinstance(info, msgspec.inspect.UnionType):
        kinds = [t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)]
        if len(kinds) == 1:
            return kinds[0]
    return info


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
    """An entry by the name a person gives it (`core.names.resolve`: its id or printed
    `name` in any case, with or without diacritics, a short name...) from `extra` (a
    scenario's own) first, then `builtin`; an UnknownName listing the known ids (and
    the close ones) otherwise."""
    if extra and name in extra:
        return extra[name]
    if name in builtin:
        return builtin[name]
    entries = {**builtin, **(extra or {})}
    printed = {ident: getattr(entries[ident], "name", None) for ident in sorted(entries)}
    ident = resolve(name, {k: v if isinstance(v, str) else None for k, v in printed.items()}, what)
    if extra and ident in extra:
        return extra[ident]
    return builtin[ident]
