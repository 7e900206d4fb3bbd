"""Two keys that reach outside the app: Ctrl+G edits the prompt in `$VISUAL`/`$EDITOR`, Ctrl+V
pastes an image from the system clipboard.

Ctrl+G writes the prompt to a temporary Markdown file, gives the terminal to the editor (the app
is suspended; where it cannot be, as under a test pilot, the editor still runs) and reads the
file back. Ctrl+V asks the clipboard tools (clipboard_image.py) for an image, saves it with the
session's data and puts an `@path` mention of it in the prompt, so it is attached as an image
like any mentioned picture.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from textual.app import SuspendNotSupported

from claude_harness.frontends.shared.clipboard_image import mention_for, paste_image


def editor_command() -> list[str] | None:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    return shlex.split(editor) if editor and editor.strip() else None


async def edit_in_editor(app: Any, text: str) -> str | None:
    """The prompt after the person edited it, or None (no editor, or it failed)."""
    command = editor_command()
    if command is None:
        app.notify("Set $EDITOR (or $VISUAL) to edit the prompt in your editor.",
                   severity="warning")
        return None
    fd, name = tempfile.mkstemp(prefix="claude-harness-prompt-", suffix=".md")
    path = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        try:
            with app.suspend():
                code = subprocess.call([*command, str(path)])  # noqa: S603 - the user's editor
        except SuspendNotSupported:  # no terminal to hand over (a test pilot, the web)
            code = await asyncio.to_thread(subprocess.call, [*command, str(path)],
                                           stdin=subprocess.DEVNULL)
        except OSError as exc:
            app.notify(f"Could not start the editor: {exc}", severity="error")
            return None
        if code != 0:
            app.notify(f"The editor exited with {code}; the prompt is unchanged.",
                       severity="warning")
            return None
        edited = path.read_text(encoding="utf-8")
        return edited[:-1] if edited.endswith("\n") and not text.endswith("\n") else edited
    finally:
        path.unlink(missing_ok=True)


async def paste_clipboard_image(app: Any) -> bool:
    """Attach the clipboard's image (True), or do nothing when it holds none (False)."""
    path = await asyncio.to_thread(paste_image)
    if path is None:
        return False
    app.prompt.insert(mention_for(path, app.prompt.text))
    app.notify(f"Image pasted ({max(1, path.stat().st_size // 1024)} KB): it goes with the "
               "prompt.")
    return True
