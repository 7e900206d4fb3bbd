"""Helpers for the hook tests: real executable hook scripts written into tmp dirs."""

from __future__ import annotations

import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from claude_harness.hooks import HookRunner

PYTHON = sys.executable


def write_script(directory: Path, name: str, body: str, *, python: bool = False) -> Path:
    """An executable hook script; `python=True` gives it this interpreter as shebang."""
    path = directory / name
    shebang = f"#!{PYTHON}\n" if python else "#!/bin/sh\n"
    path.write_text(shebang + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def group(
    command: str | list[str], matcher: str | None = None, timeout: float | None = None
) -> dict:
    commands = [command] if isinstance(command, str) else command
    hooks: list[dict[str, Any]] = []
    for c in commands:
        h: dict[str, Any] = {"type": "command", "command": c}
        if timeout is not None:
            h["timeout"] = timeout
        hooks.append(h)
    g: dict[str, Any] = {"hooks": hooks}
    if matcher is not None:
        g["matcher"] = matcher
    return g


MakeRunner = Callable[..., HookRunner]
