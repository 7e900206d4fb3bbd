"""Compaction: when the conversation nears the context window (or on /compact), the model
summarises it and the history is replaced by that summary plus the last user request, verbatim.

The summary request reuses the session's system prompt and tool list, so its prefix is the one
already cached. CLAUDE.md stays where it always is (the system prompt), so it survives compaction
word for word. A PreCompact hook may veto the compaction.

The summary request must itself fit the context window, and it is built when the conversation
already may not (after "prompt is too long"). So, in order, until the estimate fits:
  1. the history as it is;
  2. older tool results (all but the last few messages) replaced by short stubs;
  3. every tool result stubbed and long tool inputs cut;
  4. the oldest turns summarised first, a part at a time, each part's summary carried into the
     next request, until the rest fits.
If the API still says the summary request is too long, the budget shrinks and the fitting runs
again (a few times). Only the request is trimmed: the history keeps everything until the summary
replaces it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from claude_harness.agent.api_history import normalize_for_api
from claude_harness.agent.messages import last_prompt_text
from claude_harness.agent.side_query import side_query
from claude_harness.api.client import ApiClient
from claude_harness.api.errors import ApiError
from claude_harness.api.token_estimate import estimate_tokens

Messages = list[dict[str, Any]]
SUMMARY_ROOM_TOKENS = 16_000  # kept free for the summary (an eighth of a small window)
KEEP_RECENT_MESSAGES = 4  # their tool results stay whole in step 2
LONG_INPUT_CHARS = 2_000  # tool input strings longer than this are cut in step 3
FIT_ATTEMPTS = 3
STUB = "[tool result omitted from the summary request: {size} characters]"
PART_INSTRUCTIONS = """This is an early part of a long conversation that no longer fits the context window. Summarise this part now, as plain text, keeping the user's requests (exact wording where it matters), files, commands, decisions, results and open work. Do not call tools."""
EARLIER_PARTS = "Summary of the earlier part of this conversation:\n\n{summary}"

SUMMARY_INSTRUCTIONS = """\
Your context is nearly full, so this conversation will be replaced by your summary of it. \
Write that summary now, as plain text, with these sections:
1. The user's requests and intent, in order, quoting exact wording where it matters.
2. Key technical context: files, functions, commands, decisions and why they were made.
3. What was done: changes made (file paths), commands run and their outcomes, errors and fixes.
4. Open work: what remains, the next step, and anything the user asked to avoid.
Do not call tools. Be complete but concise."""

CONTINUATION = """\
This session continues an earlier conversation that ran out of context. Summary of the \
earlier conversation:

{summary}

The user's last request, verbatim:
{last_request}

Continue from where the work stopped, without asking the user to repeat anything."""


@dataclass(frozen=True)
class CompactionResult:
    summary: str
    messages: Messages
    pre_tokens: int
    usage: dict[str, int]


def summary_request(request_base: dict[str, Any], messages: Messages,
                    instructions: str) -> dict[str, Any]:
    ask = SUMMARY_INSTRUCTIONS + (f"\n\nAdditional instructions: {instructions}"
                                  if instructions.strip() else "")
    return _request(request_base, messages, ask)


def _request(request_base: dict[str, Any], messages: Messages, ask: str) -> dict[str, Any]:
    history = normalize_for_api([*messages, {"role": "user", "content": [
        {"type": "text", "text": ask}]}])
    return {**request_base, "messages": history}


def _stub_results(messages: Messages, keep_recent: int, cut_inputs: bool) -> Messages:
    """A copy with tool results (except in the last `keep_recent` messages) stubbed."""
    out = copy.deepcopy(messages)
    limit = len(out) - keep_recent
    for i, message in enumerate(out):
        if i >= limit or not isinstance(message.get("content"), list):
            continue
        for block in message["content"]:
            if block.get("type") == "tool_result":
                size = len(str(block.get("content", "")))
                block["content"] = STUB.format(size=size)
            elif cut_inputs and block.get("type") == "tool_use":
                block["input"] = {k: (v[:LONG_INPUT_CHARS] + " [cut]" if isinstance(v, str)
                                      and len(v) > LONG_INPUT_CHARS else v)
                                  for k, v in block.get("input", {}).items()}
    return out


