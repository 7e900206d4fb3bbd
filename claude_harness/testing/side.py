"""Side requests: answered from their own list, so one script drives any client.

Claude Code makes requests besides the conversation's (a session title, written from the
first prompt, with no tools); each would consume a scripted turn meant for the conversation
and shift every later answer. A script that carries a `side` key answers every request that
offers no tools from that list instead, in order, then with a short default text once the
list is used up:

    {"turns": [...], "side": ["A title", ...]}     # "side": [] = always the default text

Without the key nothing changes: every request takes the next turn, as before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.testing.script import ScriptError, Turn, load_script

DEFAULT_SIDE_TEXT = "Side answer."


def load_side(source: str | Path | dict[str, Any] | list[Any]) -> list[Turn] | None:
    """The script's `side` turns, or None when the script has no `side` key."""
    if isinstance(source, (str, Path)):
        try:
            source = json.loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # load_script reports the unreadable file
    if not isinstance(source, dict) or "side" not in source:
        return None
    side = source["side"]
    if not isinstance(side, list):
        raise ScriptError('script "side" must be a list of turns')
    return load_script(side)


def default_side_turn() -> Turn:
    return load_script([DEFAULT_SIDE_TEXT])[0]


def is_side_request(body: Any) -> bool:
    """A request that offers the model no tools is not part of the scripted conversation."""
    return isinstance(body, dict) and not body.get("tools")
