"""Safety checks that always prompt, whatever the mode or the allow rules say.

Why: some writes execute code later (git hooks, shell start-up files, `.claude/settings.json`
hooks, `.mcp.json` servers) and some deletions cannot be undone (`rm -rf ~`). An allow rule
written for everyday work must not silently cover them, and neither may acceptEdits or
bypassPermissions. Paths are resolved (`~`, `..`, symlinks) before any comparison, and
comparisons are component-wise. Besides the fixed names, the files a repository's own git
config points at (its hooks directory, included config files, the programs its filters, diff
drivers and fsmonitor run) are protected wherever they are.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from urllib.parse import urlparse

from claude_harness.permissions.paths import expand, is_inside, real
from claude_harness.permissions.repo_config import repo_config

PROTECTED_DIRS = frozenset({
    ".git", ".vscode", ".idea", ".husky", ".cargo", ".devcontainer", ".yarn", ".mvn", ".claude",
    ".ssh",
})
PROTECTED_DIR_PAIRS = ((".config", "git"), (".config", "fish"), (".config", "direnv"))
PROTECTED_EXCEPTIONS = ((".claude", "worktrees"),)
PROTECTED_FILES = (
    ".gitconfig", ".gitmodules", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout",
    ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".profile", ".envrc", ".npmrc", ".yarnrc*",
    ".pnp.*", "bunfig.toml", ".bazelrc", ".pre-commit-config.yaml", "lefthook.y*ml",
    "gradle-wrapper.properties", ".devcontainer.json", ".ripgreprc", "pyrightconfig.json",
    ".mcp.json", ".claude.json", ".inputrc", ".git", ".gitattributes", ".zlogout", ".kshrc",
    ".cshrc", ".tcshrc", ".lesskey", ".wgetrc", ".curlrc", ".pythonrc", ".pythonstartup",
    "sitecustomize.py", "usercustomize.py",
)
# Every PROTECTED_FILES pattern in one regex, compiled at import: checking a name is one match,
# not 40 fnmatch calls that each compile their pattern in a fresh process (or warm child).
_PROTECTED_FILE_NAME = re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in PROTECTED_FILES))


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


def protected_parts(parts: tuple[str, ...]) -> str | None:
    """The protected directory or file name among these path components, if any."""
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
        if _PROTECTED_FILE_NAME.match(name):
            return name
    return None


def protected_reason(path: str | Path, cwd: Path, working_dirs: tuple[Path, ...]) -> str | None:
    """Why writing `path` needs a human, or None. Checks the path as named and its target."""
    roots = working_dirs or (cwd,)
    for form in (expand(path, cwd), real(path, cwd)):
        hit = protected_parts(_parts_under_root(form, roots))
        if hit:
            return f"writes to {_show(form, Path(roots[0]))} (protected: {hit})"
    target = real(path, cwd)
    why = repo_executed_reason(target, (*roots, cwd, target.parent))
    if why:
        return f"writes to {_show(target, Path(roots[0]))} (protected: {why})"
    return None


def repo_executed_reason(target: Path, places: tuple[Path, ...]) -> str | None:
    """Is `target` (resolved) a file git executes or reads as config because a repository's
    own config points there (`core.hooksPath`, `include.path`, a filter, diff or fsmonitor
    program, `core.attributesFile`)? The config of each repository around `places` is read
    as data (repo_config), never by running git."""
    seen: set[Path] = set()
    for place in dict.fromkeys(places):
        config = repo_config(Path(place))
        if config is None or config.gitdir in seen:
            continue
        seen.add(config.gitdir)
        for executed, tree, why in config.executed_paths:
            if target == executed or (tree and executed in target.parents):
                return why
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


def _critical_paths(cwd: Path, working_dirs: tuple[Path, ...]) -> set[Path]:
    home = Path.home().resolve()
    critical = {Path("/"), home, *home.parents}
    for wd in working_dirs or (cwd,):
        wd_real = Path(wd).resolve()
        critical.add(wd_real)
        critical.update(wd_real.parents)
    return critical


_GLOB_PART = re.compile(r"\[[^\]]*\]|[*?]")


def _broad_glob(component: str) -> bool:
    """A glob that matches (nearly) every entry: `*`, `.*`, `.[!.]*`, `??*`, `[a-z]*`."""
    return bool(_GLOB_PART.search(component)) and not _GLOB_PART.sub("", component).strip(".")


def critical_delete_reason(
    path: Path | None, cwd: Path, working_dirs: tuple[Path, ...], *, everything: bool = True,
    pattern: str | None = None, shown: str = "",
) -> str | None:
    """Why deleting `path` is catastrophic, or None.

    `path` None: the target cannot be known in advance (a variable, a substitution, `~-`).
    `pattern`: the glob the path came from; a broad glob (`*`, `.[!.]*`) over a critical
    directory deletes everything in it, whichever entries exist right now.
    `everything` False: only some entries below `path` go (`find . -name '*.pyc' -delete`).
    """
    critical = _critical_paths(cwd, working_dirs)
    if path is None:
        return f"deletes {shown or 'a path'}, which cannot be known in advance (it may be / or ~)"
    if pattern:
        head, _, last = pattern.rstrip("/").rpartition("/")
        if _broad_glob(last):
            directory = real(head or "/", cwd)
            if directory in critical or directory.parent == Path("/"):
                return f"deletes everything in {_show(directory, cwd)} (a critical path)"
    if not everything:
        return None
    resolved = real(path, cwd)
    if resolved in critical or resolved.parent == Path("/"):
        shown_path = "the working directory" if resolved == cwd.resolve() else _show(resolved, cwd)
        return f"deletes {shown_path} (a critical path)"
    return None


def pattern_protected_reason(pattern: str) -> str | None:
    """A glob in a write target that could match a protected name (`.gi?/config`, `.claud?/`),
    whether or not that name exists right now."""
    literal_names = [n for n in (*PROTECTED_DIRS, *PROTECTED_FILES)
                     if not _GLOB_PART.search(n) and n.startswith(".")]
    for component in pattern.split("/"):
        # a glob that does not start with a dot never matches a dot name (no dotglob), and
        # names that exist are already checked one by one after expansion
        if not _GLOB_PART.search(component) or not component.startswith("."):
            continue
        for name in literal_names:
            if fnmatch.fnmatchcase(name, component):
                return f"writes to {pattern}, which can match {name} (protected: {name})"
    return None


def internal_url_reason(url: str) -> str | None:
    """Why fetching `url` could reach internal services (cloud metadata, localhost, LAN), read
    from the host's canonical form (every IPv4 spelling, dot look-alikes, IDNA); a public name
    that resolves to an internal address is refused by WebFetch itself when it resolves it."""
    from claude_harness.permissions.rules import url_host
    from claude_harness.sandbox.hosts import internal_by_name

    try:
        raw = urlparse(url.strip()).hostname
    except ValueError:
        return "fetches a URL that cannot be parsed"
    if not raw:
        return None
    host = url_host(url)
    if host is None:
        return f"fetches a URL whose host cannot be read one single way ({raw})"
    reason = internal_by_name(host)
    return f"fetches a {reason}" if reason else None
