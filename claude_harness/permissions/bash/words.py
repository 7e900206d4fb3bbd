"""One shell word, read the way bash reads it: quoting, expansions, globs, tildes.

Why our own scanner next to bashlex: bashlex folds some expansions away (a command substitution
inside a tilde prefix `~$(cmd)`, or inside a parameter operator `${x:-$(cmd)}`, has no node),
and every such fold is a command the checker would not see. This scanner walks the raw text of
every word itself and finds each substitution by position, whatever bashlex made of it. Its
quote-removed text is compared with bashlex's: when the two disagree, the word is not
understood and the caller can only ask.

A word is a sequence of pieces:
  text    literal characters (quoted or not)
  glob    an unquoted `*`, `?` or bracket expression
  param   a variable expansion (`$HOME`, `${HOME}`, `$?`; `${x:-w}` keeps its operator)
  subst   a command or process substitution: the inner script, analysed by the caller
  tilde   an unquoted tilde prefix (`~`, `~+`, `~-`, `~user`)
`problems` lists what bash would do that we do not model (ANSI-C quoting, brace expansion,
arithmetic, `${x@P}`...): such a word is never trusted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

PieceKind = Literal["text", "glob", "param", "subst", "tilde"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL_PARAMS = set("?#$!-@*0123456789")
_TILDE_PREFIX = re.compile(r"[A-Za-z0-9._+-]*")
_ASSIGNMENT_HEAD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
# ${NAME op WORD}: operators whose WORD is only a default, a pattern or a replacement
_PARAM_OP = re.compile(
    r"(?P<len>#)?(?P<name>[A-Za-z_][A-Za-z0-9_]*|[?#$!@*0-9-])"
    r"(?:(?P<op>:?[-+?]|##?|%%?|//?|/[#%]|\^\^?|,,?|@[QEAaULKku])(?P<rest>.*))?",
    re.DOTALL,
)
_SLICE = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*):[\s\d:-]*")


@dataclass(frozen=True)
class Piece:
    kind: PieceKind
    text: str  # literal text, glob source, parameter body, inner script, or tilde prefix
    quoted: bool = False
    raw: str = ""  # the source text of an expansion (for the bashlex cross-check)
    process: bool = False  # subst: `<(...)` / `>(...)` rather than `$(...)`


@dataclass
class Word:
    """A scanned word: its pieces, and what in it cannot be trusted."""

    raw: str
    pieces: list[Piece] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    hidden: list[Piece] = field(default_factory=list)  # substitutions inside `${x:-...}`
    brace: bool = False  # holds a brace expansion (`{a,b}`, `{1..3}`): see brace_alternatives

    @property
    def substitutions(self) -> list[Piece]:
        return [p for p in self.pieces if p.kind == "subst"] + self.hidden

    @property
    def has_glob(self) -> bool:
        return any(p.kind == "glob" for p in self.pieces)

    @property
    def has_expansion(self) -> bool:
        return any(p.kind in {"param", "subst"} for p in self.pieces)

    @property
    def literal(self) -> str | None:
        """The word's value when it is plain text (no expansion, glob or tilde)."""
        if any(p.kind != "text" for p in self.pieces):
            return None
        return "".join(p.text for p in self.pieces)

    def source_value(self) -> str:
        """The value as bashlex reports it: quotes removed, expansions left as written."""
        out = []
        for p in self.pieces:
            if p.kind == "text":
                out.append(p.text)
            elif p.kind == "tilde":
                out.append("~" + p.text)
            elif p.kind == "glob":
                out.append(p.text)
            else:
                out.append(p.raw)
        return "".join(out)