def _prompt_boundaries(messages: Messages) -> list[int]:
    """Indexes where a turn starts (a user message that is not tool results), after the first."""
    return [i for i, m in enumerate(messages) if i > 0 and m.get("role") == "user"
            and not any(isinstance(b, dict) and b.get("type") == "tool_result"
                        for b in _blocks(m.get("content")))]


def _blocks(content: Any) -> list[Any]:
    """A message's content blocks; none for a plain-text content."""
    return content if isinstance(content, list) else []


def _carried(summary: str) -> Messages:
    return [{"role": "user", "content": [{"type": "text",
                                          "text": EARLIER_PARTS.format(summary=summary)}]}]


@dataclass
class _Fitter:
    """Builds summary requests that fit `budget` tokens; summarises old parts when needed."""

    api: ApiClient
    request_base: dict[str, Any]
    instructions: str
    budget: int

    def fits(self, request: dict[str, Any]) -> bool:
        return estimate_tokens(request) <= self.budget

    def trimmed(self, messages: Messages, build: Callable[[Messages], dict[str, Any]]
                ) -> dict[str, Any] | None:
        for candidate in (messages,
                          _stub_results(messages, KEEP_RECENT_MESSAGES, cut_inputs=False),
                          _stub_results(messages, 0, cut_inputs=True)):
            request = build(candidate)
            if self.fits(request):
                return request
        return None

    async def summarise(self, messages: Messages) -> str:
        final = self.trimmed(messages, lambda m: summary_request(self.request_base, m,
                                                                 self.instructions))
        if final is not None:
            return await _ask(self.api, final)
        rest = _stub_results(messages, 0, cut_inputs=True)
        carried = ""
        while True:
            prefix = _carried(carried) if carried else []
            final = summary_request(self.request_base, [*prefix, *rest], self.instructions)
            if self.fits(final):
                return await _ask(self.api, final)
            cut = self._oldest_part(prefix, rest)
            carried = await _ask(self.api, _request(self.request_base, [*prefix, *rest[:cut]],
                                                    PART_INSTRUCTIONS))
            rest = rest[cut:]

    def _oldest_part(self, prefix: Messages, rest: Messages) -> int:
        """How many of the oldest messages to summarise next: the most that fit, cut at a turn
        boundary when one fits, else at least one message."""
        low, high = 0, len(rest) - 1  # the largest fitting cut, by bisection (fit is monotonic)
        while low < high:
            mid = (low + high + 1) // 2
            if self.fits(_request(self.request_base, [*prefix, *rest[:mid]], PART_INSTRUCTIONS)):
                low = mid
            else:
                high = mid - 1
        turns = [b for b in _prompt_boundaries(rest) if b <= low]
        best = turns[-1] if turns else low
        if best == 0 and len(rest) > 1:
            best = 1
        if best == 0:
            raise ApiError("Compaction failed: a single message is larger than the context "
                           "window.", context_overflow=True)
        return best


async def _ask(api: ApiClient, request: dict[str, Any]) -> str:
    result = await side_query(api, request, purpose="compact")
    return result.text


async def compact_messages(
    api: ApiClient,
    request_base: dict[str, Any],
    messages: Messages,
    *,
    instructions: str = "",
    pre_tokens: int = 0,
    context_window: int | None = None,
) -> CompactionResult:
    """Summarise `messages` with requests that fit `context_window` (when given)."""
    room = min(SUMMARY_ROOM_TOKENS, (context_window or 0) // 8)
    budget = (context_window - room) if context_window else 1 << 62
    summary = ""
    for attempt in range(FIT_ATTEMPTS):
        fitter = _Fitter(api, request_base, instructions, max(budget, 1_000))
        try:
            summary = await fitter.summarise(messages)
            break
        except ApiError as exc:
            if not exc.context_overflow or attempt == FIT_ATTEMPTS - 1 or context_window is None:
                raise
            budget = int(min(budget, context_window) * 0.7)  # our estimate ran short: aim lower
    if not summary:
        raise ApiError("Compaction failed: the model returned an empty summary.")
    text = CONTINUATION.format(summary=summary,
                               last_request=last_prompt_text(messages) or "(none)")
    new_history = [{"role": "user", "content": [{"type": "text", "text": text}]}]
    return CompactionResult(summary, new_history, pre_tokens, {})
