"""The session-wide choice for file edits, as Claude Code offers it: "Yes, and don't ask
again" on an edit inside the project switches the session to acceptEdits (Shift+Tab's mode)
rather than saving an `Edit(/**)` rule to the settings file that outlives the session.

Shared by the session (what the answer does) and both front ends (what the option says).
"""

from __future__ import annotations

from claude_harness.protocol.events import PermissionRequest

FILE_EDIT_TOOLS = frozenset({"Edit", "Write", "NotebookEdit"})
SESSION_EDITS_LABEL = "Yes, allow all edits during this session (shift+tab)"


def offers_session_edits(request: PermissionRequest) -> bool:
    """True for a file edit whose suggested rule is inside the project (`Edit(/...)`); one
    outside it (`Edit(//abs/...)`) keeps its rule, as acceptEdits covers only the project."""
    suggestion = request.suggestion or ""
    return (request.tool_name in FILE_EDIT_TOOLS and suggestion.startswith("Edit(/")
            and not suggestion.startswith("Edit(//"))


def always_label(request: PermissionRequest) -> str | None:
    """The second option's words, or None when there is no "don't ask again" to offer."""
    if not request.suggestion:
        return None
    if offers_session_edits(request):
        return SESSION_EDITS_LABEL
    return f"Yes, and don't ask again for {request.suggestion}"
