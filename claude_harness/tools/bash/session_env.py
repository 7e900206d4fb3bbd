"""What SessionStart and Setup hooks exported (CLAUDE_ENV_FILE) reaches every Bash command.

The session tells this module where its env files live (`configure`, at start-up); each command
script then sources them, in the order the hooks ran, before the person's command runs. With no
session (a unit test) or no hook having written anything, the script is unchanged.
"""

from __future__ import annotations

from pathlib import Path

from claude_harness.hooks.env_file import bash_prelude

_env_dir: Path | None = None


def configure(env_dir: Path | None) -> None:
    global _env_dir
    _env_dir = env_dir


def env_prelude() -> str:
    """`. 'file'; ...` followed by a newline, or "" when there is nothing to source."""
    prelude = bash_prelude(_env_dir)
    return prelude + "\n" if prelude else ""
