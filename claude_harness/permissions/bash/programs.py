"""Every program the checker knows, and what an unknown program is taken to do.

Why one registry: the analysis asks one question per program ("what does this argv do?"), and
the answer for a program nobody listed must be the safe one: it may do anything, so it is
never read-only, its operands may be files (outside the project they need permission), and
only an allow rule can approve it. Shells, `eval` and interpreters get their own answers here:
a shell's inner script is handed back for analysis, code that cannot be seen is a problem.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from functools import cache

from claude_harness.permissions.bash import readers, runners, writers
from claude_harness.permissions.bash.effects import Effect, Invocation, PathUse, Scope, path_use
from claude_harness.permissions.bash.options import Arg
from claude_harness.permissions.bash.tables import PRINTING_BUILTINS

Handler = Callable[[Invocation, Scope], Effect]

SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh"})
OTHER_SHELLS = frozenset({"fish", "csh", "tcsh", "pwsh", "nu", "xonsh", "elvish", "rc"})
INTERPRETERS = frozenset({
    "python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "deno", "bun", "perl",
    "ruby", "php", "lua", "luajit", "tclsh", "wish", "Rscript", "R", "osascript", "powershell",
    "irb", "jshell", "ts-node", "tsx", "julia", "guile", "racket", "sbcl", "clisp", "ghci",
    "runghc", "scala", "kotlin", "groovy", "elixir", "erl", "escript",
})
_INLINE_CODE = re.compile(r"^-(?:[A-Za-z]*[ceEpr]|-eval|-exec|-print|-command|-execute)")
# Builtins that run or redefine commands, or change the shell for what follows.
EXEC_BUILTINS = frozenset({
    "alias", "unalias", "enable", "coproc", "fc", "let", "declare",
    "typeset", "export", "readonly", "local", "unset", "shopt", "hash", "bind", "complete",
    "compgen", "mapfile", "readarray", "read", "history", "pushd", "popd", "getopts", "caller",
    "disown", "suspend", "logout", "function", "select", "shift", "wait", "kill", "ulimit_set",
})


MAX_SCRIPT_BYTES = 64_000


def script_file(use: PathUse) -> str | None:
    """The text of a shell script file, to analyse what it runs (None: cannot be read now)."""
    if use.path is None or str(use.path).startswith(("/dev/", "/proc/")):
        return None
    try:
        if not use.path.is_file() or use.path.stat().st_size > MAX_SCRIPT_BYTES:
            return None
        return use.path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _run_file(eff: Effect, use: PathUse, cwd, who: str) -> Effect:
    """A shell runs the script in a file: the file is read, and its commands analysed."""
    eff.reads.append(use)
    code = script_file(use)
    if code is None:
        eff.opaque_code = f"{who} runs {use.text}, a script that cannot be read in advance"
        return eff.problem(eff.opaque_code)
    eff.scripts.append((code, cwd))
    return eff


def shell(inv: Invocation, scope: Scope) -> Effect:
    """sh/bash/... : `-c SCRIPT` (in any option cluster: -ec, -lc, -c --), a script file
    (read and analysed), or a script on stdin (`bash <<EOF`, `bash -s <<<`, `echo S | bash`,
    `bash < file`). Code that cannot be seen (a `-c` string built at run time, a pipe from
    another program) can hide anything: it makes the whole command impossible to check."""
    args = inv.args
    eff = Effect()
    command_mode = False
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None:
            if command_mode:
                break  # the -c script itself: judged below
            return Effect.failed(f"{inv.name} argument cannot be known in advance")
        if value in {"-", "--"}:
            i += 1
            break
        if value.startswith("--"):
            if value in {"--rcfile", "--init-file"} or value.startswith(("--rcfile=",
                                                                         "--init-file=")):
                return Effect.failed(f"{inv.name} {value} runs a start-up file")
            if value not in {"--norc", "--noprofile", "--posix", "--login", "--noediting",
                             "--restricted", "--verbose", "--debugger", "--pretty-print"}:
                return Effect.failed(f"{inv.name}: option {value} is not known")
            i += 1
            continue
        if value[:1] in {"-", "+"} and len(value) > 1:
            letters = value[1:]
            i += 1
            if set(letters) & {"o", "O"}:
                i += 1  # -o pipefail, -O extglob
            if not re.fullmatch(r"[abcefhiklmnprstuvxBCEHPTo0O]+", letters):
                return Effect.failed(f"{inv.name}: option {value} is not known")
            command_mode = command_mode or "c" in letters
            continue
        break
    rest = args[i:]
    if inv.name not in SHELLS:
        eff.problem(f"{inv.name} is not bash: its syntax is only approximately checked")
    if command_mode:
        if not rest or rest[0].value is None:
            eff.opaque_code = f"{inv.name} -c runs code that cannot be known in advance"
            return eff.problem(eff.opaque_code)
        eff.scripts.append((rest[0].value, inv.cwd))
        return eff
    if rest:
        return _run_file(eff, path_use(rest[0], inv.cwd), inv.cwd, inv.name or "the shell")
    if inv.stdin_script is not None:
        eff.scripts.append((inv.stdin_script, inv.cwd))
        return eff
    if inv.stdin_file is not None:
        return _run_file(eff, inv.stdin_file, inv.cwd, inv.name or "the shell")
    eff.opaque_code = f"{inv.name} runs a script from its input, which cannot be known in advance"
    return eff.problem(eff.opaque_code)


def source(inv: Invocation, scope: Scope) -> Effect:
    """`source FILE` / `. FILE`: the file's commands run in this very shell."""
    eff = Effect()
    eff.problem(f"`{inv.name}` runs a file's commands in the current shell")
    if not inv.args or inv.args[0].value is None:
        eff.opaque_code = f"`{inv.name}` of a file that cannot be known in advance"
        return eff
    return _run_file(eff, path_use(inv.args[0], inv.cwd), inv.cwd, inv.name or "source")


