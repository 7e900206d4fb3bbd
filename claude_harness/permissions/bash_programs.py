"""What we know about individual programs: wrappers, env assignments, dangerous flags, readers.

Why it exists: a prefix rule such as `Bash(git *)` or the built-in read-only set judges a command
by its name, but many "harmless" programs can write files or run code through a flag
(`find -exec`, `sort -o`, `git -c core.pager=...`, `rg --pre`, `sed 'e'`). Each program that
has such flags gets an explicit check here. Two questions per simple command:

- `normalise()`   which words do rules see? (wrappers and safe env assignments stripped)
- `hazards_of()`  which flags make it unsafe to auto-approve by ANY wildcard rule?
- `is_read_only_argv()` is it in the search/read/list set with only allowlisted flags?
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from claude_harness.permissions.bash_parse import SimpleCommand, resolve_path

# Wrappers that only change how the command runs; rules look through them (allow and deny).
_TRANSPARENT_WRAPPERS = {"timeout", "nice", "nohup", "time", "stdbuf", "command", "builtin", "noglob"}
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


def _skip_options(words: list[str], with_value: set[str]) -> list[str]:
    i = 0
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        flag = words[i]
        i += 1
        if flag in with_value and "=" not in flag and i < len(words):
            i += 1
    if i < len(words) and words[i] == "--":
        i += 1
    return words[i:]


def _strip_wrapper(argv: list[str]) -> tuple[list[str], bool] | None:
    """Strip one wrapper; returns (rest, opaque) or None when argv[0] is not a wrapper."""
    name = argv[0]
    rest = argv[1:]
    if name == "timeout":
        rest = _skip_options(rest, {"-s", "--signal", "-k", "--kill-after"})
        return (rest[1:] if rest else rest), False
    if name == "nice":
        return _skip_options(rest, {"-n", "--adjustment"}), False
    if name == "stdbuf":
        return _skip_options(rest, {"-i", "-o", "-e"}), False
    if name == "time":
        return _skip_options(rest, {"-f", "--format", "-o", "--output"}), False
    if name == "command":
        if rest and rest[0] in {"-v", "-V"}:
            return None
        return _skip_options(rest, set()), False
    if name in {"nohup", "builtin", "noglob"}:
        return rest, False
    if name == "env":
        rest = _skip_options(rest, {"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})
        while rest and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", rest[0]):
            rest = rest[1:]
        return rest, True
    if name in {"sudo", "doas"}:
        return _skip_options(rest, {"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U"}), True
    if name == "watch":
        return _skip_options(rest, {"-n", "--interval", "-d", "-q"}), True
    if name == "ionice":
        return _skip_options(rest, {"-c", "-n", "-p", "-P", "-u"}), True
    if name == "flock":
        rest = _skip_options(rest, {"-w", "--timeout", "-E", "-c", "--command"})
        return rest[1:], True
    if name in {"taskset", "chrt"}:
        rest = _skip_options(rest, {"-p"})
        return rest[1:], True
    if name in _OPAQUE_WRAPPERS:
        return _skip_options(rest, {"-u", "-c"}), True
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
                rest = _skip_options(argv[1:], _XARGS_VALUE_FLAGS)
                if not rest:
                    argv = ["echo"]
                    break
                if rest[0] not in XARGS_SAFE_TARGETS:
                    result.hazards.append(f"xargs runs {rest[0]!r} with arguments from input")
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


def _long_matches(arg: str, dangerous: tuple[str, ...]) -> str | None:
    """GNU-style long options may be abbreviated: `--upload-pa` is `--upload-pack`."""
    if not arg.startswith("--") or len(arg) < 3:
        return None
    name = arg.split("=", 1)[0]
    for opt in dangerous:
        if opt.startswith(name) or name.startswith(opt):
            return opt
    return None


def _short_cluster_has(arg: str, letters: str) -> bool:
    return arg.startswith("-") and not arg.startswith("--") and any(c in arg[1:2] for c in letters)


_FIND_DANGER = {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0",
                "-fprintf", "-fls"}
_GIT_DANGER_LONG = ("--output", "--upload-pack", "--receive-pack", "--exec", "--ext-diff",
                    "--open-files-in-pager", "--config-env", "--git-dir", "--work-tree",
                    "--exec-path", "--template", "--extcmd", "--tool", "--sendmail-cmd",
                    "--to-command", "--run", "--pager")
_GIT_KNOWN = {
    "add", "am", "annotate", "apply", "archive", "bisect", "blame", "branch", "bundle",
    "cat-file", "check-attr", "check-ignore", "check-ref-format", "checkout", "cherry",
    "cherry-pick", "citool", "clean", "clone", "commit", "commit-tree", "config",
    "count-objects", "describe", "diff", "diff-files", "diff-index", "diff-tree", "difftool",
    "fetch", "for-each-ref", "format-patch", "fsck", "gc", "grep", "hash-object", "help",
    "init", "log", "ls-files", "ls-remote", "ls-tree", "merge", "merge-base", "mergetool",
    "mv", "name-rev", "notes", "pull", "push", "range-diff", "rebase", "reflog", "remote",
    "reset", "restore", "rev-list", "rev-parse", "revert", "rm", "shortlog", "show",
    "show-branch", "show-ref", "sparse-checkout", "stash", "status", "submodule", "switch",
    "symbolic-ref", "tag", "update-index", "update-ref", "version", "whatchanged", "worktree",
    "write-tree", "lfs", "maintenance", "prune", "repack", "verify-commit", "verify-tag",
}
_GIT_SHELLING = {"filter-branch", "instaweb", "daemon", "send-email"}
_GIT_GLOBAL_OK = {"--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs",
                  "--no-replace-objects", "--paginate", "-p"}


def _git_split(argv: list[str]) -> tuple[list[str], str | None, list[str]]:
    """(global options, subcommand, subcommand args)."""
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 1
    if i >= len(argv):
        return argv[1:], None, []
    return argv[1:i], argv[i], argv[i + 1:]


def _git_hazards(argv: list[str], cmd: SimpleCommand) -> list[str]:
    hazards: list[str] = []
    glob_opts, sub, args = _git_split(argv)
    for opt in glob_opts:
        if opt not in _GIT_GLOBAL_OK:
            hazards.append(f"git option {opt} (can run code or leave the repository)")
    if sub is None:
        return hazards
    if sub not in _GIT_KNOWN:
        hazards.append(f"git {sub} is not a built-in git command (possibly an alias)")
    if sub in _GIT_SHELLING:
        hazards.append(f"git {sub} runs shell commands")
    for arg in args:
        hit = _long_matches(arg, _GIT_DANGER_LONG)
        if hit:
            hazards.append(f"git option {arg} (means {hit})")
        if sub == "grep" and arg.startswith("-O"):
            hazards.append("git grep -O runs a pager command")
        if sub in {"clone", "fetch", "pull", "ls-remote", "archive"} and arg == "-u":
            hazards.append(f"git {sub} -u sets the upload-pack command")
        if sub in {"rebase", "difftool", "mergetool"} and (arg == "-x" or arg.startswith("-x")):
            hazards.append(f"git {sub} -x runs a command")
    if sub == "remote" and args[:1] and args[0] in {"add", "set-url"}:
        hazards.append(f"git remote {args[0]} points the repository at a new remote")
    if sub == "push" and any("://" in a or re.match(r"^[\w.-]+@[\w.-]+:", a) for a in args):
        hazards.append("git push to an explicit URL")
    if sub == "config" and not _git_config_read_only(args):
        hazards.append("git config writes configuration (aliases, hooks, pagers run code)")
    if sub in {"submodule"} and "foreach" in args:
        hazards.append("git submodule foreach runs a shell command")
    if sub == "bisect" and "run" in args:
        hazards.append("git bisect run runs a command")
    if cmd.left_start_dir:
        hazards.append("runs git after `cd` into another directory (its hooks and config run)")
    return hazards


_GIT_CONFIG_READ_FLAGS = {"--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin",
                          "--show-scope", "--name-only", "--null", "-z", "--global", "--local",
                          "--system", "--includes", "--no-includes", "--type", "--bool",
                          "--int", "--path"}


def _git_config_read_only(args: list[str]) -> bool:
    if not args:
        return True
    if args[0] in {"get", "list"}:
        return True
    flags = [a for a in args if a.startswith("-")]
    values = [a for a in args if not a.startswith("-")]
    if any(f.split("=", 1)[0] not in _GIT_CONFIG_READ_FLAGS for f in flags):
        return False
    if any(f in {"--get", "--get-all", "--get-regexp", "--list", "-l"} for f in flags):
        return True
    return len(values) == 1  # `git config user.name` reads


_SED_SAFE_SCRIPT = re.compile(
    r"""^(
        (\d+|\$)?(,(\d+|\$|/[^/]*/))?[pdq=]?       # 10p  1,5p  $p  5q  =
      | /[^/]*/(,(\d+|\$|/[^/]*/))?[pd]?          # /re/p  /a/,/b/p
      | (\d+|\$|/[^/]*/)?(,(\d+|\$|/[^/]*/))?s(?P<d>[/|#:,])((?!(?P=d)).)*(?P=d)((?!(?P=d)).)*(?P=d)[gIip0-9]*
      | [pdq=]?
    )$""",
    re.VERBOSE,
)


def _sed_scripts(args: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(scripts, flags, files) of a sed invocation."""
    scripts: list[str] = []
    flags: list[str] = []
    files: list[str] = []
    i = 0
    explicit = False
    while i < len(args):
        arg = args[i]
        if arg in {"-e", "--expression"} and i + 1 < len(args):
            scripts.append(args[i + 1])
            explicit = True
            i += 2
            continue
        if arg.startswith("--expression="):
            scripts.append(arg.split("=", 1)[1])
            explicit = True
        elif arg.startswith("-e") and len(arg) > 2:
            scripts.append(arg[2:])
            explicit = True
        elif arg.startswith("-") and arg != "-":
            flags.append(arg)
        else:
            files.append(arg)
        i += 1
    if not explicit and files:
        scripts.append(files.pop(0))
    return scripts, flags, files


def sed_script_is_safe(script: str) -> bool:
    parts = [p.strip() for p in re.split(r"[;\n]", script)]
    return all(_SED_SAFE_SCRIPT.match(p) for p in parts)


def sed_in_place(args: list[str]) -> bool:
    return any(a == "-i" or a.startswith("-i") or a.startswith("--in-place") or
               (a.startswith("-") and not a.startswith("--") and "i" in a[1:])
               for a in args if a.startswith("-"))


def _sed_hazards(args: list[str]) -> list[str]:
    scripts, flags, _files = _sed_scripts(args)
    hazards: list[str] = []
    for flag in flags:
        if flag in {"-f", "--file"} or flag.startswith("--file") or _short_cluster_has(flag, "f"):
            hazards.append("sed reads its script from a file")
    for script in scripts:
        if not sed_script_is_safe(script):
            hazards.append(f"sed script {script!r} may write files or run commands")
    return hazards


def _awk_hazards(args: list[str]) -> list[str]:
    for arg in args:
        if arg == "-f" or arg.startswith("-f") or arg.startswith("--file"):
            return ["awk reads its program from a file"]
    program = next((a for a in args if not a.startswith("-")), "")
    if re.search(r"system|\||>|getline|print\s*>|fflush|close|ENVIRON|@load|@include", program):
        return ["awk program may run commands or write files"]
    return []


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
        return _sed_hazards(args)
    if name in {"awk", "gawk", "mawk", "nawk"}:
        return _awk_hazards(args)
    if name == "sort":
        return [f"sort {a} writes files or runs a program" for a in args
                if _long_matches(a, ("--output", "--compress-program"))
                or (a.startswith("-") and not a.startswith("--") and "o" in a[1:])]
    if name == "git":
        return _git_hazards(argv, cmd)
    if name == "rg":
        return [f"rg {a} runs a preprocessor" for a in args
                if _long_matches(a, ("--pre", "--pre-glob"))]
    if name == "tar":
        return [f"tar {a} can run commands" for a in args
                if _long_matches(a, ("--checkpoint-action", "--to-command", "--use-compress-program",
                                     "--info-script", "--new-volume-script", "--rsh-command",
                                     "--rmt-command"))
                or a in {"-I", "-F"} or a.startswith("-I")]
    if name == "man":
        return [f"man {a} runs a program" for a in args
                if a.startswith("-") and a not in {"-k", "-f", "-a", "-w"}]
    if name in {"less", "more", "most"}:
        return [f"{name} {a} runs a command or writes a log" for a in args
                if a.startswith("+") or a.startswith("-o") or a.startswith("-O")
                or _long_matches(a, ("--log-file", "--LOG-FILE"))]
    if name == "date":
        return [f"date {a} reads files or sets the clock" for a in args
                if a in {"-f", "-s"} or a.startswith("-f") or a.startswith("-s")
                or _long_matches(a, ("--file", "--set"))]
    if name == "file":
        return [f"file {a} reads a magic file or compiles one" for a in args
                if a.startswith("-m") or a.startswith("-C")
                or _long_matches(a, ("--magic-file", "--compile"))]
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
_GIT_READ_ONLY = {
    "status", "log", "diff", "show", "blame", "annotate", "rev-parse", "ls-files", "ls-tree",
    "cat-file", "rev-list", "describe", "shortlog", "name-rev", "merge-base", "show-ref",
    "for-each-ref", "count-objects", "whatchanged", "grep", "version", "check-ignore",
    "diff-tree", "diff-files", "diff-index", "show-branch", "cherry", "check-attr", "range-diff",
    "verify-commit", "verify-tag",
}


def _git_read_only(argv: list[str]) -> bool:
    _glob, sub, args = _git_split(argv)
    if sub is None:
        return False
    if sub in _GIT_READ_ONLY:
        return True
    flags = [a for a in args if a.startswith("-")]
    values = [a for a in args if not a.startswith("-")]
    if sub == "branch":
        ok_flags = {"-a", "-r", "-v", "-vv", "--list", "-l", "--show-current", "--all",
                    "--remotes", "--verbose", "--no-color", "--color"}
        return all(f in ok_flags or f.startswith(("--contains", "--merged", "--no-merged",
                                                  "--sort", "--format")) for f in flags) and (
            not values or "--list" in flags or "-l" in flags
            or any(f.startswith(("--contains", "--merged", "--no-merged")) for f in flags))
    if sub == "tag":
        return (not values and all(f in {"-l", "--list", "-n"} or f.startswith("--sort")
                                   for f in flags)) or ("-l" in flags or "--list" in flags)
    if sub == "remote":
        return not args or args in (["-v"], ["--verbose"]) or (args[:1] == ["get-url"])
    if sub == "stash":
        return bool(args) and args[0] in {"list", "show"}
    if sub == "worktree":
        return args[:1] == ["list"]
    if sub == "reflog":
        return not values or values[0] == "show"
    if sub == "config":
        return _git_config_read_only(args)
    return False


def _positionals(args: list[str]) -> list[str]:
    out: list[str] = []
    after_dd = False
    for a in args:
        if after_dd or not a.startswith("-") or a == "-":
            out.append(a)
        elif a == "--":
            after_dd = True
    return out


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
        return len(_positionals(args)) <= _LIMITED_POSITIONALS[name]
    if name == "git":
        return _git_read_only(argv)
    if name not in READ_ONLY_PLAIN:
        return False
    if name == "sed" and sed_in_place(args):
        return False
    if name == "tar":
        return False
    if name not in _GLOB_SAFE and name not in {"find", "fd", "fdfind"}:
        if any(re.search(r"[*?\[]", u) for u in _unquoted_args(cmd)):
            return False
    return True


_PATTERN_FIRST = {"grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "jq", "git"}
# Programs whose arguments are strings, not files: nothing to check.
_NO_PATH_ARGS = {"echo", "printf", "tr", "seq", "expr", "sleep", "date", "test", "[", "true",
                 "false", "uname", "id", "whoami", "nproc", "type", "which", "command",
                 "basename", "dirname", ":", "groups", "locale", "getconf", "hostname"}
_SPECIAL_FILES = {"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "-"}
_DOT_GLOB = re.compile(r"(^|/)\.[*?\[]")


def path_arguments(argv: list[str]) -> list[str]:
    """Arguments that may name files (for the inside-working-dirs check).

    Every positional counts (a relative name may be a symlink leading out of the project), as
    does the value of `--opt=/path`. The first positional of pattern-taking programs
    (`grep PATTERN`, `sed SCRIPT`) is skipped unless the pattern came from `-e`.
    """
    if not argv or argv[0] in _NO_PATH_ARGS:
        return []
    out: list[str] = []
    skip_first = argv[0] in _PATTERN_FIRST and not any(
        a in {"-e", "--regexp", "--expression"} or a.startswith("--regexp=") for a in argv)
    after_dd = False
    for arg in argv[1:]:
        if arg == "--" and not after_dd:
            after_dd = True
            continue
        if skip_first and (after_dd or not arg.startswith("-")):
            skip_first = False
            continue
        if arg.startswith("-") and not after_dd:
            if "=" in arg:
                value = arg.split("=", 1)[1]
                if value.startswith(("/", "~", "..")):
                    out.append(value)
            continue
        out.append(arg)
    return out


def outside_paths(argv: list[str], cmd: SimpleCommand, working_dirs: tuple[Path, ...]) -> list[str]:
    """Arguments that resolve (through `..`, `~user` and symlinks) outside every working dir.

    Also: an unquoted glob component starting with a dot (`.*/x`) may match `..`, and values of
    wrapper options (`xargs -a FILE`, `timeout --foo=/x`) are paths too.
    """
    from claude_harness.permissions.bash_parse import unquoted_text
    from claude_harness.permissions.paths import is_inside

    outside: list[str] = []
    candidates = path_arguments(argv)
    prefix = cmd.words[: len(cmd.words) - len(argv)] if argv == cmd.words[-len(argv):] else []
    candidates += [w for w in prefix[1:] if not w.startswith("-") and ("/" in w or w == "..")]
    for arg in candidates:
        if arg in _SPECIAL_FILES:
            continue
        if not any(is_inside(resolve_path(arg, cmd.cwd), d) for d in working_dirs):
            outside.append(arg)
    if argv and argv[0] not in _NO_PATH_ARGS:
        for raw in cmd.raw_words[1:]:
            if _DOT_GLOB.search(unquoted_text(raw)) and raw not in outside:
                outside.append(raw)
    return outside
