"""Where the plain REPL keeps its files: the per-project prompt history.

The location is shared with the Textual app so Up in either front end offers the same prompts.
`CLAUDE_HARNESS_DATA_DIR` (via bootstrap.data_dir) keeps tests out of the real home directory.
"""

from __future__ import annotations

import re
from pathlib import Path

from claude_harness.bootstrap import data_dir


def project_slug(cwd: Path) -> str:
    """The project folder as a file name: every non-alphanumeric character becomes '-'."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(cwd.resolve()))


def history_path(cwd: Path) -> Path:
    """`<data dir>/history/<cwd slug>.txt` (prompt-toolkit FileHistory format)."""
    return data_dir() / "history" / f"{project_slug(cwd)}.txt"
