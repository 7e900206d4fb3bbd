"""Arguments after expansion, and names a command receives only when it runs.

Plain data shared by the option reader, the effects and the handlers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Members:
    """Names of entries below `trees`, handed over when the command runs (`find ... | xargs`,
    `find -exec ... {}`). The filters say which entries can be among them."""

    trees: tuple[Path, ...]
    feeder: str  # "xargs" (names are split on blanks) or "find" (passed whole)
    names: tuple[str, ...] = ()  # find -name patterns every listed entry matches
    paths: tuple[str, ...] = ()  # find -path patterns every listed entry's path matches
    icase: bool = False  # the patterns came from -iname
    symlinks: bool = True  # False: find -type f / -type d lists no symlink
    git_index: bool = False  # the names are git's tracked files (git ls-files)
    shown: tuple[str, ...] = ()  # the trees as the lister prints them (find's start points)


@dataclass(frozen=True)
class Arg:
    """One argument after expansion. `value` None: it cannot be known before the command runs
    (`split`: and it may be any number of words)."""

    value: str | None
    source: str = ""  # the word as written, for messages
    globbed: bool = False
    split: bool = False
    pattern: str | None = None
    members: Members | None = None  # names below trees (xargs, find -exec {})

    @property
    def text(self) -> str:
        return self.value if self.value is not None else self.source
