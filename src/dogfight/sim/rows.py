"""One row per battle, streamed to files users can query: Parquet, CSV or JSON lines.

The format follows the file name: `.parquet`, `.csv` or `.jsonl`. Parquet and CSV
rows have the same flat columns, with side names made into plain column names
(anything but letters, digits and `_` turned into `_`: 'Earth Alliance' gives
`survivors_Earth_Alliance`):

    game, seed, swapped, winner, turns, reason, actions, events,
    survivors_<side>, damage_dealt_<side>, damage_taken_<side>   (for each side)

and a `units` column: per (side, unit type) `{side, type, fielded, lost, kills,
damage_taken}`, a list of structs in Parquet (query it in DuckDB with
`unnest(units)`), JSON text in CSV. A JSON-lines file holds each `BattleResult`
as it is. Rows are written in row groups of `ROW_GROUP` battles as they arrive, to
a temporary file renamed over the target when all are written: a long run holds
only one row group in memory, and an interrupted run leaves no half file.
"""

from __future__ import annotations

import csv
import io
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType, TracebackType
from typing import IO, TYPE_CHECKING, Any

import msgspec

from dogfight.core.errors import DogfightError
from dogfight.core.files import check_writable
from dogfight.sim.runner import BattleResult

if TYPE_CHECKING:
    import pyarrow as pa  # type: ignore[import-untyped]
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

ROW_GROUP = 1000
"""Battles per Parquet row group (and per CSV/JSON write)."""

FORMATS = {".parquet": "parquet", ".csv": "csv", ".jsonl": "jsonl"}
"""File name endings and the row format each one means."""

BASE_COLUMNS = ("game", "seed", "swapped", "winner", "turns", "reason", "actions", "events")
SIDE_FIELDS = ("survivors", "damage_dealt", "damage_taken")


def _arrow() -> tuple[ModuleType, ModuleType]:
    """pyarrow and its Parquet module, imported when a Parquet file is first written or
    read: the import costs a large part of a second, which every other command (and
    every worker process) would pay at start."""
    import pyarrow
    import pyarrow.parquet

    return pyarrow, pyarrow.parquet


def unit_type() -> pa.DataType:
    """The Parquet type of one entry of the `units` column."""
    arrow, _ = _arrow()
    return arrow.struct(
        [
            ("side", arrow.string()),
            ("type", arrow.string()),
            ("fielded", arrow.int32()),
            ("lost", arrow.int32()),
            ("kills", arrow.int32()),
            ("damage_taken", arrow.float64()),
        ]
    )


