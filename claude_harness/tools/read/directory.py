"""A directory given to Read: say so, and show what is in it, so the model can pick a file
instead of guessing or falling back to `ls`."""

from __future__ import annotations

import os

MAX_ENTRIES = 200


def list_directory(path: str) -> str:
    try:
        with os.scandir(path) as it:
            entries = []
            for entry in it:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                entries.append(entry.name + ("/" if is_dir else ""))
    except PermissionError:
        return f"{path} is a directory, not a file, and its entries cannot be listed (permission denied)."
    entries.sort(key=str.lower)
    if not entries:
        return f"{path} is a directory, not a file. It is empty."
    shown = entries[:MAX_ENTRIES]
    lines = [
        f"{path} is a directory, not a file. Read works on files; it contains {len(entries)} "
        f"{'entry' if len(entries) == 1 else 'entries'} (folders end with /):"
    ]
    lines.extend(f"- {name}" for name in shown)
    if len(entries) > MAX_ENTRIES:
        lines.append(
            f"[... {len(entries) - MAX_ENTRIES} more entries; use Glob or Bash ls to see them]"
        )
    return "\n".join(lines)
