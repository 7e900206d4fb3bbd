"""git: the real subcommand behind global options, what each invocation reads, writes and runs.

Why its own module: `Bash(git *)` is the most common allow rule and git has many ways to run a
program or reach outside: global options before the subcommand (`git -P push` hides `push` from
a `Bash(git push *)` deny rule), `-c core.pager=...`, `--upload-pack`, aliases, config writes
that a later call executes (`core.fsmonitor`, `core.hooksPath`), and the config and hooks of a
repository other than the project's (entered with `cd`, or a bare repository planted inside the
project). Every read-only subcommand has an option table; an option it does not list is unknown.

What git does on its own from the repository's config is read from that config as data
(repo_config.py, git is never run for it): a repository whose own config names a program that
the subcommand would start (fsmonitor, a filter, an external diff or textconv, an upload-pack
or credential helper) asks, since a downloaded tree can ship such a `.git/config`. Pagers are
not among them: the Bash tool gives git no terminal, and git pages only on one. Hooks of the
project's own repository run on commands that are never read-only (commit, merge, push); the
hooks directory and the files the config points at are protected paths.
"""

from __future__ import annotations

import os
import re
import shlex
from functools import cache
from pathlib import Path

from claude_harness.permissions.bash.args import Members
from claude_harness.permissions.bash.effects import Effect, Invocation, PathUse, Scope, path_use
from claude_harness.permissions.bash.git_worktree import worktree_writes
from claude_harness.permissions.bash.options import (
    Arg,
    OptionError,
    OptionTable,
    Parsed,
    parse,
    table,
)
from claude_harness.permissions.bash.patches import patch_writes
from claude_harness.permissions.repo_config import KINDS, repo_config

GLOBAL = table(
    "-v|--version -h|--help -C=:folder -c=:ask --config-env=:ask --exec-path?:ask --html-path"
    " --man-path --info-path -p|--paginate -P|--no-pager --no-replace-objects --no-lazy-fetch"
    " --no-optional-locks --no-advice --bare:ask --git-dir=:ask --work-tree=:ask --namespace=:ask"
    " --super-prefix=:ask --literal-pathspecs --glob-pathspecs --noglob-pathspecs"
    " --icase-pathspecs --attr-source=:ask --list-cmds=", permute=False)

_DIFF = (
    " -p|-u|--patch:content -s|--no-patch -U|--unified=:content --output=:write"
    " --output-indicator-new= --output-indicator-old= --output-indicator-context= --raw"
    " --patch-with-raw:content --patch-with-stat:content -t --indent-heuristic"
    " --no-indent-heuristic --minimal --patience --histogram --anchored= --diff-algorithm="
    " --stat? --stat-width= --stat-name-width= --stat-graph-width= --stat-count="
    " --compact-summary --numstat --shortstat -X|--dirstat? --cumulative --dirstat-by-file?"
    " --summary -z --name-only --name-status --submodule? --color? --color-moved?"
    " --color-moved-ws= --word-diff?:content --word-diff-regex=:content --color-words?:content"
    " --no-renames --rename-empty --check --ws-error-highlight= --full-index --binary --abbrev?"
    " -B|--break-rewrites? -M|--find-renames? -C|--find-copies? --find-copies-harder"
    " -D|--irreversible-delete -l= --diff-filter= -S= -G= --find-object= --pickaxe-all"
    " --pickaxe-regex -O=:read -R --relative? -a|--text --ignore-cr-at-eol --ignore-space-at-eol"
    " -b|--ignore-space-change -w|--ignore-all-space --ignore-blank-lines"
    " -I|--ignore-matching-lines= --inter-hunk-context= -W|--function-context:content"
    " --exit-code --quiet --ext-diff:exec --textconv --ignore-submodules? --src-prefix="
    " --dst-prefix= --no-prefix --default-prefix --line-prefix= --ita-invisible-in-index"
    " --ita-visible-in-index --skip-to= --rotate-to= -1 -2 -3 -0 --base --ours --theirs"
    " --follow")
_REVS = (
    " # -n|--max-count= --skip= --since= --after= --since-as-filter= --until= --before= --author="
    " --committer= --grep-reflog= --grep= --all-match --invert-grep -i|--regexp-ignore-case"
    " --basic-regexp -E|--extended-regexp -F|--fixed-strings -P|--perl-regexp --remove-empty"
    " --merges --min-parents= --max-parents= --first-parent --exclude-first-parent-only --not"
    " --all --branches? --tags? --remotes? --glob= --exclude= --exclude-hidden= --reflog"
    " --alternate-refs --single-worktree --ignore-missing --bisect --stdin --cherry-mark"
    " --cherry-pick --left-only --right-only --cherry -g|--walk-reflogs --merge --boundary"
    " --simplify-by-decoration --show-pulls --full-history --dense --sparse --simplify-merges"
    " --ancestry-path? --date-order --author-date-order --topo-order --reverse --no-walk?"
    " --do-walk --format= --pretty? --abbrev-commit --oneline --encoding= --expand-tabs?"
    " --notes? --show-notes? --standard-notes --show-signature --relative-date --date="
    " --parents --children --left-right --graph --show-linear-break? --cc:content --dd:content"
    " -m:content --diff-merges= --combined-all-paths -r --decorate? --decorate-refs="
    " --decorate-refs-exclude= --clear-decorations --source --use-mailmap --mailmap"
    " --full-diff --log-size -L=:content,range --count --objects --objects-edge --unpacked"
    " --header --timestamp --in-commit-order --no-object-names --object-names")
