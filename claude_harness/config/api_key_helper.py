"""`apiKeyHelper`: a shell command whose output is the API key (a vault, a key rotator).

As in Claude Code, ANTHROPIC_AUTH_TOKEN and ANTHROPIC_API_KEY win over it; the helper runs
once at start-up, in /bin/sh, with a time limit. It runs code, so a repository's own settings
(`.claude/settings.json`, `.claude/settings.local.json`) may name one only in a trusted folder,
like their hooks.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

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
    """(the key, or None; the problem to report, or None)."""
    try:
        done = subprocess.run(["/bin/sh", "-c", command], cwd=cwd, capture_output=True,
                              text=True, timeout=timeout_s, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, f"apiKeyHelper timed out after {timeout_s:g}s; no API key from it"
    except OSError as exc:
        return None, f"apiKeyHelper could not run: {exc}"
    key = done.stdout.strip()
    if done.returncode != 0 or not key:
        detail = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
        why = f"exited with {done.returncode}" if done.returncode else "printed nothing"
        return None, f"apiKeyHelper {why}; no API key from it" + (f" ({detail})" if detail
                                                                   else "")
    return key, None
