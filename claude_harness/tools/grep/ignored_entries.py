"""Which entries of one folder the @-path completion leaves out: what .gitignore (and git's
exclude files) ignore while `respectGitignore` is on (Claude Code's default), and what
`.ignore` / `.rgignore` files ignore always (Claude Code: ".ignore files are always respected").

ripgrep decides, exactly as Grep and Glob do: it reads the ignore files itself and runs
nothing a repository configures. One `rg --files --max-depth 1 --debug` names each ignored
entry of the folder and the ignore file that matched it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from claude_harness.tools.grep.ignore_files import respects_gitignore

_IGNORED = re.compile(r'ignoring (.+?): Ignore\(IgnoreMatch\(Gitignore\(Glob \{ from: Some\("(.*?)"\)')
_ALWAYS = (".ignore", ".rgignore")
_TIMEOUT_SECONDS = 2.0


def ignored_entries(folder: Path) -> set[str]:
    """Names in `folder` to leave out (empty when rg is missing, slow or fails)."""
    from claude_harness.tools.grep.ripgrep import find_rg

    try:
        done = subprocess.run(
            [find_rg(), "--no-config", "--files", "--max-depth", "1", "--hidden", "--debug",
             "--glob", "!.git", "."], cwd=folder, capture_output=True, text=True,
            timeout=_TIMEOUT_SECONDS, errors="replace")
    except Exception:  # noqa: BLE001 - rg missing, slow or failing never breaks typing
        return set()
    respect = respects_gitignore()
    names: set[str] = set()
    for match in _IGNORED.finditer(done.stderr):
        source = match.group(2)
        if respect or source.endswith(_ALWAYS):
            names.add(Path(match.group(1)).name)
    return names
