"""/keybindings in the app: a settings file opened in `$VISUAL`/`$EDITOR`, the app suspended
meanwhile (where it cannot be, as under a test pilot, the editor still runs)."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path
from typing import Any

from textual.app import SuspendNotSupported

from claude_harness.frontends.tui.external_editor import editor_command


async def edit_file(app: Any, path: Path) -> bool:
    """True when an editor ran on `path` and exited cleanly."""
    command = editor_command()
    if command is None:
        return False
    try:
        with app.suspend():
            code = subprocess.call([*command, str(path)])  # noqa: S603 - the user's editor
    except SuspendNotSupported:
        code = await asyncio.to_thread(subprocess.call, [*command, str(path)],
                                       stdin=subprocess.DEVNULL)
    except OSError as exc:
        app.notify(f"Could not start the editor: {exc}", severity="error")
        return False
    return code == 0
