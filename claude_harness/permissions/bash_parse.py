"""Turn a Bash command string into the simple commands a shell would actually run.

Why a separate module: every later decision (deny rules, allow rules, read-only classification,
safety checks) must look at the SAME normalised view of the command, or a difference between
what the checker matched and what bash runs becomes a bypass. This module owns that view:

- the raw string is screened first (length, invisible/control characters, line continuations,
  ANSI-C quoting) because those are the places where "what the user sees" and "what bash runs"
  diverge;
- bashlex parses it; a compound command is split into simple commands, including the ones hidden
  in command/process substitutions (marked `nested`), so a deny rule can still see them;
- each simple command records its words, its leading assignments, its redirections and the
  virtual working directory a preceding `cd` left it in.

Anything the parser cannot read, or any construct we do not model (loops, functions, here-docs,
arithmetic), is reported as a `hazard` or `fatal` so that the caller can only ever ask, never allow.
"""

from __future__ import annotations

import os
import re
import shlex
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bashlex

MAX_COMMAND_CHARS = 10_000
MAX_SUBCOMMANDS = 50

_INVISIBLE_CATEGORIES = {"Cf", "Cc", "Co", "Cs", "Zl", "Zp"}


@dataclass(frozen=True)
class Redirect:
    """One redirection: `op` as bash writes it, the target word (None for an fd dup)."""

    op: str
    target: str | None
    raw_target: str | None = None

    @property
    def is_write(self) -> bool:
        if self.target is None:
            return False
        if self.op in {">", ">>", ">|", "&>", "&>>", ">&", "<>"}:
            return self.target not in {"/dev/null", "/dev/stdout", "/dev/stderr"}
        return False

    @property
    def is_heredoc(self) -> bool:
        return self.op in {"<<", "<<-", "<<<"}


@dataclass
class SimpleCommand:
    """One simple command as bash would run it (before wrappers are stripped)."""

    words: list[str]  # words with quotes removed, as bash passes them
    raw_words: list[str]  # the same words as written in the source (quotes kept)
    assignments: list[str] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    cwd: Path = field(default_factory=Path.cwd)
    nested: bool = False  # inside $(...), `...`, <(...) or a compound construct
    hazards: list[str] = field(default_factory=list)
    left_start_dir: bool = False  # an earlier `cd` moved away from the starting directory

    @property
    def text(self) -> str:
        return " ".join(self.words)


@dataclass
class ParsedCommand:
    """The whole command: its simple commands, and why it cannot be trusted if it cannot."""

    source: str
    commands: list[SimpleCommand] = field(default_factory=list)
    hazards: list[str] = field(default_factory=list)  # block any allow, still checkable
    fatal: str | None = None  # not analysable at all: always ask, even in bypass mode

    @property
    def ok(self) -> bool:
        return self.fatal is None and not self.hazards


def _screen_raw(command: str) -> str | None:
    """Reasons the raw text itself is untrustworthy, before parsing."""
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
    return None


_QUOTED = re.compile(r"'[^']*'|\"(?:\\.|[^\"\\])*\"")


def unquoted_text(raw: str) -> str:
    """The raw word with quoted segments blanked out: what bash will still expand."""
    return _QUOTED.sub(lambda m: "_" * len(m.group(0)), raw)


def _word_hazards(raw: str, is_name: bool) -> list[str]:
    hazards: list[str] = []
    bare = unquoted_text(raw)
    if "$'" in raw or '$"' in raw:
        hazards.append(f"ANSI-C or locale quoting in {raw!r}")
    if "\\" in bare:
        hazards.append(f"backslash escape in {raw!r}")
    if re.search(r"\{[^{}]*(,|\.\.)[^{}]*\}", bare):
        hazards.append(f"brace expansion in {raw!r}")
    if is_name:
        if raw != raw.strip("'\"\\") or any(c in raw for c in "'\"\\"):
            hazards.append(f"quoted or escaped command name {raw!r}")
        if raw != "[" and re.search(r"[*?\[]", bare):
            hazards.append(f"glob in command name {raw!r}")
    return hazards


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


