"""The WebFetch tool: fetch a URL, convert it, and let the small fast model answer the prompt.

Claude Code's contract: parameters `url`, `prompt` (and `offset` to page through a long page);
the result is the small model's answer about the page, not the page. The answer comes from a
side request through the session's API client (its cost counts in the session's totals); an
image comes back as an image block for the main model to look at itself.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from pydantic import Field

from claude_harness.api.errors import ApiError
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
    ValidationResult,
    build_tool,
    load_prompt,
)
from claude_harness.tools.web_fetch.answer import answer_about
from claude_harness.tools.web_fetch.convert import Page, to_page
from claude_harness.tools.web_fetch.fetch import Consent, Redirected, fetch, normalise_url
from claude_harness.tools.web_fetch.presentation import PRESENTATION
from claude_harness.tools.web_fetch.target import subject_url

CACHE_TTL_S = 15 * 60
CACHE_ENTRIES = 32
MAX_CONTENT_CHARS = 100_000  # page text given to the small model per call


class WebFetchInput(ToolInput):
    url: str = Field(description="The URL to fetch content from")
    prompt: str = Field(description="The prompt to run on the fetched content")
    offset: int | None = Field(
        None, ge=0,
        description="Character position in the page text to start reading from. Use it to read "
                    "on through a page too long for one call, with the value the previous result "
                    "gave.")


class PageCache:
    """Converted pages by URL for 15 minutes (a few dozen at most, oldest dropped first)."""

    def __init__(self, ttl: float = CACHE_TTL_S, entries: int = CACHE_ENTRIES) -> None:
        self.ttl, self.entries = ttl, entries
        self._pages: OrderedDict[str, tuple[float, Page | Redirected]] = OrderedDict()

    def get(self, url: str) -> Page | Redirected | None:
        hit = self._pages.get(url)
        if hit is None or time.monotonic() - hit[0] > self.ttl:
            self._pages.pop(url, None)
            return None
        return hit[1]

    def put(self, url: str, page: Page | Redirected) -> None:
        self._pages[url] = (time.monotonic(), page)
        self._pages.move_to_end(url)
        while len(self._pages) > self.entries:
            self._pages.popitem(last=False)


CACHE = PageCache()


def consent_for(ctx: ToolUseContext, url: str) -> Consent:
    """What this call's permission context settled for the fetch (fetch.Consent): internal
    addresses only under an allow rule naming the host; hops that a deny or ask rule covers
    are handed back to the model, so the full permission chain decides them."""
    from claude_harness.permissions.rules import names_host_exactly, rule_matches

    perm = ctx.permission
    guarded = (*perm.rules_for("deny"), *perm.rules_for("ask"))

    def hop_refused(hop: str) -> bool:
        return any(rule_matches(rule, "WebFetch", hop, perm.cwd) for rule in guarded)

    return Consent(names_host_exactly(perm.rules_for("allow"), url), hop_refused)


async def _load(url: str, consent: Consent) -> tuple[Page | Redirected, bool]:
    """(the page, whether it came from the cache)."""
    cached = CACHE.get(url)
    if cached is not None:
        return cached, True
    fetched = await fetch(url, consent=consent)
    page = fetched if isinstance(fetched, Redirected) else to_page(fetched)
    CACHE.put(url, page)
    return page, False


def _redirect_message(redirect: Redirected) -> str:
    return (f"REDIRECT DETECTED: {redirect.url} redirects (HTTP {redirect.status}) to another "
            f"host: {redirect.location}\nIt was not followed. To read it, call WebFetch again "
            f'with url="{redirect.location}" and the same prompt.')


def _window(page: Page, offset: int) -> tuple[str, str]:
    """The slice of the page text for this call, and a note on what lies beyond it."""
    if offset >= len(page.text) and page.text:
        raise ToolError(f"offset {offset} is past the end of the page ({len(page.text)} "
                        "characters).", code="bad_offset")
    end = offset + MAX_CONTENT_CHARS
    piece = page.text[offset:end]
    notes = []
    if end < len(page.text):
        notes.append(f"[Page text continues: {len(page.text) - end} more characters; call "
                     f"WebFetch again with offset={end} to read on.]")
    if page.truncated:
        notes.append("[The download stopped at the size limit; the end of the page is missing.]")
    return piece, "\n".join(notes)


async def call(inp: WebFetchInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    started = time.monotonic()
    url = normalise_url(inp.url)
    page, cached = await _load(url, consent_for(ctx, url))
    if isinstance(page, Redirected):
        return ToolResult({"url": url, "code": page.status, "codeText": "Redirect",
                           "bytes": 0, "result": _redirect_message(page),
                           "durationMs": _ms(started)})
    data: dict[str, Any] = {"url": url, "code": page.status, "codeText": page.reason,
                            "bytes": page.size, "durationMs": 0, "cached": cached}
    if page.images:
        note = {"type": "text", "text": f"Image fetched from {page.url} ({page.size} bytes)."}
        return ToolResult({**data, "durationMs": _ms(started), "result": [note, *page.images]})
    piece, more = _window(page, inp.offset or 0)
    try:
        answer = await answer_about(ctx.side_query, piece, inp.prompt, page.url, more)
    except ApiError as exc:
        answer = (f"(The model that answers about pages failed: {exc.message}. The page text "
                  f"follows.)\n\n{piece}\n\n{more}").strip()
    return ToolResult({**data, "durationMs": _ms(started), "result": answer})


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


async def _validate(inp: WebFetchInput, ctx: ToolUseContext) -> ValidationResult:
    try:
        normalise_url(inp.url)
    except ToolError as exc:
        return ValidationResult.fail(exc.message, exc.code)
    if not inp.prompt.strip():
        return ValidationResult.fail("prompt must say what to find on the page.")
    return ValidationResult()


def _render(data: Any) -> Any:
    return data["result"] if isinstance(data, dict) else str(data)


TOOL = build_tool(
    name="WebFetch",
    presentation=PRESENTATION,
    description=load_prompt(__file__),
    input_model=WebFetchInput,
    call=call,
    validate_input=_validate,
    is_read_only=lambda inp: True,
    is_concurrency_safe=lambda inp: True,
    permission_subject=lambda inp: subject_url(inp.url),
    key_argument=lambda inp: inp.url,
    render_result=_render,
    max_result_size_chars=100_000,
    search_hint="fetch a web page URL and read or summarise it",
)
