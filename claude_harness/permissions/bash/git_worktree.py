"""git subcommands that rewrite the work tree: which files they will write or delete.

Why: `git checkout feature` can bring a `.claude/settings.json` with a hook, `git clean -fdX`
deletes ignored files such as `.claude/settings.local.json`, `git rm -rf .` empties the
project. The command line does not name those files; the repository does. So the files are
asked of git itself, read-only, at decision time: `git diff-tree` between the current commit
and the one the work tree will take, `git diff-index` for local changes a reset throws away, and
`git clean -n` (a dry run) for what a clean or `stash --all` removes. Each becomes a write for
the protected-path and working-directory checks. When git cannot say (an unknown revision, a
fetch from a remote), the files are unknown, which asks in every mode.

The queries run only in the project's own repository (another repository asks anyway), and
they must run nothing the repository configures, even a hostile one (a downloaded tree, a
`.git/commondir` an earlier command planted). So each query is one that never reads a work-tree
file's content (no clean/smudge filter, no textconv can apply): `rev-parse` (refs), `diff-tree`
(two trees), `diff-index` (the index's stat data against a tree: a file whose stat differs
counts as changed without being hashed, a superset of what changed), `clean -n` (a directory
listing and ignore rules). And every program setting is overridden on the command line, which
beats every config file, included ones too (see `_SAFE` and `_environment`).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from claude_harness.permissions.bash.args import Arg
from claude_harness.permissions.bash.effects import Invocation, PathUse, path_use

TIMEOUT_S = 3.0
MAX_PATHS = 5_000
# `-c` settings outrank every config file (the repository's, its includes, its commondir's):
_SAFE = [
    "--no-pager",                        # no pager (the output is a pipe anyway)
    "-c", "core.fsmonitor=false",        # the repository's fsmonitor program is not started
    "-c", "core.untrackedCache=false",   # ...nor reached through the untracked cache
    "-c", "core.hooksPath=/dev/null",    # no hook can exist there (post-index-change...)
    "-c", "diff.external=",              # no external diff program
    "-c", "core.pager=cat",
    "-c", "protocol.allow=never",        # no transport: a partial clone's lazy fetch would run
    "-c", "credential.helper=",          # ssh, upload-pack, credential helpers (empty: reset)
    "-c", "core.alternateRefsCommand=",  # the command that lists an alternate's refs
    "-c", "gc.auto=0", "-c", "maintenance.auto=false",  # no background jobs
]
_UNKNOWN = PathUse("files git will write (they cannot be known in advance)", None)


def _environment() -> dict[str, str]:
    """The caller's environment without any `GIT_*` variable (they redirect the repository,
    inject config, name programs: GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF, GIT_SSH, GIT_PAGER,
    GIT_EXEC_PATH...), then only what makes the query inert. The user's global and the system
    config are left out too: a query needs none of their settings, and they may name programs.
    git's safe.directory check stays on: a repository another user owns fails the query, which
    makes the files unknown (an ask), never a run of that user's config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",  # no ~/.gitconfig, /etc
        "GIT_ATTR_NOSYSTEM": "1",        # no system attributes file
        "GIT_OPTIONAL_LOCKS": "0",       # never write the index (no index-change hook)
        "GIT_TERMINAL_PROMPT": "0",      # never prompt
        "GIT_NO_LAZY_FETCH": "1",        # git >= 2.44: never fetch missing objects
        "GIT_PROTOCOL_FROM_USER": "0",
    })
    return env


