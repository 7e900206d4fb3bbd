"""Preview an in-place `sed -i` before it runs, and make the approved preview the real edit.

Why: a user asked to approve `sed -i 's/foo/bar/g' src/app.py` cannot see what it will do. We run
the very same sed on a temporary copy, show the diff, and hand the Bash tool the resulting content
(`_simulated_sed_edit`) so what lands on disk is exactly what was shown, even if the file or sed
would behave differently a moment later. Only the simple, checkable form is simulated: one sed
command, one existing text file inside the working dirs, a script without w/W/e/r commands, no
backup suffix. Anything else returns None and goes through the normal prompt.
"""

from __future__ import annotations

import difflib
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from claude_harness.permissions.bash_parse import resolve_path
from claude_harness.permissions.bash_sed import sed_script_is_safe, sed_scripts
from claude_harness.permissions.paths import inside_any
from claude_harness.permissions.types import PermissionContext

MAX_FILE_BYTES = 1_000_000
SED_TIMEOUT_S = 5.0
_ALLOWED_FLAGS = {"-i", "--in-place", "-E", "-r", "--regexp-extended", "-n", "--quiet",
                  "--silent", "-s", "--separate", "-z", "--null-data", "--posix"}


@dataclass(frozen=True)
class SedSimulation:
    file_path: str
    new_content: str
    diff: str

    @property
    def updated_input(self) -> dict[str, object]:
        return {"_simulated_sed_edit": {"file_path": self.file_path,
                                        "new_content": self.new_content}}


def _single_sed(
    command: str, perm: PermissionContext, shell_cwd: Path | None
) -> tuple[list[str], Path] | None:
    from claude_harness.permissions.bash_security import analyse

    analysis = analyse(command, shell_cwd or perm.cwd, perm.working_dirs)
    if analysis.fatal or analysis.hazards or len(analysis.views) != 1:
        return None
    view = analysis.views[0]
    argv = view.argv
    if not argv or argv[0] != "sed" or view.cmd.redirects or view.cmd.assignments:
        return None
    if argv != view.cmd.words:  # no wrappers: we re-run exactly these words
        return None
    scripts, flags, files = sed_scripts(argv[1:])
    if "-i" not in flags and "--in-place" not in flags:
        return None
    if any(f not in _ALLOWED_FLAGS for f in flags):
        return None  # -i.bak, combined clusters, --follow-symlinks...: not simulated
    if len(files) != 1 or not scripts or not all(sed_script_is_safe(s) for s in scripts):
        return None
    path = resolve_path(files[0], view.cmd.cwd)
    if not inside_any(path, perm.working_dirs) or not path.is_file():
        return None
    if path.stat().st_size > MAX_FILE_BYTES:
        return None
    return argv, path


def simulate_sed(
    command: str, perm: PermissionContext, shell_cwd: Path | None = None
) -> SedSimulation | None:
    """Run the command's sed on a copy; None when the command is not a simulatable `sed -i`."""
    found = _single_sed(command, perm, shell_cwd)
    if found is None:
        return None
    argv, path = found
    sed = shutil.which("sed")
    if sed is None:
        return None
    try:
        original = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    file_word = sed_scripts(argv[1:])[2][0]
    with tempfile.TemporaryDirectory(prefix="sed-preview-") as tmp:
        copy = Path(tmp) / path.name
        shutil.copyfile(path, copy)
        args = [sed if i == 0 else (str(copy) if a == file_word and i == _last_index(argv, file_word)
                                    else a) for i, a in enumerate(argv)]
        try:
            proc = subprocess.run(args, capture_output=True, timeout=SED_TIMEOUT_S, check=False,
                                  cwd=tmp, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if proc.returncode != 0:
            return None
        try:
            new = copy.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
    diff = "".join(difflib.unified_diff(
        original.splitlines(keepends=True), new.splitlines(keepends=True),
        fromfile=str(path), tofile=str(path)))
    return SedSimulation(str(path), new, diff or "(no changes)")


def _last_index(words: list[str], word: str) -> int:
    return len(words) - 1 - words[::-1].index(word)