_LOG = " -q|--quiet" + _DIFF + _REVS

_SUBCOMMANDS: dict[str, str] = {
    "log": _LOG, "whatchanged": _LOG, "show": _LOG, "rev-list": _LOG,
    "shortlog": _REVS + " -c|--committer -n|--numbered -s|--summary -e|--email -w? --group=",
    "diff": _DIFF + " --cached --staged --merge-base --no-index:noindex",
    "diff-tree": _DIFF + _REVS + " --stdin --no-commit-id --root --merge-base --always -v -c",
    "diff-files": _DIFF + " -q -c --cc", "diff-index": _DIFF + " --cached --merge-base -m",
    "range-diff": _DIFF + " --creation-factor= --no-dual-color --left-only --right-only",
    "status": "-v|--verbose -s|--short -b|--branch --show-stash --ahead-behind --porcelain?"
              " --long -z|--null -u|--untracked-files? --ignored? --ignore-submodules?"
              " --column? --renames --find-renames? --no-renames",
    "blame": "-b --root --show-stats -L=:range -l -t -S=:read --reverse= --first-parent"
             " -p|--porcelain --line-porcelain --incremental --encoding= --contents=:read"
             " --date= --progress -M? -C? --ignore-rev= --ignore-revs-file=:read --color-lines"
             " --color-by-age --score-debug -f|--show-name -n|--show-number -s"
             " -e|--show-email -w --abbrev? -c --minimal",
    "annotate": "-b --root --show-stats -L=:range -l -t -S=:read --reverse= --contents=:read"
                " --date= -M? -C? --abbrev? -w",
    "grep": "-e=:pattern -f=:read,pattern --and --or --not -i|--ignore-case -I"
            " -w|--word-regexp -v|--invert-match -h -H --full-name -E|--extended-regexp"
            " -G|--basic-regexp -F|--fixed-strings -P|--perl-regexp -n|--line-number --column"
            " -l|--files-with-matches|--name-only -L|--files-without-match -z|--null"
            " -o|--only-matching -c|--count --color? --break --heading -p|--show-function"
            " -A|--after-context= -B|--before-context= -C|--context= -W|--function-context"
            " --threads= --max-depth= -r|--recursive -a|--text --textconv --cached --index"
            " --no-index:noindex --untracked --exclude-standard --recurse-submodules"
            " -O|--open-files-in-pager?:exec -q|--quiet --all-match -m|--max-count= #",
    "ls-files": "-c|--cached -d|--deleted -m|--modified -o|--others -i|--ignored -s|--stage"
                " -k|--killed -u|--unmerged --resolve-undo --directory --empty-directory --eol"
                " -z -x|--exclude= -X|--exclude-from=:read --exclude-per-directory="
                " --exclude-standard --error-unmatch --with-tree= -t -v -f --full-name"
                " --recurse-submodules --abbrev? --debug --deduplicate --sparse --format=",
    "ls-tree": "-d -r -t -l|--long -z --name-only|--name-status --object-only --full-name"
               " --full-tree --abbrev? --format=",
    "rev-parse": "--parseopt --sq-quote --keep-dashdash --stop-at-non-option --stuck-long"
                 " --revs-only --no-revs --flags --no-flags --default= --prefix= --verify"
                 " -q|--quiet --sq --short? --not --abbrev-ref? --symbolic --symbolic-full-name"
                 " --all --branches? --tags? --remotes? --glob= --exclude= --exclude-hidden="
                 " --disambiguate= --local-env-vars --path-format= --git-dir --git-common-dir"
                 " --resolve-git-dir=:name --git-path= --show-toplevel"
                 " --show-superproject-working-tree --shared-index-path --absolute-git-dir"
                 " --is-inside-git-dir --is-inside-work-tree --is-bare-repository"
                 " --is-shallow-repository --show-cdup --show-prefix --show-object-format?"
                 " --show-ref-format --since= --after= --until= --before=",
    "cat-file": "-t -s -e -p --textconv --filters --path= --batch? --batch-check?"
                " --batch-command? --batch-all-objects --buffer --follow-symlinks --unordered"
                " -z -Z --allow-unknown-type --use-mailmap --mailmap",
    "describe": "--contains --debug --all --tags --long --first-parent --abbrev? --exact-match"
                " --candidates= --match= --exclude= --always --dirty? --broken?",
    "name-rev": "--tags --refs= --exclude= --all --stdin --annotate-stdin --name-only"
                " --undefined --always",
    "merge-base": "-a|--all --octopus --independent --is-ancestor --fork-point",
    "show-ref": "--head --heads --branches --tags -d|--dereference -s|--hash? --verify --exists"
                " --abbrev? -q|--quiet",
    "for-each-ref": "--shell --perl --python --tcl --count= --format= --color? --sort="
                    " --points-at= --merged? --contains? --ignore-case --omit-empty --exclude="
                    " --stdin",
    "count-objects": "-v|--verbose -H|--human-readable",
    "version": "--build-options",
    "check-ignore": "-q|--quiet -v|--verbose -n|--non-matching --stdin -z --no-index",
    "check-attr": "-a|--all --cached --stdin -z --source=",
    "show-branch": "-r|--remotes -a|--all --current --topo-order --date-order --sparse --more="
                   " --list --merge-base --independent --no-name --sha1-name --topics"
                   " -g|--reflog? --color?",
    "cherry": "-v --abbrev?",
    "verify-commit": "-v|--verbose --raw", "verify-tag": "-v|--verbose --raw --format=",
    "branch": "-v|--verbose -q|--quiet --color? -r|--remotes --contains? --abbrev? -a|--all"
              " -l|--list --show-current --merged? --column? --sort= --points-at= -i|--ignore-case"
              " --format=",
    "tag": "-l|--list -n? --column? --contains? --merged? --sort= --points-at? --format= --color?"
           " -i|--ignore-case",
    "reflog": _REVS + " --quiet",
    "stash": _DIFF + " --include-untracked -u --only-untracked --index",
    "config": "--global --system --local --worktree -f|--file=:read --blob= --get --get-all"
              " --get-regexp --get-urlmatch -l|--list --type= --bool --int --bool-or-int"
              " --bool-or-str --path --expiry-date -z|--null --name-only --includes"
              " --show-origin --show-scope --default= --get-color --get-colorbool --fixed-value",
    "remote": "-v|--verbose -n",
    "worktree": "-v|--verbose --porcelain -z --expire=",
    "notes": "--ref=",
}
_NAMES_ONLY = {"--name-only", "--name-status", "--stat", "--numstat", "--shortstat", "-s",
               "--no-patch", "--quiet", "--summary", "--dirstat", "--raw", "--compact-summary",
               "--check", "--exit-code"}

