"""Handlers for the programs that only read: table-driven, plus the few with their own grammar.

Why: a program is read-only only as it is invoked. `sort f` reads, `sort -o f g` writes,
`date -f FILE` reads FILE, `wc --files0-from=F` reads files named inside F. Every handler here
turns an argv into an Effect through the program's option table (tables.py), so each option's
value lands where it belongs (a file read, a file written, code run) and anything the table
does not know makes the call "not understood".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

from claude_harness.permissions.bash.args import Members
from claude_harness.permissions.bash.effects import (
    Effect,
    Invocation,
    PathUse,
    Scope,
    path_use,
)
from claude_harness.permissions.bash.options import (
    Arg,
    OptionError,
    OptionTable,
    Parsed,
    parse,
    table,
)
from claude_harness.permissions.bash.tables import ANY_ARGS_STRINGS, READERS

Handler = Callable[[Invocation, Scope], Effect]

_SELF_RECURSIVE = {"rg", "du", "tree"}  # walk their operands (or the cwd) without a flag


@cache
def _table(name: str) -> OptionTable:
    return table(READERS[name][0])


def roles_of(name: str) -> set[str]:
    """Every role any option of a tables.READERS program has."""
    tab = _table(name)
    return {role for opt in (*tab.short.values(), *tab.long.values()) for role in opt.roles}


def _role_effect(name: str, parsed: Parsed, eff: Effect, cwd: Path | None) -> None:
    """What option values do: read, name, write, run."""
    for opt, values in parsed.options:
        roles = opt.roles
        if "exec" in roles:
            eff.problem(f"{name} --{opt.name} runs a program")
        if "ask" in roles:
            eff.problem(f"{name} --{opt.name} does more than read")
        for value in values:
            arg = Arg(value, source=value if value is not None else f"--{opt.name}=?")
            if "read" in roles:
                eff.reads.append(path_use(arg, cwd))
            if "readlist" in roles:
                eff.reads.append(path_use(arg, cwd))
                eff.reads.append(PathUse(f"the files named in {arg.text}", None))
            if "name" in roles:
                eff.reads.append(path_use(arg, cwd, names_only=True))
            if "write" in roles:
                eff.writes.append(path_use(arg, cwd))
                eff.problem(f"{name} --{opt.name} writes the file {arg.text}")
        if "readlist" in roles and not values:  # md5sum -c: the operands are the lists
            eff.reads.append(PathUse(f"the files named in the {name} check list", None))
        if "write" in roles and not values:  # file -C: writes a file it names itself
            eff.writes.append(PathUse(f"the file {name} --{opt.name} writes", None))
            eff.problem(f"{name} --{opt.name} writes a file")


def table_reader(name: str) -> Handler:
    """A handler for a program of tables.READERS."""
    kind = READERS[name][1]

    def handle(inv: Invocation, scope: Scope) -> Effect:
        tab = _table(name)
        tolerant = kind in {"strings", "none"} and not any(
            opt.roles for opt in (*tab.short.values(), *tab.long.values()))
        try:
            parsed = parse(tab, inv.args, name, unknown_operands=tolerant)
        except OptionError as exc:
            return Effect.failed(str(exc))
        eff = Effect(read_only=True)
        cwd = inv.cwd
        _role_effect(name, parsed, eff, cwd)
        operands = parsed.operands
        if kind == "none":
            if operands:
                eff.problem(f"{name} with an operand does more than print")
            return eff
        if kind == "strings":
            return eff
        if kind == "pattern" and not parsed.has("pattern"):
            if not operands:
                return Effect.failed(f"{name} without a pattern")
            operands = operands[1:]
        recursive = parsed.has("recursive") or name in _SELF_RECURSIVE or _grep_recurse(parsed)
        follow = parsed.has("follow") and not parsed.has("nofollow")
        names_only = kind == "names" or parsed.has("listing")
        if _operands_are_strings(name, parsed):
            return eff
        if name in {"less", "more"} and any((a.value or "+").startswith("+") for a in operands):
            eff.problem(f"{name} +COMMAND runs a pager command (which can run a shell)")
        if not operands and (recursive or kind == "names"):
            operands = [Arg(".", source=".")]
        entry = _entry_only(name, parsed)
        for arg in operands:
            eff.reads.append(path_use(arg, cwd, recursive=recursive, follow=follow,
                                      names_only=names_only, entry=entry))
        _POST.get(name, _nothing)(parsed, eff, inv)
        if _prints_names_only(name, parsed):
            trees = tuple(r.path for r in eff.reads if r.path is not None)
            if len(trees) == len(eff.reads) and trees:
                eff.listing = Members(trees, "xargs")
        elif name == "ls":
            eff.listing = _ls_listing(parsed, eff, inv)
        return eff

    return handle


def _entry_only(name: str, parsed: Parsed) -> bool:
    """`ls -d`, `stat` (without -L), `readlink`, `realpath`: the entry itself, not what a
    symlink leads to, is what they report on."""
    names = {opt.name for opt, _ in parsed.options}
    if name == "ls":
        return "directory" in names and "dereference" not in names
    if name == "stat":
        return "dereference" not in names
    return name in {"readlink", "realpath"}


_LS_PLAIN = {"1", "almost-all", "directory", "reverse", "t", "S", "U", "v", "X", "c", "u",
             "sort", "time", "group-directories-first", "literal"}


def _ls_listing(parsed: Parsed, eff: Effect, inv: Invocation) -> Members | None:
    """`ls` into a pipe prints one plain name per line (relative to the cwd for directory
    operands' contents): with only these options, xargs gets names of entries."""
    names = {opt.name for opt, _ in parsed.options}
    if names - _LS_PLAIN or inv.cwd is None or any(r.path is None for r in eff.reads):
        return None
    return Members((inv.cwd, *(r.path for r in eff.reads if r.path is not None)), "xargs")


_NAME_LISTING = {"files", "files-with-matches", "files-without-match"}
_OTHER_OUTPUT = {"count", "count-matches", "json", "vimgrep", "stats", "only-matching", "null",
                 "type-list", "pcre2-version", "version", "help", "debug", "trace"}


def _prints_names_only(name: str, parsed: Parsed) -> bool:
    """grep -l / rg --files: the output is only names of files below the operands."""
    if name not in {"grep", "egrep", "fgrep", "rg"}:
        return False
    names = {opt.name for opt, _ in parsed.options}
    return bool(names & _NAME_LISTING) and not names & _OTHER_OUTPUT


def _grep_recurse(parsed: Parsed) -> bool:
    return any(v in {"recurse", "r", "re", "rec", "recu", "recur", "recurs"}
               for v in parsed.values("directories"))


def _nothing(parsed: Parsed, eff: Effect, inv: Invocation) -> None:
    return None


def _uniq_post(parsed: Parsed, eff: Effect, inv: Invocation) -> None:
    """`uniq IN OUT` writes OUT."""
    if len(parsed.operands) >= 2:
        out = eff.reads.pop(1)
        eff.writes.append(PathUse(out.text, out.path, pattern=out.pattern))
        eff.read_only = False
    if len(parsed.operands) > 2:
        eff.problem("uniq takes at most two operands")


_POST = {"uniq": _uniq_post}


def _operands_are_strings(name: str, parsed: Parsed) -> bool:
    """`shuf -e WORDS` and `shuf -i LO-HI` take no files."""
    return name == "shuf" and (parsed.has("strings") or bool(parsed.named("input-range")))


# ---------------------------------------------------------------- programs with their own grammar


def echo(inv: Invocation, scope: Scope) -> Effect:
    """echo prints its arguments, whatever they are (its options only change escapes)."""
    return Effect(read_only=True)


def printf(inv: Invocation, scope: Scope) -> Effect:
    if any(a.value is None or a.value.startswith("-v") for a in inv.args[:1]):
        return Effect.failed("printf -v assigns a shell variable")
    return Effect(read_only=True)


def any_strings(inv: Invocation, scope: Scope) -> Effect:
    return Effect(read_only=True)


_TEST_FILE_UNARY = set("abcdefghkprsuwxGLNOS")
_TEST_FILE_BINARY = {"-ef", "-nt", "-ot"}


def test(inv: Invocation, scope: Scope) -> Effect:
    """test / [: file operators look files up; `-v NAME` must name a plain variable (an array
    subscript `a[$(cmd)]` is evaluated, so it would run code)."""
    args = list(inv.args)
    if inv.name == "[":
        if not args or args[-1].value != "]":
            return Effect.failed("[ without a closing ]")
        args = args[:-1]
    eff = Effect(read_only=True)
    for i, arg in enumerate(args):
        value = arg.value
        if value == "-v":
            name = args[i + 1].value if i + 1 < len(args) else ""
            if name is None or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                eff.problem("test -v with an array subscript evaluates it as code")
        elif value is not None and len(value) == 2 and value[0] == "-" and (
            value[1] in _TEST_FILE_UNARY) and i + 1 < len(args) and value[1] != "t":
            eff.reads.append(path_use(args[i + 1], inv.cwd, names_only=True, entry=True))
        elif value in _TEST_FILE_BINARY and 0 < i < len(args) - 1:
            eff.reads.append(path_use(args[i - 1], inv.cwd, names_only=True, entry=True))
            eff.reads.append(path_use(args[i + 1], inv.cwd, names_only=True, entry=True))
    return eff


_ARITH_OPS = {"-eq", "-ne", "-lt", "-le", "-gt", "-ge"}


def double_test(inv: Invocation, scope: Scope) -> Effect:
    """`[[ ... ]]` (rewritten by the parser): like test, but arithmetic operators evaluate
    their operands as expressions, so only plain numbers are accepted there."""
    args = inv.args
    for i, arg in enumerate(args):
        if arg.value in _ARITH_OPS:
            for side in (args[i - 1] if i else None, args[i + 1] if i + 1 < len(args) else None):
                if side is None or side.value is None or not side.value.lstrip("-").isdigit():
                    return Effect.failed("[[ ]] arithmetic on a value that is not a number")
        if arg.value == "=~":
            continue
    return test(Invocation([Arg("test", source="test"), *args], inv.cwd), scope)


def cd(inv: Invocation, scope: Scope) -> Effect:
    args = [a for a in inv.args if a.value not in {"-P", "-L", "-e", "-@", "--"}]
    if len(args) > 1:
        return Effect.failed("cd with more than one directory")
    if args and args[0].value == "-":
        return Effect(read_only=True, reads=[PathUse("-", None, names_only=True)])
    target = args[0] if args else Arg(str(Path.home()), source="~")
    return Effect(read_only=True, reads=[path_use(target, inv.cwd, names_only=True)])


_DATE = table("-d|--date= --debug -f|--file=:read -I|--iso-8601? --resolution -R|--rfc-email"
              " --rfc-3339= -r|--reference=:name -s|--set=:ask -u|--utc|--universal"
              " --help --version")


def date(inv: Invocation, scope: Scope) -> Effect:
    try:
        parsed = parse(_DATE, inv.args, "date")
    except OptionError as exc:
        return Effect.failed(str(exc))
    eff = Effect(read_only=True)
    _role_effect("date", parsed, eff, inv.cwd)
    for arg in parsed.operands:
        if arg.value is None or not arg.value.startswith("+"):
            eff.problem("date with an operand other than +FORMAT sets the clock")
    return eff


_JQ = table("-c|--compact-output -n|--null-input -e|--exit-status -s|--slurp -r|--raw-output"
            " -j|--join-output -a|--ascii-output -R|--raw-input -C|--color-output"
            " -M|--monochrome-output -S|--sort-keys --tab --indent= --arg== --argjson=="
            " --slurpfile== --rawfile== --args --jsonargs -f|--from-file= -L= --seq --stream"
            " --stream-errors --raw-output0 --unbuffered -h|--help -V|--version"
            " --build-configuration")


def jq(inv: Invocation, scope: Scope) -> Effect:
    """jq cannot write or run programs; it reads its input files, -f programs, --slurpfile /
    --rawfile files, and modules (`import`/`include`, from paths we do not follow: ask)."""
    try:
        parsed = parse(_JQ, inv.args, "jq")
    except OptionError as exc:
        return Effect.failed(str(exc))
    eff = Effect(read_only=True)
    cwd = inv.cwd
    for name in ("slurpfile", "rawfile"):
        for values in parsed.named(name):
            eff.reads.append(path_use(Arg(values[1], source=values[1] or "?"), cwd))
    program_files = [v for values in parsed.named("from-file") for v in values]
    for value in program_files:
        eff.reads.append(path_use(Arg(value, source=value or "?"), cwd))
    operands = parsed.operands
    if not program_files:
        if not operands:
            return eff
        program = operands[0].value
        if program is None or re.search(r"\b(import|include)\b|\bmodulemeta\b", program):
            eff.problem("jq program loads modules or cannot be known")
        operands = operands[1:]
    else:
        eff.problem("jq program read from a file may load modules")
    if parsed.named("L"):
        eff.problem("jq -L adds a module search path")
    if parsed.named("args") or parsed.named("jsonargs"):
        return eff  # the remaining operands are values, not files
    for arg in operands:
        eff.reads.append(path_use(arg, cwd))
    return eff


_XXD_VALUE = {"-c", "-cols", "-g", "-groupsize", "-l", "-len", "-o", "-s", "-seek", "-n",
              "-name", "-R"}
_XXD_FLAG = {"-a", "-autoskip", "-b", "-bits", "-C", "-capitalize", "-E", "-EBCDIC", "-e", "-i",
             "-include", "-p", "-ps", "-postscript", "-plain", "-u", "-d", "-h", "-help", "-v",
             "-version"}


def xxd(inv: Invocation, scope: Scope) -> Effect:
    """xxd has its own option syntax; its second operand is an output file, and -r writes."""
    args = inv.args
    operands: list[Arg] = []
    i = 0
    while i < len(args):
        value = args[i].value
        i += 1
        if value is None:
            return Effect.failed("xxd argument cannot be known in advance")
        if value in _XXD_FLAG or value in {"-r", "-revert"}:
            continue
        if value in _XXD_VALUE:
            i += 1
            continue
        if any(value.startswith(v) and value[len(v):].lstrip("-+").isdigit()
               for v in _XXD_VALUE):
            continue
        if value.startswith("-") and value != "-":
            return Effect.failed(f"xxd: unknown option {value}")
        operands.append(args[i - 1])
    eff = Effect(read_only=True)
    if len(operands) > 2:
        return Effect.failed("xxd takes at most two operands")
    if operands:
        eff.reads.append(path_use(operands[0], inv.cwd))
    if len(operands) == 2:
        eff.writes.append(path_use(operands[1], inv.cwd))
        eff.read_only = False
    return eff


_MAN_OK = table("-k|--apropos -f|--whatis -w|--where|--path|--location -a|--all"
                " -s|-S|--sections= -i|--ignore-case -I|--match-case --regex --wildcard"
                " --names-only --no-subpages --help -V|--version")


def man(inv: Invocation, scope: Scope) -> Effect:
    """man NAME renders an installed page; options that pick a pager, a preprocessor, a
    local file or HTML output run programs, so only the lookup options are known here."""
    try:
        parsed = parse(_MAN_OK, inv.args, "man")
    except OptionError as exc:
        return Effect.failed(str(exc))
    for arg in parsed.operands:
        if arg.value is None or "/" in arg.value or arg.value.startswith("."):
            return Effect.failed("man with a file path renders a local file")
    return Effect(read_only=True)


# Programs whose `--version` (or `-V`) only prints a version and loads nothing of the project.
VERSION_ONLY = frozenset({
    "python", "python2", "python3", "node", "nodejs", "ruby", "perl", "gcc", "g++", "cc",
    "clang", "clang++", "make", "gmake", "rustc", "cargo", "java", "javac", "npm", "pip",
    "pip3", "bash", "zsh", "deno", "docker", "cmake", "curl", "wget", "tar", "gzip", "openssl",
    "sqlite3", "uv", "rustup", "jq", "rg", "less", "sed", "awk", "gawk", "grep", "find", "ls",
    "cat", "go", "tsc", "php", "lua", "kubectl", "helm", "terraform", "gh", "ssh", "ruff",
})
_VERSION_FLAGS = {"--version", "-V", "-version", "version"}


def version_query(inv: Invocation) -> Effect | None:
    """`python --version`, `node -V`, `java -version`: read-only; None when not that form."""
    name = inv.name or ""
    base = re.sub(r"(\d+(\.\d+)*)$", "", name) if name.startswith("python") else name
    if base not in VERSION_ONLY and name not in VERSION_ONLY:
        return None
    values = [a.value for a in inv.args]
    if len(values) == 1 and values[0] in _VERSION_FLAGS:
        if values[0] == "version" and base not in {"go", "kubectl", "helm", "terraform",
                                                   "docker", "openssl", "gh"}:
            return None
        if base == "go":
            return None  # `go version` may download and run a toolchain named in go.mod
        return Effect(read_only=True)
    if len(values) == 1 and values[0] == "-v" and base in {"node", "nodejs", "npm", "perl"}:
        return Effect(read_only=True)
    return None


HANDLERS: dict[str, Handler] = {name: table_reader(name) for name in READERS}
HANDLERS.update({
    "echo": echo, "printf": printf, "test": test, "[": test, "__double_test__": double_test, "cd": cd, "date": date, "jq": jq,
    "xxd": xxd, "man": man, "egrep": table_reader("grep"), "fgrep": table_reader("grep"),
    **{name: any_strings for name in ANY_ARGS_STRINGS},
})
