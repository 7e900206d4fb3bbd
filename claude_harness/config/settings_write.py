"""Change a JSON settings file safely when several processes write it at once.

Two sessions in one folder may both answer "Yes, and don't ask again" (or toggle /sandbox) at the
same moment. A plain read-modify-write loses one of the changes, and a shared temp-file name lets
one process rename the other's half-written file into place. So every change:
  - holds an exclusive lock on a sibling lock file (`.settings.local.json.lock`) from the read to
    the rename, so changes apply one after another, each on top of the last;
  - writes the new content to a temp file with a unique name in the same directory, fsyncs it,
    keeps the old file's permissions, then renames it over the file (readers see the old or the
    new content, never a mix).
A file that is not a JSON object (or array, for a list file) is never overwritten: the change
raises ValueError and the file stays as the user left it. Every settings file the harness
changes goes through here: rules (local_rules.py), /sandbox (sandbox_choice.py), the trusted
folders (trust.py), /theme (tui/themes.py), MCP server approvals (mcp/approvals.py).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

LOCK_TIMEOUT_SECONDS = 30.0  # each holder keeps it for a read, a write and an fsync
_LOCK_POLL_SECONDS = 0.002
_LOCK_POLL_MAX_SECONDS = 0.05

class SettingsLockTimeout(OSError):
    """Another process held the settings lock for longer than LOCK_TIMEOUT_SECONDS."""


def update_json_file(path: Path, change: Callable[[Any], None], *,
                     kind: type[dict[str, Any]] | type[list[Any]] = dict) -> Any:
    """Apply `change` to the JSON object stored at `path` (an empty one when the file is missing).

    `change` edits the value in place and may raise ValueError to abandon the update. Returns
    what was written. `kind=list` for a file holding a JSON array (the trusted folders). Raises
    ValueError when the file holds invalid JSON or another kind of value, and OSError when the
    directory cannot be written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _locked(path.parent / f".{path.name}.lock"):
        data = _read_value(path, kind)
        change(data)
        _write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return data


def _read_value(path: Path, kind: type[dict[str, Any]] | type[list[Any]]) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return kind()
    try:
        data = json.loads(text) if text.strip() else kind()
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc}); not changing it") from exc
    if not isinstance(data, kind):
        what = "a JSON object" if kind is dict else "a JSON array"
        raise ValueError(f"{path} does not hold {what}; not changing it")
    return data


def _write_atomically(path: Path, text: str) -> None:
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _locked(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive flock on `lock_path`; released when the block ends or the process dies.

    Polls a non-blocking lock so a stuck holder turns into a clear error, not a hang.
    """
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT_SECONDS
        pause = _LOCK_POLL_SECONDS
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if time.monotonic() > deadline:
                    raise SettingsLockTimeout(
                        errno.ETIMEDOUT, f"{lock_path} stayed locked by another process"
                    ) from exc
                time.sleep(pause)
                pause = min(pause * 2, _LOCK_POLL_MAX_SECONDS)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
