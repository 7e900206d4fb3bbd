"""When the conversation is compacted automatically, from Claude Code's settings and variables:

  autoCompactEnabled: false, or DISABLE_AUTO_COMPACT=1   never automatically (/compact still
                                                          works)
  autoCompactWindow (tokens), or CLAUDE_CODE_AUTO_COMPACT_WINDOW
                                                          the window the threshold is a share
                                                          of, instead of the model's own
  autoCompactThreshold, or CLAUDE_AUTOCOMPACT_PCT_OVERRIDE
                                                          that share (bootstrap reads it)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

DEFAULT_FRACTION = 0.85  # the session's own default share (session/turn_inputs.AUTO_COMPACT_FRACTION)
_TRUE = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Compaction:
    enabled: bool = True
    threshold_tokens: int | None = None  # None: the share of the model's window


def _window(loaded: Any) -> int | None:
    raw = os.environ.get("CLAUDE_CODE_AUTO_COMPACT_WINDOW") or loaded.value("autoCompactWindow")
    try:
        window = int(raw) if raw is not None and not isinstance(raw, bool) else None
    except (TypeError, ValueError):
        return None
    return window if window and window > 0 else None


def compaction_settings(loaded: Any, fraction: float | None) -> Compaction:
    """`fraction`: the share chosen from autoCompactThreshold / the override (None: default)."""
    disabled = loaded.value("autoCompactEnabled") is False or \
        os.environ.get("DISABLE_AUTO_COMPACT", "").strip().lower() in _TRUE
    window = _window(loaded)
    threshold = int(window * (fraction or DEFAULT_FRACTION)) if window else None
    return Compaction(enabled=not disabled, threshold_tokens=threshold)
