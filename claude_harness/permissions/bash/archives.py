"""tar: what an archive invocation creates, extracts, reads and runs.

Why: `tar -xf a.tar -C .git/hooks` plants hooks, `tar -xf evil.tar` can write `.claude/...`
anywhere below the cwd, `-I`, `--to-command` and `--checkpoint-action` run programs. An
archive named on the command line is listed at decision time, so every entry it will write is
a path for the protected-path and working-directory checks; an archive read from a pipe has
entries that cannot be known (so extracting it asks in every mode).
"""

from __future__ import annotations

import tarfile
from pathlib import Path

from claude_harness.permissions.bash.args import Arg
from claude_harness.permissions.bash.effects import Effect, Invocation, PathUse, Scope, path_use
from claude_harness.permissions.bash.options import OptionError, parse, table

MAX_MEMBERS = 5_000
_VALUE_LETTERS = set("fCTXbLNVgKFIH")
TAR = table(
    "-A|--catenate|--concatenate:mode -c|--create:mode -d|--diff|--compare:mode --delete:mode"
    " -r|--append:mode -t|--list:mode --test-label:mode -u|--update:mode -x|--extract|--get:mode"
    " -f|--file=:archive -C|--directory=:dest -T|--files-from=:readlist -X|--exclude-from=:read"
    " -b|--blocking-factor= -L|--tape-length= -N|--newer|--after-date= -V|--label="
    " -g|--listed-incremental=:write -K|--starting-file= --exclude= --strip-components=:strip"
    " --transform|--xform=:transform --owner= --group= --mode= --mtime= -H|--format="
    " --checkpoint? --checkpoint-action=:exec -I|--use-compress-program=:exec --to-command=:exec"
    " -F|--info-script|--new-volume-script=:exec --rsh-command=:exec --rmt-command=:exec"
    " --index-file=:write --volno-file=:write --backup? --suffix= --occurrence? --record-size="
    " --sort= --warning= --quoting-style= --exclude-tag= --exclude-tag-all= --exclude-tag-under="
    " --hole-detection= --add-file=:read -z|--gzip|--gunzip|--ungzip -j|--bzip2 -J|--xz --lzma"
    " --lzip --lzop --zstd -Z|--compress|--uncompress -a|--auto-compress -v|--verbose"
    " -p|--preserve-permissions|--same-permissions -k|--keep-old-files --overwrite"
    " --keep-newer-files -m|--touch -O|--to-stdout:stdout -P|--absolute-names:absolute -h|--dereference"
    " -S|--sparse -W|--verify -B|--read-full-records -i|--ignore-zeros -l|--check-links"
    " -M|--multi-volume -o|--no-same-owner -R|--block-number -s|--same-order|--preserve-order"
    " --totals? --utc --show-transformed-names --same-owner --no-same-permissions --recursion"
    " --no-recursion --one-file-system --exclude-vcs --exclude-vcs-ignores --exclude-backups"
    " --exclude-caches --remove-files:remove --unlink-first|-U --recursive-unlink"
    " --ignore-failed-read --force-local --delay-directory-restore --skip-old-files"
    " --verbatim-files-from --full-time --restrict --no-overwrite-dir --xattrs --no-xattrs"
    " --acls --no-acls --selinux --no-selinux --numeric-owner --null --wildcards --no-wildcards"
    " --anchored --no-anchored --ignore-case --no-ignore-case --seek|-n --no-seek"
    " --show-defaults --help --version --usage")


def _unbundle(args: list[Arg]) -> list[Arg]:
    """`tar xzf a.tar` (old style): the first word's letters are options, their values follow."""
    if not args or args[0].value is None or args[0].value.startswith("-"):
        return args
    letters = args[0].value
    rest = list(args[1:])
    out: list[Arg] = []
    for letter in letters:
        out.append(Arg("-" + letter, source="-" + letter))
        if letter in _VALUE_LETTERS and rest:
            out.append(rest.pop(0))
    return out + rest


def tar(inv: Invocation, scope: Scope) -> Effect:
    try:
        parsed = parse(TAR, _unbundle(list(inv.args)), "tar")
    except OptionError as exc:
        return Effect.failed(str(exc))
    eff = Effect()
    cwd = inv.cwd
    modes = {opt.name for opt, _ in parsed.options if "mode" in opt.roles}
    if len(modes) != 1:
        return Effect.failed("tar needs exactly one of -c -x -t -r -u -d -A --delete")
    mode = modes.pop()
    for opt, values in parsed.options:
        if "exec" in opt.roles:
            eff.problem(f"tar --{opt.name} runs a program")
            for value in values:  # the program (and its arguments) run through a shell
                code = value[5:] if value and value.startswith("exec=") else value
                if opt.name == "checkpoint-action" and not (value or "").startswith("exec="):
                    continue
                if code is None:
                    eff.opaque_code = f"tar --{opt.name} runs code that cannot be known"
                else:
                    eff.scripts.append((code, cwd))
        for value in values:
            arg = Arg(value, source=value or "?")
            if "read" in opt.roles:
                eff.reads.append(path_use(arg, cwd))
            if "readlist" in opt.roles:
                eff.reads.append(path_use(arg, cwd))
                eff.reads.append(PathUse(f"the files named in {arg.text}", None))
            if "write" in opt.roles:
                eff.writes.append(path_use(arg, cwd))
    archives = parsed.values("archive")
    archive = archives[-1] if archives else "-"
    archive_use = None if archive is None or archive == "-" else path_use(Arg(archive, source=archive), cwd)
    dests = parsed.values("dest")
    dest = path_use(Arg(dests[-1], source=dests[-1] or "?"), cwd) if dests else PathUse(".", cwd)
    if mode in {"list", "diff", "test-label"}:
        if archive_use is not None:
            eff.reads.append(archive_use)
        eff.read_only = not eff.problems and not eff.writes
        return eff
    if mode == "extract":
        if archive_use is not None:
            eff.reads.append(archive_use)
        if parsed.has("stdout"):
            eff.read_only = not eff.problems and not eff.writes
            return eff
        eff.writes.append(PathUse(dest.text, dest.path, recursive=True))
        eff.writes.extend(_entries(archive_use, dest, parsed))
        return eff
    # create, append, update, catenate, delete: the archive is written, operands are read
    if archive_use is not None:
        eff.writes.append(archive_use)
    base = dest.path if dests else cwd
    for arg in parsed.operands:
        use = path_use(arg, base, recursive=True)
        eff.reads.append(use)
        if parsed.has("remove"):
            eff.writes.append(use)
            eff.deletes.append(use)
    return eff


def _entries(archive: PathUse | None, dest: PathUse, parsed) -> list[PathUse]:
    """Every path extraction will write, read from the archive itself."""
    unknown = [PathUse(f"the entries of the archive {archive.text if archive else '(stdin)'}",
                       None)]
    if archive is None or archive.path is None or dest.path is None or parsed.has("transform"):
        return unknown
    strip_values = parsed.values("strip")
    try:
        strip = int(strip_values[-1] or 0) if strip_values else 0
    except ValueError:
        return unknown
    try:
        with tarfile.open(archive.path, "r:*") as handle:
            names = []
            for member in handle:
                names.append(member.name)
                if len(names) > MAX_MEMBERS:
                    return unknown
    except (OSError, tarfile.TarError, EOFError):
        return unknown
    out = []
    for name in names:
        parts = [p for p in name.split("/") if p not in {"", "."}][strip:]
        if not parts:
            continue
        target = Path("/", *parts) if name.startswith("/") and parsed.has("absolute") else (
            dest.path.joinpath(*parts))
        out.append(PathUse(name, target))
    return out