class _Scanner:
    def __init__(self, raw: str, *, assignment: bool = False) -> None:
        self.s = raw
        self.i = 0
        self.word = Word(raw)
        self.assignment = assignment  # tilde after `=` and `:` expands (assignment-like words)

    # -- helpers
    def add_text(self, text: str, quoted: bool) -> None:
        pieces = self.word.pieces
        if pieces and pieces[-1].kind == "text" and pieces[-1].quoted == quoted:
            pieces[-1] = Piece("text", pieces[-1].text + text, quoted)
        else:
            pieces.append(Piece("text", text, quoted))

    def problem(self, why: str) -> None:
        if why not in self.word.problems:
            self.word.problems.append(why)

    def unquoted_so_far(self) -> str | None:
        """The word's text so far when all of it is plain unquoted text (for `NAME=~`)."""
        if any(p.kind != "text" or p.quoted for p in self.word.pieces):
            return None
        return "".join(p.text for p in self.word.pieces)

    # -- the scan
    def scan(self) -> Word:
        s = self.s
        if s.startswith("~"):
            self.tilde()
        while self.i < len(s):
            c = s[self.i]
            if c == "'":
                end = s.find("'", self.i + 1)
                if end < 0:
                    self.problem("unterminated single quote")
                    break
                self.add_text(s[self.i + 1 : end], True)
                self.i = end + 1
            elif c == '"':
                self.i += 1
                self.double_quoted(closing='"')
            elif c == "\\":
                if self.i + 1 < len(s):
                    self.add_text(s[self.i + 1], True)
                    self.i += 2
                else:
                    self.add_text("\\", False)
                    self.i += 1
            elif c == "$":
                self.dollar(quoted=False)
            elif c == "`":
                self.backtick(quoted=False)
            elif c in "<>" and s.startswith("(", self.i + 1):
                self.substitution(self.i + 1, process=True, quoted=False)
            elif c in "*?":
                if s.startswith("(", self.i + 1):
                    self.problem(f"extended glob {s[self.i:self.i + 2]!r}")
                self.word.pieces.append(Piece("glob", c))
                self.i += 1
            elif c == "[":
                self.bracket()
            elif c in "+@!" and s.startswith("(", self.i + 1):
                self.problem(f"extended glob {s[self.i:self.i + 2]!r}")
                self.add_text(c, False)
                self.i += 1
            elif c in "=:" and self.assignment:
                self.add_text(c, False)
                self.i += 1
                head = self.unquoted_so_far()
                if head is not None and (c == ":" or _ASSIGNMENT_HEAD.fullmatch(head)) and (
                    s.startswith("~", self.i)
                ):
                    self.tilde()
            else:
                self.add_text(c, False)
                self.i += 1
        if re.search(r"\{[^{}\s]*(,|\.\.)[^{}\s]*\}", self.unquoted_text()):
            self.word.brace = True
        return self.word

    def unquoted_text(self) -> str:
        return "".join(p.text if p.kind == "text" and not p.quoted else "_"
                       for p in self.word.pieces)

    def tilde(self) -> None:
        m = _TILDE_PREFIX.match(self.s, self.i + 1)
        end = m.end() if m else self.i + 1
        if end < len(self.s) and self.s[end] != "/":
            # something quoted or expanded in the prefix: bash leaves the `~` alone
            self.add_text("~", False)
            self.i += 1
            return
        self.word.pieces.append(Piece("tilde", self.s[self.i + 1 : end]))
        self.i = end

    def bracket(self) -> None:
        s = self.s
        j = self.i + 1
        if j < len(s) and s[j] in "!^":
            j += 1
        if j < len(s) and s[j] == "]":
            j += 1
        while j < len(s) and s[j] != "]":
            if s[j] in "'\"\\$`":
                # quoting inside a bracket expression: not modelled, and rare
                self.problem("quoted text inside a glob bracket expression")
                self.add_text("[", False)
                self.i += 1
                return
            if s.startswith("[:", j) or s.startswith("[=", j) or s.startswith("[.", j):
                close = s.find(s[j + 1] + "]", j + 2)
                if close < 0:
                    break
                j = close + 2
                continue
            j += 1
        if j >= len(s):  # no closing bracket: a literal `[`
            self.add_text("[", False)
            self.i += 1
            return
        self.word.pieces.append(Piece("glob", s[self.i : j + 1]))
        self.i = j + 1

    def double_quoted(self, closing: str) -> None:
        """Inside "...", or (closing="") a here-document body, where `"` is an ordinary
        character but `$`, backquotes and backslashes work as in double quotes."""
        s = self.s
        escapable = '$`"\\' if closing else "$`\\"
        while self.i < len(s):
            c = s[self.i]
            if closing and c == closing:
                self.i += 1
                return
            if c == "\\" and self.i + 1 < len(s):
                nxt = s[self.i + 1]
                if nxt in escapable:
                    self.add_text(nxt, True)
                else:
                    self.add_text("\\" + nxt, True)
                self.i += 2
            elif c == "$":
                self.dollar(quoted=True)
            elif c == "`":
                self.backtick(quoted=True)
            else:
                self.add_text(c, True)
                self.i += 1
        if closing:
            self.problem("unterminated double quote")

    def dollar(self, quoted: bool) -> None:
        s = self.s
        nxt = s[self.i + 1] if self.i + 1 < len(s) else ""
        if nxt == "(":
            if s.startswith("((", self.i + 1):
                self.problem("arithmetic expansion $((...))")
                self.add_text(s[self.i :], quoted)
                self.i = len(s)
                return
            self.substitution(self.i + 1, process=False, quoted=quoted)
        elif nxt == "[":
            self.problem("arithmetic expansion $[...]")
            self.add_text(s[self.i :], quoted)
            self.i = len(s)
        elif nxt == "{":
            self.braced_param(quoted)
        elif nxt == "'" and not quoted:
            self.ansi_c()
        elif nxt == '"' and not quoted:  # $"..." (locale translation): read as "..."
            self.i += 2
            self.double_quoted(closing='"')
        elif nxt and nxt in _SPECIAL_PARAMS:
            self.word.pieces.append(Piece("param", nxt, quoted, raw=s[self.i : self.i + 2]))
            self.i += 2
        else:
            m = _NAME.match(s, self.i + 1)
            if m:
                self.word.pieces.append(Piece("param", m.group(0), quoted, raw=s[self.i : m.end()]))
                self.i = m.end()
            else:
                self.add_text("$", quoted)
                self.i += 1

    def ansi_c(self) -> None:
        """$'...': backslash escapes decoded, the result quoted text."""
        s = self.s
        j = self.i + 2
        out: list[str] = []
        while j < len(s) and s[j] != "'":
            if s[j] != "\\" or j + 1 >= len(s):
                out.append(s[j])
                j += 1
                continue
            decoded, j = _ansi_escape(s, j + 1)
            if decoded is None:
                self.problem("ANSI-C quoting with an escape the checker does not decode")
                decoded = ""
            out.append(decoded)
        if j >= len(s):
            self.problem("unterminated $'...'")
        self.add_text("".join(out), True)
        self.i = j + 1

    def braced_param(self, quoted: bool) -> None:
        s = self.s
        end = _matching(s, self.i + 1, "{", "}")
        if end < 0:
            self.problem("unterminated ${...}")
            self.add_text(s[self.i :], quoted)
            self.i = len(s)
            return
        body = s[self.i + 2 : end]
        raw = s[self.i : end + 1]
        self.i = end + 1
        m = _PARAM_OP.fullmatch(body)
        if m is None:
            if _SLICE.fullmatch(body):  # ${x:1:2}: offsets are plain numbers
                self.word.pieces.append(Piece("param", body, quoted, raw=raw))
                return
            self.problem(f"parameter expansion {raw!r} (indirection, subscript, assignment or "
                         "another form that can evaluate code)")
            self.word.pieces.append(Piece("param", body, quoted, raw=raw))
            return
        rest = m.group("rest")
        if m.group("op") == "@P" or (m.group("op") or "").startswith("@") and rest:
            self.problem(f"parameter expansion {raw!r}")
        if m.group("len") and m.group("op"):
            self.problem(f"parameter expansion {raw!r}")
        self.word.pieces.append(Piece("param", body, quoted, raw=raw))
        if rest:
            # the default / pattern / replacement is itself a word: it may hold substitutions
            inner = scan_word(rest)
            self.word.problems.extend(p for p in inner.problems if p not in self.word.problems)
            self.word.hidden.extend(inner.substitutions)

    def backtick(self, quoted: bool) -> None:
        s = self.s
        j = self.i + 1
        inner: list[str] = []
        while j < len(s) and s[j] != "`":
            if s[j] == "\\" and j + 1 < len(s) and s[j + 1] in "$`\\" + ('"' if quoted else ""):
                inner.append(s[j + 1])
                j += 2
                continue
            inner.append(s[j])
            j += 1
        if j >= len(s):
            self.problem("unterminated backquote")
            self.i = len(s)
            return
        self.word.pieces.append(Piece("subst", "".join(inner), quoted, raw=s[self.i : j + 1]))
        self.i = j + 1

    def substitution(self, open_at: int, *, process: bool, quoted: bool) -> None:
        s = self.s
        end = _matching(s, open_at, "(", ")")
        start = open_at - 1
        if end < 0:
            self.problem("unterminated substitution")
            self.add_text(s[start:], quoted)
            self.i = len(s)
            return
        self.word.pieces.append(Piece("subst", s[open_at + 1 : end], quoted,
                                      raw=s[start : end + 1], process=process))
        self.i = end + 1


