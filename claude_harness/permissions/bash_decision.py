"""Bash permission stages: deny rules, ask rules, safety, then allow (rules / read-only / mode).

Why staged: the resolver interleaves Bash with hooks and the tool's own check (a hook allow sits
between the safety checks and the allow rules), so it needs each stage separately. `check_bash()`
composes them for callers that only want the answer.

Deny and ask rules look at EVERY simple command, nested ones included, in every form (with and
without wrappers and env assignments). Allow needs EVERY top-level command covered and no hazard.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from claude_harness.permissions.bash_parse import resolve_path
from claude_harness.permissions.bash_security import BashAnalysis, CommandView, analyse
from claude_harness.permissions.bash_sed import sed_in_place
from claude_harness.permissions.paths import expand, inside_any
from claude_harness.permissions.rules import (
    describe_rule,
    match_bash_pattern,
    path_rule_may_cover_tree,
    rule_matches,
    rule_suggestion,
    tool_matches,
)
from claude_harness.permissions.safety import (
    WRITE_COMMANDS,
    critical_delete_reason,
    protected_reason,
)
from claude_harness.permissions.types import PermissionContext, PermissionDecision, PermissionRule

ACCEPT_EDITS_COMMANDS = frozenset({"mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"})
READERS = frozenset({
    "cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "rg", "sed", "awk", "wc",
    "nl", "tac", "strings", "od", "xxd", "hexdump", "jq", "diff", "cmp", "sort", "uniq", "cut",
    "base64", "file", "bat", "view",
})


@dataclass
class BashVerdict:
    """Each stage's opinion; None = no opinion at that stage."""

    analysis: BashAnalysis
    deny: PermissionDecision | None = None
    ask: PermissionDecision | None = None
    safety: PermissionDecision | None = None
    allowed: PermissionDecision | None = None  # allowed by rules, read-only set or mode
    undecided: str = ""
    suggestion: str | None = None
    writes: list[Path] = field(default_factory=list)


def _positional(argv: list[str]) -> list[str]:
    return [a for a in argv[1:] if not a.startswith("-")]


def _write_paths(view: CommandView) -> list[tuple[str, Path]]:
    """(word, resolved path) of every file this simple command writes."""
    cmd = view.cmd
    out = [(t, resolve_path(t, cmd.cwd)) for t in view.write_targets]
    argv = view.argv
    if argv:
        name = argv[0]
        if name in WRITE_COMMANDS or (name == "sed" and sed_in_place(argv[1:])):
            args = _positional(argv)
            if name == "sed" and args:
                args = args[1:] if not any(a in {"-e", "--expression"} for a in argv) else args
            out.extend((a, resolve_path(a, cmd.cwd)) for a in args)
        elif name == "dd":
            out.extend((a[3:], resolve_path(a[3:], cmd.cwd)) for a in argv if a.startswith("of="))
    return out


def _read_paths(view: CommandView) -> list[str]:
    """Files this simple command reads: reader arguments and input redirections."""
    inputs = [r.target for r in view.cmd.redirects if r.op in {"<", "<>"} and r.target]
    if view.argv and view.argv[0] in READERS:
        return _positional(view.argv) + inputs
    return inputs


def _rule_stage(
    verdict: BashVerdict, rules: list[PermissionRule], perm: PermissionContext
) -> PermissionDecision | None:
    """First deny/ask rule that covers any simple command (or a file it reads/writes)."""
    analysis = verdict.analysis
    whole = " ".join(analysis.source.split())
    for rule in rules:
        name = rule.value.tool_name
        content = rule.value.rule_content
        if tool_matches(name, "Bash"):
            if content is None:
                return _rule_decision(rule, "this command", perm)
            for view in analysis.views:
                for form in view.norm.deny_forms:
                    text = " ".join(form)
                    if match_bash_pattern(content, text):
                        return _rule_decision(rule, f"`{text}`", perm)
            if "*" in content and content.strip() != "*" and match_bash_pattern(content, whole):
                return _rule_decision(rule, "this command", perm)
        elif content is not None and (tool_matches(name, "Read") or tool_matches(name, "Edit")):
            for view in analysis.views:
                cwd = view.cmd.cwd
                if tool_matches(name, "Read"):
                    for word in _read_paths(view):
                        target = str(expand(word, cwd))
                        if rule_matches(rule, "Read", target, perm.cwd):
                            return _rule_decision(rule, f"reading {word}", perm)
                if tool_matches(name, "Edit"):
                    for word, _path in _write_paths(view):
                        target = str(expand(word, cwd))
                        if rule_matches(rule, "Edit", target, perm.cwd):
                            return _rule_decision(rule, f"writing {word}", perm)
    return None


