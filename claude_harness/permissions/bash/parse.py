"""A command string -> the simple commands bash would run, in order, with their words scanned.

Why here: every later question (which program, which files, which rule) must read the SAME view
of the command, or a difference between what the checker saw and what bash runs is a bypass.

- The raw text is screened first (length, invisible and control characters, line
  continuations): those are where "what the user sees" and "what bash runs" part ways.
- bashlex gives the structure (lists, pipelines, commands, words with positions, redirections);
  every word is then read again by `words.scan_word`, and substitutions found there are parsed
  recursively as nested commands, so nothing bashlex folds away goes unseen.
- The virtual working directory follows `cd` through a list; where it cannot be known it
  becomes None (relative paths then resolve to "unknown").

What is not modelled is reported, never guessed: `fatal` (cannot be read at all: always ask,
even in bypassPermissions) or `problems` (understood enough to check deny rules and safety,
not enough to allow without asking).
"""

from __future__ import annotations

import os
import re
import shlex
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_harness.permissions.bash.bashlex_tables import load_bashlex
from claude_harness.permissions.bash.expand import expand_word
from claude_harness.permissions.bash.words import (
    Word,
    looks_like_assignment,
    scan_heredoc_body,
    scan_word,
)

bashlex = load_bashlex()  # its parser tables from the cache file (bashlex_tables.py)

MAX_COMMAND_CHARS = 10_000
MAX_SUBCOMMANDS = 50
MAX_NESTING = 4

_INVISIBLE_CATEGORIES = {"Cf", "Cc", "Co", "Cs", "Zl", "Zp"}
_FD_DUP = {">&", "<&"}


@dataclass
class Redirect:
    """One redirection. `target` is None for an fd duplication (`2>&1`) or a here-document."""

    op: str
    target: Word | None = None
    fd: int | None = None
    heredoc: str | None = None  # the here-document body, or the here-string's word value
    heredoc_word: Word | None = None  # the scanned body when bash expands it

    @property
    def writes(self) -> bool:
        return self.target is not None and self.op in {">", ">>", ">|", "&>", "&>>", ">&", "<>"}

    @property
    def reads(self) -> bool:
        return self.target is not None and self.op in {"<", "<>"}

    @property
    def feeds_stdin(self) -> bool:
        return self.op in {"<<", "<<-", "<<<"}


@dataclass
class SimpleCommand:
    """One simple command as bash will run it (before wrappers are peeled)."""

    words: list[Word]
    assignments: list[Word] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    cwd: Path | None = None  # None: a `cd` went somewhere that cannot be known in advance
    nested: bool = False  # inside a substitution, a compound command or an inner script
    pipe_prev: SimpleCommand | None = None  # the command whose output is this one's stdin
    problems: list[str] = field(default_factory=list)
    inner_count: int = 0  # how many commands after this one are its own substitutions

    @property
    def text(self) -> str:
        return " ".join(w.raw for w in self.words)

    @property
    def stdin_text(self) -> str | None:
        """What a here-document or here-string feeds this command, when it is plain text."""
        for r in self.redirects:
            if r.feeds_stdin and r.heredoc is not None and r.heredoc_word is None:
                return r.heredoc
        return None


@dataclass
class Script:
    """The whole command: its simple commands in execution order, and what is not understood."""

    source: str
    commands: list[SimpleCommand] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    fatal: str | None = None
    changes_variables: bool = False  # a bare assignment, `export`, `read`...: values unknown


_VARIABLE_BUILTINS = {"export", "declare", "typeset", "local", "readonly", "read", "mapfile",
                      "readarray", "unset", "set", "shopt", "source", ".", "eval", "enable",
                      "alias", "getopts", "let", "printf", "wait", "pushd", "popd", "trap"}


def screen_raw(command: str) -> str | None:
    """Why the raw text itself cannot be trusted, before parsing (or None)."""
    if len(command) > MAX_COMMAND_CHARS:
        return f"command is longer than {MAX_COMMAND_CHARS:,} characters"
    for ch in command:
        if ch == "\n":
            continue
        if ch == "\t":
            return "command contains a tab character (can hide part of the command)"
        if ch == "\r":
            return "command contains a carriage return (can hide part of the command)"
        cat = unicodedata.category(ch)
        if cat in _INVISIBLE_CATEGORIES:
            return f"command contains an invisible or control character (U+{ord(ch):04X})"
        if cat == "Zs" and ch != " ":
            return f"command contains an unusual space character (U+{ord(ch):04X})"
    if re.search(r"\\\r?\n", command):
        return "command uses a line continuation (backslash-newline)"
    if re.search(r"\$'(?:[^'\\]|\\.)*\\'", command):
        # bashlex ends $'...' at an escaped quote where bash does not: the words would differ
        return "command has an escaped quote inside $'...'"
    return None


