"""WebFetch's side request: the small fast model (ANTHROPIC_SMALL_FAST_MODEL, else the haiku
alias) reads the page and answers the prompt, so the main conversation gets the answer and not
the whole page. Without an API client (a unit test, a tool run outside a session) the page text
itself is returned."""

from __future__ import annotations

from typing import Any

from claude_harness.api.models import small_fast_model
from claude_harness.api.request_params import side_request_params
from claude_harness.protocol.context import SideQuery

SYSTEM = ("You answer a question about one web page for another model, which will act on your "
          "answer. Use only the page content given.")
GUIDE = """\
Answer from the content above only, concisely. Quote at most 125 characters of any passage \
word for word, in quotation marks; say everything else in your own words. If the page does not \
hold the answer, say so."""


def answer_request(model: str, page_text: str, prompt: str, url: str, more: str) -> dict[str, Any]:
    content = (f"Web page content ({url}):\n---\n{page_text}\n---\n"
               f"{more + chr(10) if more else ''}\n{prompt}\n\n{GUIDE}")
    params = side_request_params(model)
    return {"model": model, "max_tokens": params.pop("max_tokens"),
            "system": [{"type": "text", "text": SYSTEM}],
            "messages": [{"role": "user", "content": [{"type": "text", "text": content}]}],
            **params}


async def answer_about(side_query: SideQuery | None, page_text: str, prompt: str, url: str,
                       more: str) -> str:
    """The small model's answer to `prompt` about the page (or the page text, without an API)."""
    if side_query is None:
        return f"{page_text}\n\n{more}".strip()
    request = answer_request(small_fast_model(), page_text, prompt, url, more)
    result = await side_query(request, purpose="web_fetch")
    answer = result.text or "(the model gave no answer about this page)"
    return f"{answer}\n\n{more}".strip()