# Subcommands that exist (so a deny/ask rule names them) but are not read-only.
_KNOWN = {
    "add", "am", "apply", "archive", "bisect", "branch", "bundle", "checkout", "cherry-pick",
    "citool", "clean", "clone", "commit", "commit-tree", "config", "fetch", "format-patch",
    "fsck", "gc", "gui", "help", "init", "lfs", "maintenance", "merge", "mergetool", "mv",
    "notes", "prune", "pull", "push", "rebase", "reflog", "remote", "repack", "replace",
    "request-pull", "rerere", "reset", "restore", "revert", "rm", "sparse-checkout", "stash",
    "submodule", "switch", "tag", "update-index", "update-ref", "worktree", "write-tree",
    "difftool", "read-tree", "symbolic-ref", "hash-object", "mktree", "mktag", "pack-objects",
    "unpack-objects", "index-pack", "var", "stripspace", "interpret-trailers", "column",
    "credential", "ls-remote", "send-email", "filter-branch", "instaweb", "daemon",
    "shell", "svn", "p4", "cvsimport", "archimport", "quiltimport", "fast-import",
    "fast-export", "upload-pack", "receive-pack", "http-backend", "bugreport", "diagnose",
    "scalar", "multi-pack-index", "commit-graph", "backfill", "replay", "merge-tree",
    "merge-file", "merge-index", "checkout-index", "update-server-info", "whatchanged",
}
_PLUMBING_FOR = {"send-pack": "push", "http-push": "push", "fetch-pack": "fetch",
                 "checkout-index": "checkout", "read-tree": "checkout", "update-ref": "reset",
                 "commit-tree": "commit", "merge-file": "merge", "merge-tree": "merge"}
_SHELLING = {"filter-branch", "instaweb", "daemon", "send-email", "shell", "svn", "p4",
             "cvsimport", "archimport", "citool", "gui", "difftool", "mergetool",
             "credential", "upload-pack", "receive-pack", "http-backend"}
_DANGER_LONG = ("--upload-pack", "--receive-pack", "--exec", "--ext-diff", "--extcmd",
                "--tool", "--sendmail-cmd", "--to-command", "--run", "--config", "--template",
                "--config-env", "--exec-path", "--git-dir", "--work-tree", "--separate-git-dir",
                "--open-files-in-pager", "--hostname-bin")


@cache
def _table(sub: str) -> OptionTable:
    tab = table(_SUBCOMMANDS[sub])
    tab.negatable = True  # parse-options: `--no-X` for every X
    return tab


def split_global(args: list[Arg]) -> tuple[Parsed, list[Arg]]:
    """git's global options and the rest (subcommand first). Raises OptionError."""
    parsed = parse(GLOBAL, args, "git")
    return parsed, parsed.operands


@cache
def _is_git_dir(path: str) -> bool:
    return (os.path.isfile(os.path.join(path, "HEAD"))
            and os.path.isdir(os.path.join(path, "objects"))
            and os.path.isdir(os.path.join(path, "refs")))


def repository_of(directory: Path) -> Path | None:
    """The directory git would take as the repository when run in `directory` (the work tree
    holding `.git`, or a bare repository itself); None outside any repository."""
    current = Path(os.path.normpath(directory))
    for candidate in (current, *current.parents):
        text = str(candidate)
        if os.path.lexists(os.path.join(text, ".git")):
            return candidate
        if _is_git_dir(text):
            return candidate
    return None


def foreign_reason(cwd: Path | None, scope: Scope) -> str:
    """Why git run in `cwd` may use another repository's config and hooks ('' if it does not)."""
    if cwd is None:
        return "git runs in a directory that cannot be known in advance"
    own = repository_of(scope.project)
    here = repository_of(cwd)
    if here is None or here == own:
        if here is not None and not os.path.lexists(here / ".git"):
            return f"git would use the bare repository {here} (its config can run programs)"
        return ""
    return (f"git runs in {cwd}, inside the repository {here}, not the project's own "
            "(its config and hooks can run programs)")