class _Walker:
    """Walks a bashlex tree in execution order, collecting simple commands."""

    def __init__(self, source: str, script: Script, cwd: Path | None, depth: int,
                 nested: bool) -> None:
        self.source = source
        self.script = script
        self.cwd = cwd
        self.depth = depth
        self.nested = nested
        self.literal_heredocs: set[str] = set()  # delimiters that were quoted in the source

    def raw(self, node: Any) -> str:
        start, end = node.pos
        return self.source[start:end]

    def problem(self, why: str) -> None:
        if why not in self.script.problems:
            self.script.problems.append(why)

    # -- structure
    def walk(self, node: Any, *, nested: bool, subshell: bool = False) -> None:
        kind = node.kind
        if kind == "list":
            parts = node.parts
            for i, child in enumerate(parts):
                if child.kind == "operator":
                    continue
                nxt = parts[i + 1] if i + 1 < len(parts) else None
                background = nxt is not None and getattr(nxt, "op", "") == "&"
                self.walk(child, nested=nested, subshell=subshell or background)
        elif kind == "pipeline":
            commands = [p for p in node.parts if p.kind not in {"pipe", "reservedword"}]
            previous: SimpleCommand | None = None
            for child in commands:
                before = len(self.script.commands)
                self.walk(child, nested=nested, subshell=subshell or len(commands) > 1)
                produced = self.script.commands[before:]
                if previous is not None and produced and child.kind == "command":
                    produced[0].pipe_prev = previous
                previous = produced[0] if produced and child.kind == "command" else None
        elif kind == "command":
            self.command(node, nested=nested, subshell=subshell)
        elif kind in {"operator", "pipe", "reservedword"}:
            return
        elif kind == "compound":
            self.problem("compound shell construct (group, subshell, loop or condition)")
            self.script.changes_variables = True  # loop variables, `read` in a while...
            self.walk_children(node)
        elif kind == "function":
            self.problem("defines a shell function")
            self.script.changes_variables = True
            self.walk_children(node)
        elif kind in {"for", "while", "until", "if", "case"}:
            self.problem(f"`{kind}` construct")
            self.script.changes_variables = True
            self.walk_children(node)
        else:
            self.problem(f"unsupported shell construct ({kind})")
            self.walk_children(node)

    def walk_children(self, node: Any) -> None:
        """A compound construct: its commands are nested, and a `cd` inside it leaves the
        directory unknown afterwards."""
        saved = self.cwd
        for child in [*_node_children(node), *(getattr(node, "redirects", None) or [])]:
            if child.kind == "redirect":  # `while ...; done < file`: the loop reads the file
                holder = SimpleCommand([], cwd=self.cwd, nested=True)
                self.redirect(child, holder)
                self.script.commands.append(holder)
                continue
            if child.kind == "word":  # `for x in WORDS`, `case WORD in`: substitutions run
                word = self.scan(child, SimpleCommand([], cwd=self.cwd, nested=True))
                for why in word.problems:
                    self.problem(why)
            else:
                self.walk(child, nested=True, subshell=False)
        if self.cwd != saved:
            self.cwd = None

    # -- words
    def scan(self, node: Any, cmd: SimpleCommand, *, assignment: bool = False) -> Word:
        raw = self.raw(node)
        word = scan_word(raw, assignment=assignment or looks_like_assignment(raw))
        expected = getattr(node, "word", None)
        if (expected is not None and not word.problems and "$'" not in raw and '$"' not in raw
                and not word.brace and word.source_value() != expected):
            word.problems.append(f"the shell and the checker read {raw!r} differently")
        for why in word.problems:
            # a word we cannot read may hide a command: nothing about the command is trusted
            self.script.fatal = self.script.fatal or f"{why} in {raw!r}"
        for piece in word.substitutions:
            self.inner(piece.text, f"substitution {piece.raw!r}")
        return word

    def inner(self, text: str, what: str) -> None:
        """Commands inside a substitution: parsed and appended as nested commands."""
        if self.depth >= MAX_NESTING:
            self.script.fatal = f"{what} is nested too deeply to check"
            return
        _parse_into(self.script, text, self.cwd, self.depth + 1, nested=True)

    # -- one simple command
    def command(self, node: Any, *, nested: bool, subshell: bool) -> None:
        nested = nested or self.nested
        cmd = SimpleCommand([], cwd=self.cwd, nested=nested)
        index = len(self.script.commands)
        for part in node.parts:
            if part.kind == "assignment" and not cmd.words:
                cmd.assignments.append(self.scan(part, cmd, assignment=True))
            elif part.kind in {"word", "assignment"}:
                cmd.words.append(self.scan(part, cmd))
            elif part.kind == "redirect":
                self.redirect(part, cmd)
            else:
                cmd.problems.append(f"unsupported part ({part.kind})")
        # the command goes before its own substitutions (which bash runs first): `inner_count`
        # tells the analysis which later entries belong to it
        cmd.inner_count = len(self.script.commands) - index
        self.script.commands.insert(index, cmd)
        if cmd.assignments and not cmd.words:
            self.script.changes_variables = True
        name = cmd.words[0].literal if cmd.words else None
        if name in _VARIABLE_BUILTINS:
            self.script.changes_variables = True
        if name in {"source", "."} and not subshell:
            self.cwd = None  # the sourced file may `cd` anywhere
        if name in {"cd", "pushd", "popd"} and not subshell:
            # in a pipeline or in the background a `cd` runs in a subshell and changes nothing
            if nested or name != "cd":
                self.cwd = None
            else:
                self.follow_cd(cmd)

    def redirect(self, part: Any, cmd: SimpleCommand) -> None:
        op = part.type
        out = part.output
        fd = part.input if isinstance(getattr(part, "input", None), int) else None
        heredoc = getattr(part, "heredoc", None)
        if op in {"<<", "<<-"}:
            delim = self.raw(out) if hasattr(out, "pos") else ""
            body = getattr(heredoc, "value", "") if heredoc is not None else ""
            body = body.rsplit("\n", 1)[0] if "\n" in body else ""
            redirect = Redirect(op, fd=fd, heredoc=body)
            quoted = any(q in delim for q in "'\"\\") or delim in self.literal_heredocs
            if not quoted:
                scanned = scan_heredoc_body(body)
                cmd.problems.extend(scanned.problems)
                for piece in scanned.substitutions:
                    self.inner(piece.text, "here-document substitution")
                if scanned.has_expansion:
                    redirect.heredoc_word = scanned
            cmd.redirects.append(redirect)
            return
        if op == "<<<":
            word = self.scan(out, cmd)
            redirect = Redirect(op, fd=fd, heredoc=word.literal)
            if word.literal is None:
                redirect.heredoc_word = word
            cmd.redirects.append(redirect)
            return
        if isinstance(out, int) or out is None:
            cmd.redirects.append(Redirect(op, fd=fd))
            return
        word = self.scan(out, cmd)
        if op in _FD_DUP and re.fullmatch(r"\d*-?", word.literal or "x"):
            cmd.redirects.append(Redirect(op, fd=fd))
            return
        cmd.redirects.append(Redirect(op, target=word, fd=fd))

    def follow_cd(self, cmd: SimpleCommand) -> None:
        args = [w for w in cmd.words[1:] if w.literal not in {"-P", "-L", "-e", "--", "-@"}]
        if len(args) > 1:
            self.cwd = None
            return
        if not args:
            target: Path | None = Path.home()
        else:
            word = args[0]
            text = expand_word(word, self.cwd, self.script.changes_variables).single
            if text is None or text == "-" or self.cwd is None:
                target = None
            elif os.environ.get("CDPATH") and not text.startswith(("/", ".", "~")):
                target = None
            else:
                target = Path(os.path.normpath(self.cwd / text))
                if not target.is_dir():
                    target = None  # cd fails (and the shell stays) or it is created later
        self.cwd = target


