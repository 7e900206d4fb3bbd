"""How long something ran, as people read it ("3.2s", "4m05s"): in command results and the
front ends alike (a leaf: the tools use it without reaching the front-end helpers)."""

from __future__ import annotations


def format_elapsed(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s"
