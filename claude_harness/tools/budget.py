"""Result budgeting: a result over its tool's `max_result_size_chars` is written to disk and the
model gets a `<persisted-output>` preview with the path, which Read can open.

Read is exempt (its limit is unbounded; it limits itself at the source), or a persisted Read
result would need a Read to open, forever.
"""

from __future__ import annotations

import hashlib
import math
import tempfile
from pathlib import Path
from typing import Any

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
        tmp = path.with_suffix(".tmp")
        tmp.write_text(content, encoding="utf-8", errors="surrogatepass")
        tmp.replace(path)
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


def enforce_aggregate_budget(
    messages: list[dict[str, Any]],
    state: ContentReplacementState,
    session_dir: Path | None,
    budget: int = AGGREGATE_BUDGET_CHARS,
) -> int:
    """Keep the tool results of the whole conversation under `budget` characters.

    Many results just under their own limit would still flood the context. When the total
    passes the budget, the oldest large results are replaced, in place, by their persisted
    form (once replaced, always replaced: `state.replaced` remembers them). Returns how many
    results were replaced now.
    """
    blocks = [
        b for m in messages if m.get("role") == "user" and not m.get("isSidechain")
        for b in m.get("content") or []
        if isinstance(b, dict) and b.get("type") == "tool_result" and isinstance(b.get("content"), str)
    ]
    total = sum(len(b["content"]) for b in blocks)
    state.total_chars = total
    replaced = 0
    for block in blocks:
        if total <= budget:
            break
        content = block["content"]
        if block["tool_use_id"] in state.replaced or len(content) < _MIN_REPLACEABLE:
            continue
        persisted = persist_large_result(content, 0, session_dir)
        block["content"] = persisted
        state.replaced[block["tool_use_id"]] = persisted
        total -= len(content) - len(persisted)
        replaced += 1
    state.total_chars = total
    return replaced
