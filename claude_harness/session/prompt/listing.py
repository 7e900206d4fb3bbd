"""The `role: system` message Claude Code 2.1.332 sends right after the first user message: the
agent types the Agent tool offers and the skills the Skill tool loads (see
`/work/ref/cc_request_first.json`). It lives outside the history (QueryParams.context_message),
so the cached prefix never moves and compaction or /clear never lose it.
"""

from __future__ import annotations

from typing import Any

PARALLEL_HINT = ("To run several agents on independent work at once, start them in one message "
                 "with several Agent calls.")


def context_message(catalog: Any, tools: tuple[Any, ...]) -> dict[str, Any] | None:
    """The message for a session with these tools (a listing only for a tool it has)."""
    names = {t.name for t in tools}
    parts: list[str] = []
    if "Agent" in names:
        parts.append(f"{catalog.agent_listing()}\n\n{PARALLEL_HINT}")
    if "Skill" in names and (skills := catalog.skill_listing()):
        parts.append(skills)
    if not parts:
        return None
    return {"role": "system", "content": [{"type": "text", "text": "\n\n".join(parts)}]}
