"""Safety checks that always prompt, whatever the mode or the allow rules say.

Why: some writes execute code later (git hooks, shell start-up files, `.claude/settings.json`
hooks, `.mcp.json` servers) and some deletions cannot be undone (`rm -rf ~`). An allow rule
written for everyday work must not silently cover them, and neither may acceptEdits or
bypassPermissions. Paths are resolved (`~`, `..`, symlinks) before any comparison, and
comparisons are component-wise.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import re
from pathlib import Path
from urllib.parse import urlparse

from claude_harness.permissions.bash_parse import unquoted_text
from claude_harness.permissions.paths import expand, is_inside, real

PROTECTED_DIRS = frozenset({
    ".git", ".vscode", ".idea", ".husky", ".cargo", ".devcontainer", ".yarn", ".mvn", ".claude",
})
PROTECTED_DIR_PAIRS = ((".config", "git"),)
PROTECTED_EXCEPTIONS = ((".claude", "worktrees"),)
PROTECTED_FILES = (
    ".gitconfig", ".gitmodules", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout",
    ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".profile", ".envrc", ".npmrc", ".yarnrc*",
    ".pnp.*", "bunfig.toml", ".bazelrc", ".pre-commit-config.yaml", "lefthook.y*ml",
    "gradle-wrapper.properties", ".devcontainer.json", ".ripgreprc", "pyrightconfig.json",
    ".mcp.json", ".claude.json", ".inputrc", ".git",
)

# Commands whose non-flag arguments are (or may be) files they write.
WRITE_COMMANDS = frozenset({
    "tee", "cp", "mv", "touch", "mkdir", "rm", "rmdir", "ln", "chmod", "chown", "chgrp",
    "truncate", "install", "rsync", "shred", "unlink", "patch",
})


def _parts_under_root(path: Path, roots: tuple[Path, ...]) -> tuple[str, ...]:
    for root in roots:
        if is_inside(path, root):
            try:
                return path.relative_to(root).parts
            except ValueError:
                try:
                    return path.relative_to(Path(root).resolve()).parts
                except ValueError:
                    continue
    return path.parts


def _protected_parts(parts: tuple[str, ...]) -> str | None:
    for i, part in enumerate(parts):
        if part in PROTECTED_DIRS and i < len(parts) - 1:
            if any(parts[i : i + 2] == pair for pair in PROTECTED_EXCEPTIONS):
                return None
            return part + "/"
        if i + 1 < len(parts) and (part, parts[i + 1]) in PROTECTED_DIR_PAIRS:
            return f"{part}/{parts[i + 1]}/"
    if parts:
        name = parts[-1]
        if name in PROTECTED_DIRS:
            return name
        for pattern in PROTECTED_FILES:
            if fnmatch.fnmatchcase(name, pattern):
                return name
    return None


def protected_reason(path: str | Path, cwd: Path, working_dirs: tuple[Path, ...]) -> str | None:
    """Why writing `path` needs a human, or None. Checks the path as named and its target."""
    roots = working_dirs or (cwd,)
    for form in (expand(path, cwd), real(path, cwd)):
        hit = _protected_parts(_parts_under_root(form, roots))
        if hit:
            return f"writes to {_show(form, Path(roots[0]))} (protected: {hit})"
    return None


def _show(path: Path, cwd: Path) -> str:
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        home = Path.home()
        try:
            return "~/" + str(path.relative_to(home))
        except ValueError:
            return str(path)


def critical_delete_reason(
    target_raw: str, target: str, cwd: Path, working_dirs: tuple[Path, ...]
) -> str | None:
    """Why deleting `target` is catastrophic, or None.

    `target_raw` is the word as written (to see variables and unquoted globs), `target` the
    word after quote removal.
    """
    bare = unquoted_text(target_raw)
    if "$" in target_raw or "`" in target_raw:
        return f"deletes a path built from a variable or substitution ({target_raw}): it may expand to / or ~"
    last = bare.rstrip("/").rsplit("/", 1)[-1]
    has_glob = bool(re.fullmatch(r"\.?[*?]+", last))
    literal = target
    if has_glob:
        # the directory the glob is taken over
        head = re.split(r"[*?\[]", literal, maxsplit=1)[0]
        literal = head.rsplit("/", 1)[0] if "/" in head else "."
        if head.startswith("/") and literal == "":
            literal = "/"
    resolved = real(literal or ".", cwd)
    home = Path.home().resolve()
    critical = {Path("/"), home, *home.parents}
    for wd in working_dirs or (cwd,):
        wd_real = Path(wd).resolve()
        critical.add(wd_real)
        critical.update(wd_real.parents)
    if resolved in critical or resolved.parent == Path("/"):
        what = "everything in " if has_glob else ""
        return f"deletes {what}{_show(resolved, cwd) if resolved != cwd.resolve() else 'the working directory'} (a critical path)"
    return None


_INTERNAL_HOSTS = {"localhost", "metadata.google.internal", "metadata", "instance-data"}


def internal_url_reason(url: str) -> str | None:
    """Why fetching `url` could reach internal services (cloud metadata, localhost, LAN)."""
    try:
        host = (urlparse(url).hostname or "").lower().rstrip(".")
    except ValueError:
        return "fetches a URL that cannot be parsed"
    if not host:
        return None
    if host in _INTERNAL_HOSTS or host.endswith((".localhost", ".internal", ".local")):
        return f"fetches an internal host ({host})"
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None
    if ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved or ip.is_unspecified:
        return f"fetches a private or link-local address ({host})"
    return None
