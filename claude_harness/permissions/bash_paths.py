"""Which arguments of a simple command name files, and which of them lead outside the project.

Why: the read-only set is only safe inside the working directories; every argument may be a
path (a relative name can be a repo symlink to ~/.ssh), so each is resolved through `..`,
`~user` and symlinks before it is compared component-wise.
"""

from __future__ import annotations

import glob
import re
from pathlib import Path

from claude_harness.permissions.bash_parse import SimpleCommand, resolve_path

_PATTERN_FIRST = {"grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "jq", "git"}
# Programs whose arguments are strings, not files: nothing to check.
_NO_PATH_ARGS = {"echo", "printf", "tr", "seq", "expr", "sleep", "date", "test", "[", "true",
                 "false", "uname", "id", "whoami", "nproc", "type", "which", "command",
                 "basename", "dirname", ":", "groups", "locale", "getconf", "hostname"}
_SPECIAL_FILES = {"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "-"}
_DOT_GLOB = re.compile(r"(^|/)\.[*?\[]")


def _pattern_from_option(args: list[str]) -> bool:
    """`grep -e PAT`, `-ePAT`, `-rf FILE`, `sed -ne p`, `jq -f prog`: then the first positional
    is a file, not the pattern. Any short cluster holding e or f counts (conservative)."""
    for a in args:
        if a == "--":
            break
        if a.startswith("--"):
            if a.split("=", 1)[0] in {"--regexp", "--file", "--expression", "--from-file",
                                      "--source"}:
                return True
        elif a.startswith("-") and ("e" in a[1:] or "f" in a[1:]):
            return True
    return False


def path_arguments(argv: list[str]) -> list[str]:
    """Arguments that may name files (for the inside-working-dirs check).

    Every positional counts (a relative name may be a symlink leading out of the project), as
    does the value of `--opt=/path`. The first positional of pattern-taking programs
    (`grep PATTERN`, `sed SCRIPT`) is skipped unless the pattern came from `-e`.
    """
    if not argv or argv[0] in _NO_PATH_ARGS:
        return []
    out: list[str] = []
    skip_first = argv[0] in _PATTERN_FIRST and not _pattern_from_option(argv[1:])
    after_dd = False
    for arg in argv[1:]:
        if arg == "--" and not after_dd:
            after_dd = True
            continue
        if skip_first and (after_dd or not arg.startswith("-")):
            skip_first = False
            continue
        if arg.startswith("-") and not after_dd:
            if "=" in arg:
                value = arg.split("=", 1)[1]
                if value.startswith(("/", "~", "..")):
                    out.append(value)
            continue
        out.append(arg)
    return out


def outside_paths(argv: list[str], cmd: SimpleCommand, working_dirs: tuple[Path, ...]) -> list[str]:
    """Arguments that resolve (through `..`, `~user` and symlinks) outside every working dir.

    Also: an unquoted glob component starting with a dot (`.*/x`) may match `..`, and values of
    wrapper options (`xargs -a FILE`, `timeout --foo=/x`) are paths too.
    """
    from claude_harness.permissions.bash_parse import unquoted_text
    from claude_harness.permissions.paths import is_inside

    outside: list[str] = []
    candidates = path_arguments(argv)
    prefix = cmd.words[: len(cmd.words) - len(argv)] if argv == cmd.words[-len(argv):] else []
    candidates += [w for w in prefix[1:] if not w.startswith("-") and ("/" in w or w == "..")]
    for arg in candidates:
        if arg in _SPECIAL_FILES:
            continue
        if not any(is_inside(resolve_path(arg, cmd.cwd), d) for d in working_dirs):
            outside.append(arg)
    if argv and argv[0] not in _NO_PATH_ARGS:
        for raw, word in zip(cmd.raw_words[1:], cmd.words[1:], strict=False):
            bare = unquoted_text(raw)
            if _DOT_GLOB.search(bare) and raw not in outside:
                outside.append(raw)
            elif re.search(r"[*?\[]", bare) and raw not in outside:
                if _glob_leaves(word, cmd.cwd, working_dirs):
                    outside.append(raw)
    return outside


MAX_GLOB_MATCHES = 2_000


def _glob_leaves(pattern: str, cwd: Path, working_dirs: tuple[Path, ...]) -> bool:
    """Expand a glob as bash would (no dotfiles) and check every match: `*/*` can walk
    through a repo symlink. Too many matches to check counts as leaving."""
    from claude_harness.permissions.paths import is_inside

    if pattern.startswith("~"):
        pattern = str(resolve_path(pattern.split("/", 1)[0], cwd)) + (
            "/" + pattern.split("/", 1)[1] if "/" in pattern else "")
    try:
        matches = glob.glob(pattern, root_dir=cwd) if not pattern.startswith("/") else glob.glob(
            pattern)
    except (OSError, ValueError):
        return True
    if len(matches) > MAX_GLOB_MATCHES:
        return True
    return any(
        not any(is_inside(resolve_path(m, cwd), d) for d in working_dirs) for m in matches
    )
