"""Which entries of a transcript make up the conversation to resume: the parentUuid chain that
ends at the latest entry, plus the siblings of a parallel batch hanging off that chain.

Why siblings: Claude Code writes each content block of a streamed answer as its own entry
(same `message.id`) and each tool result as its own entry whose parent is the entry of its
call. A batch of parallel calls is therefore a small tree, not a line: the next prompt's chain
passes through one call and one result, and the other calls and results hang beside it. Taken
as a line, a resume drops them (16 of 65 calls in one real transcript). Entries a line would
miss but that belong to the chain's own messages are put back: assistant entries of a message
already on the chain, results that answer a call already kept, and the progress/attachment
entries they hang from. Anything else off the chain (a rewound branch, a second writer's
turns) stays out, and the reader is told how much.

Sub-agent entries (`isSidechain`, Claude Code's older inline layout) are never part of the
main conversation.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

Entry = dict[str, Any]
# Entries that carry no message but may sit between a call and the next part of its batch.
_PASS_THROUGH = frozenset({"progress", "attachment"})
MISSING_PARENT = ("An entry of this session's transcript names a parent that is missing; the "
                  "history goes on from the entry written just before it.")


def main_line(entries: list[Entry]) -> list[Entry]:
    """The entries with a uuid that belong to the main conversation (not a sub-agent's)."""
    chained = [e for e in entries if isinstance(e.get("uuid"), str)]
    main = [e for e in chained if not e.get("isSidechain")]
    return main or chained  # a sub-agent's own file is all sidechain


def conversation(entries: list[Entry], warnings: list[str]) -> list[Entry]:
    """The chain ending at the latest entry with its batches made whole, in file order."""
    chain = chain_to_latest(entries, warnings)
    kept = {e["uuid"] for e in chain} | _batch_siblings(entries, chain)
    return [e for e in entries if e["uuid"] in kept] if len(kept) > len(chain) else chain


def chain_to_latest(entries: list[Entry], warnings: list[str]) -> list[Entry]:
    """Parents from the latest entry back to the root, oldest first."""
    position = {e["uuid"]: i for i, e in enumerate(entries)}
    chain: list[Entry] = []
    seen: set[str] = set()
    index: int | None = len(entries) - 1
    while index is not None and index >= 0:
        entry = entries[index]
        if entry["uuid"] in seen:
            break  # a cycle: stop rather than loop
        seen.add(entry["uuid"])
        chain.append(entry)
        parent = entry.get("parentUuid")
        if parent is None:
            break
        if parent in position:
            index = position[parent]
        else:
            if MISSING_PARENT not in warnings:
                warnings.append(MISSING_PARENT)
            index -= 1
    chain.reverse()
    return chain


def _batch_siblings(entries: list[Entry], chain: list[Entry]) -> set[str]:
    """uuids of entries off the chain that belong to the chain's own answers and results."""
    children: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        if isinstance(entry.get("parentUuid"), str):
            children[entry["parentUuid"]].append(entry)
    kept = {e["uuid"] for e in chain}
    message_ids = {_message_id(e) for e in chain} - {None}
    calls = {call for e in chain for call in _calls(e)}
    by_uuid = {e["uuid"]: e for e in entries}
    added: set[str] = set()
    grew = True
    while grew:  # again until nothing is added: a result may be met before its call
        grew = False
        frontier = [by_uuid[u] for u in kept]
        while frontier:
            entry = frontier.pop()
            for child in children.get(entry["uuid"], ()):
                if child["uuid"] in kept or not _belongs(child, message_ids, calls):
                    continue
                kept.add(child["uuid"])
                added.add(child["uuid"])
                grew = True
                if (mid := _message_id(child)) is not None:
                    message_ids.add(mid)
                calls.update(_calls(child))
                frontier.append(child)
    return _without_dead_ends(added, entries)


def _belongs(entry: Entry, message_ids: set[Any], calls: set[str]) -> bool:
    kind = entry.get("type")
    if kind == "assistant":
        return _message_id(entry) in message_ids
    if kind == "user":
        answered = _answered(entry)
        return bool(answered) and answered <= calls
    return kind in _PASS_THROUGH


def _without_dead_ends(added: set[str], entries: list[Entry]) -> set[str]:
    """Pass-through entries count only when a kept message hangs below them (they are no
    conversation of their own; the rest of a side branch's progress stays out)."""
    by_uuid = {e["uuid"]: e for e in entries}
    useful: set[str] = set()
    for uuid in added:
        if by_uuid[uuid].get("type") in _PASS_THROUGH:
            continue
        useful.add(uuid)
        parent = by_uuid[uuid].get("parentUuid")
        while parent in added and parent not in useful:
            useful.add(parent)
            parent = by_uuid[parent].get("parentUuid")
    return useful


def _message_id(entry: Entry) -> Any:
    message = entry.get("message")
    if entry.get("type") != "assistant" or not isinstance(message, dict):
        return None
    return message.get("id")


def _calls(entry: Entry) -> list[str]:
    message = entry.get("message")
    if entry.get("type") != "assistant" or not isinstance(message, dict):
        return []
    content = message.get("content")
    return [b["id"] for b in content or () if isinstance(b, dict)
            and b.get("type") == "tool_use" and isinstance(b.get("id"), str)] if isinstance(
        content, list) else []


def _answered(entry: Entry) -> set[str]:
    """The calls a user entry answers, when it holds nothing but tool results."""
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list) or not content:
        return set()
    ids = {b.get("tool_use_id") for b in content if isinstance(b, dict)
           and b.get("type") == "tool_result"}
    if len(ids) == 0 or any(not (isinstance(b, dict) and b.get("type") == "tool_result")
                            for b in content):
        return set()
    return {i for i in ids if isinstance(i, str)}


def left_out(entries: list[Entry], kept: list[Entry]) -> int:
    """Messages written after the conversation's first entry that are not part of it (another
    branch); what came before a compaction boundary is compacted, not left out."""
    if not kept:
        return 0
    chosen = {e["uuid"] for e in kept}
    start = next(i for i, e in enumerate(entries) if e["uuid"] == kept[0]["uuid"])
    return sum(1 for e in entries[start:] if e["uuid"] not in chosen
               and e.get("type") in ("user", "assistant"))
