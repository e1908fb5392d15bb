"""Bounds on everything that comes from outside: numbers, nesting, sizes, seeds.

Every file, option and argument passes through these checks before it is used, so a
NaN, an infinity, a number beyond 64 bits, a structure bomb or an endless error line
is refused with one line naming where it was found.
"""

from __future__ import annotations

import math
import stat
from pathlib import Path
from typing import Annotated, Any

import msgspec

from dogfight.core.errors import DataError

INT_MAX = 2**63 - 1
"""The largest integer any input may hold: it must fit a signed 64-bit field."""
SEED_MAX = INT_MAX
"""Seeds are 0 to 2**63 - 1: they fit a signed 64-bit column, and a negative seed would
give the same dice as its absolute value (Python's generator seeds with abs())."""
MAX_DEPTH = 64
"""Deepest nesting of lists and mappings a data or game file may have."""
MAX_NODES = 1_000_000
"""Most values a parsed file may expand to (YAML aliases counted as often as used)."""
MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest data or game file read (the built-in files are a few kilobytes)."""
MAX_MESSAGE = 1_000
"""Longest error line printed; the rest is cut with a note of how much."""


def check_regular_file(path: Path, max_bytes: int = MAX_FILE_BYTES) -> None:
    """Refuse a path that is missing, not a regular file (a folder, a FIFO, a device:
    reading those could block forever) or too large, without opening it."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise DataError(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise DataError(f"{path}: is not a regular file (a pipe or a device?)")
    if info.st_size > max_bytes:
        raise DataError(f"{path}: is {info.st_size:,} bytes; the limit is {max_bytes:,}")


def _field(path: tuple[str | int, ...]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def check_tree(raw: Any, where: str, *, numbers: bool = True) -> None:
    """Refuse parsed data holding a non-finite number, an integer beyond 64 bits, nesting
    deeper than MAX_DEPTH or more than MAX_NODES values (an alias bomb).

    Walks without recursion, counting shared (aliased) values each time they are
    reached, and stops at the first problem: the error names the field.
    """
    problem = find_problem(raw, numbers=numbers)
    if problem is not None:
        field, what = problem
        place = f"field '{field}': " if field else ""
        raise DataError(f"{where}: {place}{what}")


def find_problem(raw: Any, *, numbers: bool = True) -> tuple[str, str] | None:
    """The first (field, problem) of `check_tree` in plain data, or None (`numbers`
    False: only the size and depth are checked)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(raw, ())]
    seen = 0
    while stack:
        value, path = stack.pop()
        seen += 1
        if seen > MAX_NODES:
            return "", f"holds more than {MAX_NODES:,} values (repeated YAML aliases?)"
        if len(path) > MAX_DEPTH:
            return _field(path), f"nested more than {MAX_DEPTH} deep"
        if isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        if not numbers and isinstance(value, int | float):
            continue
        if isinstance(value, float):
            if not math.isfinite(value):
                return _field(path), f"must be a finite number, not {value}"
        elif isinstance(value, int):
            if abs(value) > INT_MAX:
                return _field(path), f"{_short_int(value)} is beyond 64 bits"
        elif isinstance(value, dict):
            for key, item in value.items():
                stack.append((item, (*path, str(key))))
        elif isinstance(value, list | tuple):
            for index, item in enumerate(value):
                stack.append((item, (*path, index)))
    return None


def _short_int(value: int) -> str:
    digits = len(str(abs(value))) if abs(value) < 10**4300 else 4300
    return f"a {digits}-digit number"


def check_int(value: int, name: str, low: int, high: int) -> int:
    """`value` if `low <= value <= high`, else a DataError naming `name` and the range."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DataError(f"{name}: must be a whole number from {low} to {high}, not {value!r}")
    return value


def check_seed(seed: object, name: str = "seed") -> int:
    """A seed: a whole number from 0 to SEED_MAX."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DataError(f"{name}: must be a whole number, not {seed!r}")
    return check_int(seed, name, 0, SEED_MAX)


def cap_message(message: str, limit: int = MAX_MESSAGE) -> str:
    """One line of at most `limit` characters: line breaks become spaces, and a longer
    message is cut with a note of how much was left out."""
    line = " ".join(message.split("\n"))
    if len(line) <= limit:
        return line
    return f"{line[:limit]}... ({len(line) - limit:,} more characters)"


# ---- bounded field types for the rulesets' data schemas -----------------------------------
# msgspec checks these while it converts a file, so an error names the file, the unit and
# the field ("field 'weapons[0].range': Expected `float` <= 1000"). The bounds are far
# beyond any real design: they only keep out what cannot mean anything.

MAX_INCHES = 1_000.0
"""The longest distance on a free table (a table is at most this wide)."""
MAX_COUNT = 1_000
"""The most of anything one unit has or one side fields (models, dice, fighters)."""

Inches = Annotated[float, msgspec.Meta(ge=0, le=MAX_INCHES)]
"""A distance, speed or range in inches: 0 to MAX_INCHES."""
TableSide = Annotated[float, msgspec.Meta(gt=0, le=MAX_INCHES)]
"""A table's width or height: more than 0, at most MAX_INCHES."""
Position = Annotated[float, msgspec.Meta(ge=-MAX_INCHES, le=2 * MAX_INCHES)]
"""A coordinate on a free table (the table check then says whether it is on it)."""
Degrees = Annotated[float, msgspec.Meta(ge=-3600, le=3600)]
"""A heading in degrees (ten turns either way at most)."""
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_COUNT)]
"""A count of models, dice, craft or points: 0 to MAX_COUNT."""
Score = Annotated[int, msgspec.Meta(ge=-100, le=100)]
"""A small game number (a die target, a bonus, a trait dot): -100 to 100."""
TurnLimit = Annotated[int, msgspec.Meta(ge=1, le=MAX_COUNT)]
"""A scenario's turn limit: 1 to MAX_COUNT turns."""
Points = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]
"""A points value."""
Rating = Annotated[int, msgspec.Meta(ge=0, le=10)]
"""A rating in dots (an attribute, a skill, Willpower): 0 to 10."""
