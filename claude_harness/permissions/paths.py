"""Path helpers shared by rules, safety checks and the Bash checker.

Why: "is this path inside the project?" is the question most path-bypass advisories got wrong
(string prefix compare: `/work/proj-evil` "starts with" `/work/proj`; unresolved `..`; symlinks).
Everything here compares resolved paths component by component.
"""

from __future__ import annotations

import functools
import os
import unicodedata
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


# ---------------------------------------------------------------- how names are compared
#
# A deny rule must match however the path was spelled. Two spellings reach the same file when
# they differ only in Unicode normalisation (macOS stores names decomposed, a model types them
# composed) or, on a case-insensitive file system (APFS and NTFS by default, ext4 folders with
# the casefold attribute), only in case. Rules and paths are therefore compared in NFC, and
# case-folded where the folder's file system folds case: detected per folder, by looking a name
# up with its case flipped (a case-sensitive folder does not find it, or finds another file).


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _flip_probe(parent: str, name: str) -> bool | None:
    """True: `name` and its case-flipped spelling are one file; False: they are not; None:
    this name cannot tell (no letters, or it is gone)."""
    flipped = name.swapcase()
    if flipped == name:
        return None
    try:
        own = os.lstat(os.path.join(parent, name))
    except OSError:
        return None
    try:
        other = os.lstat(os.path.join(parent, flipped))
    except OSError:
        return False
    return os.path.samestat(own, other)


@functools.lru_cache(maxsize=4096)
def folder_folds_case(directory: str) -> bool:
    """Whether names inside `directory` are looked up case-insensitively (cached per folder:
    a folder's file system does not change under it)."""
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                answer = _flip_probe(directory, entry.name)
                if answer is not None:
                    return answer
    except OSError:
        pass
    head, tail = os.path.split(directory.rstrip("/"))
    if tail:  # an empty folder: its own name, looked up in its parent, tells
        return bool(_flip_probe(head or "/", tail))
    return False


def folds_case(path: str | Path) -> bool:
    """Whether the folder that holds (or would hold) `path` folds case."""
    folder = os.path.dirname(os.path.normpath(str(path))) or "/"
    while not os.path.isdir(folder) and folder != "/":
        folder = os.path.dirname(folder)
    return folder_folds_case(folder)


def comparable(text: str, fold: bool) -> str:
    """A name or pattern in the form rules and paths are compared in."""
    text = nfc(text)
    return text.casefold() if fold else text


def on_disk_spelling(path: str) -> str:
    """`path` with each existing component spelled as its folder stores it, in folders that
    fold case (elsewhere the spelling given is the only one that opens)."""
    parts = Path(path).parts
    current = parts[0] if parts else "/"
    for name in parts[1:]:
        if folder_folds_case(current) and os.path.lexists(os.path.join(current, name)):
            name = _stored_name(current, name)
        current = os.path.join(current, name)
    return current


def _stored_name(folder: str, name: str) -> str:
    want = comparable(name, True)
    found = name
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name == name:
                    return name
                if comparable(entry.name, True) == want:
                    found = entry.name
    except OSError:
        pass
    return found
