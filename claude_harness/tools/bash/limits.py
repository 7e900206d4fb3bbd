"""The Bash tool's limits, from the environment Claude Code users already set.

Read on every call, not at import: settings files put their `env` into the process environment
after start-up, and a test may change a variable between calls.

    BASH_DEFAULT_TIMEOUT_MS               foreground timeout when the model gives none (120000)
    BASH_MAX_TIMEOUT_MS                   the largest foreground timeout accepted (600000)
    BASH_MAX_OUTPUT_LENGTH                characters of output shown inline (30000, at most 150000)
    CLAUDE_CODE_DISABLE_BACKGROUND_TASKS  1: no background shells; a timeout kills the command
    CLAUDE_HARNESS_BASH_BACKGROUND_MS     lifetime of a background shell when the model gives
                                          none, and of a command moved there (600000)
    CLAUDE_HARNESS_BASH_BACKGROUND_MAX_MS the largest lifetime accepted (7200000)
"""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000
DEFAULT_OUTPUT_CHARS = 30_000
MAX_OUTPUT_CHARS_CAP = 150_000
BACKGROUND_DEFAULT_MS = 600_000
BACKGROUND_MAX_MS = 7_200_000


def _positive_int(name: str, default: int, cap: int | None = None) -> int:
    raw = os.environ.get(name, "").strip()
    try:
        value = int(raw)
    except ValueError:
        return default
    if value <= 0:
        return default
    return min(value, cap) if cap is not None else value


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class BashLimits:
    default_timeout_ms: int = DEFAULT_TIMEOUT_MS
    max_timeout_ms: int = MAX_TIMEOUT_MS
    max_output_chars: int = DEFAULT_OUTPUT_CHARS
    background_enabled: bool = True
    background_default_ms: int = BACKGROUND_DEFAULT_MS
    background_max_ms: int = BACKGROUND_MAX_MS

    @classmethod
    def from_env(cls) -> BashLimits:
        max_timeout = _positive_int("BASH_MAX_TIMEOUT_MS", MAX_TIMEOUT_MS)
        background_max = _positive_int("CLAUDE_HARNESS_BASH_BACKGROUND_MAX_MS", BACKGROUND_MAX_MS)
        return cls(
            default_timeout_ms=_positive_int("BASH_DEFAULT_TIMEOUT_MS", DEFAULT_TIMEOUT_MS,
                                             max_timeout),
            max_timeout_ms=max_timeout,
            max_output_chars=_positive_int("BASH_MAX_OUTPUT_LENGTH", DEFAULT_OUTPUT_CHARS,
                                           MAX_OUTPUT_CHARS_CAP),
            background_enabled=not _flag("CLAUDE_CODE_DISABLE_BACKGROUND_TASKS"),
            background_default_ms=_positive_int("CLAUDE_HARNESS_BASH_BACKGROUND_MS",
                                                BACKGROUND_DEFAULT_MS, background_max),
            background_max_ms=background_max,
        )

    def timeout_for(self, requested: int | None) -> int:
        """A foreground timeout: the model's, or the default."""
        return requested if requested is not None else self.default_timeout_ms

    def lifetime_for(self, requested: int | None) -> int:
        """A background shell's lifetime: the model's `timeout` with run_in_background."""
        return requested if requested is not None else self.background_default_ms
