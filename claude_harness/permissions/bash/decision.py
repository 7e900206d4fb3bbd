"""The Bash decision: the one chain `-p`, the app and the REPL run for every Bash call.

Stages, each answering from the same analysis (analysis.py):
  deny rules   `Bash(...)` against every program the command runs, through every wrapper;
               `Read(...)` against every file read, `Edit(...)` against every file written
  ask rules    the same, for ask rules
  safety       asks in every mode, bypassPermissions included: a command that cannot be
               checked, a critical deletion, a write to a protected path, a recursive read
               over a tree holding a file a Read rule protects
  allow        every program is read-only inside the working directories, or covered by an
               allow rule (or acceptEdits for file edits inside), with nothing it can never be
               approved for (`problems`); reads outside need a Read rule, writes an Edit rule
The resolver (resolver.py) interleaves hooks and the tool's own check with these stages, and
hands an undecided call to the mode.

Threat model. What is guaranteed, for the command as bash will run it at decision time:
  - every simple command is found, including those inside substitutions, here-documents,
    `sh -c` / `bash -ec` / `eval` / `watch` / `find -exec` / `xargs` / `env -S` strings and
    wrappers; a substitution is read-only only when its inner command is;
  - a program is read-only only through its option table: an unknown option, a value that
    cannot be known where an option could be, a program not in the tables: not read-only;
  - every word that can name a file is expanded (tilde, variables from this environment,
    globs against the file system) and resolved through symlinks before any deny rule,
    protected-path, critical-path or working-directory check; what cannot be expanded counts
    as unknown, which never passes a check meant to keep something out;
  - deny and ask rules see the program after basename, wrapper and symlink normalisation
    (`./del` linking to /bin/rm is rm);
  - paths an earlier part of the same command writes, and `/proc/self/...`-style links (which
    lead where the command's own process is), count as unknown;
  - files git rewrites (checkout, merge, reset --hard, clean, stash...) are asked of git
    itself, with queries that run nothing the repository configures (no work-tree hashing,
    so no filter; every program setting overridden; see git_worktree.py); the repository's
    own config is otherwise read as data, and a program it names asks (git.py);
  - critical deletions and protected writes that the checker can see ask in every mode.
What is NOT guaranteed:
  - hard links: a hard link inside the project to a file outside reads as inside;
  - case-insensitive file systems: `.GIT/config` is not recognised as `.git/config`;
  - time of check to time of use: files, symlinks, globs and variables may change between
    the decision and the run (files created by an earlier part of the same command are
    handled: a glob after a write counts as unknown);
  - what programs do on their own: interpreters, build tools, package managers, archivers,
    `git checkout` may read and write anything; the checker only sees their command line
    (they are never read-only, and an allow rule for them is a grant to run code);
  - a copy of a program under another name (`cp /bin/rm x; ./x`) is another program to deny
    rules (a symlink is not: it is resolved);
  - programs unknown to the checker are never approved without a rule: they ask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from claude_harness.permissions.bash.analysis import Analysis, Facts, analyse
from claude_harness.permissions.bash.effects import PathUse
from claude_harness.permissions.bash.suggest import bash_suggestion
from claude_harness.permissions.bash.trees import members_problem, protected_member, survey
from claude_harness.permissions.modes import is_broad_bash_allow
from claude_harness.permissions.paths import inside_any, real
from claude_harness.permissions.rules import (
    describe_rule,
    match_bash_pattern,
    path_rule_may_cover_tree,
    rule_matches,
    tool_matches,
)
from claude_harness.permissions.safety import (
    critical_delete_reason,
    pattern_protected_reason,
    protected_reason,
)
from claude_harness.protocol.permission_data import (
    PermissionContext,
    PermissionDecision,
    PermissionRule,
)

ACCEPT_EDITS_COMMANDS = frozenset({"mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"})
_PSEUDO_FILES = frozenset({"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty",
                           "/dev/zero", "/dev/urandom", "/dev/random", "-"})
_FD_FILE = re.compile(r"/(dev|proc/self)/fd/\d+")


@dataclass
class BashVerdict:
    """Each stage's opinion of one command (None: no opinion at that stage)."""

    analysis: Analysis
    deny: PermissionDecision | None = None
    ask: PermissionDecision | None = None
    safety: PermissionDecision | None = None
    allowed: PermissionDecision | None = None  # read-only, allow rules or the mode
    undecided: str = ""
    suggestion: str | None = None


