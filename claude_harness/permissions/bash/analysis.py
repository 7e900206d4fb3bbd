"""One analysis of a Bash command: every program it runs, with what each reads, writes and runs.

The decision chain (decision.py) asks all its questions of this analysis, so deny rules, ask
rules, safety checks and the read-only classification see one and the same view: every simple
command in execution order (substitutions first), expanded as bash will expand it, peeled of its
wrappers, and turned into an Effect by the program's handler. Commands that a command runs in
turn (`sh -c`, `eval`, `find -exec`, `xargs`, `watch`) are analysed the same way and added as
nested facts.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from claude_harness.permissions.bash.effects import Effect, Invocation, PathUse, Scope, path_use
from claude_harness.permissions.bash.expand import expand_word
from claude_harness.permissions.bash.options import Arg
from claude_harness.permissions.bash.parse import (
    MAX_NESTING,
    Script,
    SimpleCommand,
    parse_script,
)
from claude_harness.permissions.bash.programs import effect_of, may_write
from claude_harness.permissions.bash.words import Word
from claude_harness.permissions.bash.wrappers import (
    Peeled,
    linked_program,
    names_from,
    peel,
    program_name,
)

SAFE_ENV_VARS = frozenset({
    "NODE_ENV", "RUST_BACKTRACE", "RUST_LOG", "CI", "TZ", "LANG", "LANGUAGE", "NO_COLOR",
    "FORCE_COLOR", "TERM", "COLUMNS", "LINES", "GOOS", "GOARCH", "CGO_ENABLED", "DEBUG",
    "VERBOSE", "COLORTERM", "CLICOLOR", "CLICOLOR_FORCE", "PYTHONUNBUFFERED",
    "PYTHONDONTWRITEBYTECODE", "TERM_PROGRAM",
})
_QUIET_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})


@dataclass
class Facts:
    """One program the command runs, and everything the decision needs about it."""

    text: str  # as written, for messages
    forms: list[list[str]]  # every argv a deny/ask rule is tested against
    allow_form: list[str] | None  # what allow rules see; None: no rule may approve it
    program: str | None
    effect: Effect
    cwd: Path | None
    nested: bool
    problems: list[str] = field(default_factory=list)  # why it can never run unasked
    fatal: str = ""  # why nothing about it can be checked: ask even in bypassPermissions
    redirect_writes: list[PathUse] = field(default_factory=list)
    alternative: bool = False  # a guess at what an opaque wrapper runs (deny/safety only)

    @property
    def writes(self) -> list[PathUse]:
        return [*self.redirect_writes, *self.effect.writes]


@dataclass
class Analysis:
    source: str
    facts: list[Facts] = field(default_factory=list)
    fatal: str | None = None
    problems: list[str] = field(default_factory=list)  # script-level: loops, functions...


def is_safe_assignment(text: str) -> bool:
    name, _, value = text.partition("=")
    if "$" in value or "`" in value:
        return False
    return name in SAFE_ENV_VARS or name.startswith("LC_")


class _Analyser:
    def __init__(self, scope: Scope, depth: int) -> None:
        self.scope = scope
        self.depth = depth
        self.result: Analysis | None = None

    def run(self, command: str, cwd: Path | None, *, nested: bool) -> Analysis:
        script = parse_script(command, cwd, nested=nested, depth=self.depth)
        result = Analysis(command, fatal=script.fatal, problems=list(script.problems))
        self.result = result
        if script.changes_variables and not self.scope.variables_changed:
            self.scope = replace(self.scope, variables_changed=True)
        effects: dict[int, Effect] = {}
        dirty = False
        written = _Written()
        for cmd in _execution_order(script.commands):
            producer = effects.get(id(cmd.pipe_prev)) if cmd.pipe_prev is not None else None
            first = len(result.facts)
            facts = self.simple(cmd, self.scope, dirty, producer, script)
            if facts:
                effects[id(cmd)] = facts[0].effect
            made = result.facts[first:]
            if any(f.program == "git" and not f.effect.read_only for f in made):
                self.scope = replace(self.scope, git_moved=True)
            for fact in made:
                written.forget_paths(fact)
            for fact in made:
                written.add(fact)
                if fact.writes or fact.effect.deletes or not fact.effect.read_only:
                    dirty = True
        return result

    # -- one simple command
    def simple(self, cmd: SimpleCommand, scope: Scope, dirty: bool, producer: Effect | None,
               script: Script) -> list[Facts]:
        args = _expand_all(cmd.words, cmd.cwd, scope, dirty)
        listed = _glob_listings(cmd.words, args, cmd.cwd)
        problems = list(cmd.problems)
        for word in cmd.assignments:
            if not is_safe_assignment(word.raw):
                name = word.raw.split("=", 1)[0]
                problems.append(f"sets the environment variable {name}")
        if cmd.assignments and not cmd.words:
            problems.append("a bare variable assignment changes the shell environment")
        redirect_writes: list[PathUse] = []
        reads: list[PathUse] = []
        stdin_file: PathUse | None = None
        for r in cmd.redirects:
            if r.target is None:
                continue
            use = _redirect_target(r.target, cmd.cwd, scope, dirty)
            if r.writes and use.text not in _QUIET_TARGETS:
                redirect_writes.append(use)
            if r.reads:
                reads.append(use)
                stdin_file = use
        stdin_script = cmd.stdin_text
        if stdin_script is None and cmd.pipe_prev is not None:
            stdin_script = _echoed(cmd.pipe_prev, scope)
        inv = Invocation(args, cmd.cwd, stdin_script, stdin_file)
        peeled = peel(inv, names_source=names_from(producer))
        main = self.facts_for(peeled, cmd.text, nested=cmd.nested, extra_problems=problems)
        main.redirect_writes = redirect_writes
        main.effect.reads[:0] = [*reads, *listed]
        out = [main]
        for run in peeled.more:
            out.extend(self.invocation(run, cmd.text, nested=cmd.nested))
        for alternative in peeled.alternatives:
            alt = self.invocation(alternative, cmd.text, nested=True)
            for fact in alt:
                fact.alternative = True
            out.extend(alt)
        return out

    def invocation(self, inv: Invocation, text: str, *, nested: bool) -> list[Facts]:
        """A command another command runs (find -exec, an opaque wrapper's guess)."""
        peeled = peel(inv)
        return [self.facts_for(peeled, text, nested=nested, extra_problems=[])]

    def facts_for(self, peeled: Peeled, text: str, *, nested: bool,
                  extra_problems: list[str]) -> Facts:
        assert self.result is not None
        final = peeled.final
        effect = peeled.effect
        program = None
        allow_form: list[str] | None = None
        if peeled.unknown_program:
            fact = Facts(text, peeled.forms, None, None, effect, None, nested,
                         [*extra_problems, peeled.unknown_program], fatal=peeled.unknown_program)
            self.result.facts.append(fact)
            self.follow_scripts(effect, nested=True)
            return fact
        if final is not None and final.argv:
            head = final.argv[0].value or ""
            program = program_name(head, for_allow=True)
            # what it does is what the program it links to does (`./del` -> /bin/rm deletes)
            does = linked_program(head, final.cwd) or program
            inner = effect_of(final, self.scope, program=does)
            if not inner.understood:
                _guess_paths(inner, final, writes=may_write(program))
            effect = _merge(effect, inner)
            allow_form = [program, *(a.text for a in final.args)]
        else:
            effect.read_only = not effect.problems
        problems = [*extra_problems, *effect.problems]
        for assignment in peeled.env_assignments:
            if not is_safe_assignment(assignment):
                problems.append(f"sets the environment variable {assignment.split('=')[0]}")
        if peeled.opaque:
            problems.append(peeled.opaque)
            allow_form = None
        if peeled.query:
            effect.read_only = True
        forms = [*peeled.forms, *effect.forms]
        if program is not None and final is not None and program != (final.argv[0].value or ""):
            forms.append([program, *(a.text for a in final.args)])
        fact = Facts(text, forms, allow_form, program, effect,
                     final.cwd if final is not None else None, nested, problems,
                     fatal=effect.opaque_code)
        self.result.facts.append(fact)
        self.follow_scripts(effect, nested=True)
        for run in effect.runs:
            for sub in self.invocation(run, " ".join(a.text for a in run.argv), nested=True):
                if not sub.effect.read_only or sub.problems or sub.fatal:
                    effect.read_only = False
        return fact

    def follow_scripts(self, effect: Effect, *, nested: bool) -> None:
        """Shell code a command runs (`sh -c S`, `eval S`, `watch S`): analysed as nested."""
        assert self.result is not None
        for code, cwd in effect.scripts:
            if self.depth >= MAX_NESTING:
                self.result.fatal = self.result.fatal or "shell code nested too deeply to check"
                continue
            inner = _Analyser(replace(self.scope, positionals_unknown=True), self.depth + 1).run(
                code, cwd, nested=True)
            if inner.fatal:
                self.result.fatal = self.result.fatal or inner.fatal
            self.result.problems.extend(p for p in inner.problems
                                        if p not in self.result.problems)
            self.result.facts.extend(inner.facts)
            if any(not f.effect.read_only or f.problems for f in inner.facts) or inner.problems:
                effect.read_only = False


_MAKE_NO_LINKS = frozenset({
    "mkdir", "touch", "tee", "truncate", "chmod", "chown", "chgrp", "sed", "sort", "split",
    "csplit", "dd", "mktemp", "shred", "rm", "rmdir", "unlink", "echo", "printf", "cat",
    "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "uniq", "xxd",
    "shuf", "find", "file", "tree", "less", "curl", "wget",
})


class _Written:
    """Paths an earlier part of the command writes: a later read or write through them may
    go anywhere (`ln -s ~/.ssh k && cat k/id_rsa`), so it is unknown at decision time."""

    def __init__(self) -> None:
        self.paths: set[str] = set()
        self.unknown = False

    def add(self, fact: Facts) -> None:
        # programs that only make regular files and directories (or write through what is
        # already there, which is resolved as it is) cannot plant a link for later parts
        if fact.program in _MAKE_NO_LINKS:
            return
        for use in fact.effect.writes:
            if use.path is None:
                self.unknown = self.unknown or use.members is None
            else:
                self.paths.add(os.path.normpath(str(use.path)))

    def covers(self, use: PathUse) -> bool:
        if use.path is None or use.text in _QUIET_TARGETS:
            return False
        if self.unknown:
            return True
        text = os.path.normpath(str(use.path))
        return any(text == p or text.startswith(p.rstrip("/") + "/") for p in self.paths)

    def forget_paths(self, fact: Facts) -> None:
        if not self.paths and not self.unknown:
            return
        effect = fact.effect
        effect.reads = [_unknown(u) if self.covers(u) else u for u in effect.reads]
        effect.writes = [_unknown(u) if self.covers(u) else u for u in effect.writes]
        effect.deletes = [_unknown(u) if self.covers(u) else u for u in effect.deletes]
        fact.redirect_writes = [_unknown(u) if self.covers(u) else u
                                for u in fact.redirect_writes]


def _unknown(use: PathUse) -> PathUse:
    return replace(use, path=None, text=f"{use.text} (made by an earlier part of the command)")


def _guess_paths(effect: Effect, inv: Invocation, *, writes: bool) -> None:
    """A program whose argv we could not read may use any operand as a file it reads (and, if
    it can write at all, as a file it writes)."""
    for arg in inv.args:
        value = arg.value
        if value is None:
            use = PathUse(arg.text, None, guess=True)
            effect.reads.append(use)
            if writes:
                effect.writes.append(use)
            continue
        if value == "-":
            continue
        if value.startswith("-"):
            value = value.split("=", 1)[1] if "=" in value else ""
            if not value.startswith(("/", "~", ".")):
                continue
        use = path_use(Arg(value, source=value, pattern=arg.pattern), inv.cwd, guess=True)
        effect.reads.append(use)
        if writes:
            effect.writes.append(use)


def _merge(wrapper: Effect, program: Effect) -> Effect:
    """The wrappers' own effect (time -o, xargs -a, env -C) joined to the program's."""
    out = program
    out.reads[:0] = wrapper.reads
    out.writes[:0] = wrapper.writes
    out.scripts[:0] = wrapper.scripts
    for why in wrapper.problems:
        out.problem(why)
    if wrapper.writes:
        out.read_only = False
    return out


def _execution_order(commands: list[SimpleCommand]) -> list[SimpleCommand]:
    """Substitutions run before the command that contains them."""
    out: list[SimpleCommand] = []
    i = 0
    while i < len(commands):
        cmd = commands[i]
        k = cmd.inner_count
        out.extend(_execution_order(commands[i + 1 : i + 1 + k]))
        out.append(cmd)
        i += 1 + k
    return out


def _expand_all(words: list[Word], cwd: Path | None, scope: Scope, dirty: bool) -> list[Arg]:
    args: list[Arg] = []
    for word in words:
        if dirty and word.has_glob:
            # an earlier part of this command may have created files this glob would match
            args.append(Arg(None, source=word.raw, split=True))
            continue
        exp = expand_word(word, cwd, scope.variables_changed, scope.positionals_unknown)
        if exp.values is None:
            args.append(Arg(None, source=word.raw, split=exp.may_split))
            continue
        patterns = exp.patterns or (None,) * len(exp.values)
        args.extend(Arg(v, source=word.raw if not exp.globbed else v, globbed=exp.globbed,
                        pattern=p) for v, p in zip(exp.values, patterns, strict=False))
    return args


def _glob_listings(words: list[Word], args: list[Arg], cwd: Path | None) -> list[PathUse]:
    """A glob reads the directories it lists, whatever the program then does with the names
    (`echo ~/*` prints what is in the home directory)."""
    out: dict[str, PathUse] = {}
    for arg in args:
        if arg.globbed and arg.value is not None:
            parent = os.path.dirname(arg.value.rstrip("/")) or "."
            use = path_use(Arg(parent, source=parent), cwd, names_only=True)
            out.setdefault(str(use.path), use)
            if arg.pattern:
                head = re.split(r"[*?\[]", arg.pattern, maxsplit=1)[0]
                literal = os.path.dirname(head) or "."
                use = path_use(Arg(literal, source=literal), cwd, names_only=True)
                out.setdefault(str(use.path), use)
    if any(a.value is None and a.source and w.has_glob for a in args for w in words
           if w.raw == a.source):
        out["?"] = PathUse("the directories a glob lists", None, names_only=True)
    return list(out.values())


def _redirect_target(word: Word, cwd: Path | None, scope: Scope, dirty: bool) -> PathUse:
    if dirty and word.has_glob:
        return PathUse(word.raw, None)
    exp = expand_word(word, cwd, scope.variables_changed, scope.positionals_unknown)
    value = exp.single
    if value is None:
        return PathUse(word.raw, None, pattern=exp.pattern)
    if value in _QUIET_TARGETS:
        return PathUse(value, Path(value))
    return path_use(Arg(value, source=word.raw, pattern=exp.pattern), cwd)


def _echoed(producer: SimpleCommand, scope: Scope) -> str | None:
    """`echo 'ls' | bash`: the script a plain echo feeds the next command."""
    values = [w.literal for w in producer.words]
    if not values or values[0] != "echo" or any(v is None for v in values):
        return None
    words = [v for v in values[1:] if v is not None]
    if words and words[0].startswith("-"):
        return None
    return " ".join(words) + "\n"


def analyse(command: str, cwd: Path | None, project: Path) -> Analysis:
    """The analysis of `command` run from `cwd` in the project rooted at `project`.

    Never cached across decisions: the file system it expands globs and resolves symlinks
    against may have changed since the last call (an earlier command may have just made it).
    """
    return _Analyser(Scope(project), 0).run(command, cwd, nested=False)
