"""The history as the Messages API takes it, kept up to date a turn at a time.

The rules (the one place that makes a history acceptable to the API):
  - only user and assistant messages are sent, and `role: system` notes (sub-agent transcripts
    and attachments live in the transcript only); text content becomes a text block; empty text blocks and our private
    `_keys` are dropped; a message left with no block is not sent;
  - consecutive messages of one role are merged into one (system notes stay apart);
  - the conversation starts with a user message (leading assistant messages are dropped);
  - every tool_use gets an answer in the next user message (a synthesized "not run" result when
    there is none), answers come first in that message, and a tool_result that does not answer
    the assistant message right before it (or answers a call twice) is dropped ("(no content)"
    when nothing is left);
  - the last block of the last message is the conversation's cache breakpoint.

A long session sends the same history again each turn plus a few new messages, so re-doing
all of that, and re-serialising every message, costs more per turn the longer it runs. Once a
run of messages of one role is followed by a message of the other role it can never change
again (nothing merges into it any more, and its output depends only on itself and the message
before it): `ApiHistory` keeps those messages *closed*, with their API form and their JSON
encoded once, and redoes only the open tail each turn. The cost per turn is then the new
messages plus one pointer comparison per message (checking the history still starts with what
was closed; a compaction, /clear, /resume or rewind that replaced it starts over).

The history's messages are treated as values: code that changes a message already in the
history replaces the object (`history[i] = {...}`) rather than editing it in place, so the
comparison notices (tools/budget.py does so).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from claude_harness.agent.messages import Block, Message, tool_result_block, tool_uses
from claude_harness.api.request_body import dump_json
from claude_harness.protocol.messages import CANCELLED_MESSAGE

NO_CONTENT: Block = {"type": "text", "text": "(no content)"}
_ROLES = ("user", "assistant")


def _clean_block(block: Block) -> Block | None:
    if block.get("type") == "text" and not str(block.get("text", "")).strip():
        return None
    return {k: v for k, v in block.items() if not k.startswith("_")}


def sendable_blocks(message: Message) -> list[Block]:
    """The blocks of `message` the API is sent (none: the message is not sent at all)."""
    if message.get("isSidechain") or message.get("role") not in _ROLES:
        return []
    content = message.get("content")
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    return [c for c in (_clean_block(b) for b in content or []) if c is not None]


@dataclass
class _Group:
    """Consecutive sent messages of one role (merged into one API message), or one system
    note; a user group also carries the notes that must wait until after it (`trailing`)."""

    role: str
    blocks: list[Block]
    end: int  # one past the index of its last message in the history
    trailing: list[list[Block]] = field(default_factory=list)


def _system_blocks(message: Message) -> list[Block]:
    """A `role: system` note in the conversation (Claude Code sends them for output-style
    changes and background tasks that ended): its text blocks, sent as they are."""
    if message.get("isSidechain"):
        return []
    content = message.get("content")
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    return [{"type": "text", "text": str(b.get("text", ""))} for b in content or []
            if isinstance(b, dict) and b.get("type") == "text" and str(b.get("text", "")).strip()]


def _calls(group: _Group) -> bool:
    return group.role == "assistant" and any(b.get("type") == "tool_use" for b in group.blocks)


def _groups(history: list[Message], start: int) -> list[_Group]:
    """The sent groups of `history[start:]`. A note written between an answer's calls and their
    results is held until the results' message has gone (a call's results must come right
    after it), then rides on that message's group; while the results are still missing it is
    not sent."""
    groups: list[_Group] = []
    held: list[list[Block]] = []

    def release() -> None:
        if held and groups and groups[-1].role == "user":
            groups[-1].trailing.extend(held)
            held.clear()

    for index in range(start, len(history)):
        message = history[index]
        if message.get("role") == "system":  # a note of its own, never merged
            if notes := _system_blocks(message):
                release()
                if held or (groups and _calls(groups[-1])):
                    held.append(notes)
                else:
                    groups.append(_Group("system", notes, index + 1))
            continue
        blocks = sendable_blocks(message)
        if not blocks:
            continue
        if message["role"] != "user":
            release()
        if groups and groups[-1].role == message["role"]:
            groups[-1].blocks.extend(blocks)
            groups[-1].end = index + 1
        else:
            groups.append(_Group(message["role"], blocks, index + 1))
    release()
    return groups


def _answer_order(block: Block) -> int:
    return 0 if block.get("type") == "tool_result" else 1


def _api_message(group: _Group, previous: Message | None) -> Message:
    """The API form of `group`, given the API message sent right before it."""
    if group.role in ("assistant", "system"):
        return {"role": group.role, "content": list(group.blocks)}
    asked = tool_uses(previous) if previous is not None else []
    answered = {b.get("tool_use_id") for b in group.blocks if b.get("type") == "tool_result"}
    missing = [tool_result_block(u["id"], CANCELLED_MESSAGE, True) for u in asked
               if u["id"] not in answered]
    unanswered = {u["id"] for u in asked}
    kept: list[Block] = []
    for block in sorted([*missing, *group.blocks], key=_answer_order):
        if block.get("type") == "tool_result":
            if block.get("tool_use_id") not in unanswered:
                continue  # answers no call of the message before, or answers it twice
            unanswered.discard(block.get("tool_use_id"))
        kept.append(block)
    return {"role": "user", "content": kept or [dict(NO_CONTENT)]}


def _notes(group: _Group) -> list[Message]:
    return [{"role": "system", "content": list(blocks)} for blocks in group.trailing]


def with_cache_breakpoint(messages: list[Message]) -> list[Message]:
    """Mark the last block of the last message as a cache breakpoint (without touching history)."""
    if not messages:
        return messages
    last = dict(messages[-1])
    blocks = list(last["content"])
    if blocks:
        tail = dict(blocks[-1])
        if tail.get("type") not in ("thinking", "redacted_thinking"):
            tail["cache_control"] = {"type": "ephemeral"}
            blocks[-1] = tail
    last["content"] = blocks
    return [*messages[:-1], last]


@dataclass(frozen=True)
class ApiMessages:
    """The messages of one request: as data, and each one's JSON as sent in the body."""

    messages: list[Message]
    encoded: list[bytes]

    @property
    def json(self) -> bytes:
        return b"[" + b",".join(self.encoded) + b"]"


