"""Where the interactive app keeps its own files (prompt history, user themes).

`CLAUDE_HARNESS_DATA_DIR` overrides the platform data dir so tests and benchmarks never touch
the real home directory.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def data_dir() -> Path:
    """The harness data dir (not created here: callers create what they write)."""
    override = os.environ.get("CLAUDE_HARNESS_DATA_DIR")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("claude-harness"))


def project_key(cwd: Path) -> str:
    """A short, filesystem-safe name for one project, stable across runs."""
    resolved = str(cwd.resolve())
    tail = "".join(c if c.isalnum() else "-" for c in Path(resolved).name)[:40] or "root"
    digest = hashlib.sha1(resolved.encode()).hexdigest()[:10]
    return f"{tail}-{digest}"
