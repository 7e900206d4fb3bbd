"""Result budgeting: a result over its tool's `max_result_size_chars` is written to disk and the
model gets a `<persisted-output>` preview with the path, which Read can open.

Read is exempt (its limit is unbounded; it limits itself at the source), or a persisted Read
result would need a Read to open, forever.
"""

from __future__ import annotations

import hashlib
import math
import tempfile
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_harness.fsutil import atomic_write_text
from claude_harness.protocol.context import ContentReplacementState

PREVIEW_CHARS = 2_000


def tool_results_dir(session_dir: Path | None) -> Path:
    base = session_dir if session_dir is not None else Path(tempfile.gettempdir()) / "claude-harness"
    return base / "tool-results"


def persist_large_result(content: str, limit: float, session_dir: Path | None) -> str:
    """Return `content` unchanged when it fits, else a preview pointing at the persisted file."""
    if math.isinf(limit) or len(content) <= limit:
        return content
    digest = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    folder = tool_results_dir(session_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{digest}.txt"
    if not path.exists():
        atomic_write_text(path, content, errors="surrogatepass")
    preview = content[:PREVIEW_CHARS]
    return (
        "<persisted-output>\n"
        f"Output too large ({len(content):,} characters). Full output saved to: {path}\n"
        "Use the Read tool with offset/limit to see more.\n\n"
        f"Preview (first {len(preview):,} characters):\n{preview}\n"
        "</persisted-output>"
    )


# All tool results of a conversation together: past this, the oldest large ones are persisted.
AGGREGATE_BUDGET_CHARS = 400_000
_MIN_REPLACEABLE = 4 * PREVIEW_CHARS


@dataclass
class _ResultIndex:
    """The tool results of history[:len(scanned)]: their total size, and where the ones large
    enough to persist are (oldest first). Kept from turn to turn, so a turn scans only the
    messages added since."""

    scanned: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0
    large: deque[tuple[int, int]] = field(default_factory=deque)  # (message, block) positions

    def is_prefix_of(self, messages: list[dict[str, Any]]) -> bool:
        done = len(self.scanned)
        return len(messages) >= done and messages[:done] == self.scanned


def enforce_aggregate_budget(
    messages: list[dict[str, Any]],
    state: ContentReplacementState,
    session_dir: Path | None,
    budget: int = AGGREGATE_BUDGET_CHARS,
) -> int:
    """Keep the tool results of the whole conversation under `budget` characters.

    Many results just under their own limit would still flood the context. When the total
    passes the budget, the oldest large results are replaced by their persisted form (once
    replaced, always replaced: `state.replaced` remembers them). A changed message is replaced
    in the list, never edited in place (see agent/api_history.py). Returns how many results
    were replaced now.
    """
    index = state.index
    if not isinstance(index, _ResultIndex) or not index.is_prefix_of(messages):
        index = state.index = _ResultIndex()
    for position in range(len(index.scanned), len(messages)):
        _scan(messages, position, index, state)
    replaced = 0
    while index.total > budget and index.large:
        position, slot = index.large.popleft()
        content = messages[position]["content"][slot]["content"]
        persisted = persist_large_result(content, 0, session_dir)
        _replace_result(messages, position, slot, persisted, index, state)
        replaced += 1
    state.total_chars = index.total
    return replaced


def _scan(messages: list[dict[str, Any]], position: int, index: _ResultIndex,
          state: ContentReplacementState) -> None:
    """Count the results of one new message (a result persisted before gets the same text)."""
    index.scanned.append(messages[position])
    message = messages[position]
    if message.get("role") != "user" or message.get("isSidechain"):
        return
    for slot, block in enumerate(message.get("content") or []):
        if not (isinstance(block, dict) and block.get("type") == "tool_result"
                and isinstance(block.get("content"), str)):
            continue
        index.total += len(block["content"])
        earlier = state.replaced.get(block.get("tool_use_id", ""))
        if earlier is not None and earlier != block["content"]:
            _replace_result(messages, position, slot, earlier, index, state)
        elif earlier is None and len(block["content"]) >= _MIN_REPLACEABLE:
            index.large.append((position, slot))


def _replace_result(messages: list[dict[str, Any]], position: int, slot: int, text: str,
                    index: _ResultIndex, state: ContentReplacementState) -> None:
    message = messages[position]
    block = message["content"][slot]
    content = list(message["content"])
    content[slot] = {**block, "content": text}
    messages[position] = index.scanned[position] = {**message, "content": content}
    index.total -= len(block["content"]) - len(text)
    state.replaced[block["tool_use_id"]] = text
