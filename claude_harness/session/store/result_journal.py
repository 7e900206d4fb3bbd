"""The conversation into the transcript, each tool result the moment its call ends.

The loop appends a batch's results to the history as ONE user message once every call of the
batch has ended (that is what the API is sent). Written only then, a crash while a slow call
runs would lose the results of the calls that had finished: an Edit that changed a file would
come back on resume as "interrupted", and the model would redo or distrust it. So each result
is written as its own entry when its call ends (ToolResultEvent), and the batch's message later
only adds what was not written yet. `resume.py` merges such entries back into one message in
the order of the calls, so a resumed history is the one the session had.

A call may end before the assistant message that asked for it is complete (safe tools start
while the answer streams): its result waits until that message is written, so every entry
follows its call in the chain. Results of a streamed attempt that was discarded and retried
never find their call and are dropped.
"""

from __future__ import annotations

from typing import Any

from claude_harness.agent.messages import tool_result_block, tool_uses
from claude_harness.protocol.events import AssistantMessage, ToolResultEvent, UserMessage
from claude_harness.session.store.transcript import Transcript


class ResultJournal:
    """Writes the main conversation's messages and results to `transcript`. A sub-agent's
    messages (sidechain messages) are not written here: its own transcript under
    `<session>/subagents/` holds them, where Claude Code keeps its own; in the session's file
    they would make Claude Code's `-c` pass the session over."""

    def __init__(self, transcript: Transcript) -> None:
        self._transcript = transcript
        self._calls: set[str] = set()  # tool_use ids of the last assistant message written
        self._waiting: list[dict[str, Any]] = []  # results whose call is not written yet
        self._written: set[str] = set()  # results of this batch already written

    def record(self, event: Any) -> None:
        message = getattr(event, "message", None)
        if isinstance(message, dict) and message.get("isSidechain"):
            return  # in the sub-agent's own file (<session>/subagents/), as Claude Code keeps it
        match event:
            case AssistantMessage(message=message):
                self._transcript.append_message(message)
                self._calls_written(message)
            case UserMessage(message=message):
                rest = self._unwritten_part(message)
                if rest is not None:
                    self._transcript.append_message(rest)
            case ToolResultEvent():
                block = tool_result_block(event.tool_use_id, event.content, event.is_error)
                if event.tool_use_id in self._calls:
                    self._write_result(block)
                else:
                    self._waiting.append(block)

    def _calls_written(self, message: dict[str, Any]) -> None:
        self._calls = {u["id"] for u in tool_uses(message)}
        self._written = set()
        waiting, self._waiting = self._waiting, []
        for block in waiting:
            if block["tool_use_id"] in self._calls:
                self._write_result(block)

    def _write_result(self, block: dict[str, Any]) -> None:
        if block["tool_use_id"] in self._written:
            return
        self._written.add(block["tool_use_id"])
        self._transcript.append_message({"role": "user", "content": [block]})

    def _unwritten_part(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """`message` without the results written one by one (None: nothing is left)."""
        content = message.get("content")
        if not self._written or not isinstance(content, list):
            return message
        rest = [b for b in content if not (isinstance(b, dict) and b.get("type") == "tool_result"
                                           and b.get("tool_use_id") in self._written)]
        if len(rest) == len(content):
            return message
        return {**message, "content": rest} if rest else None