def git(inv: Invocation, scope: Scope) -> Effect:
    try:
        global_opts, rest = split_global(inv.args)
    except OptionError as exc:
        return Effect.failed(str(exc))
    eff = Effect(read_only=True)
    inv = _in_folder(inv, global_opts)
    for opt, values in global_opts.options:
        if "ask" in opt.roles:
            eff.problem(f"git option --{opt.name} can run code or leave the repository")
        if opt.name == "c":
            for value in values:
                _config_command(value, inv, eff)
    if not rest:
        if not global_opts.options:
            eff.problem("git without a subcommand")
        return eff  # `git --version`, `git --help`
    sub = rest[0].value
    args = rest[1:]
    if sub is None:
        return Effect.failed("git subcommand cannot be known in advance")
    # deny and ask rules see the subcommand without the global options before it, and the
    # porcelain a plumbing command stands for (`send-pack` pushes)
    words = [a.text for a in args]
    eff.forms.append(["git", sub, *words])
    if sub in _PLUMBING_FOR:
        eff.forms.append(["git", _PLUMBING_FOR[sub], *words])
    reason = foreign_reason(inv.cwd, scope)
    if reason:
        eff.foreign_git = reason
        eff.problem(reason)
    elif sub not in _RUNS_NOTHING_CONFIGURED:
        _configured_programs(sub, args, inv, eff)
    # git works on the repository around its cwd: that tree is what it reads
    eff.reads.append(PathUse("the repository git runs in", inv.cwd, names_only=True))
    for arg in args if sub not in {"rev-parse"} else ():
        value = arg.value or ""
        if value.startswith("--"):
            name = value.split("=", 1)[0]
            hit = next((d for d in _DANGER_LONG if len(name) > 3 and d.startswith(name)), None)
            if hit and not (sub in {"commit", "tag", "merge"} and hit == "--template"):
                eff.problem(f"git {sub} option {value} (means {hit}) can run a program")
    if sub in _SHELLING:
        eff.problem(f"git {sub} runs other programs")
    if sub == "maintenance" and args and args[0].value in {"register", "start", "unregister",
                                                           "stop"}:
        eff.problem(f"git maintenance {args[0].value} changes the global config and schedules "
                    "background jobs")
        eff.writes.append(PathUse("~/.gitconfig", Path.home() / ".gitconfig"))
    handler = _HANDLERS.get(sub)
    if handler is not None:
        handler(sub, args, inv, eff)
    elif sub in _SUBCOMMANDS:
        _read_only_sub(sub, args, inv, eff)
    elif sub in _KNOWN:
        eff.read_only = False
    else:
        eff.problem(f"git {sub} is not a built-in git command (it may be an alias)")
    if sub in _DUMPS_OBJECTS or (sub == "cat-file" and _cat_file_content(args)):
        # what it prints or packs is the content of any object in the repository (a blob of
        # a Read-protected file among them): a read of the whole tree, for Read rules
        root = repository_of(inv.cwd) if inv.cwd is not None else None
        eff.reads.append(PathUse(f"files of the repository ({sub})", root or inv.cwd,
                                 recursive=True))
    if not eff.read_only:
        _operands_may_be_paths(args, inv, eff)
        _ext_urls(args, inv, eff)
        _worktree_effect(sub, args, inv, eff, scope)
    return eff


def _in_folder(inv: Invocation, global_opts: Parsed) -> Invocation:
    """`git -C DIR ...` is git run in DIR (each -C relative to the previous): decided as a run
    there (another repository's config and hooks, files read from there)."""
    cwd = inv.cwd
    for opt, values in global_opts.options:
        if "folder" not in opt.roles:
            continue
        for value in values:
            if cwd is None or value is None:
                cwd = None
            elif value:  # `-C ''` leaves git where it is; a `~` left here is a literal name
                cwd = Path(os.path.normpath(cwd / value))
    return inv if cwd == inv.cwd else Invocation(inv.argv, cwd, inv.stdin_script, inv.stdin_file)


# Subcommands that never refresh the work tree, hash a file or contact a remote: the
# repository's programs (fsmonitor, filters, external diffs, helpers) cannot run there.
_RUNS_NOTHING_CONFIGURED = {"config", "version", "help", "rev-parse", "show-ref",
                            "for-each-ref", "symbolic-ref", "var", "branch", "ls-tree",
                            "merge-base", "name-rev", "count-objects", "check-ignore",
                            "show-branch", "cherry", "reflog", "worktree", "notes"}
# The kinds of work (repo_config.KINDS) the read-only subcommands do; any other subcommand
# may do all of them.
_HISTORY = frozenset({"diff", "signature"})
_WORK_TREE = frozenset({"worktree", "diff", "hook"})
_KINDS_OF_SUB: dict[str, frozenset[str]] = {
    **dict.fromkeys(("log", "show", "whatchanged", "rev-list", "shortlog", "diff-tree",
                     "range-diff", "format-patch", "cat-file", "tag", "verify-commit",
                     "verify-tag"), _HISTORY),
    **dict.fromkeys(("status", "diff", "diff-files", "diff-index", "ls-files", "grep", "blame",
                     "annotate", "check-attr"), _WORK_TREE),
    **dict.fromkeys(("remote", "ls-remote"), frozenset({"remote"})),
}
# Subcommands that contact a remote (any other does every kind of work but that one).
_NETWORK = {"fetch", "pull", "push", "clone", "submodule", "archive", "fetch-pack",
            "send-pack", "http-push", "maintenance", "bundle", "request-pull"}