def _git(root: Path, *args: str) -> list[str] | None:
    """Run a read-only git query in `root`; NUL- or newline-separated output lines."""
    env = _environment()
    try:
        done = subprocess.run(["git", *_SAFE, *args], cwd=root, capture_output=True,
                              timeout=TIMEOUT_S, env=env, stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    text = done.stdout.decode("utf-8", "surrogateescape")
    return [line for line in text.replace("\0", "\n").splitlines() if line]


def _paths(root: Path, names: list[str] | None) -> list[PathUse]:
    if names is None or len(names) > MAX_PATHS:
        return [_UNKNOWN]
    return [PathUse(name, root / name) for name in names]


def _changed(root: Path, old: str, new: str, pathspecs: list[str]) -> list[PathUse]:
    """Files that differ between two commits (what moving the work tree from one to the other
    writes or deletes)."""
    revs = [_commit(root, old), _commit(root, new)]
    if None in revs:
        return [_UNKNOWN]
    return _paths(root, _git(root, "diff-tree", "-r", "-z", "--name-only", "--no-renames",
                             "--no-ext-diff", "--no-textconv", *revs, "--",  # type: ignore[arg-type]
                             *pathspecs))


def _commit(root: Path, name: str) -> str | None:
    found = _git(root, "rev-parse", "--verify", "-q", "--end-of-options", f"{name}^{{commit}}")
    return found[0] if found else None


def _local_changes(root: Path, pathspecs: list[str]) -> list[PathUse]:
    """Tracked files whose content in the work tree differs from HEAD (a hard reset or a
    stash writes them back)."""
    return _paths(root, _git(root, "diff-index", "--name-only", "-z", "--no-renames",
                             "--no-ext-diff", "--no-textconv", "HEAD", "--", *pathspecs))


def _untracked(root: Path, flags: list[str], pathspecs: list[str]) -> list[PathUse]:
    """What `git clean` with these flags would delete, from its own dry run."""
    lines = _git(root, "clean", "-n", *flags, "--", *pathspecs)
    if lines is None:
        return [_UNKNOWN]
    prefix = "Would remove "
    return _paths(root, [line[len(prefix):] for line in lines if line.startswith(prefix)])


def _split(args: list[Arg]) -> tuple[list[str], list[str], list[str], bool]:
    """(options, operands before `--`, pathspecs after `--`, everything known)."""
    options, operands, pathspecs = [], [], []
    after = False
    for arg in args:
        value = arg.value
        if value is None:
            return options, operands, pathspecs, False
        if value == "--" and not after:
            after = True
        elif after:
            pathspecs.append(value)
        elif value.startswith("-") and value != "-":
            options.append(value)
        else:
            operands.append(value)
    return options, operands, pathspecs, True


def _is_commit(root: Path, name: str) -> bool:
    return _commit(root, name) is not None


_VALUE_OPTIONS = {"-b", "-B", "-c", "-C", "--orphan", "-m", "--message", "-s", "--source",
                  "--conflict", "-X", "--strategy-option", "--strategy", "--onto",
                  "-F", "--file", "--pathspec-from-file"}


def _operands(args: list[Arg]) -> tuple[list[str], list[str], bool]:
    """Operands (skipping values of options that take one) and pathspecs."""
    options, operands, pathspecs, known = _split(args)
    values = [a.value for a in args]
    skip = {values[i + 1] for i, v in enumerate(values[:-1]) if v in _VALUE_OPTIONS}
    return [o for o in operands if o not in skip], pathspecs, known


def worktree_writes(sub: str, args: list[Arg], inv: Invocation, root: Path) -> list[PathUse]:
    """The files `git SUB ARGS` writes or deletes in the work tree rooted at `root`."""
    operands, pathspecs, known = _operands(args)
    if not known:
        return [_UNKNOWN]
    values = [a.value or "" for a in args]
    if sub in {"checkout", "switch"}:
        return _checkout(sub, values, operands, pathspecs, root)
    if sub == "restore":
        paths = pathspecs or operands
        if not paths:
            return [_UNKNOWN]
        named = [path_use(Arg(p, source=p), inv.cwd, recursive=True) for p in paths]
        sources = [values[i + 1] for i, v in enumerate(values[:-1]) if v in {"-s", "--source"}]
        sources += [v.split("=", 1)[1] for v in values if v.startswith("--source=")]
        sources += [v[2:] for v in values if v.startswith("-s") and len(v) > 2]
        if sources:
            return named + _changed(root, "HEAD", sources[-1], paths)
        return named + _local_changes(root, paths)
    if sub == "reset":
        hard = any(v in {"--hard", "--merge", "--keep"} for v in values)
        target = operands[0] if operands else "HEAD"
        if not hard:
            return []  # moves HEAD and the index only
        return _changed(root, "HEAD", target, pathspecs) + _local_changes(root, pathspecs)
    if sub in {"merge", "rebase", "pull"}:
        if sub == "pull" and (len(operands) < 2 or operands[0] != "."):
            return [_UNKNOWN]  # what a remote brings is not known before it is fetched
        target = operands[-1] if operands else ""
        if not target or not _is_commit(root, target):
            return [_UNKNOWN]
        return _changed(root, "HEAD", target, [])
    if sub in {"cherry-pick", "revert"}:
        out: list[PathUse] = []
        for rev in operands or [""]:
            out += _changed(root, f"{rev}^", rev, []) if rev else [_UNKNOWN]
        return out
    if sub == "stash":
        return _stash(values, operands, root)
    if sub == "clean":
        return _untracked(root, _clean_flags(values), pathspecs or operands)
    if sub == "read-tree":
        if not any(v in {"-u", "--reset"} or v.startswith("-u") for v in values):
            return []
        return _changed(root, "HEAD", operands[-1], []) if operands else [_UNKNOWN]
    if sub == "checkout-index":
        prefixes = [v.split("=", 1)[1] for v in values if v.startswith("--prefix=")]
        if prefixes:
            return [path_use(Arg(p, source=p), inv.cwd, recursive=True) for p in prefixes]
        return [PathUse(".", root, recursive=True)]
    return []


def _clean_flags(values: list[str]) -> list[str]:
    """The options of a `git clean` that decide what it removes (-d -x -X -e PATTERN)."""
    out: list[str] = []
    for i, value in enumerate(values):
        if value.startswith("--exclude="):
            out.append(value)
        elif value in {"-e", "--exclude"} and i + 1 < len(values):
            out += ["-e", values[i + 1]]
        elif value.startswith("-") and not value.startswith("--"):
            out += [f"-{letter}" for letter in value[1:] if letter in "dxX"]
    return out


def _checkout(sub: str, values: list[str], operands: list[str], pathspecs: list[str],
              root: Path) -> list[PathUse]:
    if pathspecs or (operands and not _is_commit(root, operands[0])):
        # `checkout [REV] -- PATHS` / `checkout PATHS`: those paths are rewritten
        paths = pathspecs or operands
        source = operands[0] if pathspecs and operands else None
        written = [PathUse(p, root / p, recursive=True) for p in paths]
        return written + (_changed(root, "HEAD", source, paths) if source else [])
    if not operands:
        return []  # `checkout -b NEW` alone: a new branch at HEAD, the work tree stays
    # `checkout -b NEW START`: the branch name was an option value; START is the operand
    return _changed(root, "HEAD", operands[-1], [])


def _stash(values: list[str], operands: list[str], root: Path) -> list[PathUse]:
    action = operands[0] if operands else "push"
    if action in {"list", "show", "create", "store"}:
        return []
    if action in {"pop", "apply", "branch"}:
        ref = operands[1] if len(operands) > 1 and action != "branch" else "stash@{0}"
        return _changed(root, f"{ref}^1", ref, []) + (
            _changed(root, f"{ref}^1", f"{ref}^3", []) if _is_commit(root, f"{ref}^3")
            else [])
    if action in {"drop", "clear"}:
        return []
    # push / save / a bare `git stash`: local changes are written back, untracked files go
    out = _local_changes(root, [])
    if any(v in {"-u", "--include-untracked"} for v in values):
        out += _untracked(root, ["-d"], [])
    if any(v in {"-a", "--all"} for v in values):
        out += _untracked(root, ["-d", "-x"], [])
    return out
