"""Path helpers shared by rules, safety checks and the Bash checker.

Why: "is this path inside the project?" is the question most path-bypass advisories got wrong
(string prefix compare: `/work/proj-evil` "starts with" `/work/proj`; unresolved `..`; symlinks).
Everything here compares resolved paths component by component.
"""

from __future__ import annotations

import os
from pathlib import Path


def _absolute(path: str | Path, cwd: Path) -> Path:
    text = str(path)
    if text == "~" or text.startswith("~/"):
        text = str(Path.home()) + text[1:]
    p = Path(text)
    return p if p.is_absolute() else cwd / p


def expand(path: str | Path, cwd: Path) -> Path:
    """Absolute, `~`-expanded, `..`-normalised path WITHOUT following symlinks."""
    return Path(os.path.normpath(_absolute(path, cwd)))


def real(path: str | Path, cwd: Path) -> Path:
    """The path with every symlink resolved (a missing tail is kept as written).

    `..` is resolved AFTER the symlink before it, as the kernel does: `link/../x` is next to
    the link's target, not next to the link."""
    return Path(os.path.realpath(_absolute(path, cwd)))


def is_inside(path: Path, root: Path) -> bool:
    """Component-wise containment on resolved paths: /a/bc is not inside /a/b."""
    try:
        rp = Path(os.path.realpath(path))
        rr = Path(os.path.realpath(root))
    except (OSError, ValueError):
        return False
    return rp == rr or rr in rp.parents


def inside_any(path: Path, roots: tuple[Path, ...] | list[Path]) -> bool:
    return any(is_inside(path, r) for r in roots)


def both_forms(path: str | Path, cwd: Path) -> tuple[Path, Path]:
    """(the path as named, the path it really points to): symlink-aware rules test both."""
    return expand(path, cwd), real(path, cwd)
