"""Change a JSON settings file safely when several processes write it at once.

Two sessions in one folder may both answer "Yes, and don't ask again" (or toggle /sandbox) at the
same moment. A plain read-modify-write loses one of the changes, and a shared temp-file name lets
one process rename the other's half-written file into place. So every change:
  - holds an exclusive lock on a sibling lock file (`.settings.local.json.lock`) from the read to
    the rename, so changes apply one after another, each on top of the last;
  - writes it through the one atomic writer (fsutil): a temp file with a unique name in the same
    directory, fsynced, the old file's permissions and owner kept, renamed over the file, the
    folder fsynced (readers see the old or the new content, never a mix).
A file that is not a JSON object (or array, for a list file) is never overwritten: the change
raises ValueError and the file stays as the user left it. Every settings file the harness
changes goes through here: rules (local_rules.py), /sandbox (sandbox_choice.py), the trusted
folders (trust.py), /theme (frontends/tui/themes.py), MCP server approvals (mcp/approvals.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from claude_harness.fsutil import LockTimeout, atomic_write_text, exclusive_lock

LOCK_TIMEOUT_SECONDS = 30.0  # each holder keeps it for a read, a write and an fsync

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
    try:
        with exclusive_lock(path.parent / f".{path.name}.lock", LOCK_TIMEOUT_SECONDS):
            data = _read_value(path, kind)
            change(data)
            atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    except LockTimeout as exc:
        raise SettingsLockTimeout(*exc.args) from exc
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