class _Walker:
    """Walks the bashlex tree in execution order, collecting simple commands."""

    def __init__(self, source: str, cwd: Path, outside_start: bool = False) -> None:
        self.source = source
        self.start_cwd = cwd
        self.cwd = cwd
        self.left = outside_start  # the shell already sits outside the project
        self.result = ParsedCommand(source)

    def raw(self, node: Any) -> str:
        start, end = node.pos
        return self.source[start:end]

    def walk(self, node: Any, nested: bool = False) -> None:
        kind = node.kind
        if kind in {"list", "pipeline"}:
            for child in node.parts:
                self.walk(child, nested)
        elif kind == "command":
            self.command(node, nested)
        elif kind in {"operator", "pipe", "reservedword"}:
            return
        elif kind == "compound":
            # ( ... ) and { ...; } scope `cd` and redirections differently: keep them out of
            # auto-allow rather than model every scoping rule
            self.result.hazards.append("compound shell construct (loop, if, case or group)")
            for child in _node_children(node):
                self.walk(child, True)
        elif kind == "function":
            self.result.hazards.append("defines a shell function")
            for child in _node_children(node):
                self.walk(child, True)
        elif kind in {"for", "while", "until", "if", "case"}:
            self.result.hazards.append(f"`{kind}` construct")
            for child in _node_children(node):
                if child.kind != "word":
                    self.walk(child, True)
                else:
                    self.scan_word(child, SimpleCommand([], [], cwd=self.cwd), False)
        else:
            self.result.hazards.append(f"unsupported shell construct ({kind})")
            for child in _node_children(node):
                self.walk(child, True)

    def scan_word(self, word: Any, cmd: SimpleCommand, is_name: bool) -> None:
        raw = self.raw(word)
        for hz in _word_hazards(raw, is_name):
            cmd.hazards.append(hz)
        for part in getattr(word, "parts", []) or []:
            self.scan_part(part, cmd)

    def scan_part(self, part: Any, cmd: SimpleCommand) -> None:
        kind = part.kind
        if kind == "commandsubstitution":
            cmd.hazards.append(f"command substitution {self.raw(part)!r}")
            saved = (self.cwd, self.left)
            self.walk(part.command, True)
            self.cwd, self.left = saved
        elif kind == "processsubstitution":
            cmd.hazards.append(f"process substitution {self.raw(part)!r}")
            saved = (self.cwd, self.left)
            self.walk(part.command, True)
            self.cwd, self.left = saved
        elif kind == "parameter":
            cmd.hazards.append(f"variable expansion {self.raw(part)!r}")
        elif kind == "tilde":
            return
        else:
            cmd.hazards.append(f"expansion {self.raw(part)!r}")
            for child in _node_children(part):
                self.scan_part(child, cmd)

    def command(self, node: Any, nested: bool) -> None:
        cmd = SimpleCommand([], [], cwd=self.cwd, nested=nested, left_start_dir=self.left)
        for part in node.parts:
            if part.kind == "assignment":
                cmd.assignments.append(part.word)
                raw = self.raw(part)
                for hz in _word_hazards(raw, False):
                    cmd.hazards.append(hz)
                for sub in getattr(part, "parts", []) or []:
                    self.scan_part(sub, cmd)
            elif part.kind == "word":
                self.scan_word(part, cmd, is_name=not cmd.words)
                cmd.words.append(part.word)
                cmd.raw_words.append(self.raw(part))
            elif part.kind == "redirect":
                self.redirect(part, cmd)
            else:
                cmd.hazards.append(f"unsupported part ({part.kind})")
        self.result.commands.append(cmd)
        if not nested and cmd.words[:1] == ["cd"]:
            self._follow_cd(cmd)

    def redirect(self, part: Any, cmd: SimpleCommand) -> None:
        op = part.type
        out = part.output
        heredoc = getattr(part, "heredoc", None)
        if heredoc is not None or op in {"<<", "<<-", "<<<"}:
            body = getattr(heredoc, "value", "") if heredoc is not None else ""
            cmd.hazards.append("here-document or here-string")
            if body and re.search(r"\$\(|`|\$\{|\$\[", body):
                delim = self.raw(out) if hasattr(out, "pos") else ""
                if not any(q in delim for q in "'\"\\"):
                    self.result.fatal = "here-document body runs command substitutions"
            if hasattr(out, "parts"):
                for sub in out.parts or []:
                    self.scan_part(sub, cmd)
            cmd.redirects.append(Redirect(op, None))
            return
        if isinstance(out, int) or out is None:
            cmd.redirects.append(Redirect(op, None))
            return
        raw = self.raw(out)
        bare = unquoted_text(raw)
        for sub in getattr(out, "parts", []) or []:
            self.scan_part(sub, cmd)
        if re.search(r"[*?\[]", bare):
            cmd.hazards.append(f"glob in redirection target {raw!r}")
        cmd.redirects.append(Redirect(op, out.word, raw))

    def _follow_cd(self, cmd: SimpleCommand) -> None:
        args = [w for w in cmd.words[1:] if w not in {"-P", "-L", "--"}]
        if not args:
            target = Path.home()
        elif args[0] == "-" or "$" in cmd.raw_words[-1]:
            cmd.hazards.append("`cd` to a directory that cannot be known in advance")
            return
        else:
            target = resolve_path(args[0], self.cwd)
        self.cwd = target
        if target != self.start_cwd:
            self.left = True


