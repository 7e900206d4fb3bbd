"""sed and awk: text filters whose programs can read, write and run things.

Why tokenizers and not a regex allowlist: `sed -n` looks read-only, yet `w FILE`, `r FILE`,
`e`, `s///e` and `s///w FILE` write, read or execute (CVE-2025-64755), and a script's meaning
depends on where each command ends (a `w` file name runs to the end of the line, `;` included).
The sed script is read command by command the way GNU sed reads it, so every file it names is
a path and every `e` is code; an awk program is lexed (strings and regexes set aside) to find
`system`, pipes, output redirections and `getline < file`. Anything the reader does not
recognise makes the call not understood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from claude_harness.permissions.bash.effects import Effect, Invocation, Scope, path_use
from claude_harness.permissions.bash.options import Arg, OptionError, parse, table

_SPECIAL_OUT = {"/dev/stdout", "/dev/stderr"}


@dataclass
class SedProgram:
    reads: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)  # `e COMMAND`: shell code it runs
    runs_text: bool = False  # `e` / `s///e`: runs the pattern space, unknown in advance


class _SedReader:
    """GNU sed's script grammar, enough to find every file and every `e`."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.out = SedProgram()

    def fail(self, why: str) -> SedProgram:
        self.out.problems.append(f"sed script {self.s!r}: {why}")
        return self.out

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def skip_ws(self) -> None:
        while self.peek() in {" ", "\t"} and self.peek():
            self.i += 1

    def rest_of_line(self) -> str:
        end = self.s.find("\n", self.i)
        end = len(self.s) if end < 0 else end
        text = self.s[self.i : end]
        self.i = end
        return text

    def delimited(self, delim: str) -> bool:
        """Skip to the unescaped `delim`; False when it never comes."""
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == "\\":
                self.i += 2
                continue
            if c == "\n" and delim != "\n":
                return False
            self.i += 1
            if c == delim:
                return True
        return False

    def address(self) -> bool:
        c = self.peek()
        if c.isdigit():
            while self.peek().isdigit():
                self.i += 1
            if self.peek() == "~":
                self.i += 1
                while self.peek().isdigit():
                    self.i += 1
            return True
        if c == "$":
            self.i += 1
            return True
        if c in {"/", "\\"}:
            if c == "\\":
                self.i += 1
                delim = self.peek()
                if not delim or delim == "\n":
                    return False
            else:
                delim = "/"
            self.i += 1
            if not self.delimited(delim):
                return False
            while self.peek() in {"I", "M"} and self.peek():
                self.i += 1
            return True
        return False

    def read(self) -> SedProgram:
        s = self.s
        while self.i < len(s):
            c = self.peek()
            if c in {" ", "\t", "\n", ";", "}"}:
                self.i += 1
                continue
            if c == "#":
                self.rest_of_line()
                continue
            if self.address():
                self.skip_ws()
                if self.peek() == ",":
                    self.i += 1
                    self.skip_ws()
                    if self.peek() in {"+", "~"}:
                        self.i += 1
                        while self.peek().isdigit():
                            self.i += 1
                    elif not self.address():
                        return self.fail("bad address")
            elif c in {"+", "~"}:
                return self.fail("bad address")
            self.skip_ws()
            while self.peek() == "!":
                self.i += 1
                self.skip_ws()
            if not self.command():
                return self.out
        return self.out

    def command(self) -> bool:
        c = self.peek()
        self.i += 1
        if c == "{":
            return True
        if c in "=dDgGhHlnNpPxzFqQ":
            self.skip_ws()
            while self.peek().isdigit():  # `q5`, `l 70`
                self.i += 1
            return self._end()
        if c in "btT:":
            label = self.rest_until_separator()
            return c != ":" or bool(label.strip()) or not self.fail("empty label")
        if c == "v":
            self.rest_until_separator()
            return True
        if c in "aic":
            self.rest_of_line()  # one-line text (GNU) or `a\` then the text
            if self.s[: self.i].endswith("\\"):
                while self.i < len(self.s):
                    self.i += 1
                    line = self.rest_of_line()
                    if not line.endswith("\\"):
                        break
            return True
        if c in "rRwW":
            name = self.rest_of_line().strip()
            if not name:
                self.fail(f"`{c}` without a file name")
                return False
            (self.out.reads if c in "rR" else self.out.writes).append(name)
            return True
        if c == "e":
            self.out.problems.append("sed `e` runs a shell command")
            command = self.rest_of_line().strip()
            if command:
                self.out.commands.append(command)
            else:
                self.out.runs_text = True
            return True
        if c == "s":
            return self.substitute()
        if c == "y":
            delim = self.peek()
            self.i += 1
            if not delim or delim in "\n\\" or not (self.delimited(delim)
                                                     and self.delimited(delim)):
                self.fail("bad y command")
                return False
            return self._end()
        self.fail(f"unknown sed command {c!r}")
        return False

    def rest_until_separator(self) -> str:
        start = self.i
        while self.i < len(self.s) and self.s[self.i] not in ";\n":
            self.i += 1
        return self.s[start : self.i]

    def _end(self) -> bool:
        self.skip_ws()
        if self.peek() in {"", ";", "\n", "}", "#"}:
            return True
        self.fail(f"unexpected {self.peek()!r}")
        return False

    def substitute(self) -> bool:
        delim = self.peek()
        self.i += 1
        if not delim or delim in "\n\\":
            self.fail("bad s command")
            return False
        if not (self.delimited(delim) and self.delimited(delim)):
            self.fail("unterminated s command")
            return False
        while self.i < len(self.s):
            f = self.peek()
            if f in "gpiImM" or f.isdigit():
                self.i += 1
            elif f == "e":
                self.out.problems.append("sed s///e runs the pattern space as a command")
                self.out.runs_text = True
                self.i += 1
            elif f == "w":
                self.i += 1
                name = self.rest_of_line().strip()
                if not name:
                    self.fail("s///w without a file name")
                    return False
                self.out.writes.append(name)
                return True
            else:
                break
        return self._end()