def _configured_programs(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    """The repository's own config (read as data, never by running git) names a program that
    git starts on its own here: `core.fsmonitor` on `git status`, a clean filter when a file is
    hashed, `diff.external` or a textconv on `git diff`, an upload-pack on `git remote show`.
    A downloaded tree can ship such a `.git/config`, so git in it is never run unasked."""
    if inv.cwd is None:
        return
    if sub == "remote" and not _contacts_remote(args):
        return  # listing remotes and their URLs contacts none
    config = repo_config(inv.cwd)
    if config is None:
        return
    kinds = _KINDS_OF_SUB.get(sub, KINDS if sub in _NETWORK else KINDS - {"remote"})
    found = config.programs(kinds)
    if found:
        key, value = found[0]
        eff.problem(f"the repository's git config runs a program on its own ({key} = "
                    f"{value[:80]!r}): git would start it")


def _contacts_remote(args: list[Arg]) -> bool:
    """`git remote show NAME`, `update`, `prune NAME`, `set-head NAME -a` reach the remote
    (`show -n` and a bare `show` or `-v` do not)."""
    values = [a.value for a in args]
    verbs = [v for v in values if v is None or not v.startswith("-")]
    if not verbs or verbs[0] not in {"show", "update", "prune", "set-head"}:
        return verbs[:1] == [None]
    return verbs[0] == "update" or (len(verbs) > 1 and "-n" not in values)


# Subcommands whose output (or the file they write) holds the content of repository objects.
_DUMPS_OBJECTS = {"archive", "format-patch", "bundle", "fast-export", "merge-tree",
                  "pack-objects", "request-pull", "unpack-file"}
_CAT_FILE_INFO = {"-t", "-s", "-e", "--batch-check", "--batch-all-objects", "--buffer",
                  "--unordered", "--follow-symlinks", "--allow-unknown-type", "-z", "-Z",
                  "--use-mailmap", "--mailmap", "--no-mailmap", "--no-use-mailmap"}


def _cat_file_content(args: list[Arg]) -> bool:
    """Does this `git cat-file` print the content of an object not named by its path
    (`-p OID`, `blob OID`, `--batch`, `--batch-command`, `--textconv`, `--filters`)? A
    `REV:path` operand is a read of that path, checked as such."""
    values = [a.value for a in args if a.value is not None]
    if len(values) < len(args):
        return True  # an operand only known at run time
    options = {v.split("=", 1)[0] for v in values if v.startswith("-")}
    operands = [v for v in values if not v.startswith("-")]
    if options & {"--batch", "--batch-command"}:
        return True  # object names come from standard input
    if not (options & {"-p", "--textconv", "--filters"} or len(operands) >= 2):
        return False  # -t, -s, -e, --batch-check: type and size only
    return not operands or ":" not in operands[-1]


_REWRITES_WORKTREE = {"checkout", "switch", "restore", "reset", "merge", "rebase", "pull",
                      "cherry-pick", "revert", "stash", "clean", "read-tree", "checkout-index"}


def _worktree_effect(sub: str, args: list[Arg], inv: Invocation, eff: Effect,
                     scope: Scope) -> None:
    """What the subcommand writes or deletes in the work tree (git_worktree asks git)."""
    root = repository_of(inv.cwd) if inv.cwd is not None else None
    if sub in _REWRITES_WORKTREE:
        if root is None or eff.foreign_git or scope.git_moved:
            # (after an earlier git call of the same command, HEAD and the index are not
            # what they are now: what this one writes cannot be asked in advance)
            eff.writes.append(PathUse("files git will write", None))
            return
        written = worktree_writes(sub, args, inv, root)
        eff.writes.extend(written)
        if sub == "clean":
            eff.deletes.extend(PathUse(u.text, u.path, partial=True) for u in written)
    elif sub in {"rm", "mv"} and not any(a.value == "--cached" for a in args):
        recursive = any((a.value or "").startswith("-") and "r" in (a.value or "")
                        and not (a.value or "").startswith("--") for a in args)
        for arg in args:
            if arg.value is None or not arg.value.startswith("-"):
                use = path_use(arg, inv.cwd, recursive=recursive or sub == "mv")
                eff.writes.append(use)
                if sub == "rm":
                    eff.deletes.append(use)
    elif sub in {"init", "clone"} and any((a.value or "").startswith("--templ") for a in args):
        # a template directory's hooks are copied into the new repository's .git/hooks
        operands = [a for a in args if not (a.value or "-").startswith("-")]
        base = path_use(operands[-1], inv.cwd) if operands and (
            sub == "init" or len(operands) > 1) else PathUse(".", inv.cwd)
        hooks = base.path / ".git" / "hooks" if base.path is not None else None
        eff.writes.append(PathUse(f"{base.text}/.git/hooks", hooks, recursive=True))
    elif sub == "worktree" and args and args[0].value == "add":
        operands = [a for a in args[1:] if not (a.value or "-").startswith("-")]
        if operands:
            eff.writes.append(path_use(operands[0], inv.cwd, recursive=True))


def _operands_may_be_paths(args: list[Arg], inv: Invocation, eff: Effect) -> None:
    """A git subcommand that is not read-only may take any operand as a path or a remote (a
    directory outside the project is a place it writes to or reads from)."""
    for arg in args:
        value = arg.value
        if value is None:
            eff.reads.append(PathUse(arg.text, None, guess=True))
            continue
        if value.startswith("-"):
            value = value.split("=", 1)[1] if "=" in value else ""
            if not value.startswith(("/", "~", "..")):
                continue
        if "://" in value or value.startswith("ext::"):
            continue
        eff.reads.append(path_use(Arg(value, source=value), inv.cwd, guess=True))


_COMMAND_KEYS = re.compile(
    r"core\.(sshcommand|pager|editor|fsmonitor|askpass|gitproxy)|sequence\.editor|pager\..*"
    r"|diff\.(external|.*\.(command|textconv))|merge\..*\.driver|filter\..*\.(clean|smudge|process)"
    r"|alias\..*|credential\..*helper|gpg\.(.*\.)?program|uploadpack\.packobjectshook"
    r"|web\.browser|man\..*\.(cmd|path)|difftool\..*\.cmd|mergetool\..*\.cmd"
    r"|sendemail\..*cmd|remote\..*\.(uploadpack|receivepack)|core\.hookspath", re.IGNORECASE)


def _config_command(setting: str | None, inv: Invocation, eff: Effect) -> None:
    """`git -c KEY=VALUE` where KEY names a command: VALUE is shell code, analysed as such."""
    if setting is None:
        eff.opaque_code = "git -c value cannot be known in advance"
        return
    key, _, value = setting.partition("=")
    if not _COMMAND_KEYS.fullmatch(key):
        return
    if key.lower() == "core.hookspath":
        eff.opaque_code = f"git -c {key} runs hooks from {value}"
        return
    code = value[1:] if value.startswith("!") else value
    if code:
        eff.scripts.append((code, inv.cwd))


def _ext_urls(args: list[Arg], inv: Invocation, eff: Effect) -> None:
    """`ext::CMD ARGS` remotes run CMD (`% ` is a space); its code is analysed."""
    for arg in args:
        value = arg.value or ""
        if value.startswith("ext::"):
            eff.problem("an ext:: remote runs a command")
            words = [w.replace("%%", "\0").replace("% ", " ").replace("\0", "%")
                     for w in re.split(r"(?<!%) ", value[5:]) if w]
            eff.scripts.append((shlex.join(words), inv.cwd))


def _repo_path(value: str, inv: Invocation) -> Path | None:
    """`REV:path` names a path from the repository root (`REV:./path` from the cwd)."""
    if inv.cwd is None:
        return None
    _rev, _, path = value.partition(":")
    if not _rev and re.match(r"[0-3]:", path):
        path = path[2:]  # `:STAGE:path`, a path of the index
    if path.startswith(("./", "../")):
        return inv.cwd / path
    root = repository_of(inv.cwd) or inv.cwd
    return root / path


def _read_only_sub(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    tab = _table(sub)
    try:
        parsed = parse(tab, args, f"git {sub}")
    except OptionError as exc:
        eff.problem(str(exc))
        return
    cwd = inv.cwd
    for opt, values in parsed.options:
        roles = opt.roles
        if "exec" in roles:
            eff.problem(f"git {sub} --{opt.name} runs a program")
        for value in values:
            arg = Arg(value, source=value or "?")
            if "write" in roles:
                eff.writes.append(path_use(arg, cwd))
                eff.read_only = False
            if "read" in roles:
                eff.reads.append(path_use(arg, cwd))
            if "range" in roles and value and ":" in value:
                path = _repo_path(value.rsplit(":", 1)[0] + ":" + value.rsplit(":", 1)[1], inv)
                eff.reads.append(PathUse(value, path))
    operands = list(parsed.operands)
    if parsed.has("pattern"):
        pass
    elif sub == "grep" and operands:
        operands = operands[1:]
    if parsed.has("noindex"):
        if sub == "grep" and not operands:
            operands = [Arg(".", source=".")]
        for arg in operands:  # outside git: plain files, anywhere
            eff.reads.append(path_use(arg, cwd, recursive=sub == "grep"))
        return
    if sub == "ls-files":
        _ls_files_names(parsed, operands, inv, eff)
    for arg in operands:
        value = arg.value
        if value is not None and ":" in value and not value.startswith(":/"):
            eff.reads.append(PathUse(value, _repo_path(value, inv)))
        else:
            eff.reads.append(path_use(arg, cwd, names_only=sub not in {"blame", "annotate"}))
    if _shows_content(sub, parsed) and cwd is not None:
        root = repository_of(cwd) or cwd
        eff.reads.append(PathUse(f"files of the repository ({sub})", root, recursive=True))


_LS_FILES_OTHER_OUTPUT = {"stage", "t", "v", "f", "eol", "debug", "format", "abbrev", "unmerged",
                          "resolve-undo", "killed"}


def _ls_files_names(parsed: Parsed, operands: list[Arg], inv: Invocation, eff: Effect) -> None:
    """`git ls-files` prints names of files below the cwd (what `| xargs` then reads)."""
    if not operands:
        eff.reads.append(PathUse(".", inv.cwd, recursive=True, names_only=True))
    names = {opt.name for opt, _ in parsed.options}
    others = names & {"others", "ignored", "directory", "killed"}  # not only tracked files
    if not names & _LS_FILES_OTHER_OUTPUT and inv.cwd is not None:
        eff.listing = Members((inv.cwd,), "xargs", git_index=not others)


def _shows_content(sub: str, parsed: Parsed) -> bool:
    if sub == "grep":
        return True
    if parsed.has("content"):
        return True
    if sub in {"diff", "show", "stash", "range-diff", "diff-tree", "diff-files", "diff-index"}:
        spelled = {"--" + opt.name if len(opt.name) > 1 else "-" + opt.name
                   for opt, _ in parsed.options}
        return not spelled & _NAMES_ONLY
    return False


# ---------------------------------------------------------------- subcommands with sub-forms


def _tag(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    _branch(sub, args, inv, eff)
    if not eff.read_only:
        _reads_message(sub, args, inv, eff)


def _branch(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    """`git branch` lists; with a name (or -d/-m/-c/-u...) it changes refs."""
    tab = _table(sub)
    try:
        parsed = parse(tab, args, f"git {sub}")
    except OptionError:
        eff.read_only = False
        return
    listing = any(opt.name in {"list", "contains", "merged", "points-at"}
                  for opt, _ in parsed.options)
    if parsed.operands and not listing:
        eff.read_only = False


def _remote(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    values = [a.value for a in args]
    if not values or all(v in {"-v", "--verbose"} for v in values):
        return
    first = next((v for v in values if v not in {"-v", "--verbose"}), None)
    if first in {"show", "get-url"} and all(v is not None for v in values):
        return
    eff.read_only = False
    if first in {"add", "set-url", "rename"}:
        eff.problem(f"git remote {first} points the repository at a new remote")
        eff.writes.append(_config_file(inv, global_=False))


def _stash(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    if args and args[0].value == "list":
        _read_only_sub("log", args[1:], inv, eff)
        eff.reads = [r for r in eff.reads if r.path is None or not r.recursive]
        return
    if args and args[0].value == "show":
        _read_only_sub("stash", args[1:], inv, eff)
        return
    eff.read_only = False


def _worktree(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    if args and args[0].value == "list":
        _read_only_sub("worktree", args[1:], inv, eff)
        return
    eff.read_only = False


def _reflog(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    if args and args[0].value in {"expire", "delete", "exists"}:
        eff.read_only = args[0].value == "exists"
        return
    _read_only_sub("reflog", args[1:] if args and args[0].value == "show" else args, inv, eff)


def _notes(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    values = [a.value for a in args if not (a.value or "").startswith("--ref")]
    if not values or values[0] in {"list", "show"}:
        return
    _reads_message(sub, args, inv, eff)


def _config_file(inv: Invocation, *, global_: bool) -> PathUse:
    if global_:
        return PathUse("~/.gitconfig", Path.home() / ".gitconfig")
    root = repository_of(inv.cwd) if inv.cwd is not None else None
    if root is None:
        return PathUse(".git/config", None)
    return PathUse(".git/config", root / ".git" / "config")


_CONFIG_READ_VERBS = {"get", "list", "get-color", "get-colorbool"}


def _config(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    """Reading config is read-only; writing it plants what later git calls run, so a write is a
    write to the config file (a protected path) and never approved by a git allow rule."""
    values = [a.value for a in args]
    tab = _table("config")
    try:
        parsed = parse(tab, args, "git config")
    except OptionError:
        parsed = None
    if parsed is not None:
        verbs = [o.value for o in parsed.operands]
        reading = any(opt.name in {"get", "get-all", "get-regexp", "get-urlmatch", "list",
                                   "get-color", "get-colorbool"} for opt, _ in parsed.options)
        if (verbs and verbs[0] in _CONFIG_READ_VERBS) or reading or len(verbs) <= 1:
            for value in parsed.values("read"):
                eff.reads.append(path_use(Arg(value, source=value or "?"), inv.cwd))
            return
    eff.problem("git config writes configuration (aliases, hooks and pagers run programs)")
    global_ = any(v in {"--global", "--system"} for v in values)
    files = [v for i, v in enumerate(values) if i and values[i - 1] in {"-f", "--file"}]
    files += [v[7:] for v in values if v and v.startswith("--file=")]
    if files:
        eff.writes.extend(path_use(Arg(f, source=f or "?"), inv.cwd) for f in files)
    else:
        eff.writes.append(_config_file(inv, global_=global_))


_WRITES_OPTION = {
    "archive": ("-o", "--output"), "format-patch": ("-o", "--output-directory"),
}


def _writer(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    """Subcommands that write a file named by an option or an operand."""
    eff.read_only = False
    values = [a.value for a in args]
    short, long_ = _WRITES_OPTION.get(sub, ("", ""))
    for i, value in enumerate(values):
        if value is None:
            continue
        target = None
        if short and value == short and i + 1 < len(values):
            target = values[i + 1]
        elif short and value.startswith(short) and len(value) > 2 and not value.startswith("--"):
            target = value[2:]
        elif long_ and value.startswith("--") and len(value) > 3 and long_.startswith(
                value.split("=", 1)[0]):
            target = value.split("=", 1)[1] if "=" in value else (
                values[i + 1] if i + 1 < len(values) else None)
        if target is not None or (short and value in {short}):
            eff.writes.append(path_use(Arg(target, source=target or "?"), inv.cwd))
    if sub == "bundle" and values[:1] == ["create"] and len(values) > 1:
        target = next((v for v in values[1:] if v is None or not v.startswith("-")), None)
        eff.writes.append(path_use(Arg(target, source=target or "?"), inv.cwd))


def _reads_message(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    """`commit -F FILE`, `-t FILE`, `--file=FILE`: files read into the commit message."""
    eff.read_only = False
    values = [a.value for a in args]
    for i, value in enumerate(values):
        if value is None:
            continue
        target: str | None = ""
        nxt = values[i + 1] if i + 1 < len(values) else None
        if value.startswith("--") and len(value) > 3:
            name = value.split("=", 1)[0]
            if any(long_.startswith(name) for long_ in ("--file", "--template")):
                target = value.split("=", 1)[1] if "=" in value else nxt
        elif value.startswith("-") and len(value) > 1:
            for j, letter in enumerate(value[1:], start=2):
                if letter in "mcC":  # a value-taking option: the rest is its value
                    break
                if letter in "Ft":
                    target = value[j:] or nxt
                    break
        if target != "" and target != "-":
            eff.reads.append(path_use(Arg(target, source=target or "?"), inv.cwd))


def _clone(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    eff.read_only = False
    operands = [a for a in args if not (a.value or "-").startswith("-")]
    if len(operands) >= 2:  # git clone URL DIR: DIR is written (a new repository)
        eff.writes.append(path_use(operands[-1], inv.cwd, recursive=True))
    for arg in args:
        value = arg.value or ""
        if value == "-c" or (value.startswith("-c") and not value.startswith("--")):
            eff.problem("git clone -c sets configuration that runs programs")
        if value == "-u":
            eff.problem("git clone -u sets the upload-pack program")


def _upload_pack_short(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    eff.read_only = False
    if any((a.value or "") == "-u" or (a.value or "").startswith("-u") for a in args):
        eff.problem(f"git {sub} -u sets the upload-pack program")
    if sub == "archive":
        _writer(sub, args, inv, eff)
        values = [a.value for a in args]
        for i, value in enumerate(values):
            target: str | None = ""
            if value is not None and value.startswith("--add-file="):
                target = value.split("=", 1)[1]
            elif value == "--add-file":
                target = values[i + 1] if i + 1 < len(values) else None
            if target != "":
                eff.reads.append(path_use(Arg(target, source=target or "?"), inv.cwd))


_SCRIPT_OPTIONS = {"-x", "--exec", "--extcmd", "--tree-filter", "--index-filter", "--env-filter",
                   "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter",
                   "--to-cmd", "--cc-cmd", "--sendmail-cmd", "--header-cmd"}


def _commands_git_runs(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    """The shell code git itself runs: `rebase -x CMD`, `bisect run CMD ARGS`,
    `submodule foreach CMD`, `filter-branch --tree-filter CMD`, `difftool --extcmd CMD`."""
    values = [a.value for a in args]
    for i, value in enumerate(values):
        if value is None:
            continue
        name, eq, attached = value.partition("=")
        code: str | None = ""
        if name in _SCRIPT_OPTIONS or any(o.startswith(name) for o in _SCRIPT_OPTIONS
                                          if name.startswith("--") and len(name) > 4):
            code = attached if eq else (values[i + 1] if i + 1 < len(values) else None)
        elif value.startswith("-x") and not value.startswith("--") and len(value) > 2:
            code = value[2:]
        if code is None:
            eff.opaque_code = f"git {sub} runs a command that cannot be known in advance"
        elif code:
            eff.scripts.append((code, inv.cwd))
    for word, start in (("run", "bisect"), ("foreach", "submodule")):
        if sub == start and word in values:
            rest = values[values.index(word) + 1 :]
            rest = [v for v in rest if v not in {"--recursive", "-q", "--quiet"}]
            if any(v is None for v in rest):
                eff.opaque_code = f"git {sub} {word} runs a command that cannot be known"
            elif rest:
                code = shlex.join(rest) if word == "run" else " ".join(rest)  # type: ignore[arg-type]
                eff.scripts.append((code, inv.cwd))


def _exec_option(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    eff.read_only = False
    _commands_git_runs(sub, args, inv, eff)
    for arg in args:
        value = arg.value or ""
        if value == "-x" or (value.startswith("-x") and not value.startswith("--")):
            eff.problem(f"git {sub} -x runs a command")
    values = [a.value for a in args]
    if sub == "submodule" and values[:1] == ["add"]:
        root = repository_of(inv.cwd) if inv.cwd is not None else None
        eff.writes.append(PathUse(".gitmodules", root / ".gitmodules" if root else None))
        operands = [a for a in args[1:] if not (a.value or "-").startswith("-")]
        if len(operands) >= 2:
            eff.writes.append(path_use(operands[-1], inv.cwd, recursive=True))
    if sub == "bisect" and "run" in values:
        eff.problem("git bisect run runs a command")
    if sub == "submodule" and "foreach" in values:
        eff.problem("git submodule foreach runs a shell command")


def _apply(sub: str, args: list[Arg], inv: Invocation, eff: Effect) -> None:
    """`git apply P` writes the files P names; they are read from the patch."""
    eff.read_only = False
    values = [a.value for a in args]
    if any(v in {"--stat", "--numstat", "--summary", "--check"} for v in values) and not any(
            v in {"--apply"} for v in values):
        return
    base = (repository_of(inv.cwd) or inv.cwd) if inv.cwd is not None else None
    eff.writes.extend(patch_writes(args, inv, strip_default=1, base=base))


_HANDLERS = {
    "branch": _branch, "tag": _tag, "remote": _remote, "stash": _stash,
    "worktree": _worktree, "reflog": _reflog, "notes": _notes, "config": _config,
    "archive": _upload_pack_short, "format-patch": _writer, "bundle": _writer,
    "commit": _reads_message, "merge": _reads_message, "clone": _clone,
    "fetch": _upload_pack_short, "pull": _upload_pack_short, "ls-remote": _upload_pack_short,
    "rebase": _exec_option, "difftool": _exec_option, "mergetool": _exec_option,
    "bisect": _exec_option, "submodule": _exec_option, "apply": _apply, "am": _apply,
    "filter-branch": _exec_option, "send-email": _exec_option,
}
