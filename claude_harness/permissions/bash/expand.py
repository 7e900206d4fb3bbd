"""What a scanned word becomes when bash runs it: tilde, variables, then globs.

Why at decision time: `cat .e*` reads `.env`, `rm -rf .gi?` deletes `.git`, `cat $HOME/x` reads
a file outside. A rule or a path check that looks at the word as written sees none of that, so
every word is expanded the way bash will expand it a moment later: variables from the
environment the Bash tool passes on (this process's own), tildes from the password database,
globs against the file system. What cannot be known (a substitution's output, `~-`, a variable
the script itself changes, an unquoted value that word-splits) is reported as unknown, and the
callers treat unknown as "could be anything".
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re
from dataclasses import dataclass
from pathlib import Path

from claude_harness.permissions.bash.words import Piece, Word, brace_alternatives, scan_word

MAX_GLOB_MATCHES = 2_000

# Variables bash sets itself (their value in our environment is not what the script sees);
# numeric ones are harmless tokens, the others unknown.
_BASH_NUMBERS = {"RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "PPID", "UID", "EUID",
                 "SHLVL", "EPOCHSECONDS", "HISTCMD", "BASH_SUBSHELL", "OPTIND", "OPTERR",
                 "COLUMNS", "LINES"}
_BASH_UNKNOWN = {"OLDPWD", "IFS", "BASH_COMMAND", "BASH_ARGV0", "EPOCHREALTIME", "GROUPS",
                 "DIRSTACK", "PIPESTATUS", "FUNCNAME", "REPLY", "BASH", "BASHOPTS",
                 "SHELLOPTS", "PS1", "PS2", "PS3", "PS4", "_", "HOSTNAME", "BASH_ENV", "ENV",
                 "CDPATH", "GLOBIGNORE"}
_SPECIAL_VALUES = {"?": "0", "#": "0", "$": "0", "!": "0", "-": "hBc", "0": "bash"}
_SPLITS = re.compile(r"[\s*?\[]")


@dataclass(frozen=True)
class Expansion:
    """The words a word turns into; `values` is None when that cannot be known."""

    values: tuple[str, ...] | None
    why: str = ""
    globbed: bool = False  # values came from matching a glob against the file system
    patterns: tuple[str | None, ...] = ()  # per value: the glob it matched (tilde, vars done)
    may_split: bool = False  # unknown AND unquoted: may become any number of words

    @property
    def pattern(self) -> str | None:
        return next((p for p in self.patterns if p), None)

    @property
    def single(self) -> str | None:
        if self.values is not None and len(self.values) == 1:
            return self.values[0]
        return None

    @property
    def known(self) -> bool:
        return self.values is not None


def _param_value(name: str, cwd: Path | None, variables_changed: bool,
                 positionals_unknown: bool) -> str | None:
    if name.isdigit() and name != "0" or name in {"@", "*", "#"}:
        # `bash -c` scripts have no positional parameters, unless they were given some
        return None if positionals_unknown else ("0" if name == "#" else "")
    if name in _SPECIAL_VALUES:
        return _SPECIAL_VALUES[name]
    if variables_changed:
        return None
    if name == "PWD":
        return str(cwd) if cwd is not None else None
    if name == "HOME":
        return os.environ.get("HOME") or str(Path.home())
    if name in _BASH_NUMBERS:
        return "0"
    if name in _BASH_UNKNOWN:
        return None
    return os.environ.get(name, "")


def _tilde_value(prefix: str, cwd: Path | None) -> str | None:
    if prefix == "":
        return os.environ.get("HOME") or str(Path.home())
    if prefix == "+":
        return str(cwd) if cwd is not None else None
    if prefix == "-" or re.fullmatch(r"[+-]?\d+", prefix):
        return None  # OLDPWD and the directory stack: not known before the command runs
    expanded = os.path.expanduser("~" + prefix)
    return expanded if expanded != "~" + prefix else "~" + prefix  # no such user: literal


def _glob_piece(text: str) -> str | None:
    """A bash glob piece as a Python glob piece, or None when Python would match differently."""
    if text in {"*", "?"}:
        return text
    if "[:" in text or "[=" in text or "[." in text:
        return None
    if text.startswith("[^"):
        return "[!" + text[2:]
    return text


def expand_word(word: Word, cwd: Path | None, variables_changed: bool = False,
                positionals_unknown: bool = False) -> Expansion:
    """The word after tilde, parameter and pathname expansion (never raises).

    `variables_changed`: the script itself assigns variables or changes shell options, so no
    variable (and no glob) can be trusted to expand as it would now.
    """
    if word.problems:
        return Expansion(None, word.problems[0], may_split=True)
    if word.brace:
        return _expand_braces(word, cwd, variables_changed, positionals_unknown)
    parts: list[tuple[str, bool]] = []  # (text, is_glob)
    unknown = ""
    may_split = False
    all_unquoted_empty = True
    for piece in word.pieces:
        text, why, splits = _piece_value(piece, cwd, variables_changed, positionals_unknown)
        if text is None:
            unknown = unknown or why
            may_split = may_split or splits
            all_unquoted_empty = False
            continue
        if piece.quoted or text or piece.kind != "param":
            all_unquoted_empty = False
        parts.append((text, piece.kind == "glob"))
    if unknown:
        return Expansion(None, unknown, may_split=may_split)
    if all_unquoted_empty:
        return Expansion(())  # an unquoted empty variable vanishes
    if not any(is_glob for _, is_glob in parts):
        return Expansion(("".join(text for text, _ in parts),))
    if variables_changed:  # `shopt -s dotglob`, `set -f`...: globbing may not be what it is now
        return Expansion(None, "a glob after the script changed shell settings", may_split=True)
    return _expand_glob(parts, cwd)


def _expand_braces(word: Word, cwd: Path | None, variables_changed: bool,
                   positionals_unknown: bool) -> Expansion:
    """Brace expansion first (it works on the text as written), then each word on its own."""
    alternatives = brace_alternatives(word.raw)
    if alternatives is None:
        return Expansion(None, f"brace expansion of {word.raw!r} is too complex", may_split=True)
    values: list[str] = []
    patterns: list[str | None] = []
    globbed = False
    for raw in alternatives:
        inner = scan_word(raw)
        if inner.brace:
            return Expansion(None, f"brace expansion of {word.raw!r} is too complex",
                             may_split=True)
        exp = expand_word(inner, cwd, variables_changed, positionals_unknown)
        if exp.values is None:
            return Expansion(None, exp.why, may_split=True)
        values.extend(exp.values)
        patterns.extend(exp.patterns or (None,) * len(exp.values))
        globbed = globbed or exp.globbed
    return Expansion(tuple(values), globbed=globbed, patterns=tuple(patterns))


def _piece_value(piece: Piece, cwd: Path | None, variables_changed: bool,
                 positionals_unknown: bool) -> tuple[str | None, str, bool]:
    """(value, why unknown, may split into several words)."""
    kind = piece.kind
    if kind in {"text", "glob"}:
        return piece.text, "", False
    if kind == "tilde":
        value = _tilde_value(piece.text, cwd)
        return value, f"`~{piece.text}` cannot be known in advance", False
    if kind == "subst":
        if piece.process:  # <(cmd) becomes the name of a pipe the command reads or writes
            return "/dev/fd/63", "", False
        return None, f"the output of {piece.raw!r} cannot be known in advance", not piece.quoted
    # a parameter: plain names only; operators make the value unknown
    name = piece.text
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*|[?#$!@*0-9-]", name):
        return None, f"the value of {piece.raw!r} cannot be known in advance", not piece.quoted
    value = _param_value(name, cwd, variables_changed, positionals_unknown)
    if value is None:
        return None, f"the value of {piece.raw!r} cannot be known in advance", not piece.quoted
    if not piece.quoted and _SPLITS.search(value):
        return None, f"{piece.raw!r} is split into words or globbed", True
    return value, "", False


def _expand_glob(parts: list[tuple[str, bool]], cwd: Path | None) -> Expansion:
    literal = "".join(text for text, _ in parts)
    pattern_parts: list[str] = []
    for text, is_glob in parts:
        if is_glob:
            converted = _glob_piece(text)
            if converted is None:
                return Expansion(None, f"glob {literal!r} uses a character class", may_split=True)
            pattern_parts.append(converted)
        else:
            pattern_parts.append(glob.escape(text))
    pattern = "".join(pattern_parts)
    absolute = pattern.startswith("/")
    if cwd is None and not absolute:
        return Expansion(None, f"glob {literal!r} in a directory that cannot be known",
                         may_split=True)
    try:
        matches = set(_glob(pattern, cwd))
        # bash before 5.2 lets `.*` match `.` and `..`: count those too, whatever bash runs
        for variant in _dot_variants(pattern):
            matches.update(_glob(variant, cwd) if glob.has_magic(variant) else [variant])
    except (OSError, ValueError):
        return Expansion(None, f"glob {literal!r} cannot be expanded", may_split=True)
    if len(matches) > MAX_GLOB_MATCHES:
        return Expansion(None, f"glob {literal!r} matches too many files", may_split=True)
    if not matches:
        return Expansion((literal,), globbed=True, patterns=(literal,))
    return Expansion(tuple(sorted(matches)), globbed=True, patterns=(literal,) * len(matches))


def _glob(pattern: str, cwd: Path | None) -> list[str]:
    if pattern.startswith("/"):
        return glob.glob(pattern)
    return glob.glob(pattern, root_dir=cwd)


def _dot_variants(pattern: str) -> list[str]:
    """The pattern with each component that could match `..` replaced by `..`."""
    parts = pattern.split("/")
    out = []
    for i, part in enumerate(parts):
        if part.startswith(".") and glob.has_magic(part) and fnmatch.fnmatchcase("..", part):
            variant = "/".join([*parts[:i], "..", *parts[i + 1:]])
            if variant.rstrip("/") and os.path.exists(os.path.dirname(variant) or "."):
                out.append(variant)
    return out
