"""Preview an in-place `sed -i` before it runs, and make the approved preview the real edit.

Why: a user asked to approve `sed -i 's/foo/bar/g' src/app.py` cannot see what it will do. We run
the very same sed on a temporary copy, show the diff, and hand the Bash tool the resulting content
(`_simulated_sed_edit`) so what lands on disk is exactly what was shown, even if the file or sed
would behave differently a moment later. Only the simple, checkable form is simulated: one sed
command, one existing text file inside the working dirs, a script without w/W/e/r commands, no
backup suffix. Anything else returns None and goes through the normal prompt.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from claude_harness.permissions.bash.analysis import Analysis
from claude_harness.permissions.bash.options import Arg, OptionError
from claude_harness.permissions.bash.scripts import read_sed_call, read_sed_script
from claude_harness.permissions.paths import inside_any, real
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.text.bounded_diff import unified_lines

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
    analysis: Analysis, perm: PermissionContext
) -> tuple[list[str], str, Path] | None:
    """(argv, the file operand as written, its path) of a plain `sed -i SCRIPT FILE`."""
    if analysis.fatal or analysis.problems or len(analysis.facts) != 1:
        return None
    fact = analysis.facts[0]
    if fact.program != "sed" or fact.problems or fact.redirect_writes:
        return None
    if fact.allow_form is None or len(fact.forms) != 1 or fact.forms[0] != fact.allow_form:
        return None  # wrappers, assignments or a path to sed: we re-run exactly these words
    argv = fact.allow_form
    try:
        call = read_sed_call([Arg(a, source=a) for a in argv[1:]])
    except OptionError:
        return None
    flags = [a for a in argv[1:] if a.startswith("-") and a not in {c for c in call.scripts if c}]
    if not call.in_place or call.suffix or call.script_files:
        return None
    if any(f not in _ALLOWED_FLAGS and not f.startswith(("-e", "--expression")) for f in flags):
        return None  # clusters, --follow-symlinks...: not simulated
    if len(call.files) != 1 or not call.scripts or any(s is None for s in call.scripts):
        return None
    if any(read_sed_script(s or "").problems or read_sed_script(s or "").reads
           or read_sed_script(s or "").writes for s in call.scripts):
        return None
    word = call.files[0].value
    if word is None or fact.cwd is None:
        return None
    path = real(fact.cwd / word, perm.cwd)
    if not inside_any(path, perm.working_dirs) or not path.is_file():
        return None
    if path.stat().st_size > MAX_FILE_BYTES:
        return None
    return argv, word, path


def simulate_sed(analysis: Analysis, perm: PermissionContext) -> SedSimulation | None:
    """Run the command's sed on a copy; None when the command is not a simulatable `sed -i`.
    `analysis`: the Bash analysis the decision was made from (the same view, not a re-read)."""
    found = _single_sed(analysis, perm)
    if found is None:
        return None
    argv, file_word, path = found
    sed = shutil.which("sed")
    if sed is None:
        return None
    try:
        original = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    with tempfile.TemporaryDirectory(prefix="sed-preview-") as tmp:
        copy = Path(tmp) / path.name
        shutil.copyfile(path, copy)
        args = [sed if i == 0 else (str(copy) if a == file_word and i == _last_index(argv, file_word)
                                    else a) for i, a in enumerate(argv)]
        # GNU sed's --sandbox refuses e/w/r commands: the script was checked for them, and
        # this makes sure the preview itself can never run or write anything
        args.insert(1, "--sandbox")
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
    # bounded in time (a summary line past its deadline): this runs before the prompt shows
    body = unified_lines(original, new, context=3).lines
    diff = "".join(f"{line}\n" for line in [f"--- {path}", f"+++ {path}", *body]) if body else ""
    return SedSimulation(str(path), new, diff or "(no changes)")


def _last_index(words: list[str], word: str) -> int:
    return len(words) - 1 - words[::-1].index(word)
