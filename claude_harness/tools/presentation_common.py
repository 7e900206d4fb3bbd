"""Pieces the tools' presentation modules share: the file as it is on disk, for a preview."""

from __future__ import annotations

from pathlib import Path
from typing import Any

MAX_DIFF_FILE = 16_000_000  # a bigger file is not read for a preview at all


def file_text_now(inp: dict[str, Any]) -> str | None:
    """The text of the call's `file_path` as it is now; None when it is missing, too big to
    read for a preview (MAX_DIFF_FILE) or not text. Quick: callers read it before the tool can
    touch the file."""
    path = inp.get("file_path")
    if not isinstance(path, str):
        return None
    try:
        file = Path(path)
        if not file.is_file() or file.stat().st_size > MAX_DIFF_FILE:
            return None
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def path_label(verb: str, inp: dict[str, Any]) -> str:
    """`Read /a.py`: a verb and the file the call is about."""
    return f"{verb} {inp.get('file_path') or inp.get('notebook_path') or ''}".rstrip()
