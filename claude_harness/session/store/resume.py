"""Rebuild a session's history from its transcript by following the parentUuid chain.

Why a chain and not file order: the file is a log, not the conversation. Two processes may have
appended to one transcript (a `-r` of a session still open elsewhere), each continuing its own
branch; read in file order, their turns would interleave into a history the API refuses or that
mixes two conversations. The conversation to resume is the chain of parents ending at the latest
entry; other branches are left out, with a warning that says so.

Tolerated on the way: lines cut by a crash (skipped), a parent that is missing (the chain goes on
from the entry just before, with a warning), transcripts written before entries carried uuids
(file order), and a tool_use left unanswered by a crash (it gets an "interrupted" result).
Tool results written one by one as their calls ended are merged back into their batch's one
message. Claude Code's transcripts resume whole too: the blocks of one answer, written as one
entry each, become one message again, and the calls of a parallel batch that hang beside the
chain are kept with their results (branches.py).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_harness.agent.messages import has_tool_results, tool_result_block, tool_uses
from claude_harness.session.store.branches import conversation, left_out, main_line

Entry = dict[str, Any]
INTERRUPTED_RESULT = "Interrupted: the session ended before this tool finished."
_TAIL_CHUNK = 65_536


@dataclass
class ResumedSession:
    """The history to continue from, the entry it ends at, and what the reader should know."""

    messages: list[dict[str, Any]]
    leaf_uuid: str | None = None
    warnings: list[str] = field(default_factory=list)


def read_entries(path: Path) -> list[Entry]:
    """Every well-formed entry; a broken line (a crash mid-write) is skipped."""
    entries = []
    with path.open("r", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(entry, dict):
                entries.append(entry)
    return entries


def latest_uuid(path: Path) -> str | None:
    """The uuid of the file's last whole entry, read from its end (the tip a writer continues)."""
    with path.open("rb") as fh:
        end = fh.seek(0, os.SEEK_END)
        buffer = b""
        position = end
        while position > 0:
            step = min(_TAIL_CHUNK, position)
            position -= step
            fh.seek(position)
            buffer = fh.read(step) + buffer
            lines = buffer.split(b"\n")
            complete = lines if position == 0 else lines[1:]  # the first may be cut
            for line in reversed(complete):
                found = _uuid_of(line)
                if found is not None:
                    return found
            buffer = lines[0] if position > 0 else b""
    return None


def _uuid_of(line: bytes) -> str | None:
    line = line.strip()
    if not line:
        return None
    try:
        entry = json.loads(line)
    except ValueError:
        return None
    if not isinstance(entry, dict) or entry.get("isSidechain"):
        return None  # a sub-agent's entry (Claude Code's inline layout) is no tip to continue
    value = entry.get("uuid")
    return value if isinstance(value, str) else None


def load_session(path: Path) -> ResumedSession:
    """The history ending at the latest entry (from its last compaction boundary on), repaired so
    the API accepts it, with warnings about branches left out or gaps in the chain."""
    entries = read_entries(path)
    main = main_line(entries)
    warnings: list[str] = []
    if main:
        chain = conversation(main, warnings)
        off_chain = left_out(main, chain)
        if off_chain > 0:
            warnings.append(
                f"This session's transcript has other branches (a rewind, or two processes "
                f"writing it at once); resumed the conversation ending at its latest entry "
                f"({off_chain} entr{'y' if off_chain == 1 else 'ies'} of the other branches "
                "left out).")
        leaf: str | None = chain[-1]["uuid"]
    else:
        chain, leaf = entries, None  # written before entries had uuids: file order
    return ResumedSession(_messages(chain), leaf, warnings)


def _messages(chain: list[Entry]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for entry in chain:
        if entry.get("type") == "system" and entry.get("subtype") == "compact_boundary":
            messages = []
            continue
        message = entry.get("message")
        if entry.get("type") in ("user", "assistant") and isinstance(message, dict):
            _add_message(messages, message)
        elif isinstance(message, dict) and message.get("role") == "system":
            messages.append(message)  # a note in the conversation (output style, task ended)
    return _answer_every_call(messages)


def _add_message(messages: list[dict[str, Any]], message: dict[str, Any]) -> None:
    """Append `message`, or join it to the answer it is a part of: Claude Code writes each
    block of one API answer (thinking, text, each call) as its own entry with the answer's
    `id`, sometimes with a call's result already written between two of them."""
    mid = message.get("id") if message.get("role") == "assistant" else None
    if mid is not None:
        for index in range(len(messages) - 1, -1, -1):
            earlier = messages[index]
            if earlier.get("role") == "assistant" and earlier.get("id") == mid:
                joined = [*_blocks(earlier), *_blocks(message)]
                messages[index] = {**earlier, "content": joined}
                return
            if not _holds_results(earlier):
                break
    messages.append(message)


def _blocks(message: dict[str, Any]) -> list[Any]:
    content = message.get("content")
    if isinstance(content, list):
        return list(content)
    return [{"type": "text", "text": content}] if isinstance(content, str) and content else []


def _answer_every_call(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each batch's results as the one message the session had, in the order of its calls
    (they are written one by one as each call ends, see result_journal.py); a call the session
    ended before it finished gets an "interrupted" result."""
    out: list[dict[str, Any]] = []
    index = 0
    while index < len(messages):
        message = messages[index]
        out.append(message)
        index += 1
        uses = [] if message.get("isSidechain") else tool_uses(message)
        if not uses:
            continue
        answers: list[dict[str, Any]] = []
        while index < len(messages) and _holds_results(messages[index]):
            answers.append(messages[index])
            index += 1
        out.append(_one_answer(uses, answers))
    return out


def _holds_results(message: dict[str, Any]) -> bool:
    return (message.get("role") == "user" and not message.get("isSidechain")
            and has_tool_results(message))


def _one_answer(uses: list[dict[str, Any]], answers: list[dict[str, Any]]) -> dict[str, Any]:
    blocks = [b for m in answers for b in m["content"] if isinstance(b, dict)]
    results = {}
    for block in blocks:
        if block.get("type") == "tool_result":
            results.setdefault(block.get("tool_use_id"), block)
    if len(answers) == 1 and all(u["id"] in results for u in uses):
        return answers[0]
    ordered = [results.pop(u["id"], None) or tool_result_block(u["id"], INTERRUPTED_RESULT, True)
               for u in uses]
    others = [b for b in blocks if b.get("type") != "tool_result"]
    return {"role": "user", "content": [*ordered, *results.values(), *others]}
