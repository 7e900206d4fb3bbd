"""Words every front end uses the same way (imports nothing: the footer needs it at first paint)."""

# How every front end names a permission mode (the footer, the toolbar, Shift+Tab's echo).
MODE_LABELS = {
    "default": "default mode",
    "acceptEdits": "⏵⏵ accept edits on",
    "plan": "⏸ plan mode on",
    "bypassPermissions": "⏵⏵ bypass permissions on",
    "dontAsk": "don't ask mode",
    "auto": "auto mode",
}
