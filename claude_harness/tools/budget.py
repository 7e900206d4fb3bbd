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