def read_sed_script(text: str) -> SedProgram:
    return _SedReader(text).read()


SED = table("-n|--quiet|--silent --debug -e|--expression=:script -f|--file=:scriptfile"
            " --follow-symlinks -i|--in-place? -l|--line-length= --posix -E|-r|--regexp-extended"
            " -s|--separate --sandbox -u|--unbuffered -z|--null-data -b|--binary --help"
            " --version")


@dataclass
class SedCall:
    scripts: list[str | None]
    files: list[Arg]
    in_place: bool
    suffix: str | None
    script_files: list[str | None]


def read_sed_call(args: list[Arg]) -> SedCall:
    """sed's argv read through its table (raises OptionError)."""
    parsed = parse(SED, args, "sed")
    scripts = parsed.values("script")
    script_files = parsed.values("scriptfile")
    files = list(parsed.operands)
    if not scripts and not script_files:
        if not files:
            raise OptionError("sed without a script")
        scripts = [files.pop(0).value]
    in_place = parsed.named("in-place")
    suffix = in_place[0][0] if in_place and in_place[0] else None
    return SedCall(scripts, files, bool(in_place), suffix, script_files)


def sed(inv: Invocation, scope: Scope) -> Effect:
    try:
        call = read_sed_call(inv.args)
    except OptionError as exc:
        return Effect.failed(str(exc))
    cwd = inv.cwd
    eff = Effect(read_only=not call.in_place)
    for value in call.script_files:
        eff.reads.append(path_use(Arg(value, source=value or "?"), cwd))
        eff.problem("sed reads its script from a file")
    for script in call.scripts:
        if script is None:
            eff.problem("sed script cannot be known in advance")
            continue
        program = read_sed_script(script)
        for why in program.problems:
            eff.problem(why)
        eff.scripts.extend((command, cwd) for command in program.commands)
        if program.runs_text:
            eff.opaque_code = "sed runs text from its input as a shell command"
        eff.reads.extend(path_use(Arg(n, source=n), cwd) for n in program.reads)
        for name in program.writes:
            if name not in _SPECIAL_OUT:
                eff.writes.append(path_use(Arg(name, source=name), cwd))
                eff.problem(f"sed script writes the file {name}")
    for arg in call.files:
        eff.reads.append(path_use(arg, cwd))
        if call.in_place:
            eff.writes.append(path_use(arg, cwd, edit=True))
    if call.in_place and call.suffix and "/" in call.suffix:
        eff.problem("sed -i with a backup name that is a path")
    return eff


# ---------------------------------------------------------------- awk

AWK = table("-F|--field-separator= -v|--assign= -f|--file=:progfile -e|--source=:program"
            " -E|--exec=:progfile -b|--characters-as-bytes -S|--sandbox -c|--traditional"
            " -P|--posix -n|--non-decimal-data -M|--bignum -N|--use-lc-numeric -r|--re-interval"
            " -O|--optimize -s|--no-optimize -k|--csv -t|--lint-old --help -V|--version"
            " -C|--copyright -h")
