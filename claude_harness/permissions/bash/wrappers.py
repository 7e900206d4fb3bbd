"""Programs that run another program: peel them so every rule sees the program that really runs.

Why: a deny rule `Bash(rm *)` must catch `/bin/rm`, `exec rm`, `nohup -- rm`, `timeout 5 rm`,
`env -S'rm -rf x'`, `busybox rm`, `sudo rm`, `xargs rm`. Each wrapper is read with its own
option table (so `nice -n 5 rm` does not leave `5 rm` behind), and the argv after each layer is
kept: deny and ask rules test every layer, allow rules only the innermost program and only
through wrappers that change nothing but timing or priority (transparent ones). Wrappers that
switch users, namespaces or environments are opaque: a rule never allows through them.

Wrappers without a table of their own (strace, valgrind, firejail...) are peeled by trying
every later word as the start of the inner command, which is what deny rules and the safety
checks need; such a command is never allowed without asking.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field, replace
from functools import cache

from claude_harness.permissions.bash.effects import Effect, Invocation, PathUse, path_use
from claude_harness.permissions.bash.options import Arg, OptionError, OptionTable, parse, table

SYSTEM_BIN_DIRS = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/",
                   "/usr/local/sbin/")

_TRANSPARENT_SPECS = {
    "command": "-p -v -V",
    "builtin": "",
    "exec": "-c -l -a=",
    "nohup": "--help --version",
    "nice": "-n|--adjustment= # --help --version",
    "timeout": "--preserve-status --foreground -k|--kill-after= -s|--signal= -v|--verbose"
               " --help --version",
    "stdbuf": "-i|--input= -o|--output= -e|--error= --help --version",
    "time": "-p|--portability -f|--format= -o|--output=:write -a|--append -v|--verbose"
            " -q|--quiet --help -V|--version",
}
_OPAQUE_SPECS = {
    "env": "-i|--ignore-environment -0|--null -u|--unset= -C|--chdir=:chdir"
           " -S|--split-string=:split -v|--debug --block-signal? --default-signal?"
           " --ignore-signal? --list-signal-handling --help --version",
    "sudo": "-A|--askpass -b|--background -E|--preserve-env? -e|--edit:ask -H|--set-home"
            " -i|--login:shell -K|--remove-timestamp -k|--reset-timestamp -l|--list"
            " -n|--non-interactive -P|--preserve-groups -S|--stdin -s|--shell:shell"
            " -V|--version -v|--validate -C|--close-from= -D|--chdir=:chdir -g|--group="
            " -h|--host= -p|--prompt= -R|--chroot=:ask -r|--role= -T|--command-timeout="
            " -t|--type= -U|--other-user= -u|--user= --help",
    "doas": "-n -s:shell -u= -C=:ask -L",
    "setsid": "-c|--ctty -f|--fork -w|--wait --help --version",
    "ionice": "-c|--class= -n|--classdata= -p|--pid= -P|--pgid= -t|--ignore -u|--uid="
              " --help --version",
    "flock": "-s|--shared -x|-e|--exclusive -u|--unlock -n|--nb|--nonblock -w|--wait|--timeout="
             " -E|--conflict-exit-code= -o|--close -c|--command=:script -F|--no-fork --verbose"
             " --help --version",
    "taskset": "-a|--all-tasks -p|--pid -c|--cpu-list --help --version",
    "chrt": "-b|--batch -d|--deadline -f|--fifo -i|--idle -o|--other -r|--rr -e|--ext"
            " -R|--reset-on-fork -a|--all-tasks -m|--max -p|--pid -T|--sched-runtime="
            " -P|--sched-period= -D|--sched-deadline= -v|--verbose --help --version",
    "unbuffer": "-p",
    "watch": "-b|--beep -c|--color -C|--no-color -d|--differences? -e|--errexit -g|--chgexit"
             " -n|--interval= -p|--precise -q|--equexit= -r|--no-rerun -t|--no-title"
             " -w|--no-wrap -x|--exec:direct --help -v|--version",
}
# Operands a wrapper consumes before the command (timeout's duration, flock's lock file...).
_LEADING_OPERANDS = {"timeout": 1, "flock": 1, "taskset": 1, "chrt": 1}
# Wrappers without a table: every later word may start the inner command.
_SUFFIX_WRAPPERS = frozenset({
    "strace", "ltrace", "valgrind", "firejail", "fakeroot", "faketime", "eatmydata", "nocache",
    "torsocks", "proxychains", "proxychains4", "xvfb-run", "catchsegv", "pkexec",
    "systemd-run", "dbus-launch", "dbus-run-session", "ssh-agent", "rlwrap", "sg", "chroot",
    "nsenter", "unshare", "runuser", "su", "script", "caffeinate", "entr", "direnv",
    "parallel", "sem", "numactl", "cgexec", "prlimit", "setpriv", "capsh", "trickle", "tsocks",
    "scl", "with-contenv", "s6-setuidgid", "chpst", "daemonize", "start-stop-daemon", "expect",
})
_XARGS = table("-0|--null -a|--arg-file=:read -d|--delimiter= -E= -e|--eof? -I= -i|--replace?"
               " -L= -l|--max-lines? -n|--max-args= -o|--open-tty -P|--max-procs="
               " -p|--interactive --process-slot-var= -r|--no-run-if-empty -s|--max-chars="
               " --show-limits -t|--verbose -x|--exit --help --version", permute=False)


@cache
def _table(name: str) -> OptionTable:
    spec = _TRANSPARENT_SPECS.get(name)
    if spec is None:
        spec = _OPAQUE_SPECS[name]
    return table(spec, permute=False)


def linked_program(value: str, cwd) -> str | None:
    """The system program a path-named program really is (`./del` -> /bin/rm is `rm`), or
    None when it is not a link into the system directories."""
    if "/" not in value:
        return None
    if not value.startswith("/") and cwd is None:
        return None
    target = os.path.realpath(value if value.startswith("/") else os.path.join(cwd, value))
    if not target.startswith(SYSTEM_BIN_DIRS) and not target.startswith(("/usr/lib/", "/lib/")):
        return None
    name = target.rsplit("/", 1)[-1]
    return name if name != value.rsplit("/", 1)[-1] else None


def program_name(value: str, *, for_allow: bool) -> str:
    """What rules call the program: the basename of an absolute path (for allow rules only in
    the system directories: `./git` is the project's own script, not git)."""
    if "/" not in value:
        return value
    if for_allow and not value.startswith(SYSTEM_BIN_DIRS):
        return value
    return value.rsplit("/", 1)[-1]


@dataclass
class Peeled:
    """A simple command with its wrappers peeled off."""

    forms: list[list[str]] = field(default_factory=list)  # every layer, for deny/ask rules
    final: Invocation | None = None  # what finally runs; None: nothing (or cannot be known)
    unknown_program: str = ""  # why the program that runs cannot be known
    opaque: str = ""  # an opaque wrapper: allow rules never look through it
    effect: Effect = field(default_factory=Effect)  # the wrappers' own reads, writes, problems
    alternatives: list[Invocation] = field(default_factory=list)  # maybe-inner commands
    more: list[Invocation] = field(default_factory=list)  # further runs (xargs -I, per line)
    env_assignments: list[str] = field(default_factory=list)  # NAME=VALUE set by env
    query: bool = False  # `command -v X`: prints where X is, runs nothing


def _words(argv: list[Arg]) -> list[str]:
    return [a.text for a in argv]


def peel(inv: Invocation, *, names_source: Arg | None = None) -> Peeled:
    """Peel every wrapper off `inv`; `names_source` is what xargs appends (see analysis)."""
    out = Peeled()
    argv = list(inv.argv)
    cwd = inv.cwd
    for _ in range(12):
        if not argv:
            return out
        head = argv[0].value
        if head is None:
            out.forms.append(_words(argv))
            out.unknown_program = f"the program {argv[0].source!r} cannot be known in advance"
            return out
        name = program_name(head, for_allow=False)
        out.forms.append(_words(argv))
        if name != head:
            out.forms.append([name, *_words(argv[1:])])
        linked = linked_program(head, cwd)
        if linked is not None:  # deny rules name the program, not the link to it
            out.forms.append([linked, *_words(argv[1:])])
            name = linked
        if name == "busybox" and len(argv) > 1:
            out.opaque = out.opaque or "busybox runs its own version of the program"
            argv = argv[1:] if argv[1].value != "--" else argv[2:]
            continue
        if name == "xargs":
            rest = _xargs(argv, cwd, out, names_source, inv.stdin_script)
            if rest is None:
                return out
            argv = rest
            continue
        if name in _TRANSPARENT_SPECS or name in _OPAQUE_SPECS:
            step = _table_wrapper(name, argv, cwd, out)
            if step is None:
                return out
            argv, cwd = step
            continue
        if name in _SUFFIX_WRAPPERS:
            out.opaque = out.opaque or f"`{name}` runs another command"
            out.alternatives.extend(_suffixes(argv, cwd))
            _command_strings(argv, cwd, out)
            out.final = Invocation(argv, cwd, inv.stdin_script, inv.stdin_file)
            return out
        break
    out.final = Invocation(argv, cwd, inv.stdin_script, inv.stdin_file)
    return out


def _command_strings(argv: list[Arg], cwd, out: Peeled) -> None:
    """`su -c CMD`, `script -c CMD`, `runuser --command=CMD`: CMD is shell code; `strace -o F`,
    `script ... FILE` write F."""
    name = argv[0].text.rsplit("/", 1)[-1]
    for i, arg in enumerate(argv[1:], start=1):
        if name in {"strace", "ltrace", "valgrind"} and arg.value in {"-o", "--output"} and (
                i + 1 < len(argv)):
            out.effect.writes.append(path_use(argv[i + 1], cwd))
        elif name in {"strace", "ltrace"} and (arg.value or "").startswith("-o") and len(
                arg.value or "") > 2:
            value = (arg.value or "")[2:]
            out.effect.writes.append(path_use(Arg(value, source=value), cwd))
    if name == "script":
        operands = [a for a in argv[1:] if not (a.value or "-").startswith("-")]
        values = [a.value for a in argv]
        commands = {values[i + 1] for i, v in enumerate(values[:-1]) if v in {"-c", "--command"}}
        files = [a for a in operands if a.value not in commands]
        out.effect.writes.append(path_use(files[-1], cwd) if files else PathUse(
            "typescript", cwd / "typescript" if cwd is not None else None))
    for i, arg in enumerate(argv[1:], start=1):
        value = arg.value
        if value in {"-c", "--command", "--session-command"} and i + 1 < len(argv):
            code = argv[i + 1].value
        elif value is not None and value.startswith(("--command=", "--session-command=")):
            code = value.split("=", 1)[1]
        else:
            continue
        if code is None:
            out.unknown_program = f"{argv[0].text} -c runs code that cannot be known in advance"
        else:
            out.effect.scripts.append((code, cwd))


def _suffixes(argv: list[Arg], cwd) -> list[Invocation]:
    return [Invocation(argv[i:], cwd) for i in range(1, len(argv))
            if (value := argv[i].value) is not None and not value.startswith("-")]


def _table_wrapper(name: str, argv: list[Arg], cwd, out: Peeled):
    """One wrapper read through its table: (inner argv, cwd) or None when nothing runs."""
    try:
        parsed = parse(_table(name), argv[1:], name)
    except OptionError as exc:
        out.effect.problem(str(exc))
        out.opaque = out.opaque or f"`{name}` with options the checker does not know"
        out.alternatives.extend(_suffixes(argv, cwd))
        if any(a.value is None for a in argv[1:]):
            out.unknown_program = f"`{name}` runs a command that cannot be known in advance"
        return None
    if name == "command" and any(opt.name in {"v", "V"} for opt, _ in parsed.options):
        out.query = True
        return None
    for opt, values in parsed.options:
        if "ask" in opt.roles:
            out.effect.problem(f"{name} -{opt.name} does more than run a command")
        if "shell" in opt.roles:
            out.effect.problem(f"{name} -{opt.name} starts a shell")
        if "write" in opt.roles:
            for value in values:
                out.effect.writes.append(path_use(Arg(value, source=value or "?"), cwd))
        if "chdir" in opt.roles:
            value = values[0] if values else None
            out.effect.reads.append(path_use(Arg(value, source=value or "?"), cwd,
                                             names_only=True))
            cwd = path_use(Arg(value), cwd).path if value is not None else None
        if "script" in opt.roles:
            out.effect.scripts.extend((v, cwd) for v in values if v is not None)
            if any(v is None for v in values):
                out.unknown_program = f"{name} -c runs code that cannot be known in advance"
    rest = list(parsed.operands)
    if name in {"sudo", "doas"} and not rest:
        out.effect.problem(f"{name} without a command starts a shell")
        return None
    skip = _LEADING_OPERANDS.get(name, 0)
    if name == "taskset" and any(opt.name == "cpu-list" for opt, _ in parsed.options):
        skip = 1
    if name == "flock" and parsed.values("script"):
        return None
    rest = rest[skip:]
    if name == "env":
        rest = _env_operands(parsed, rest, out)
        if rest is None:
            return None
    if name == "watch":
        out.opaque = out.opaque or "`watch` runs a command over and over"
        direct = any("direct" in opt.roles for opt, _ in parsed.options)
        if not direct and rest:  # watch runs its arguments through `sh -c`
            if any(a.value is None for a in rest):
                out.unknown_program = "watch runs code that cannot be known in advance"
                return None
            out.effect.scripts.append((" ".join(a.value or "" for a in rest), cwd))
            return None
    if not rest:
        if name == "env":
            out.query = True  # `env` alone prints the environment
        return None
    if name in _OPAQUE_SPECS:
        out.opaque = out.opaque or f"`{name}` runs another command"
    return rest, cwd


def _env_operands(parsed, rest: list[Arg], out: Peeled) -> list[Arg] | None:
    """env: `-S STRING` is split into words, then NAME=VALUE operands, then the command."""
    split = parsed.values("split")
    words: list[Arg] = []
    for value in split:
        if value is None or "$" in value or "\\" in value:
            out.unknown_program = "env -S string with expansions or escapes"
            return None
        try:
            words.extend(Arg(w, source=w) for w in shlex.split(value))
        except ValueError:
            out.unknown_program = "env -S string cannot be split"
            return None
    rest = words + rest
    while rest and rest[0].value is not None and "=" in rest[0].value and (
            rest[0].value.split("=", 1)[0].isidentifier()):
        out.env_assignments.append(rest[0].value)
        rest = rest[1:]
    if rest and rest[0].value is None:
        out.unknown_program = "env runs a program that cannot be known in advance"
        return None
    return rest


MAX_XARGS_ITEMS = 64


def _known_items(text: str | None, parsed, line_mode: bool) -> list[str] | None:
    """The items xargs reads from input that is known text (a here-string, `echo ... |`)."""
    if text is None:
        return None
    delimiter = parsed.values("delimiter")
    if parsed.named("null"):
        items = [t for t in text.split("\0") if t]
    elif delimiter:
        if delimiter[0] is None or len(delimiter[0]) != 1:
            return None
        items = [t for t in text.split(delimiter[0]) if t]
    elif line_mode:
        items = [line.lstrip() for line in text.splitlines() if line.strip()]
    else:
        try:
            items = shlex.split(text)
        except ValueError:
            return None
    return items if len(items) <= MAX_XARGS_ITEMS else None


def _xargs(argv: list[Arg], cwd, out: Peeled, names_source: Arg | None,
           stdin_text: str | None) -> list[Arg] | None:
    """xargs CMD ARGS: CMD runs with names read from its input appended (or put in place of
    the -I string). The names are known when the input is known text, and are names of
    entries below known trees when the producer is a plain lister (`names_source`)."""
    try:
        parsed = parse(_XARGS, argv[1:], "xargs")
    except OptionError as exc:
        out.effect.problem(str(exc))
        return None
    arg_files = parsed.values("read")
    for value in arg_files:
        out.effect.reads.append(path_use(Arg(value, source=value or "?"), cwd))
    if any(opt.name in {"interactive", "open-tty"} for opt, _ in parsed.options):
        out.effect.problem("xargs -p / -o reads answers from the terminal")
    names = names_source if names_source is not None and not arg_files else Arg(
        None, source="<names read by xargs>", split=True)
    replace = [v for vals in parsed.named("I") for v in vals]
    replace += ["{}" for vals in parsed.named("replace")]
    consumer = list(parsed.operands) or [Arg("echo", source="echo")]
    items = None if arg_files or names_source is not None else _known_items(
        stdin_text, parsed, line_mode=bool(replace))
    if items is not None:
        if not replace:
            return [*consumer, *(Arg(item, source=item) for item in items)]
        token = replace[-1] or "{}"
        runs = [[Arg(a.value.replace(token, item), source=a.source) if a.value is not None
                 else a for a in consumer] for item in items]
        if not runs:
            return None
        out.more.extend(Invocation(run, cwd) for run in runs[1:])
        return runs[0]
    if names.members is None:
        out.effect.problem("xargs passes it words read from input that cannot be known")
    if replace:
        token = replace[-1] or "{}"
        replaced = []
        for arg in consumer:
            if arg.value == token:
                replaced.append(names)
            elif arg.value is not None and token in arg.value:
                replaced.append(Arg(None, source=arg.source))
            else:
                replaced.append(arg)
        return replaced
    return [*consumer, names]


def names_from(producer: Effect | None) -> Arg | None:
    """What a pipeline's producer feeds xargs: names of entries below the trees it read, when
    its output is nothing but such names (`find` without -printf, `git ls-files`, `rg -l`)."""
    if producer is None or producer.listing is None or not producer.read_only:
        return None
    if producer.problems or any(r.path is None for r in producer.reads):
        return None
    if producer.listing is None:
        return None
    return Arg(None, source="<names listed by the previous command>",
               members=replace(producer.listing, feeder="xargs"))
