"""`apiKeyHelper`: a shell command whose output is the API key (a vault, a key rotator).

As in Claude Code, ANTHROPIC_AUTH_TOKEN and ANTHROPIC_API_KEY win over it; the helper runs
once at start-up, in /bin/sh under the process guardian, with a time limit. It runs code, so a
repository's own settings (`.claude/settings.json`, `.claude/settings.local.json`) may name one
only in a trusted folder, like their hooks.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from claude_harness.guardian.run import run_captured

HELPER_TIMEOUT_S = 30.0
PROJECT_SOURCES = frozenset({"projectSettings", "localSettings"})


def helper_command(loaded: Any, *, trusted: bool) -> str | None:
    """The helper the settings name (the highest source that names one), or None."""
    for src in loaded.sources:  # highest precedence first
        if src.source in PROJECT_SOURCES and not trusted:
            continue
        value = src.settings.model_dump(exclude_unset=True).get("apiKeyHelper")
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def run_helper(command: str, cwd: Path,
               timeout_s: float = HELPER_TIMEOUT_S) -> tuple[str | None, str | None]:
    """(the key, or None; the problem to report, or None). The helper runs under the process
    guardian (guardian/run.py): it dies with the harness, even after a `kill -9`, and past its
    time limit its whole process group is killed, not just the shell."""
    try:
        done = run_captured(["/bin/sh", "-c", command], cwd, os.environ.copy(), timeout_s)
    except (OSError, ValueError) as exc:  # a missing folder, a NUL byte in the command
        return None, f"apiKeyHelper could not run: {exc}"
    if done.timed_out:
        return None, f"apiKeyHelper timed out after {timeout_s:g}s; no API key from it"
    key = done.stdout.decode("utf-8", "replace").strip()
    stderr = done.stderr.decode("utf-8", "replace").strip()
    if done.returncode != 0 or not key:
        detail = stderr.splitlines()[-1] if stderr else ""
        why = f"exited with {done.returncode}" if done.returncode else "printed nothing"
        return None, f"apiKeyHelper {why}; no API key from it" + (f" ({detail})" if detail
                                                                   else "")
    return key, None
