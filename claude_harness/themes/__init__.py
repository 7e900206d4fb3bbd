"""The built-in theme files (`<name>.toml`), data shipped inside the package.

Why a package and not a top-level folder: only what is inside `claude_harness/` goes into the
wheel, so a folder beside the package worked in an editable checkout and was missing from every
real install ("Unknown theme 'high-contrast'"). Both front ends ask `builtin_themes_dir()`.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def builtin_themes_dir() -> Path:
    """The folder holding the shipped theme files (a real directory: setuptools installs
    packages unzipped, and both front ends list it with `glob`)."""
    return Path(str(files(__name__)))
