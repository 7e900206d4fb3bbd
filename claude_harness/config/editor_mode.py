"""`editorMode`: "vim" gives the prompt vim's NORMAL/INSERT editing, anything else the usual
keys; `vimInsertModeRemaps` ({"jj": "<Esc>"}) leaves INSERT on two typed characters. Read
as Claude Code reads them: the settings files (user, project, local; the most specific wins),
else, for `editorMode`, the global config's own (`.claude.json`).

Plain json, not the settings models: both front ends read it before their first prompt.
"""

from __future__ import annotations

from pathlib import Path

from claude_harness.config.early_settings import most_specific, read_key
from claude_harness.config.trust import claude_code_config


def editor_mode(cwd: Path) -> str:
    """"vim" or "normal" ("emacs", Claude Code's old name, is normal)."""
    chosen = most_specific(cwd, "editorMode")
    if chosen is None:
        chosen = read_key(claude_code_config(), "editorMode")
    return "vim" if chosen == "vim" else "normal"


def insert_remaps(cwd: Path) -> frozenset[str]:
    """The two-character sequences that leave INSERT, as Claude Code takes them: exactly two
    visible characters, "<Esc>" the only target (others are left out)."""
    chosen = most_specific(cwd, "vimInsertModeRemaps")
    if not isinstance(chosen, dict):
        return frozenset()
    return frozenset(k for k, v in chosen.items() if v == "<Esc>" and isinstance(k, str)
                     and len(k) == 2 and all(c.isprintable() and not c.isspace() for c in k))