UNKNOWN_PATH = Path("/\0unknown")  # outside every working directory by construction


def resolve_path(word: str, cwd: Path) -> Path:
    """Resolve a path word as bash would see it: `~` expanded, relative to cwd, `..` and symlinks
    resolved (non-existing tails kept)."""
    if word == "~" or word.startswith("~/"):
        word = str(Path.home()) + word[1:]
    elif word.startswith("~"):
        head, _, tail = word.partition("/")
        if head == "~+":
            word = str(cwd) + ("/" + tail if tail else "")
        else:
            expanded = os.path.expanduser(head)  # ~user
            if expanded == head:  # ~- (OLDPWD) or an unknown user: cannot be known, assume far
                return UNKNOWN_PATH
            word = expanded + ("/" + tail if tail else "")
    p = Path(word)
    if not p.is_absolute():
        p = cwd / p
    return Path(os.path.realpath(p))


def parse_command(command: str, cwd: Path, *, outside_start: bool = False) -> ParsedCommand:
    """Parse `command` into simple commands; never raises.

    `outside_start`: the shell's directory is outside the working dirs (an earlier approved
    `cd`), so every command already runs "elsewhere" (git there runs a foreign repo's hooks).
    """
    screened = _screen_raw(command)
    if screened is not None and len(command) > MAX_COMMAND_CHARS:
        return _fallback(command, cwd, screened)
    # bashlex does not implement the `time` keyword; as a leading word it only times the rest
    timed = re.match(r"^\s*time(\s+-p)?\s+(?=\S)", command)
    source = command[timed.end():] if timed else command
    try:
        trees = bashlex.parse(source)
    except Exception as exc:  # bashlex raises several unrelated types; all mean "cannot read"
        reason = f"the command could not be parsed ({type(exc).__name__}: {exc})"
        return _fallback(command, cwd, screened or reason)
    walker = _Walker(source, cwd, outside_start)
    for tree in trees:
        walker.walk(tree)
    result = walker.result
    if screened is not None:
        result.fatal = screened
    if len(result.commands) > MAX_SUBCOMMANDS:
        result.fatal = f"command has more than {MAX_SUBCOMMANDS} subcommands"
    return result


_SPLIT = re.compile(r"\|\||&&|\|&|[;&|\n()`]|\$\(|<\(|>\(")


def _fallback(command: str, cwd: Path, reason: str) -> ParsedCommand:
    """Best-effort split of an unparseable command, so deny rules still see each piece."""
    result = ParsedCommand(command, fatal=reason)
    for chunk in _SPLIT.split(command[: MAX_COMMAND_CHARS * 4]):
        chunk = chunk.strip()
        if not chunk:
            continue
        try:
            words = shlex.split(chunk, comments=True)
        except ValueError:
            words = chunk.split()
        assignments = []
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            assignments.append(words.pop(0))
        if words or assignments:
            result.commands.append(
                SimpleCommand(words, list(words), assignments, cwd=cwd, nested=True)
            )
    return result