def _node_children(node: Any) -> list[Any]:
    out: list[Any] = []
    for attr in ("parts", "list"):
        val = getattr(node, attr, None)
        if isinstance(val, list):
            out.extend(val)
    cmd = getattr(node, "command", None)
    if cmd is not None and not isinstance(cmd, str):
        out.append(cmd)
    return out


# `$(( 1 + 2 ))` with numbers and operators only (no variables: a variable's value is
# evaluated as arithmetic too, and an assigned `a[$(cmd)]` would run); no `-` or `~`, so the
# result is a number that cannot read as an option.
_ARITHMETIC = re.compile(r"\$\(\(([0-9\s+*/%<>=!&|^?:,()]*)\)\)")
# `[[ ... ]]` without anything that is an operator inside it but not outside it
_DOUBLE_TEST = re.compile(r"(?<![^\s;&|(])\[\[\s([^;&|<>()`$\n]*?)\s\]\](?=$|[\s;&|)])")
DOUBLE_TEST_WORD = "__double_test__"


# `<<'EOF'`, `<<"EOF"`, `<<\EOF`: bashlex waits for the quotes in the terminator line
_QUOTED_HEREDOC = re.compile(r"(<<-?[ \t]*)(?:'(\w+)'|\"(\w+)\"|\\(\w+))")