def trap(inv: Invocation, scope: Scope) -> Effect:
    """`trap CODE SIGNAL...` runs CODE later in this shell: CODE is analysed like `eval`."""
    values = [a.value for a in inv.args]
    if not values or all(v in {"-l", "-p"} for v in values):
        return Effect(read_only=True)
    eff = Effect().problem("`trap` sets a command to run on a signal")
    code = values[1] if values[0] == "--" and len(values) > 1 else values[0]
    if code is None:
        eff.opaque_code = "trap runs code that cannot be known in advance"
    elif code not in {"-", ""} and len(values) > 1:
        eff.scripts.append((code, inv.cwd))
    return eff


def eval_(inv: Invocation, scope: Scope) -> Effect:
    if any(a.value is None for a in inv.args):
        eff = Effect()
        eff.opaque_code = "eval runs code that cannot be known in advance"
        return eff.problem(eff.opaque_code)
    eff = Effect()
    eff.scripts.append((" ".join(a.value or "" for a in inv.args), inv.cwd))
    return eff.problem("eval runs a string as a command")


def exec_builtin(inv: Invocation, scope: Scope) -> Effect:
    return Effect.failed(f"`{inv.name}` can run or redefine commands or change the shell")


_NAMES_AFTER_P = {"declare", "typeset", "export", "readonly", "shopt"}


def printing_builtin(inv: Invocation, scope: Scope) -> Effect:
    """`alias`, `declare -p X`, `export -p`, `shopt -p`, `history`, `compgen -c`: they only
    print. Any other option or operand defines, changes or runs something."""
    name = inv.name or ""
    allowed = PRINTING_BUILTINS[name]
    options = [a.value for a in inv.args if (a.value or "").startswith("-")]
    operands = [a.value for a in inv.args if not (a.value or "-").startswith("-")]
    if any(a.value is None for a in inv.args) or any(o not in allowed for o in options):
        return exec_builtin(inv, scope)
    if operands:
        names_ok = (name in _NAMES_AFTER_P and "-p" in options) or (
            name == "compgen" and len(operands) == 1)
        if not names_ok or any(not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", o or "")
                               for o in operands):
            return exec_builtin(inv, scope)
    return Effect(read_only=True)


def set_builtin(inv: Invocation, scope: Scope) -> Effect:
    """`set -euo pipefail` only changes how the script fails; anything else changes variables."""
    values = [a.value for a in inv.args]
    i = 0
    while i < len(values):
        value = values[i]
        if value is None or not re.fullmatch(r"[-+][euxvo]+", value):
            return Effect.failed("set changes the shell's parameters or options")
        if "o" in value:
            i += 1
            if i >= len(values) or values[i] not in {"pipefail", "errexit", "nounset", "xtrace",
                                                     "verbose"}:
                return Effect.failed("set -o with an option that changes the shell")
        i += 1
    return Effect(read_only=True)


def _in_place_files(inv: Invocation) -> list[Arg] | None:
    """`perl -pi -e CODE FILE...`, `ruby -i.bak -pe CODE FILE`: the files edited in place
    (None when there is no -i)."""
    args = inv.args
    in_place = False
    code_given = False
    i = 0
    while i < len(args):
        value = args[i].value or ""
        i += 1
        if value == "--":
            break
        if not value.startswith("-") or value == "-":
            i -= 1
            break
        letters = value[1:]
        for j, letter in enumerate(letters):
            if letter == "i":
                in_place = True
                break  # the rest of the cluster is the backup extension
            if letter in "eE":
                code_given = True
                if j == len(letters) - 1:
                    i += 1  # the code is the next word
                break
            if letter in "IMmxCdFl0":
                break  # an option whose value is the rest of the cluster
    if not in_place:
        return None
    files = args[i:]
    return files if code_given else files[1:]  # without -e the first operand is the script


def interpreter(inv: Invocation, scope: Scope) -> Effect:
    module = runners.python_module(inv) if (inv.name or "").startswith("python") else None
    if module is not None:
        return runners.pytest(module, scope)
    eff = unknown_program(inv, scope)
    if _base(inv.name or "") in {"perl", "ruby"}:
        for arg in _in_place_files(inv) or []:
            eff.writes.append(path_use(arg, inv.cwd, edit=True))
    if any(a.value is None or _INLINE_CODE.match(a.value or "") for a in inv.args) or not any(
            not (a.value or "-").startswith("-") for a in inv.args) or "-" in [
            a.value for a in inv.args]:
        eff.problem(f"{inv.name} runs inline code or code from its input")
    return eff


