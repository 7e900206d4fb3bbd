"""An MCP server's question in the REPL: the fields asked one by one on the input side.

The REPL gets the question as ElicitationRequested and answers with the result; the field
prompts are `frontends/plain/elicitation.py`'s. The server's words are printed without their escape
sequences.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from claude_harness.frontends.plain.elicitation import PlainElicitationHandler
from claude_harness.frontends.plain.input import InputSide
from claude_harness.mcp.elicitation import ElicitationAnswer
from claude_harness.text.terminal_safety import strip_unsafe


async def answer_question(request: Any, input_side: InputSide,
                          write: Callable[[str], None]) -> ElicitationAnswer:
    """Ask the user `request` (an ElicitationRequest); their answer."""
    safe = replace(request, message=strip_unsafe(request.message),
                   url=strip_unsafe(request.url) if request.url else request.url)
    return await PlainElicitationHandler(read=input_side.ask_line, write=write).elicit(safe)
