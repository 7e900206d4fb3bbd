"""Telemetry-safe classification of tool failures.

Never the raw message (it may hold paths, secrets or user data): a stable class name, an errno
code, or the ToolError code. Written to a local debug log only when --debug is on.
"""

from __future__ import annotations

import errno
import json
import time
from pathlib import Path

from claude_harness.protocol.debug_log import debug, debug_log_path
from claude_harness.protocol.tool import ToolError


def classify_tool_error(exc: BaseException) -> str:
    if isinstance(exc, ToolError):
        return f"ToolError:{exc.code}"
    if isinstance(exc, OSError) and exc.errno is not None:
        return f"{type(exc).__name__}:{errno.errorcode.get(exc.errno, exc.errno)}"
    return type(exc).__name__


def log_tool_error(debug_log: Path | None, tool_name: str, classification: str) -> None:
    """One line per failure; in the --debug log (its `tools` category) once it is set up."""
    if debug_log is None:
        return
    entry = json.dumps({"t": time.time(), "tool": tool_name, "error": classification})
    if debug_log_path() is not None:
        debug("tools", entry)
        return
    debug_log.parent.mkdir(parents=True, exist_ok=True)
    with debug_log.open("a", encoding="utf-8") as fh:
        fh.write(entry + "\n")
