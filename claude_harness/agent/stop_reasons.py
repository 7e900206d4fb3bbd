"""What the loop does with each stop_reason the API can give, as small decisions it can call.

  end_turn, stop_sequence     the turn ends (Stop hooks may still send the model back)
  tool_use                    run the tools, send every result in one user message
  pause_turn                  a server tool paused a long turn: send the assistant content back
                              unchanged, with no user message after it, so the API carries on;
                              at most MAX_PAUSE_RESUMES times in a row, then a clear error
  max_tokens                  a cut text answer is continued (a short meta message asks the
                              model to resume where it stopped), at most MAX_CONTINUATIONS
                              times in a row, then a notice; a tool_use cut mid-input is never
                              run, and its result tells the model why
  refusal                     the turn ends with a visible notice; unfinished tool calls in the
                              refused message are dropped, never run
  model_context_window_exceeded
                              the context is full: compact once and carry on (like HTTP 400
                              "prompt is too long" and 413), else a clear error
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claude_harness.protocol.events import StopNotice
from claude_harness.tools.pipeline import ToolOutcome

MAX_CONTINUATIONS = 3
MAX_PAUSE_RESUMES = 8
CONTEXT_EXCEEDED = "model_context_window_exceeded"

CONTINUE_AFTER_CUT = (
    "Your previous answer was cut off by the output token limit. Continue exactly where it "
    "stopped, mid-sentence if that is where the cut fell, without repeating, apologising or "
    "summarising. If much is left, write it in smaller pieces.")
CUT_TOOL_RESULT = (
    "This {name} call was not run: the output token limit cut it off while its input was "
    "still being written, so the input is incomplete. Call it again with a smaller input (for "
    "a large file, write it in several smaller steps).")
MAX_TOKENS_GIVE_UP = (
    "The answer was cut off by the output token limit {count} times in a row, so it was left "
    "incomplete. Raise CLAUDE_CODE_MAX_OUTPUT_TOKENS or ask for a shorter answer.")
REFUSAL_NOTICE = (
    "The model declined to continue this response (stop_reason: refusal). Any tool calls it "
    "had started were not run. Rephrase the request or start a new topic.")
PAUSE_GIVE_UP = (
    "The API paused this turn {count} times in a row (stop_reason: pause_turn) without "
    "finishing it; stopping here. Send a message to let the model continue.")
CONTEXT_GIVE_UP = (
    "The conversation no longer fits the model's context window, even after compacting it. "
    "Use /compact with instructions to keep less, or /clear to start a new conversation.")


@dataclass
class StopReasonState:
    """Counters of one query: consecutive continuations, consecutive pause resumes, and
    whether the reactive compaction was already spent."""

    continuations: int = 0
    pauses: int = 0
    reactive_compaction_done: bool = False

    def reset_after_progress(self, stop_reason: str | None) -> None:
        """A response that was not cut resets the matching counter."""
        if stop_reason != "max_tokens":
            self.continuations = 0
        if stop_reason != "pause_turn":
            self.pauses = 0


def continuation_message() -> dict[str, Any]:
    """The meta user message that asks the model to resume a cut answer."""
    return {"role": "user", "content": [{"type": "text", "text": CONTINUE_AFTER_CUT}],
            "isMeta": True}


def cut_tool_use(assistant: dict[str, Any], stop_reason: str | None) -> dict[str, Any] | None:
    """The tool_use block the output limit cut mid-input, if any: the last block of a
    max_tokens answer, when its streamed JSON did not parse."""
    if stop_reason != "max_tokens":
        return None
    blocks = assistant.get("content") or []
    last = blocks[-1] if blocks else None
    if isinstance(last, dict) and last.get("type") == "tool_use" and "_invalid_json" in last:
        return last
    return None


def cut_tool_outcome(block: dict[str, Any]) -> ToolOutcome:
    """The result sent for a cut tool_use instead of running it."""
    return ToolOutcome(str(block["id"]), str(block["name"]),
                       CUT_TOOL_RESULT.format(name=block["name"]), is_error=True)


def strip_unfinished_tools(assistant: dict[str, Any]) -> dict[str, Any]:
    """A refused message without its client tool calls (they must never run)."""
    return {**assistant, "content": [b for b in assistant.get("content") or []
                                     if b.get("type") != "tool_use"]}


def max_tokens_notice(count: int) -> StopNotice:
    return StopNotice("max_tokens", MAX_TOKENS_GIVE_UP.format(count=count))


def refusal_notice() -> StopNotice:
    return StopNotice("refusal", REFUSAL_NOTICE, "error")


def pause_limit_message() -> str:
    return PAUSE_GIVE_UP.format(count=MAX_PAUSE_RESUMES)
