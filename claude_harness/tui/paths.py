"""Where the interactive app keeps its own files (prompt history, user themes).

The data dir comes from `claude_harness.config.paths` (one place honours the
`CLAUDE_HARNESS_DATA_DIR` override for every reader).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from claude_harness.config.paths import data_dir

__all__ = ["data_dir", "project_key"]


def project_key(cwd: Path) -> str:
    """A short, filesystem-safe name for one project, stable across runs."""
    resolved = str(cwd.resolve())
    tail = "".join(c if c.isalnum() else "-" for c in Path(resolved).name)[:40] or "root"
    digest = hashlib.sha1(resolved.encode()).hexdigest()[:10]
    return f"{tail}-{digest}"
