"""/keybindings in the REPL: the file opened in `$VISUAL`/`$EDITOR` (the terminal is the
editor's until it exits), then read again; and the toolbar's vim mode and stash hint."""

from __future__ import annotations

import asyncio
import os
import shlex
from collections.abc import Callable
from typing import Any

from claude_harness.frontends.plain.input_modes import stash_hint, vi_label


async def edit_keybindings(input_side: Any, path: str, line: Callable[[str, str], None]) -> None:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or ""
    command = shlex.split(editor) if editor.strip() else None
    if command is None or not hasattr(input_side, "reload_keybindings"):
        return  # no editor, or no prompt-toolkit prompt: the path was printed
    try:
        process = await asyncio.create_subprocess_exec(*command, path)
        await process.wait()
    except OSError as exc:
        line(f"Could not start the editor: {exc}", "ch.warning")
        return
    input_side.reload_keybindings()
    for problem in input_side.keybindings.problems:
        line(f"Keybindings: {problem.message}", "ch.warning")


def input_mode_parts(input_side: Any) -> list[tuple[str, str]]:
    """The toolbar's first words: `-- INSERT --` in vim mode, the stash when one is held."""
    session = getattr(input_side, "session", None)
    parts: list[tuple[str, str]] = []
    if session is not None and session.app.is_running:
        label = vi_label(session.app)
        if label:
            parts.append(("class:toolbar.info", f" {label}"))
    hint = stash_hint(input_side.stash) if hasattr(input_side, "stash") else ""
    if hint:
        parts.append(("class:toolbar.info", f" {hint} ·"))
    return parts
