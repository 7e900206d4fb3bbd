"""What we know about individual programs: wrappers, env assignments, dangerous flags, readers.

Why it exists: a prefix rule such as `Bash(git *)` or the built-in read-only set judges a command
by its name, but many "harmless" programs can write files or run code through a flag
(`find -exec`, `sort -o`, `git -c core.pager=...`, `rg --pre`, `sed 'e'`). Each program that
has such flags gets an explicit check here. Two questions per simple command:

Per-program detail lives in bash_git (git), bash_sed (sed, awk), bash_paths (file arguments).

- `normalise()`   which words do rules see? (wrappers and safe env assignments stripped)
- `hazards_of()`  which flags make it unsafe to auto-approve by ANY wildcard rule?
- `is_read_only_argv()` is it in the search/read/list set with only allowlisted flags?
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from claude_harness.permissions.bash_git import git_hazards, git_read_only
from claude_harness.permissions.bash_options import long_option_matches, positionals, skip_options
from claude_harness.permissions.bash_parse import SimpleCommand
from claude_harness.permissions.bash_sed import awk_hazards, sed_hazards, sed_in_place

# Wrappers that hide the real command: deny looks through them, allow never does.
_OPAQUE_WRAPPERS = {"env", "sudo", "doas", "watch", "setsid", "ionice", "flock", "chroot",
                    "nsenter", "unshare", "chrt", "taskset", "runuser", "su", "script", "xvfb-run"}

SAFE_ENV_VARS = {
    "NODE_ENV", "RUST_BACKTRACE", "RUST_LOG", "CI", "TZ", "LANG", "LANGUAGE", "NO_COLOR",
    "FORCE_COLOR", "TERM", "COLUMNS", "LINES", "GOOS", "GOARCH", "CGO_ENABLED", "DEBUG",
    "VERBOSE", "COLORTERM", "CLICOLOR", "CLICOLOR_FORCE",
}
_SAFE_ENV_PREFIXES = ("LC_",)

SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "ash", "busybox", "pwsh"}
INTERPRETERS = {
    "python", "python2", "python3", "node", "nodejs", "deno", "bun", "perl", "ruby", "php",
    "lua", "luajit", "tclsh", "Rscript", "osascript", "powershell", "irb", "jshell", "ts-node",
}
_INLINE_CODE_FLAGS = {"-c", "-e", "-E", "-r", "--eval", "--exec", "-p", "--print", "-x"}
EXEC_BUILTINS = {"eval", "source", ".", "exec", "trap", "alias", "enable", "coproc",
                 "fc", "let", "declare", "typeset", "export", "readonly", "local", "set", "unset",
                 "shopt", "hash", "bind", "complete", "mapfile", "readarray", "read"}


def is_safe_assignment(assignment: str) -> bool:
    name, _, value = assignment.partition("=")
    if "$" in value or "`" in value:
        return False
    return name in SAFE_ENV_VARS or name.startswith(_SAFE_ENV_PREFIXES)


@dataclass
class Normalised:
    """The words rules match against, and what stripping found on the way."""

    argv: list[str]  # what allow rules and the read-only set see
    deny_forms: list[list[str]] = field(default_factory=list)  # every argv a deny rule tests
    hazards: list[str] = field(default_factory=list)
    via_xargs: bool = False  # arguments come from input: file names cannot be checked


def _strip_wrapper(argv: list[str]) -> tuple[list[str], bool] | None:
    """Strip one wrapper; returns (rest, opaque) or None when argv[0] is not a wrapper.

    Transparent (rules look through them for allow and deny): timeout, nice, nohup, time,
    stdbuf, command, builtin, noglob. Opaque (deny looks through, allow never does): env, sudo,
    watch, setsid, ionice, flock and the rest of _OPAQUE_WRAPPERS.
    """
    name = argv[0]
    rest = argv[1:]
    if name == "timeout":
        rest = skip_options(rest, {"-s", "--signal", "-k", "--kill-after"})
        return (rest[1:] if rest else rest), False
    if name == "nice":
        return skip_options(rest, {"-n", "--adjustment"}), False
    if name == "stdbuf":
        return skip_options(rest, {"-i", "-o", "-e"}), False
    if name == "time":
        return skip_options(rest, {"-f", "--format", "-o", "--output"}), False
    if name == "command":
        if rest and rest[0] in {"-v", "-V"}:
            return None
        return skip_options(rest, set()), False
    if name in {"nohup", "builtin", "noglob"}:
        return rest, False
    if name == "env":
        rest = skip_options(rest, {"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})
        while rest and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", rest[0]):
            rest = rest[1:]
        return rest, True
    if name in {"sudo", "doas"}:
        return skip_options(rest, {"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U"}), True
    if name == "watch":
        return skip_options(rest, {"-n", "--interval", "-d", "-q"}), True
    if name == "ionice":
        return skip_options(rest, {"-c", "-n", "-p", "-P", "-u"}), True
    if name == "flock":
        rest = skip_options(rest, {"-w", "--timeout", "-E", "-c", "--command"})
        return rest[1:], True
    if name in {"taskset", "chrt"}:
        rest = skip_options(rest, {"-p"})
        return rest[1:], True
    if name in _OPAQUE_WRAPPERS:
        return skip_options(rest, {"-u", "-c"}), True
    return None


_XARGS_VALUE_FLAGS = {"-n", "-L", "-P", "-d", "-I", "-a", "-s", "-E", "-e", "--max-args",
                      "--max-lines", "--max-procs", "--delimiter", "--arg-file", "--max-chars",
                      "--eof", "--replace", "-i"}
# Programs xargs may feed with file names without the names turning into dangerous flags.
XARGS_SAFE_TARGETS = {"grep", "egrep", "fgrep", "wc", "cat", "head", "tail", "ls", "stat",
                      "du", "basename", "dirname", "echo", "file", "md5sum", "sha256sum"}


def normalise(cmd: SimpleCommand) -> Normalised:
    """Strip wrappers and assignments the way rules should see the command."""
    argv = list(cmd.words)
    result = Normalised(argv)
    deny_forms: list[list[str]] = []
    if cmd.assignments:
        unsafe = [a for a in cmd.assignments if not is_safe_assignment(a)]
        if unsafe:
            names = ", ".join(a.split("=", 1)[0] for a in unsafe)
            result.hazards.append(f"sets environment variable(s) {names} for the command")
        if not argv:
            result.hazards.append("bare variable assignment changes the shell environment")
    opaque = False
    for _ in range(8):
        if not argv:
            break
        deny_forms.append(list(argv))
        stripped = _strip_wrapper(argv)
        if stripped is None:
            if argv[0] == "xargs":
                rest = skip_options(argv[1:], _XARGS_VALUE_FLAGS)
                if not rest:
                    argv = ["echo"]
                    break
                if rest[0] not in XARGS_SAFE_TARGETS:
                    result.hazards.append(f"xargs runs {rest[0]!r} with arguments from input")
                result.via_xargs = True
                argv = rest
                continue
            break
        rest, is_opaque = stripped
        if is_opaque:
            opaque = True
            result.hazards.append(f"`{argv[0]}` runs another command")
        argv = rest
    deny_forms.append(list(argv))
    result.argv = argv
    if opaque:
        result.hazards.append("wrapped command")
    seen: set[tuple[str, ...]] = set()
    for form in deny_forms:
        if form and tuple(form) not in seen:
            seen.add(tuple(form))
            result.deny_forms.append(form)
    return result


# ---------------------------------------------------------------- dangerous flags (hazards)


_FIND_DANGER = {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0",
                "-fprintf", "-fls"}
def hazards_of(argv: list[str], cmd: SimpleCommand) -> list[str]:
    """Flags or forms that must never be auto-approved by a wildcard rule."""
    if not argv:
        return []
    name = argv[0].rsplit("/", 1)[-1]
    args = argv[1:]
    if name in SHELLS:
        return [f"runs a nested shell ({name})"]
    if name in EXEC_BUILTINS:
        return [f"`{name}` can run or redefine arbitrary commands"]
    if name in INTERPRETERS or re.match(r"^python\d(\.\d+)?$", name):
        if any(a in _INLINE_CODE_FLAGS or (a.startswith("-") and not a.startswith("--")
               and a[1:2] in "ceErp") for a in args) or not args or "-" in args:
            return [f"{name} runs inline code"]
        return []
    if name == "printf" and any(a == "-v" or a.startswith("-v") for a in args):
        return ["printf -v assigns a shell variable (PATH, IFS...)"]
    if name in {"history"} and args:
        return ["history can write shell start-up files"]
    if name == "find":
        bad = [a for a in args if a in _FIND_DANGER]
        out = [f"find {b} runs commands or writes files" for b in bad]
        if any(re.search(r"[*?\[]", unquoted) for unquoted in _unquoted_args(cmd)):
            out.append("find with an unquoted glob (a file name can become an action)")
        return out
    if name == "fd" or name == "fdfind":
        return ["fd --exec runs commands" for a in args
                if a in {"-x", "-X", "--exec", "--exec-batch"} or a.startswith("--exec")]
    if name == "sed":
        return sed_hazards(args)
    if name in {"awk", "gawk", "mawk", "nawk"}:
        return awk_hazards(args)
    if name == "sort":
        return [f"sort {a} writes files or runs a program" for a in args
                if long_option_matches(a, ("--output", "--compress-program"))
                or (a.startswith("-") and not a.startswith("--") and "o" in a[1:])]
    if name == "git":
        return git_hazards(argv, cmd)
    if name == "rg":
        return [f"rg {a} runs a preprocessor" for a in args
                if long_option_matches(a, ("--pre", "--pre-glob"))]
    if name == "tar":
        return [f"tar {a} can run commands" for a in args
                if long_option_matches(a, ("--checkpoint-action", "--to-command", "--use-compress-program",
                                     "--info-script", "--new-volume-script", "--rsh-command",
                                     "--rmt-command"))
                or a in {"-I", "-F"} or a.startswith("-I")]
    if name == "man":
        return [f"man {a} runs a program" for a in args
                if a.startswith("-") and a not in {"-k", "-f", "-a", "-w"}]
    if name in {"less", "more", "most"}:
        return [f"{name} {a} runs a command or writes a log" for a in args
                if a.startswith("+") or a.startswith("-o") or a.startswith("-O")
                or long_option_matches(a, ("--log-file", "--LOG-FILE"))]
    if name == "date":
        return [f"date {a} reads files or sets the clock" for a in args
                if a in {"-f", "-s"} or a.startswith("-f") or a.startswith("-s")
                or long_option_matches(a, ("--file", "--set"))]
    if name == "file":
        return [f"file {a} reads a magic file or compiles one" for a in args
                if a.startswith("-m") or a.startswith("-C")
                or long_option_matches(a, ("--magic-file", "--compile"))]
    if name == "tree":
        return ["tree -o writes a file" for a in args if a == "-o" or a.startswith("-o")]
    return []


def _unquoted_args(cmd: SimpleCommand) -> list[str]:
    from claude_harness.permissions.bash_parse import unquoted_text

    return [unquoted_text(r) for r in cmd.raw_words[1:]]


# ---------------------------------------------------------------- read-only set

NEUTRAL = {"echo", "printf", "true", "false", ":"}
READ_ONLY_PLAIN = {
    "ls", "cat", "head", "tail", "wc", "pwd", "whoami", "id", "stat", "du", "df", "which",
    "whereis", "type", "basename", "dirname", "realpath", "readlink", "cut", "tr", "diff", "cmp",
    "comm", "nl", "column", "tac", "rev", "fold", "paste", "join", "expand", "unexpand",
    "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "b2sum", "strings", "od",
    "hexdump", "uname", "nproc", "uptime", "free", "ps", "test", "[", "seq", "expr", "grep",
    "egrep", "fgrep", "rg", "jq", "file", "tree", "date", "sleep", "groups", "arch", "find",
    "fd", "fdfind", "sed", "awk", "gawk", "sort", "less", "more", "man", "locate", "lsof",
    "dir", "vdir", "tty", "locale", "getconf", "cd",
}
_LIMITED_POSITIONALS = {"uniq": 1, "xxd": 1, "hostname": 0}
_GLOB_SAFE = {"ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "stat", "du",
              "file", "md5sum", "sha256sum", "sha1sum", "diff", "echo", "printf", "nl", "cut",
              "basename", "dirname", "realpath", "tree", "jq", "od", "strings", "test", "["}
def follows_symlinks(name: str, args: list[str]) -> bool:
    """Recursive readers told to follow symlinks can read a repo link's target outside."""
    if name == "find":
        return "-L" in args or "-follow" in args
    short = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    longs = {a.split("=", 1)[0] for a in args if a.startswith("--")}
    letters = {"grep": "R", "egrep": "R", "fgrep": "R", "rg": "L", "fd": "L", "fdfind": "L",
               "du": "L", "tree": "l", "ls": "L"}.get(name)
    follow_long = {"--dereference-recursive", "--follow", "--dereference"}
    return bool(letters and letters in short) or bool(longs & follow_long)


def is_read_only_argv(argv: list[str], cmd: SimpleCommand) -> bool:
    """Whether this (normalised) simple command only reads, searches or lists."""
    if not argv:
        return False
    name = argv[0]
    args = argv[1:]
    if name in NEUTRAL:
        return True
    if name == "command" and args[:1] in (["-v"], ["-V"]):
        return True
    if name in _LIMITED_POSITIONALS:
        if name == "xxd" and any(a.startswith("-r") for a in args):
            return False
        return len(positionals(args)) <= _LIMITED_POSITIONALS[name]
    if name == "git":
        return git_read_only(argv)
    if name not in READ_ONLY_PLAIN:
        return False
    if name == "sed" and sed_in_place(args):
        return False
    if name == "tar" or follows_symlinks(name, args):
        return False
    if name not in _GLOB_SAFE and name not in {"find", "fd", "fdfind"}:
        if any(re.search(r"[*?\[]", u) for u in _unquoted_args(cmd)):
            return False
    return True
