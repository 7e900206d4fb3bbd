"""The app's interactive panels: the settings panels (/config, /permissions, /hooks), shown in
the dock in place of the prompt, and /mcp and /agents (modal screens over the conversation).

Each asks the session with ops and draws the Reports that answer, sending changes back as ops;
`deliver` hands such a Report to the open panel that asked for its topic, so the link needs one
line for all of them. Nothing here is imported before a panel opens, never on the way to the
first paint.
"""


from __future__ import annotations

from typing import Any


def deliver(app: Any, event: Any) -> bool:
    """Give a Report (or a Notice) to the open panels that want it; True when a panel took
    a Report (it is then not printed in the conversation)."""
    taken = False
    for screen in list(getattr(app, "screen_stack", ())):
        receive = getattr(screen, "receive", None)
        if receive is not None and receive(event):
            taken = True
    return taken