_AWK_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r]+|\\\n)
  | (?P<nl>\n)
  | (?P<comment>\#[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<word>@?[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)
  | (?P<op>\|\||\|&|&&|>>|>=|<=|==|!=|\+\+|--|[-+*/%^]=|[|<>(){}\[\];,!~?:=+\-*/%^$])
  | (?P<slash>/)
""", re.VERBOSE)
_OPERAND_END = {"word", "number", "string", ")", "]", "$", "++", "--"}


@dataclass
class AwkProgram:
    problems: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)  # literal shell code it runs
    dynamic_command: bool = False  # it runs a command built at run time


def read_awk_program(program: str) -> AwkProgram:
    """What in an awk program reaches outside: commands, pipes, output files, files read."""
    out = AwkProgram()
    problems = out.problems
    tokens: list[tuple[str, str]] = []  # (kind, text) of significant tokens, for commands
    i = 0
    last = ""  # kind of the previous significant token, to tell a regex from a division
    depth = 0
    in_print = False
    while i < len(program):
        if program[i] == "/" and last not in _OPERAND_END:
            end = _regex_end(program, i)
            if end < 0:
                problems.append("awk program has an unterminated regular expression")
                out.dynamic_command = True
                return out
            i, last = end, "regex"
            continue
        m = _AWK_TOKEN.match(program, i)
        if m is None:
            problems.append(f"awk program has a character the checker cannot read "
                            f"({program[i]!r})")
            out.dynamic_command = True
            return out
        i = m.end()
        kind = m.lastgroup or ""
        text = m.group(0)
        if kind in {"ws", "comment"}:
            continue
        tokens.append((kind, text))
        if kind == "nl" or text in {";", "{", "}"}:
            in_print, depth, last = False, 0, text
            continue
        if kind == "word":
            if text in {"system"}:
                problems.append("awk system() runs a command")
            elif text.startswith("@"):
                problems.append(f"awk {text} loads code")
            elif text in {"print", "printf"}:
                in_print, depth = True, 0
            elif text == "getline":
                rest = program[i:].lstrip(" \t")
                nxt = _AWK_TOKEN.match(rest)
                if nxt and (nxt.group(0) == "<" or nxt.lastgroup == "word"
                            and "<" in rest.split("\n", 1)[0]):
                    problems.append("awk getline reads a file")
            last = "word"
            continue
        if text in {"|", "|&"}:
            problems.append("awk pipes to or from a command")
        elif text in {"(", "["}:
            depth += 1
        elif text in {")", "]"}:
            depth -= 1
        elif text in {">", ">>"} and in_print and depth <= 0:
            problems.append("awk print redirects output to a file")
        last = text if kind == "op" else kind
    _awk_commands(tokens, out)
    return out


def _awk_commands(tokens: list[tuple[str, str]], out: AwkProgram) -> None:
    """The shell code of `system("...")`, `print | "..."`, `"..." | getline`: literal strings
    are analysed; anything else is code we cannot see."""
    for i, (_kind, text) in enumerate(tokens):
        if text == "system":
            nxt = tokens[i + 1 : i + 4]
            if [t for _, t in nxt[:1]] == ["("] and len(nxt) >= 3 and nxt[1][0] == "string" and (
                    nxt[2][1] == ")"):
                out.commands.append(_awk_string(nxt[1][1]))
            else:
                out.dynamic_command = True
        elif text in {"|", "|&"}:
            before = tokens[i - 1] if i else ("", "")
            after = tokens[i + 1] if i + 1 < len(tokens) else ("", "")
            if after[1] == "getline" and before[0] == "string":
                out.commands.append(_awk_string(before[1]))
            elif after[0] == "string" and (i + 2 >= len(tokens) or tokens[i + 2][1] in {
                    ";", "}", "\n"} or tokens[i + 2][0] == "nl"):
                out.commands.append(_awk_string(after[1]))
            else:
                out.dynamic_command = True


def _awk_string(literal: str) -> str:
    body = literal[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)),
                  body)


def _regex_end(program: str, start: int) -> int:
    i = start + 1
    in_bracket = False
    while i < len(program):
        c = program[i]
        if c == "\\":
            i += 2
            continue
        if c == "\n":
            return -1
        if c == "[":
            in_bracket = True
        elif c == "]":
            in_bracket = False
        elif c == "/" and not in_bracket:
            return i + 1
        i += 1
    return -1


_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def awk(inv: Invocation, scope: Scope) -> Effect:
    try:
        parsed = parse(AWK, inv.args, inv.name or "awk")
    except OptionError as exc:
        return Effect.failed(str(exc))
    cwd = inv.cwd
    eff = Effect(read_only=True)
    programs = parsed.values("program")
    for value in parsed.values("progfile"):
        eff.reads.append(path_use(Arg(value, source=value or "?"), cwd))
        eff.problem("awk reads its program from a file")
    operands = list(parsed.operands)
    if not programs and not parsed.values("progfile"):
        if not operands:
            return Effect.failed("awk without a program")
        programs = [operands.pop(0).value]
    for program in programs:
        if program is None:
            eff.problem("awk program cannot be known in advance")
            continue
        parsed_program = read_awk_program(program)
        for why in parsed_program.problems:
            eff.problem(why)
        eff.scripts.extend((command, cwd) for command in parsed_program.commands)
        if parsed_program.dynamic_command:
            eff.opaque_code = "awk runs a command built while it runs"
    for arg in operands:
        if arg.value is not None and _ASSIGNMENT.match(arg.value):
            continue  # `var=value` operands are assignments, not files
        eff.reads.append(path_use(arg, cwd))
    return eff


