"""Process inspection for the Bash tests: find a command's children by their argv in /proc."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path


def procs_matching(marker: str) -> list[int]:
    """Live (non-zombie) processes whose own argv (not a parent shell's script) contains `marker`.

    Only processes whose argv[0] is not bash count, so the shell whose `-c` text names the
    marker is not mistaken for the child it started.
    """
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        cmdline = b" ".join(argv).decode(errors="replace")
        if state == "Z" or argv[0].endswith(b"bash") or int(entry) == os.getpid():
            continue
        if marker in cmdline:
            found.append(int(entry))
    return found


async def wait_gone(marker: str, seconds: float = 3.0) -> list[int]:
    for _ in range(int(seconds / 0.05)):
        left = procs_matching(marker)
        if not left:
            return []
        await asyncio.sleep(0.05)
    return procs_matching(marker)
