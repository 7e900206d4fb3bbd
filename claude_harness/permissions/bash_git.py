"""git: which invocations only read, and which flags or forms can run code.

Why its own module: `Bash(git *)` is the most common allow rule and git has many ways to run a
program (`-c core.pager=`, `--upload-pack`, aliases, `config` writes, hooks of a foreign repo
after `cd`). Each is listed here with the reason it is a hazard.
"""

from __future__ import annotations

import re

from claude_harness.permissions.bash_options import long_option_matches
from claude_harness.permissions.bash_parse import SimpleCommand

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


def git_hazards(argv: list[str], cmd: SimpleCommand) -> list[str]:
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
        hit = long_option_matches(arg, _GIT_DANGER_LONG)
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


_GIT_READ_ONLY = {
    "status", "log", "diff", "show", "blame", "annotate", "rev-parse", "ls-files", "ls-tree",
    "cat-file", "rev-list", "describe", "shortlog", "name-rev", "merge-base", "show-ref",
    "for-each-ref", "count-objects", "whatchanged", "grep", "version", "check-ignore",
    "diff-tree", "diff-files", "diff-index", "show-branch", "cherry", "check-attr", "range-diff",
    "verify-commit", "verify-tag",
}


def git_read_only(argv: list[str]) -> bool:
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
