"""The `?` shortcuts panel: typed on an empty prompt it lists the keys instead of inserting a
`?` (as Claude Code does); typing anything, or `?` again, puts it away.

One list for both front ends (the app's hint area, the REPL's toolbar), so they never drift
apart; the REPL leaves out the keys only the app's screens have (SCREEN_ONLY).
"""

from __future__ import annotations

from itertools import zip_longest

SHORTCUTS = (
    ("! for shell command", "shift+tab to cycle modes", "ctrl+_ to undo"),
    ("/ for commands", "esc to interrupt", "ctrl+r to search history"),
    ("@ for file paths", "ctrl+c twice to exit", "ctrl+g to edit in $EDITOR"),
    ("\\⏎ or shift+⏎ for newline", "ctrl+o for details", "ctrl+v to paste an image"),
    ("pageup/pagedown to scroll", "ctrl+t for todos", "alt+p to switch model"),
    ("/vim for vim keys", "ctrl+s to stash prompt", "/keybindings to rebind keys"),
)
SCREEN_ONLY = frozenset({"ctrl+o for details", "pageup/pagedown to scroll", "ctrl+t for todos"})
"""The app's own screens: the details view, its scrolled transcript, the todo panel (the
REPL's transcript is the terminal's scrollback)."""


def shortcuts_text(leave_out: frozenset[str] = frozenset()) -> str:
    """The panel's rows in three even columns; what is left out closes up in reading order."""
    kept = [entry for row in SHORTCUTS for entry in row if entry not in leave_out]
    rows = list(zip_longest(*[iter(kept)] * 3, fillvalue=""))
    widths = [max(len(row[col]) for row in rows) + 4 for col in range(2)]
    return "\n".join(f"{a:<{widths[0]}}{b:<{widths[1]}}{c}".rstrip() for a, b, c in rows)