def _is_pseudo(use: PathUse) -> bool:
    """Standard streams and devices that hold no file's contents (exact names only: a path
    that merely starts like one, `/dev/fd/../../etc`, is a path)."""
    text = use.text if use.path is None else str(use.path)
    return text in _PSEUDO_FILES or _FD_FILE.fullmatch(text) is not None


def _rule_decision(rule: PermissionRule, what: str) -> PermissionDecision:
    verb = "denies" if rule.behavior == "deny" else "requires approval for"
    reason = f"{describe_rule(rule)} {verb} {what}"
    if rule.behavior == "deny":
        return PermissionDecision.deny(reason, decided_by="rule", rule=rule)
    return PermissionDecision.ask(reason, decided_by="rule", rule=rule)


def _content_reads(fact: Facts) -> list[PathUse]:
    return [u for u in fact.effect.reads
            if u.path is not None and not u.names_only and not u.guess and not _is_pseudo(u)]


def _all_writes(fact: Facts) -> list[PathUse]:
    return [u for u in (*fact.writes, *fact.effect.deletes) if not _is_pseudo(u)]


def _rule_stage(analysis: Analysis, rules: list[PermissionRule],
                perm: PermissionContext) -> PermissionDecision | None:
    """The first deny (or ask) rule that covers any program, or any file read or written."""
    whole = " ".join(analysis.source.split())
    for rule in rules:
        name = rule.value.tool_name
        content = rule.value.rule_content
        if tool_matches(name, "Bash"):
            if content is None:
                return _rule_decision(rule, "this command")
            for fact in analysis.facts:
                for form in fact.forms:
                    text = " ".join(form)
                    if match_bash_pattern(content, text):
                        return _rule_decision(rule, f"`{text}`")
            if "*" in content and content.strip() != "*" and match_bash_pattern(content, whole):
                return _rule_decision(rule, "this command")
        elif content is not None and tool_matches(name, "Read"):
            for fact in analysis.facts:
                for use in _content_reads(fact):
                    if rule_matches(rule, "Read", str(use.path), perm.cwd):
                        return _rule_decision(rule, f"reading {use.text}")
        elif content is not None and tool_matches(name, "Edit"):
            for fact in analysis.facts:
                for use in _all_writes(fact):
                    if use.path is not None and rule_matches(rule, "Edit", str(use.path),
                                                             perm.cwd):
                        return _rule_decision(rule, f"writing {use.text}")
    return None


def _safety(reason: str) -> PermissionDecision:
    return PermissionDecision.ask(f"Bash command {reason}", decided_by="safety")


def _safety_stage(analysis: Analysis, perm: PermissionContext) -> PermissionDecision | None:
    fatal = analysis.fatal or next((f.fatal for f in analysis.facts if f.fatal), "")
    if fatal:
        return PermissionDecision.ask(f"Bash command cannot be checked safely: {fatal}",
                                      decided_by="safety")
    dirs = perm.working_dirs
    for fact in analysis.facts:
        for use in fact.effect.deletes:
            reason = _member_delete_reason(use, perm) if use.path is None and (
                use.members is not None) else critical_delete_reason(
                    use.path, perm.cwd, dirs, everything=not use.partial, pattern=use.pattern,
                    shown=use.text)
            if reason:
                return _safety(reason)
            if use.members is not None:
                found = protected_member(use.members)
                if found:
                    return _safety(f"deletes {found}")
        for use in _all_writes(fact):
            if use.path is None and use.members is not None:
                found = protected_member(use.members)
                if found:
                    return _safety(f"writes to {found}")
                continue
            if use.path is None:
                return _safety(f"writes to {use.text}, which cannot be known in advance (it "
                               "could be a protected file)")
            reason = protected_reason(use.path, perm.cwd, dirs) or (
                pattern_protected_reason(use.pattern) if use.pattern else None)
            if reason:
                return _safety(reason)
    return _recursive_read_stage(analysis, perm)