_RECURSIVE_FLAGS = {"-r", "-R", "--recursive", "--dereference-recursive"}


def _searched_trees(view: CommandView) -> list[Path]:
    """Directories a recursive search reads every file of (`grep -r`, `rg`, `git grep`...)."""
    argv = view.argv
    if not argv:
        return []
    name = argv[0]
    recursive = name in {"rg", "ag", "ack"} or (
        name in {"grep", "egrep", "fgrep"}
        and any(a in _RECURSIVE_FLAGS or (a.startswith("-") and not a.startswith("--")
                                          and ("r" in a or "R" in a)) for a in argv[1:]))
    if not recursive:
        return []
    args = _positional(argv)[1:]  # the first positional is the pattern
    dirs = [resolve_path(a, view.cmd.cwd) for a in args] or [view.cmd.cwd]
    return [d for d in dirs if d.is_dir()]


def _recursive_read_stage(analysis: BashAnalysis, perm: PermissionContext) -> PermissionDecision | None:
    """A recursive search over a tree holding a Read-denied file would print that file."""
    rules = [r for r in (*perm.rules_for("deny"), *perm.rules_for("ask"))
             if tool_matches(r.value.tool_name, "Read") and r.value.rule_content is not None]
    if not rules:
        return None
    for view in analysis.views:
        for tree in _searched_trees(view):
            for rule in rules:
                if path_rule_may_cover_tree(rule.value.rule_content or "", tree, perm.cwd,
                                            rule.root):
                    return PermissionDecision.ask(
                        f"`{view.text}` searches {tree} recursively, which may read files that "
                        f"{describe_rule(rule)} protects",
                        decided_by="safety", rule=rule)
    return None


def _rule_decision(rule: PermissionRule, what: str, perm: PermissionContext) -> PermissionDecision:
    verb = "denies" if rule.behavior == "deny" else "requires approval for"
    reason = f"{describe_rule(rule)} {verb} {what}"
    if rule.behavior == "deny":
        return PermissionDecision.deny(reason, decided_by="rule", rule=rule)
    return PermissionDecision.ask(reason, decided_by="rule", rule=rule)


def _safety_stage(analysis: BashAnalysis, perm: PermissionContext) -> PermissionDecision | None:
    if analysis.fatal:
        return PermissionDecision.ask(
            f"Bash command cannot be checked safely: {analysis.fatal}", decided_by="safety"
        )
    dirs = perm.working_dirs
    for view in analysis.views:
        cmd = view.cmd
        for form in view.norm.deny_forms:
            if form and form[0] in {"rm", "rmdir", "unlink", "shred"}:
                offset = len(cmd.words) - len(form)
                for i, word in enumerate(form[1:], start=1):
                    if word.startswith("-") and word != "-":
                        continue
                    raw = cmd.raw_words[offset + i] if 0 <= offset + i < len(cmd.raw_words) else word
                    reason = critical_delete_reason(raw, word, cmd.cwd, dirs)
                    if reason:
                        return PermissionDecision.ask(f"Bash command {reason}", decided_by="safety")
            if form and form[0] == "find" and "-delete" in form:
                for word in form[1:]:
                    if word.startswith("-") or word in {"(", "!"}:
                        break
                    reason = critical_delete_reason(word, word, cmd.cwd, dirs)
                    if reason:
                        return PermissionDecision.ask(f"Bash command {reason}", decided_by="safety")
        for word, _path in _write_paths(view):
            reason = protected_reason(word, cmd.cwd, dirs)
            if reason:
                return PermissionDecision.ask(f"Bash command {reason}", decided_by="safety")
    return None


def _outside_allowed(view: CommandView, perm: PermissionContext) -> str:
    """Paths outside the working dirs need a Read allow rule, whatever Bash rule matched."""
    for word in view.outside:
        if not any(
            rule_matches(r, "Read", str(expand(word, view.cmd.cwd)), perm.cwd)
            for r in perm.rules_for("allow")
            if tool_matches(r.value.tool_name, "Read") and r.value.rule_content is not None
        ):
            return f"`{view.text}` reaches outside the working directories ({word})"
    return ""


