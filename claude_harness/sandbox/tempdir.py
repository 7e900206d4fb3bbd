"""The harness's own temp folder: TMPDIR of sandboxed commands and home of the Bash cwd files.

One folder per user (`<tmp>/claude-harness-<uid>`, mode 0700). It is writable inside the sandbox,
so what a sandboxed command leaves there (its temp files, the file its EXIT trap writes its final
directory to) works as it does outside.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def session_temp_dir() -> Path:
    path = Path(tempfile.gettempdir()) / f"claude-harness-{os.getuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    return path