def _rewrite_for_bashlex(source: str, literal_heredocs: set[str]) -> str:
    """What bashlex cannot read, made readable without changing what the checker must see:
    constant arithmetic becomes a number, a simple `[[ ]]` a test command, a quoted
    here-document delimiter a plain one (its name remembered: that body is not expanded)."""
    if "<<" in source:
        def unquote(m: re.Match[str]) -> str:
            name = m.group(2) or m.group(3) or m.group(4)
            literal_heredocs.add(name)
            return m.group(1) + name
        source = _QUOTED_HEREDOC.sub(unquote, source)
    if "$((" in source:
        source = _ARITHMETIC.sub("0", source)
    if "[[" in source:
        source = _DOUBLE_TEST.sub(lambda m: f"{DOUBLE_TEST_WORD} {m.group(1)}", source)
    return source


def _parse_into(script: Script, source: str, cwd: Path | None, depth: int, *,
                nested: bool) -> None:
    literal_heredocs: set[str] = set()
    source = _rewrite_for_bashlex(source, literal_heredocs)
    # bashlex does not implement the `time` keyword; as a leading word it only times the rest
    timed = re.match(r"^\s*time(\s+-p)?\s+(?=\S)", source)
    body = source[timed.end():] if timed else source
    if not body.strip():
        return
    try:
        trees = bashlex.parse(body)
    except Exception as exc:  # bashlex raises several unrelated types; all mean "cannot read"
        script.fatal = script.fatal or (
            f"the command could not be parsed ({type(exc).__name__}: {exc})")
        _fallback_split(script, body, cwd)
        return
    walker = _Walker(body, script, cwd, depth, nested)
    walker.literal_heredocs = literal_heredocs
    for tree in trees:
        walker.walk(tree, nested=nested)


def parse_script(command: str, cwd: Path | None, *, nested: bool = False,
                 depth: int = 0) -> Script:
    """Parse `command` (run from `cwd`) into simple commands; never raises."""
    script = Script(command)
    screened = screen_raw(command)
    if screened is not None:
        script.fatal = screened
        if len(command) > MAX_COMMAND_CHARS:
            _fallback_split(script, command[: MAX_COMMAND_CHARS * 4], cwd)
            return script
    _parse_into(script, command, cwd, depth, nested=nested)
    if len(script.commands) > MAX_SUBCOMMANDS:
        script.fatal = f"command has more than {MAX_SUBCOMMANDS} subcommands"
    return script


_SPLIT = re.compile(r"\|\||&&|\|&|[;&|\n()`{}]|\$\(|<\(|>\(")


def _fallback_split(script: Script, command: str, cwd: Path | None) -> None:
    """Best-effort split of an unparseable command, so deny rules still see each piece."""
    for chunk in _SPLIT.split(command):
        chunk = chunk.strip()
        if not chunk:
            continue
        try:
            words = shlex.split(chunk, comments=True)
        except ValueError:
            words = chunk.split()
        while words and looks_like_assignment(words[0]):
            words.pop(0)
        if words:
            script.commands.append(SimpleCommand(
                [scan_word(shlex.quote(w)) for w in words], cwd=cwd, nested=True))
