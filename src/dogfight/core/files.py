"""Writing files so that nothing already saved is ever left half-written."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from dogfight.core.errors import DogfightError


def check_writable(path: Path | str, option: str) -> Path:
    """Refuse, before any work is done, a file that could not be written later: an empty
    name, a missing folder, a folder in its place, a folder we may not write in. The
    error names the option (`--save`, `--out`...) and the path."""
    text = str(path)
    if not text.strip():
        raise DogfightError(f"{option}: needs a file name")
    path = Path(text)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise DogfightError(f"{option} {path}: no such folder {folder}")
    if path.is_dir():
        raise DogfightError(f"{option} {path}: is a folder")
    if not os.access(folder, os.W_OK):
        raise DogfightError(f"{option} {path}: cannot write in {folder}")
    return path


def write_atomic(path: Path | str, data: bytes | str) -> Path:
    """Write `data` to `path` through a temporary file renamed over it: a reader, or a
    crash, never sees half a file, and an old file is replaced only once all is written.

    Text is written as UTF-8 with Unix line ends. The file keeps an existing file's
    permissions, or gets the usual 0644 (a temporary file would otherwise be private).
    """
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory = path.parent if str(path.parent) else Path(".")
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise DogfightError(f"{path}: cannot write ({exc.strerror})") from None
    try:
        os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
