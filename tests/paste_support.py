"""Shared by the paste tests of both front ends: a long text to paste, a real PNG to drop, and
a tmux paste that goes through the terminal's bracketed paste as a person's paste does."""

from __future__ import annotations

import struct
import subprocess
import zlib
from pathlib import Path
from typing import Any

LONG_PASTE = "".join(f"line {n}: ünïcødé 👩‍👩‍👧 \t tab and trailing space \n" for n in range(1, 121))


def tmux_paste(socket: str, target: str, text: str, scratch: Path) -> None:
    """Paste `text` into the pane as a terminal does: bracketed (-p), line feeds kept (-r)."""
    source = scratch / "paste-buffer.txt"
    source.write_text(text, encoding="utf-8")
    for args in (["load-buffer", "-b", "p", str(source)],
                 ["paste-buffer", "-p", "-r", "-d", "-b", "p", "-t", target]):
        subprocess.run(["tmux", "-L", socket, *args], check=True, capture_output=True)


def write_png(path: Path) -> bytes:
    """A real 2x2 red PNG (what Read attaches as an image block)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    path.write_bytes(data)
    return data


def image_blocks(request: dict[str, Any]) -> list[dict[str, Any]]:
    """Every image block the request's user messages carried."""
    found: list[dict[str, Any]] = []
    for message in request["messages"]:
        if message["role"] == "user" and isinstance(message["content"], list):
            found += [b for b in message["content"] if b.get("type") == "image"]
    return found


def small_repo(project: Path) -> None:
    """A git work tree with nested files and an ignored folder (rg honours .gitignore in one)."""
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".gitignore").write_text("node_modules/\n")
    for name in ("src/app.py", "src/apple.txt", "src/widgets/prompt_input.py",
                 "docs/recent_notes.md", "node_modules/pkg/wpi_ignored.js"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(f"contents of {name}\n")
