"""Helpers shared by the end-to-end tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_cli(args: list[str], cwd: Path, *, stdin: str | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run the real program (`python -m claude_harness`) with the test's environment."""
    return subprocess.run(
        [sys.executable, "-m", "claude_harness", *args],
        cwd=cwd, input=stdin if stdin is not None else "", capture_output=True, text=True,
        timeout=timeout, env=dict(os.environ),
    )


def ndjson(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]
