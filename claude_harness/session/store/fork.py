"""Fork a transcript: a new session whose file holds an earlier session's conversation, up to a
chosen point, under a new session id.

Two users: a conversation rewind ("go back to before this prompt": the new transcript ends just
before the prompt's user message) and `--fork-session` with `-r`/`-c` (the whole conversation,
continued under a new id). The old transcript is never touched, so that branch stays on disk and
resumable. The entries are copied as they are (their uuids and parentUuids too, with the new
sessionId), so the copied chain reads back exactly like the original, and a checkpoint that names
a user message by uuid still finds it in the fork.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_harness.fsutil import atomic_write_text
from claude_harness.session.store.branches import conversation, main_line
from claude_harness.session.store.resume import read_entries

Entry = dict[str, Any]


class ForkError(Exception):
    """The fork point is not in the transcript (or the transcript cannot be read)."""


@dataclass(frozen=True)
class Fork:
    session_id: str
    path: Path
    entries: int  # conversation entries copied


def chain_entries(path: Path, *, ending_before: str | None = None) -> list[Entry]:
    """The transcript's conversation from its root to its latest entry, oldest first (a
    parallel batch whole, see branches.py); with `ending_before`, only the part before the
    entry of that uuid (which must be part of it)."""
    try:
        entries = main_line(read_entries(path))
    except OSError as exc:
        raise ForkError(f"Cannot read {path}: {exc.strerror or exc}") from exc
    chain = conversation(entries, []) if entries else []
    if ending_before is None:
        return chain
    for index, entry in enumerate(chain):
        if entry["uuid"] == ending_before:
            return chain[:index]
    raise ForkError("That prompt is not part of this conversation any more (it was compacted "
                    "or rewound away).")


def fork_transcript(source: Path, *, ending_before: str | None = None,
                    session_id: str | None = None) -> Fork:
    """Write the new session's transcript beside `source` and return it (nothing else changes;
    the caller opens the new transcript to continue it)."""
    chain = chain_entries(source, ending_before=ending_before)
    new_id = session_id or str(uuid.uuid4())
    target = source.with_name(f"{new_id}.jsonl")
    lines = [json.dumps({**entry, "sessionId": new_id}, ensure_ascii=False,
                        separators=(",", ":")) + "\n" for entry in chain]
    atomic_write_text(target, "".join(lines))
    return Fork(new_id, target, sum(1 for e in chain if e.get("type") in ("user", "assistant")))
