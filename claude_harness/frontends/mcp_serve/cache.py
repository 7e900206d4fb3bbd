"""The tool list `mcp serve` gave last time in this folder with these flags, so the next start
can answer `tools/list` at once (standard library only: this runs before anything heavy).

Why: Claude Code in `-p` sends its first request about two seconds after starting its MCP
servers, with the tools of those that answered by then. Listing ours needs the settings and
the tool pool (0.3-0.6 s idle, more than a second on a loaded machine); a list read from a
file takes a millisecond. The list is then recomputed as usual; when it differs (the settings
changed since), the cache is rewritten and the client is told to list again
(`notifications/tools/list_changed`). Calls are always checked against the session's tools.

    <data dir>/mcp-serve/<sha256 of version, folder and flags>.json
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

from claude_harness import __version__


def cache_file(cwd: Path, flags: list[str]) -> Path:
    from claude_harness.config.paths import data_dir

    key = json.dumps([__version__, str(Path(cwd).resolve()), flags])
    return data_dir() / "mcp-serve" / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"


def cached_tools(path: Path) -> list[dict[str, Any]] | None:
    """The list stored at `path`, or None (none yet, or not a list of tools)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, list) and all(isinstance(t, dict) and "name" in t for t in data):
        return data
    return None


def store_tools(path: Path, tools: list[dict[str, Any]]) -> None:
    """Keep `tools` for the next start; a cache that cannot be written is only slower."""
    from claude_harness.fsutil import atomic_write_text

    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(tools), mode=0o600)
