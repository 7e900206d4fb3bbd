"""Put text on the system clipboard, for /copy: `wl-copy` under Wayland, `xclip`/`xsel` under
X11, `pbcopy` on macOS, as clipboard_image.py reads images. Without a display or a tool (SSH,
a container) the caller falls back to OSC 52, which the terminal (or tmux) turns into a copy."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys

TIMEOUT_SECONDS = 3.0


def _commands() -> list[list[str]]:
    commands = []
    if os.environ.get("WAYLAND_DISPLAY") and shutil.which("wl-copy"):
        commands.append(["wl-copy"])
    if os.environ.get("DISPLAY"):
        if shutil.which("xclip"):
            commands.append(["xclip", "-selection", "clipboard"])
        if shutil.which("xsel"):
            commands.append(["xsel", "--clipboard", "--input"])
    if sys.platform == "darwin" and shutil.which("pbcopy"):
        commands.append(["pbcopy"])
    return commands


def copy_with_program(text: str) -> str | None:
    """The name of the program that took `text`, or None when none is there or all failed."""
    for command in _commands():
        try:
            done = subprocess.run(command, input=text.encode(), timeout=TIMEOUT_SECONDS,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return command[0]
    return None


def osc52(text: str) -> str:
    """The OSC 52 sequence that sets the clipboard to `text` (terminals and tmux honour it)."""
    return f"\x1b]52;c;{base64.b64encode(text.encode()).decode()}\x07"