_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
                   "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def _ansi_escape(s: str, j: int) -> tuple[str | None, int]:
    """Decode the escape after a backslash at s[j]; (text, next index)."""
    c = s[j]
    if c in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[c], j + 1
    for prefix, width, base in (("x", 2, 16), ("u", 4, 16), ("U", 8, 16)):
        if c == prefix:
            m = re.match(f"[0-9A-Fa-f]{{1,{width}}}", s[j + 1 :])
            if not m:
                return None, j + 1
            return chr(int(m.group(0), base)), j + 1 + len(m.group(0))
    m = re.match(r"[0-7]{1,3}", s[j:])
    if m:
        return chr(int(m.group(0), 8) & 0xFF), j + len(m.group(0))
    if c == "c" and j + 1 < len(s):
        return chr(ord(s[j + 1]) & 0x1F), j + 2
    return "\\" + c, j + 1


def _matching(s: str, open_at: int, open_ch: str, close_ch: str) -> int:
    """Index of the bracket closing the one at `open_at`, honouring quotes and escapes.

    -1 when it cannot be found; a `case` pattern's lone `)` makes this fail, and the caller
    then reports the word as not understood (never as understood-but-different).
    """
    depth = 0
    i = open_at
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'" and open_ch == "(":
            end = s.find("'", i + 1)
            if end < 0:
                return -1
            i = end + 1
            continue
        if c == '"':
            j = i + 1
            while j < len(s) and s[j] != '"':
                if s[j] == "\\":
                    j += 1
                elif s.startswith("$(", j):
                    close = _matching(s, j + 1, "(", ")")
                    if close < 0:
                        return -1
                    j = close
                j += 1
            if j >= len(s):
                return -1
            i = j + 1
            continue
        if c == "`":
            end = s.find("`", i + 1)
            if end < 0:
                return -1
            i = end + 1
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def scan_word(raw: str, *, assignment: bool = False) -> Word:
    """Scan the source text of one word (as written, quotes included)."""
    return _Scanner(raw, assignment=assignment).scan()