def row_format(path: Path) -> str:
    """The format a rows file name asks for; raises `DogfightError` for another ending."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        endings = ", ".join(FORMATS)
        raise DogfightError(
            f"--out {path}: the file name must end in {endings} "
            f"(not {path.suffix or 'no ending'!r})"
        )
    return fmt


def check_out_path(path: Path) -> str:
    """Refuse a rows file that cannot be written before any battle is played: an
    unknown ending, a missing folder, a folder in its place. Returns its format."""
    fmt = row_format(path)
    check_writable(path, "--out")
    return fmt


def side_columns(sides: Sequence[str]) -> dict[str, str]:
    """Side name -> the plain name used in column names: runs of anything but letters,
    digits and `_` become one `_` ('Earth Alliance' -> 'Earth_Alliance'; DuckDB
    ignores case). Falls back to side1, side2 if two names would collide."""
    plain = {side: re.sub(r"[^0-9A-Za-z_]+", "_", side).strip("_") for side in sides}
    if len({p.lower() for p in plain.values()}) != len(plain) or not all(plain.values()):
        return {side: f"side{i + 1}" for i, side in enumerate(sides)}
    return plain


def columns(sides: Sequence[str]) -> list[str]:
    """The flat column names of a rows file for these sides, `units` last."""
    names = side_columns(sides)
    per_side = [f"{field}_{names[side]}" for side in sides for field in SIDE_FIELDS]
    return [*BASE_COLUMNS, *per_side, "units"]


def schema(sides: Sequence[str]) -> pa.Schema:
    """The Parquet schema of a rows file for these sides."""
    pa, _ = _arrow()
    names = side_columns(sides)
    fields = [
        ("game", pa.int64()),
        ("seed", pa.int64()),
        ("swapped", pa.bool_()),
        ("winner", pa.string()),
        ("turns", pa.int32()),
        ("reason", pa.string()),
        ("actions", pa.int64()),
        ("events", pa.int64()),
    ]
    for side in sides:
        fields.append((f"survivors_{names[side]}", pa.int32()))
        fields.append((f"damage_dealt_{names[side]}", pa.float64()))
        fields.append((f"damage_taken_{names[side]}", pa.float64()))
    fields.append(("units", pa.list_(unit_type())))
    return pa.schema(fields)


def flat_row(result: BattleResult, sides: Sequence[str]) -> dict[str, Any]:
    """One battle as a flat row (`units` as a list of plain dicts)."""
    names = side_columns(sides)
    row: dict[str, Any] = {
        "game": result.game,
        "seed": result.seed,
        "swapped": result.swapped,
        "winner": result.winner,
        "turns": result.turns,
        "reason": result.reason,
        "actions": result.actions,
        "events": result.events,
    }
    for side in sides:
        row[f"survivors_{names[side]}"] = result.survivors.get(side, 0)
        row[f"damage_dealt_{names[side]}"] = result.damage_dealt.get(side, 0.0)
        row[f"damage_taken_{names[side]}"] = result.damage_taken.get(side, 0.0)
    row["units"] = msgspec.to_builtins(result.units)
    return row


def partial_path(path: Path) -> Path:
    """Where the rows of an interrupted run are kept: `x.partial.parquet` for `x.parquet`."""
    return path.with_name(f"{path.stem}.partial{path.suffix}")


class RowWriter:
    """Streams battle rows to one file (format by its ending); use as a context manager.

    Rows go to a file with no name yet (Linux O_TMPFILE, in the target's folder), given
    the target's name by `close()`, or the partial name by `close_partial()`. Leaving
    the `with` block by an exception drops it. Because the file has no name while it
    is written, a run killed outright (SIGKILL, the OOM killer) leaves nothing behind.
    Where O_TMPFILE is not supported, a hidden temporary file beside the target is used.
    """

    def __init__(self, path: Path, sides: Sequence[str], *, group: int = ROW_GROUP) -> None:
        self.path = path
        self.sides = list(sides)
        self.format = check_out_path(path)
        self.group = max(1, group)
        self.rows = 0
        self._pending: list[BattleResult] = []
        self._closed = False
        self._folder = path.parent if str(path.parent) else Path(".")
        self._fd, self._tmp = _unnamed_file(self._folder, path)
        self._parquet: pq.ParquetWriter | None = None
        self._text: IO[str] | None = None
        if self.format == "parquet":
            self._schema = schema(self.sides)
            self._sink: IO[bytes] | None = os.fdopen(os.dup(self._fd), "wb")
            self._parquet = _arrow()[1].ParquetWriter(self._sink, self._schema)
        else:
            self._sink = None
            self._text = open(os.dup(self._fd), "w", encoding="utf-8", newline="")  # noqa: SIM115
            if self.format == "csv":
                csv.writer(self._text).writerow(columns(self.sides))

    def write(self, result: BattleResult) -> None:
        """Add one battle's row (written out with its row group)."""
        self._pending.append(result)
        self.rows += 1
        if len(self._pending) >= self.group:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        if self._parquet is not None:
            rows = [flat_row(r, self.sides) for r in batch]
            table = _arrow()[0].Table.from_pylist(rows, schema=self._schema)
            self._parquet.write_table(table)
            return
        assert self._text is not None
        if self.format == "jsonl":
            self._text.write("".join(msgspec.json.encode(r).decode() + "\n" for r in batch))
            return
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        for result in batch:
            row = flat_row(result, self.sides)
            row["units"] = msgspec.json.encode(row["units"]).decode()
            row["winner"] = row["winner"] or ""
            writer.writerow(row.values())
        self._text.write(buffer.getvalue())

    def close(self) -> None:
        """Write what is left and put the file in place."""
        self._finish(self.path)

    def close_partial(self) -> Path:
        """Write what is left under the partial name (an interrupted run); returns it."""
        target = partial_path(self.path)
        self._finish(target)
        return target

    def _finish(self, target: Path) -> None:
        if self._closed:
            return
        self._flush()
        self._close_handles()
        self._closed = True
        try:
            os.fsync(self._fd)
            if self._tmp is None:
                # Give the unnamed file a hidden name for an instant, then rename it
                # over the target (a link cannot replace an existing file).
                fd_tmp, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=self._folder)
                os.close(fd_tmp)
                os.unlink(name)
                _link_unnamed(self._fd, name)
                os.replace(name, target)
            else:
                # Readable by others like any file the user writes (mkstemp makes it private).
                os.chmod(self._tmp, 0o644)
                os.replace(self._tmp, target)
        finally:
            os.close(self._fd)

    def discard(self) -> None:
        """Drop the file (a run that failed)."""
        if self._closed:
            return
        self._pending = []
        self._close_handles()
        self._closed = True
        os.close(self._fd)
        if self._tmp is not None:
            self._tmp.unlink(missing_ok=True)

    def _close_handles(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None
        if self._sink is not None:
            self._sink.close()
            self._sink = None
        if self._text is not None:
            self._text.close()
            self._text = None

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if kind is None:
            self.close()
        else:
            self.discard()


def _link_unnamed(fd: int, name: str) -> None:
    """Give the O_TMPFILE file open as `fd` the name `name`.

    linkat() must follow /proc/self/fd's link to the file itself; Python asks for that
    (AT_SYMLINK_FOLLOW) only when a directory descriptor is given, hence the one for /.
    """
    root = os.open("/", os.O_RDONLY)
    try:
        os.link(f"/proc/self/fd/{fd}", name, src_dir_fd=root, follow_symlinks=True)
    finally:
        os.close(root)


def _unnamed_file(folder: Path, path: Path) -> tuple[int, Path | None]:
    """An open file in `folder` with no name (O_TMPFILE), or else a hidden named one.

    Returns the descriptor and, for the fallback, the temporary file's path.
    """
    flag = getattr(os, "O_TMPFILE", 0)
    if flag:
        try:
            return os.open(folder, flag | os.O_RDWR, 0o644), None
        except OSError:
            pass  # a file system without O_TMPFILE: fall back to a named file
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise DogfightError(f"--out {path}: cannot write ({exc.strerror})") from None
    return fd, Path(tmp)


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a Parquet rows file as plain dicts (for tests and small files)."""
    table: pa.Table = _arrow()[1].read_table(str(path))
    return list(table.to_pylist())