_OUTPUT_OPTIONS = {"-o", "--output", "--out", "--outfile", "--output-file", "--output-dir",
                   "--out-dir", "--outdir", "--target-dir", "--log-file", "--logfile"}


def unknown_program(inv: Invocation, scope: Scope) -> Effect:
    """A program the checker does not know: any operand may be a file it reads, and the value
    of an output option (`gcc -o F`, `--output=F`) a file it writes."""
    eff = Effect()
    values = [a.value for a in inv.args]
    for i, value in enumerate(values):
        if value is None:
            continue
        name, eq, attached = value.partition("=")
        target = attached if eq and name in _OUTPUT_OPTIONS else (
            values[i + 1] if name in _OUTPUT_OPTIONS and not eq and i + 1 < len(values) else None)
        if target:
            eff.writes.append(path_use(Arg(target, source=target), inv.cwd, guess=True))
    for arg in inv.args:
        value = arg.value
        if value is None:
            if arg.members is not None:
                eff.reads.append(path_use(arg, inv.cwd, guess=True))
            continue
        if value.startswith("-"):
            if "=" in value:
                tail = value.split("=", 1)[1]
                if tail.startswith(("/", "~", "..")):
                    eff.reads.append(path_use(Arg(tail, source=tail), inv.cwd, guess=True))
            continue
        eff.reads.append(path_use(arg, inv.cwd, guess=True))
    runners.response_file_problem(inv, eff)
    return eff


def _base(name: str) -> str:
    return re.sub(r"(\d+(\.\d+)*)$", "", name) if name.startswith(("python", "pypy")) else name


def _loaded_on_use(module: str, function: str) -> Handler:
    """A handler whose module is imported at its first command: git's, sed's and awk's
    tables and the archive and transfer readers are a third of the checker's import (~25 ms
    of a cold run's first check), and most first commands (`ls`, `cat`, `grep`) use none."""

    def handler(inv: Invocation, scope: Scope) -> Effect:
        found: Handler = getattr(importlib.import_module(f"{__package__}.{module}"), function)
        return found(inv, scope)

    return handler


_awk = _loaded_on_use("scripts", "awk")
_ssh = _loaded_on_use("transfer", "ssh")
HANDLERS: dict[str, Handler] = {
    **readers.HANDLERS,
    **writers.HANDLERS,
    "git": _loaded_on_use("git", "git"),
    "find": _loaded_on_use("find", "find"),
    "sed": _loaded_on_use("scripts", "sed"),
    "awk": _awk, "gawk": _awk, "mawk": _awk, "nawk": _awk,
    "eval": eval_,
    "source": source, ".": source, "trap": trap,
    "tar": _loaded_on_use("archives", "tar"),
    "curl": _loaded_on_use("transfer", "curl"), "wget": _loaded_on_use("transfer", "wget"),
    "unzip": _loaded_on_use("transfer", "unzip"), "ssh": _ssh, "scp": _ssh, "sftp": _ssh,
    "rsync": _loaded_on_use("transfer", "rsync"),
    "pytest": runners.pytest, "py.test": runners.pytest,
    "npm": runners.npm, "npx": runners.npm, "pnpm": runners.npm, "yarn": runners.npm,
    "set": set_builtin,
    **{name: shell for name in SHELLS | OTHER_SHELLS},
    **{name: exec_builtin for name in EXEC_BUILTINS},
    **{name: printing_builtin for name in PRINTING_BUILTINS},
}


@cache
def may_write(program: str) -> bool:
    """Can this program write a file or run another program, however it is invoked? (False
    only for programs whose complete table has no option that does.)"""
    if program in readers.READERS:
        return bool(readers.roles_of(program) & {"write", "exec", "ask"}) or program == "uniq"
    return program not in {"echo", "printf", "test", "[", "cd", "date", "jq", "man", "grep",
                           "egrep", "fgrep", *readers.ANY_ARGS_STRINGS}


def effect_of(inv: Invocation, scope: Scope, *, program: str) -> Effect:
    """What `inv` does; `program` is its name as rules see it (a basename for /bin/x)."""
    version = readers.version_query(Invocation([Arg(program), *inv.args], inv.cwd))
    if version is not None:
        return version
    handler = HANDLERS.get(program)
    named = Invocation([Arg(program, source=program), *inv.args], inv.cwd, inv.stdin_script,
                       inv.stdin_file)
    if handler is not None:
        eff = handler(named, scope)
    elif _base(program) in INTERPRETERS:
        eff = interpreter(named, scope)
    else:
        eff = unknown_program(inv, scope)
    # a runner sent to another folder (`npm -C DIR`, `make -C DIR`) runs and writes there
    eff.writes.extend(runners.folder_uses(program, named))
    return eff

