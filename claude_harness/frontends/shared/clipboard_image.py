"""Read an image from the system clipboard, for Ctrl+V in the app and the REPL.

A terminal pastes text only (bracketed paste): an image never arrives through it. So, as Claude
Code does, we ask the desktop's clipboard tool for one: `wl-paste` under Wayland, `xclip` under
X11, `pngpaste` on macOS. Without a display or a tool (an SSH session, a container) there is no
clipboard to read, and the caller falls back to the ordinary text paste.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from claude_harness.config.paths import data_dir
from claude_harness.fsutil import atomic_write_bytes

TIMEOUT_SECONDS = 3.0
SIGNATURES = ((b"\x89PNG\r\n\x1a\n", ".png"), (b"\xff\xd8\xff", ".jpg"), (b"GIF8", ".gif"),
              (b"RIFF", ".webp"))
MAX_BYTES = 20 * 1024 * 1024


def _commands() -> list[list[str]]:
    commands = []
    if os.environ.get("WAYLAND_DISPLAY") and shutil.which("wl-paste"):
        commands.append(["wl-paste", "--no-newline", "--type", "image/png"])
    if os.environ.get("DISPLAY") and shutil.which("xclip"):
        commands.append(["xclip", "-selection", "clipboard", "-target", "image/png", "-out"])
    if sys.platform == "darwin" and shutil.which("pngpaste"):
        commands.append(["pngpaste", "-"])
    return commands


def image_suffix(data: bytes) -> str | None:
    """The file suffix for image bytes, or None when they are not an image we attach."""
    for signature, suffix in SIGNATURES:
        if data.startswith(signature) and (suffix != ".webp" or data[8:12] == b"WEBP"):
            return suffix
    return None


def read_clipboard_image() -> tuple[bytes, str] | None:
    """(image bytes, suffix), or None: no clipboard tool, no display, or no image in it.
    Blocking (it runs a program): call it from a worker thread."""
    for command in _commands():
        try:
            done = subprocess.run(command, capture_output=True, timeout=TIMEOUT_SECONDS,
                                  check=False, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            continue
        data = done.stdout[:MAX_BYTES + 1]
        suffix = image_suffix(data) if done.returncode == 0 else None
        if suffix is not None and len(data) <= MAX_BYTES:
            return data, suffix
    return None


def paste_image() -> Path | None:
    """The clipboard's image saved with the harness's data (to attach by an `@path` mention),
    or None when the clipboard holds no image. Blocking: call it from a worker thread."""
    image = read_clipboard_image()
    if image is None:
        return None
    data, suffix = image
    folder = data_dir() / "pasted-images"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"pasted-{time.strftime('%Y%m%d-%H%M%S')}-{time.monotonic_ns()}{suffix}"
    atomic_write_bytes(target, data)
    return target


def mention_for(path: Path, before: str) -> str:
    """The text to insert after `before` so the image rides along as a mention."""
    space = "" if not before or before.endswith((" ", "\n")) else " "
    name = f'"{path}"' if any(c.isspace() for c in str(path)) else str(path)  # @"a b.png"
    return f"{space}@{name} "
