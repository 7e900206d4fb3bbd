"""The `?` shortcuts panel: typed on an empty prompt it lists the keys instead of inserting a
`?` (as Claude Code does); typing anything, or `?` again, puts it away."""

from __future__ import annotations

SHORTCUTS = (
    ("! for shell command", "shift+tab to cycle modes", "ctrl+_ to undo"),
    ("/ for commands", "esc to interrupt", "ctrl+r to search history"),
    ("@ for file paths", "ctrl+c twice to exit", "ctrl+g to edit in $EDITOR"),
    ("\\⏎ or shift+⏎ for newline", "ctrl+o for details", "ctrl+v to paste an image"),
    ("pageup/pagedown to scroll", "ctrl+t for todos", "alt+p to switch model"),
    ("/vim for vim keys", "ctrl+s to stash prompt", "/keybindings to rebind keys"),
)


def shortcuts_text() -> str:
    """The panel's rows in three even columns."""
    widths = [max(len(row[col]) for row in SHORTCUTS) + 4 for col in range(2)]
    return "\n".join(f"{a:<{widths[0]}}{b:<{widths[1]}}{c}" for a, b, c in SHORTCUTS)