@dataclass
class ApiHistory:
    """One conversation's history in API form, closed messages kept from turn to turn."""

    _consumed: list[Message] = field(default_factory=list)  # history[:n] closed so far
    _closed: list[Message] = field(default_factory=list)  # their API messages
    _closed_json: list[bytes] = field(default_factory=list)  # ...encoded
    _last_role: str | None = None  # role of the last closed group (sent or dropped)

    def _reset(self) -> None:
        self._consumed, self._closed, self._closed_json = [], [], []
        self._last_role = None

    def prepare(self, history: list[Message]) -> ApiMessages:
        """The messages to send for `history`, the cache breakpoint on the last one."""
        tail = with_cache_breakpoint(self.advance(history))
        return ApiMessages([*self._closed, *tail],
                           [*self._closed_json, *(dump_json(m) for m in tail)])

    def advance(self, history: list[Message]) -> list[Message]:
        """Close every group `history` has closed; the API form of the open rest (what follows
        `self.closed`, without a cache breakpoint)."""
        groups = self._open_groups(history)
        open_from = max(len(groups) - 1, 0)
        if open_from and groups[-1].trailing:
            # Notes held back from before this group's messages: the calls' group before it
            # stays open too, so the next turn regroups the notes with it.
            open_from -= 1
        for group in groups[:open_from]:
            self._close(group, history)
        return self._tail(groups[open_from:])

    @property
    def closed(self) -> list[Message]:
        return self._closed

    def _open_groups(self, history: list[Message]) -> list[_Group]:
        """The groups after the closed ones; starts over when the history no longer begins
        with what was closed, or when its rest would merge into a closed message."""
        done = len(self._consumed)
        if done and (len(history) <= done or history[:done] != self._consumed):
            self._reset()
            done = 0
        groups = _groups(history, done)
        if done and (not groups or (groups[0].role == self._last_role
                                    and groups[0].role != "system")):
            self._reset()
            groups = _groups(history, 0)
        return groups

    def _close(self, group: _Group, history: list[Message]) -> None:
        if self._closed or group.role == "user":  # leading assistant/system ones are not sent
            message = _api_message(group, self._closed[-1] if self._closed else None)
            for sent in (message, *_notes(group)):
                self._closed.append(sent)
                self._closed_json.append(dump_json(sent))
        self._last_role = group.role
        self._consumed.extend(history[len(self._consumed):group.end])

    def _tail(self, groups: list[_Group]) -> list[Message]:
        """The API form of the open groups, and the answers the last one's calls still lack."""
        out: list[Message] = []
        previous = self._closed[-1] if self._closed else None
        for group in groups:
            if previous is None and group.role != "user":
                continue  # leading assistant/system messages are not sent
            message = _api_message(group, previous)
            out += [message, *_notes(group)]
            previous = out[-1]
        uses = tool_uses(out[-1]) if out else []
        if uses:
            out.append({"role": "user", "content": [
                tool_result_block(u["id"], CANCELLED_MESSAGE, True) for u in uses]})
        return out


def normalize_for_api(messages: list[Message]) -> list[Message]:
    """A copy of `messages` that satisfies the Messages API's structural rules (no cache
    breakpoint): the one-shot form of `ApiHistory`."""
    history = ApiHistory()
    tail = history.advance(messages)
    return [*history.closed, *tail]