def _view_allowed(view: CommandView, perm: PermissionContext, allow: list[PermissionRule]) -> str:
    """'' when this simple command is covered; otherwise why not."""
    if not view.argv:
        return "" if not view.cmd.assignments else "bare variable assignment"
    outside = _outside_allowed(view, perm)
    if outside and perm.mode != "bypassPermissions":
        return outside
    for rule in allow:
        if not tool_matches(rule.value.tool_name, "Bash"):
            continue
        content = rule.value.rule_content
        if content is None or match_bash_pattern(content, view.text):
            return ""
    if view.read_only:
        return ""
    if perm.mode == "acceptEdits" and view.argv[0] in ACCEPT_EDITS_COMMANDS:
        paths = [resolve_path(a, view.cmd.cwd) for a in _positional(view.argv)]
        if view.argv[0] == "sed" and not sed_in_place(view.argv[1:]):
            paths = []
        if paths and inside_any_all(paths, perm.working_dirs):
            return ""
    if view.norm.via_xargs:
        return f"`xargs {view.text}` takes file names from its input, which cannot be checked"
    return f"`{view.text}` is not covered by an allow rule"


def inside_any_all(paths: list[Path], dirs: tuple[Path, ...]) -> bool:
    return all(inside_any(p, dirs) for p in paths)


def _writes_allowed(view: CommandView, perm: PermissionContext) -> str:
    """Redirection targets and `sed -i` files are file edits: they need Edit permission."""
    targets = list(view.write_targets)
    if view.argv and view.argv[0] == "sed" and sed_in_place(view.argv[1:]):
        targets += [word for word, _ in _write_paths(view)]
    for target in targets:
        path = resolve_path(target, view.cmd.cwd)
        edit_ok = any(
            rule_matches(r, "Edit", str(expand(target, view.cmd.cwd)), perm.cwd)
            for r in perm.rules_for("allow")
            if tool_matches(r.value.tool_name, "Edit")
        )
        in_dirs = inside_any(path, perm.working_dirs)
        if edit_ok or (perm.mode == "acceptEdits" and in_dirs):
            continue
        where = "" if in_dirs else " outside the working directories"
        return f"writes to {target}{where}"
    return ""


def bash_verdict(
    command: str, perm: PermissionContext, shell_cwd: Path | None = None
) -> BashVerdict:
    """Run every Bash stage once."""
    # relative paths resolve where the shell really is (a `cd` persists between calls); rules
    # stay anchored at the project root (perm.cwd)
    analysis = analyse(command, shell_cwd or perm.cwd, perm.working_dirs)
    verdict = BashVerdict(analysis)
    verdict.deny = _rule_stage(verdict, perm.rules_for("deny"), perm)
    verdict.ask = _rule_stage(verdict, perm.rules_for("ask"), perm)
    verdict.safety = _safety_stage(analysis, perm) or _recursive_read_stage(analysis, perm)
    verdict.suggestion = rule_suggestion("Bash", command, cwd=perm.cwd,
                                         working_dirs=perm.working_dirs)
    if analysis.fatal:
        verdict.undecided = analysis.fatal
        return verdict
    if analysis.hazards:
        verdict.undecided = f"Bash command needs approval: {analysis.hazards[0]}"
        verdict.suggestion = None  # a rule could never cover it
        return verdict
    allow = perm.rules_for("allow")
    if perm.mode == "auto":  # broad "run anything" rules would bypass the classifier
        from claude_harness.permissions.modes import is_broad_bash_allow

        allow = [r for r in allow if not is_broad_bash_allow(r)]
    for view in analysis.views:
        why = _view_allowed(view, perm, allow) or _writes_allowed(view, perm)
        if why:
            verdict.undecided = f"Bash command needs approval: {why}"
            return verdict
    how = "read-only command" if analysis.read_only else "covered by allow rules or mode"
    verdict.allowed = PermissionDecision.allow(how, decided_by="rule" if not analysis.read_only else "read-only")
    return verdict


def check_bash(command: str, perm: PermissionContext) -> PermissionDecision:
    """The Bash answer on its own: deny > ask > safety > allow/mode > undecided."""
    from claude_harness.permissions.modes import apply_mode_to_bash

    verdict = bash_verdict(command, perm)
    return apply_mode_to_bash(verdict, perm)