def _member_delete_reason(use: PathUse, perm: PermissionContext) -> str | None:
    """Deleting names a lister hands over (`find ~ | xargs rm -rf`): the trees themselves may
    be among them unless a narrow name filter keeps them out."""
    members = use.members
    assert members is not None
    if not members.trees:
        return f"deletes {use.text}, which cannot be known in advance"
    narrow = any(re.sub(r"[*?.\[\]!^/\\]", "", p) for p in (*members.names, *members.paths))
    for tree in members.trees:
        reason = critical_delete_reason(tree, perm.cwd, perm.working_dirs, everything=not narrow,
                                        shown=str(tree))
        if reason:
            return reason
    return None


def _recursive_read_stage(analysis: Analysis,
                          perm: PermissionContext) -> PermissionDecision | None:
    """Reads a Read rule cannot be checked against, while Read rules protect files: a
    recursive read over a tree that may hold a protected file, a file that cannot be known in
    advance, a maybe-file of a program the checker does not understand."""
    rules = [r for r in (*perm.rules_for("deny"), *perm.rules_for("ask"))
             if tool_matches(r.value.tool_name, "Read") and r.value.rule_content is not None]
    if not rules:
        return None
    for fact in analysis.facts:
        for use in fact.effect.reads:
            if use.names_only and use.members is None:
                continue
            if use.path is None and use.members is None and not _is_pseudo(use):
                return PermissionDecision.ask(
                    f"`{fact.text}` reads {use.text}, which cannot be known in advance, while "
                    f"{describe_rule(rules[0])} protects files", decided_by="safety",
                    rule=rules[0])
            if use.guess and use.path is not None:
                for rule in rules:
                    if rule_matches(rule, "Read", str(use.path), perm.cwd):
                        return PermissionDecision.ask(
                            f"`{fact.text}` may read {use.text}, which {describe_rule(rule)} "
                            "protects", decided_by="safety", rule=rule)
            trees = use.members.trees if use.members is not None else (
                (use.path,) if use.recursive and use.path else ())
            for tree in trees:
                target = real(tree, perm.cwd)
                if not target.is_dir():
                    continue
                for rule in rules:
                    if path_rule_may_cover_tree(rule.value.rule_content or "", target, perm.cwd,
                                                rule.root):
                        return PermissionDecision.ask(
                            f"`{fact.text}` reads every file below {tree}, which may include "
                            f"files that {describe_rule(rule)} protects",
                            decided_by="safety", rule=rule)
    return None


def _inside(use: PathUse, perm: PermissionContext) -> str:
    """'' when every file `use` can reach is inside the working directories; else why not."""
    dirs = perm.working_dirs
    if _is_pseudo(use):
        return ""
    if use.members is not None:
        for tree in use.members.trees:
            if not inside_any(real(tree, perm.cwd), dirs):
                return f"{tree} is outside the working directories"
        found = members_problem(use.members, dirs,
                                dirs_harmless=not use.recursive and not use.names_only)
        return f"the names it is given cannot be checked ({found})" if found else ""
    if use.path is None:
        return f"{use.text} cannot be known in advance"
    target = real(use.path, perm.cwd)
    last = use.text.rstrip("/").rsplit("/", 1)[-1]
    if use.entry and last not in {"", ".", "..", "~"} and not last.startswith("~"):
        target = real(use.path.parent, perm.cwd)  # the entry sits in its directory
    if not inside_any(target, dirs):
        return f"{use.text} is outside the working directories"
    if use.follow and use.recursive and target.is_dir():
        found = survey(target, dirs).problem(xargs=False)
        if found:
            return f"following symlinks below {use.text}: {found}"
    return ""


def _read_allowed(use: PathUse, perm: PermissionContext) -> bool:
    if use.path is None:
        return False
    return any(rule_matches(r, "Read", str(use.path), perm.cwd) for r in perm.rules_for("allow")
               if tool_matches(r.value.tool_name, "Read") and r.value.rule_content is not None)


def _edit_allowed(use: PathUse, perm: PermissionContext, *, accept_edits: bool) -> bool:
    if use.path is None:
        return False
    if accept_edits and inside_any(real(use.path, perm.cwd), perm.working_dirs):
        return True
    return any(rule_matches(r, "Edit", str(use.path), perm.cwd) for r in perm.rules_for("allow")
               if tool_matches(r.value.tool_name, "Edit") and r.value.rule_content is not None)


