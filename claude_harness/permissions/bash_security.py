"""The Bash checker: one analysis of a command, read by every permission question about it.

Why: the Bash tool, the resolver and the "don't ask again" suggestion must agree on what a
command *is*. `analyse()` builds that view once (parse, split, strip wrappers, find hazards);
`is_read_only_command()` answers the scheduler's question, `check_bash()` the resolver's.

Fail-safe contract: anything not understood lands in `hazards` (no allow by rule or by the
read-only set) or `fatal` (treated as a safety check: asks even in bypassPermissions mode).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

from claude_harness.permissions.bash_parse import ParsedCommand, SimpleCommand, parse_command
from claude_harness.permissions.bash_paths import outside_paths
from claude_harness.permissions.bash_programs import (
    NEUTRAL,
    SHELLS,
    Normalised,
    follows_symlinks,
    hazards_of,
    is_read_only_argv,
    normalise,
)
from claude_harness.permissions.types import PermissionContext, PermissionDecision


@dataclass
class CommandView:
    """One simple command with everything the permission chain needs to know about it."""

    cmd: SimpleCommand
    norm: Normalised
    hazards: list[str] = field(default_factory=list)
    read_only: bool = False
    outside: list[str] = field(default_factory=list)  # path args outside the working dirs

    @property
    def argv(self) -> list[str]:
        return self.norm.argv

    @property
    def text(self) -> str:
        return " ".join(self.norm.argv)

    @property
    def neutral(self) -> bool:
        return bool(self.argv) and self.argv[0] in NEUTRAL

    @property
    def write_targets(self) -> list[str]:
        return [r.target for r in self.cmd.redirects if r.is_write and r.target]


@dataclass
class BashAnalysis:
    source: str
    parsed: ParsedCommand
    views: list[CommandView]

    @property
    def fatal(self) -> str | None:
        return self.parsed.fatal

    @property
    def hazards(self) -> list[str]:
        out = list(self.parsed.hazards)
        for view in self.views:
            out.extend(view.hazards)
        return out

    @property
    def top_level(self) -> list[CommandView]:
        return [v for v in self.views if not v.cmd.nested]

    @property
    def read_only(self) -> bool:
        """Read-only: every part searches/reads/lists inside the working dirs, nothing else."""
        if self.fatal or self.hazards or not self.views:
            return False
        return all(
            v.read_only and not v.write_targets and not v.outside for v in self.views
        )


_MAX_NESTING = 3


def _inner_scripts(argv: list[str]) -> list[str]:
    """Command strings a simple command will itself run: `sh -c S`, `eval S`, `find -exec C ;`."""
    if not argv:
        return []
    name = argv[0].rsplit("/", 1)[-1]
    if name in SHELLS and "-c" in argv[1:-1]:
        return [argv[argv.index("-c") + 1]]
    if name == "eval" and len(argv) > 1:
        return [" ".join(argv[1:])]
    if name in {"find", "fd", "fdfind"}:
        out: list[str] = []
        words = iter(argv[1:])
        for word in words:
            if word in {"-exec", "-execdir", "-ok", "-okdir", "-x", "-X", "--exec", "--exec-batch"}:
                inner: list[str] = []
                for nxt in words:
                    if nxt in {";", "+"}:
                        break
                    inner.append(nxt)
                if inner:
                    out.append(shlex.join(inner))
        return out
    return []


def analyse(
    command: str, cwd: Path, working_dirs: tuple[Path, ...] = (), _depth: int = 0
) -> BashAnalysis:
    """Parse and classify every simple command of `command`.

    Command strings run by `sh -c`, `eval` and `find -exec` are analysed too (as nested
    commands), so deny rules and safety checks see `bash -c 'rm -rf ~'`.
    """
    dirs = working_dirs or (cwd,)
    from claude_harness.permissions.paths import inside_any

    parsed = parse_command(command, cwd, outside_start=not inside_any(cwd, dirs))
    if _depth < _MAX_NESTING:
        for cmd in list(parsed.commands):
            argv = normalise(cmd).argv
            for script in _inner_scripts(argv):
                inner = analyse(script, cmd.cwd, dirs, _depth + 1)
                for sub in inner.parsed.commands:
                    sub.nested = True
                    parsed.commands.append(sub)
    views: list[CommandView] = []
    for cmd in parsed.commands:
        norm = normalise(cmd)
        hazards = [*cmd.hazards, *norm.hazards, *hazards_of(norm.argv, cmd)]
        view = CommandView(cmd, norm, hazards)
        if norm.argv:
            # xargs feeds names we cannot see (`echo /etc/shadow | xargs cat`): not read-only
            view.read_only = is_read_only_argv(norm.argv, cmd) and not norm.via_xargs
            view.outside = outside_paths(norm.argv, cmd, dirs)
            if norm.argv[0] == "cd" and cmd.cwd and not view.outside:
                view.outside = _cd_outside(norm.argv, cmd, dirs)
        view.outside += _outside_inputs(cmd, dirs)
        if norm.argv and follows_symlinks(norm.argv[0], norm.argv[1:]):
            # a followed symlink can lead anywhere: treat the walk as leaving the project
            view.outside.append(f"{norm.argv[0]} following symlinks")
        views.append(view)
    return BashAnalysis(command, parsed, views)


def _outside_inputs(cmd: SimpleCommand, dirs: tuple[Path, ...]) -> list[str]:
    """Input redirections (`< file`) read files too: outside the working dirs they need a rule."""
    from claude_harness.permissions.bash_parse import resolve_path
    from claude_harness.permissions.paths import inside_any

    out = []
    for redirect in cmd.redirects:
        if redirect.op in {"<", "<>"} and redirect.target:
            if redirect.target in {"/dev/null", "/dev/stdin"}:
                continue
            if not inside_any(resolve_path(redirect.target, cmd.cwd), dirs):
                out.append(redirect.target)
    return out


def _cd_outside(argv: list[str], cmd: SimpleCommand, dirs: tuple[Path, ...]) -> list[str]:
    from claude_harness.permissions.bash_parse import resolve_path
    from claude_harness.permissions.paths import inside_any

    args = [a for a in argv[1:] if not a.startswith("-")]
    target = resolve_path(args[0], cmd.cwd) if args else Path.home()
    return [] if inside_any(target, dirs) else [args[0] if args else "~"]


def is_read_only_command(
    command: str, cwd: Path | None = None, working_dirs: tuple[Path, ...] = ()
) -> bool:
    """True when `command` only reads, searches or lists inside the working directories.

    Used by the Bash tool for `is_read_only` / `is_concurrency_safe`; never raises.
    """
    try:
        base = cwd or Path.cwd()
        return analyse(command, base, working_dirs or (base,)).read_only
    except Exception:  # a checker bug must fail closed, not crash the tool scheduler
        return False


def check_bash(command: str, perm_ctx: PermissionContext) -> PermissionDecision:
    """Deny > ask > safety > allow (rules, read-only set, mode) > undecided, for one command."""
    from claude_harness.permissions.bash_decision import check_bash as _check

    return _check(command, perm_ctx)