MAX_BRACE_WORDS = 256


def brace_alternatives(raw: str) -> list[str] | None:
    """The words brace expansion makes of `raw` (as written, quotes kept), or None when the
    expansion is too large or not of the simple `{a,b}` / `{1..9}` / `{a..z}` kinds."""
    out: list[str] = []
    pending = [raw]
    while pending:
        word = pending.pop()
        found = _first_brace(word)
        if found is None:
            out.append(word)
        else:
            start, end, alternatives = found
            if alternatives is None:
                return None
            pending.extend(word[:start] + alt + word[end + 1 :] for alt in reversed(alternatives))
        if len(out) + len(pending) > MAX_BRACE_WORDS:
            return None
    return out


def _first_brace(word: str) -> tuple[int, int, list[str] | None] | None:
    """(open index, close index, the alternatives) of the first expandable unquoted brace."""
    i = 0
    while i < len(word):
        c = word[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            i = word.find("'", i + 1) + 1 or len(word)
            continue
        if c == '"':
            j = i + 1
            while j < len(word) and word[j] != '"':
                j += 2 if word[j] == "\\" else 1
            i = j + 1
            continue
        if c == "$" and word.startswith(("{", "("), i + 1):
            close = _matching(word, i + 1, word[i + 1], "}" if word[i + 1] == "{" else ")")
            i = close + 1 if close > 0 else len(word)
            continue
        if c == "{":
            close = _matching(word, i, "{", "}")
            if close < 0:
                return None
            body = word[i + 1 : close]
            parts = _top_level_split(body)
            if len(parts) > 1:
                return i, close, parts
            rng = re.fullmatch(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?|([a-zA-Z])\.\.([a-zA-Z])", body)
            if rng:
                return i, close, _range(rng)
        i += 1
    return None


def _top_level_split(body: str) -> list[str]:
    parts, depth, current, i = [], 0, [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            current.append(body[i : i + 2])
            i += 2
            continue
        if c in "'\"":
            end = body.find(c, i + 1)
            end = len(body) - 1 if end < 0 else end
            current.append(body[i : end + 1])
            i = end + 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(c)
        i += 1
    parts.append("".join(current))
    return parts


def _range(m: re.Match[str]) -> list[str] | None:
    if m.group(4):
        a, b = ord(m.group(4)), ord(m.group(5))
        step = 1 if b >= a else -1
        return [chr(c) for c in range(a, b + step, step)]
    a, b = int(m.group(1)), int(m.group(2))
    step = abs(int(m.group(3) or 1)) or 1
    if abs(b - a) // step > MAX_BRACE_WORDS:
        return None
    width = max(len(m.group(1)), len(m.group(2))) if m.group(1).lstrip("-").startswith("0") or (
        m.group(2).lstrip("-").startswith("0")) else 0
    values = range(a, b + 1, step) if b >= a else range(a, b - 1, -step)
    return [str(v).zfill(width) if width else str(v) for v in values]


def scan_heredoc_body(body: str) -> Word:
    """An unquoted here-document body: parameter, command and arithmetic expansion happen."""
    scanner = _Scanner(body)
    scanner.double_quoted(closing="")
    return scanner.word


def looks_like_assignment(raw: str) -> bool:
    return _ASSIGNMENT_HEAD.match(raw) is not None