def _fact_allowed(fact: Facts, perm: PermissionContext, allow: list[PermissionRule]) -> str:
    """'' when this program may run unasked; otherwise why it needs approval."""
    if fact.problems:
        return fact.problems[0]
    for use in fact.effect.reads:
        why = _inside(use, perm)
        if why and not _read_allowed(use, perm):
            return f"`{fact.text}` reads outside what it may read: {why}"
    accept = perm.mode == "acceptEdits"
    for use in (*fact.redirect_writes, *(u for u in fact.effect.writes if u.edit)):
        if not _edit_allowed(use, perm, accept_edits=accept):
            where = "" if use.path is not None and inside_any(
                real(use.path, perm.cwd), perm.working_dirs) else " outside the working directories"
            return f"writes to {use.text}{where}"
    program_writes = [u for u in (*fact.effect.writes, *fact.effect.deletes) if not _is_pseudo(u)]
    for use in program_writes:
        inside = use.path is not None and inside_any(real(use.path, perm.cwd), perm.working_dirs)
        if not inside and not _edit_allowed(use, perm, accept_edits=False):
            return f"`{fact.text}` writes to {use.text} outside the working directories"
    if fact.effect.read_only and not program_writes:
        return ""
    if fact.allow_form is not None:
        text = " ".join(fact.allow_form)
        for rule in allow:
            content = rule.value.rule_content
            if tool_matches(rule.value.tool_name, "Bash") and (
                    content is None or match_bash_pattern(content, text)):
                return ""
        if accept and fact.program in ACCEPT_EDITS_COMMANDS and program_writes:
            return ""
    return f"`{fact.text}` is not covered by an allow rule"


def bash_verdict(command: str, perm: PermissionContext,
                 shell_cwd: Path | None = None) -> BashVerdict:
    """Run every stage once. `shell_cwd`: where the Bash shell is (a `cd` persists between
    calls); rules and git's "own repository" stay anchored at the project root (perm.cwd)."""
    analysis = analyse(command, shell_cwd or perm.cwd, perm.cwd)
    verdict = BashVerdict(analysis)
    verdict.deny = _rule_stage(analysis, perm.rules_for("deny"), perm)
    verdict.ask = _rule_stage(analysis, perm.rules_for("ask"), perm)
    verdict.safety = _safety_stage(analysis, perm)
    verdict.suggestion = bash_suggestion(analysis, perm.cwd, perm.working_dirs)
    if analysis.fatal:
        verdict.undecided = f"Bash command cannot be checked safely: {analysis.fatal}"
        return verdict
    allow = perm.rules_for("allow")
    if perm.mode == "auto":  # broad "run anything" rules would bypass the classifier
        allow = [r for r in allow if not is_broad_bash_allow(r)]
    # A construct the checker does not follow (a loop, a function) needs approval, unless the
    # user allowed every Bash command (a bare `Bash` rule, as in Claude Code): deny and ask
    # rules, the safety checks and the writes of each command found in it still apply.
    if analysis.problems and not any(tool_matches(r.value.tool_name, "Bash")
                                     and r.value.rule_content is None for r in allow):
        verdict.undecided = f"Bash command needs approval: {analysis.problems[0]}"
        verdict.suggestion = None
        return verdict
    read_only = True
    for fact in analysis.facts:
        if fact.alternative:
            continue
        why = _fact_allowed(fact, perm, allow)
        if why:
            verdict.undecided = f"Bash command needs approval: {why}"
            if fact.problems:
                verdict.suggestion = None
            return verdict
        read_only = read_only and fact.effect.read_only and not fact.writes
    how = "read-only command" if read_only else "covered by allow rules or mode"
    verdict.allowed = PermissionDecision.allow(how, decided_by="read-only" if read_only else "rule")
    return verdict


def is_read_only_command(command: str, cwd: Path | None = None) -> bool:
    """The Bash tool's scheduling hint: does the command only read (never raises)?"""
    try:
        base = cwd or Path.cwd()
        analysis = analyse(command, base, base)
    except Exception:  # a checker bug must fail closed, not crash the tool scheduler
        return False
    if analysis.fatal or analysis.problems or not analysis.facts:
        return False
    return all(f.effect.read_only and not f.problems and not f.writes and not f.fatal
               for f in analysis.facts)
