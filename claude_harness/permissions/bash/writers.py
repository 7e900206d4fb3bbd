"""Programs that write, move or delete files: what exactly they touch.

Why: acceptEdits lets `mkdir touch rm rmdir mv cp sed` run inside the working directories, and
protected paths and critical deletions must ask in every mode. Both questions need the real
targets: `cp -t DIR f`, `--target-directory=DIR`, `mv f .claud?/`, `rm -rf .[!.]*`, `ln -s`
link names, `tee -a FILE`, `dd of=FILE`. Each program's table gives them; an option the table
does not know leaves the call not understood.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from claude_harness.permissions.bash.effects import Effect, Invocation, PathUse, Scope, path_use
from claude_harness.permissions.bash.options import (
    Arg,
    OptionError,
    OptionTable,
    Parsed,
    parse,
    table,
)
from claude_harness.permissions.bash.patches import patch_writes

HELP = " --help --version"
_SPECS = {
    "rm": "-f|--force -i -I --interactive? --one-file-system --no-preserve-root --preserve-root?"
          " -r|-R|--recursive:recursive -d|--dir -v|--verbose" + HELP,
    "rmdir": "--ignore-fail-on-non-empty -p|--parents -v|--verbose" + HELP,
    "unlink": HELP.strip(),
    "shred": "-f|--force -n|--iterations= --random-source=:read -s|--size= -u --remove?"
             " -v|--verbose -x|--exact -z|--zero" + HELP,
    "mkdir": "-m|--mode= -p|--parents -v|--verbose -Z --context?" + HELP,
    "touch": "-a -c|--no-create -d|--date= -f -h|--no-dereference -m -r|--reference=:name -t="
             " --time=" + HELP,
    "mv": "--backup? -b -f|--force -i|--interactive -n|--no-clobber --strip-trailing-slashes"
          " -S|--suffix= -t|--target-directory=:target -T|--no-target-directory -u|--update?"
          " -v|--verbose -Z|--context --exchange --no-copy --debug" + HELP,
    "cp": "-a|--archive:recursive --attributes-only --backup? -b --copy-contents -d -f|--force"
          " -i|--interactive -H -l|--link -L|--dereference:follow -n|--no-clobber"
          " -P|--no-dereference"
          " -p --preserve? --no-preserve= --parents -R|-r|--recursive:recursive --reflink?"
          " --remove-destination --sparse= --strip-trailing-slashes -s|--symbolic-link"
          " -S|--suffix= -t|--target-directory=:target -T|--no-target-directory -u|--update?"
          " -v|--verbose -x|--one-file-system -Z --context? --keep-directory-symlink --debug"
          + HELP,
    "ln": "--backup? -b -d|-F|--directory -f|--force -i|--interactive -L|--logical"
          " -n|--no-dereference -P|--physical -r|--relative -s|--symbolic -S|--suffix="
          " -t|--target-directory=:target -T|--no-target-directory -v|--verbose" + HELP,
    "chmod": "-c|--changes -f|--silent|--quiet -v|--verbose --no-preserve-root --preserve-root"
             " --reference=:name -R|--recursive:recursive" + HELP,
    "chown": "-c|--changes -f|--silent|--quiet -v|--verbose --dereference -h|--no-dereference"
             " --from= --no-preserve-root --preserve-root --reference=:name -R|--recursive:recursive"
             " -H -L -P" + HELP,
    "tee": "-a|--append -i|--ignore-interrupts -p --output-error?" + HELP,
    "install": "--backup? -b -c -C|--compare -d|--directory:dirs -D -g|--group= -m|--mode="
               " -o|--owner= -p|--preserve-timestamps -s|--strip --strip-program=:exec"
               " -S|--suffix= -t|--target-directory=:target -T|--no-target-directory"
               " -v|--verbose --preserve-context -Z --context? --debug" + HELP,
    "truncate": "-c|--no-create -o|--io-blocks -r|--reference=:name -s|--size=" + HELP,
}
_SPECS["chgrp"] = _SPECS["chown"]
_DELETERS = {"rm", "rmdir", "unlink", "shred"}


@cache
def _table(name: str) -> OptionTable:
    return table(_SPECS[name])


def _start(inv: Invocation) -> tuple[Parsed, Effect] | Effect:
    """argv read through the program's table, and an effect holding what its options read
    (or the failed effect when the argv does not fit)."""
    name = inv.name or ""
    try:
        parsed = parse(_table(name), inv.args, name)
    except OptionError as exc:
        return Effect.failed(str(exc))
    eff = Effect()
    _option_paths(parsed, eff, inv.cwd)
    return parsed, eff


def _option_paths(parsed: Parsed, eff: Effect, cwd) -> None:
    for value in parsed.values("read"):
        eff.reads.append(path_use(Arg(value, source=value or "?"), cwd))
    for value in parsed.values("name"):
        eff.reads.append(path_use(Arg(value, source=value or "?"), cwd, names_only=True))


def deleter(inv: Invocation, scope: Scope) -> Effect:
    started = _start(inv)
    if isinstance(started, Effect):
        return started
    parsed, eff = started
    recursive = parsed.has("recursive")
    for arg in parsed.operands:
        use = path_use(arg, inv.cwd, recursive=recursive)
        eff.deletes.append(use)
        eff.writes.append(use)
    return eff


def simple_writer(inv: Invocation, scope: Scope) -> Effect:
    """mkdir, touch, tee, truncate: every operand is written."""
    started = _start(inv)
    if isinstance(started, Effect):
        return started
    parsed, eff = started
    eff.writes.extend(path_use(arg, inv.cwd) for arg in parsed.operands)
    return eff


def mode_writer(inv: Invocation, scope: Scope) -> Effect:
    """chmod MODE FILE..., chown OWNER FILE...: the first operand is not a file (unless
    --reference gave the mode)."""
    started = _start(inv)
    if isinstance(started, Effect):
        return started
    parsed, eff = started
    operands = parsed.operands if parsed.values("name") else parsed.operands[1:]
    recursive = parsed.has("recursive")
    eff.writes.extend(path_use(arg, inv.cwd, recursive=recursive) for arg in operands)
    return eff


def copier(inv: Invocation, scope: Scope) -> Effect:
    """cp / mv / ln: sources and a destination (the last operand, or -t DIR)."""
    name = inv.name or ""
    started = _start(inv)
    if isinstance(started, Effect):
        return started
    parsed, eff = started
    cwd = inv.cwd
    operands = list(parsed.operands)
    if parsed.has("exec"):
        eff.problem(f"{name} --strip-program runs a program")
    if parsed.has("dirs"):  # install -d DIR...: every operand is a directory it creates
        eff.writes.extend(path_use(arg, cwd) for arg in operands)
        return eff
    targets = parsed.values("target")
    if targets:
        dest: list[Arg] = [Arg(v, source=v or "?") for v in targets]
        sources = operands
    elif len(operands) >= 2 or (name == "ln" and operands):
        dest = [operands[-1]] if len(operands) >= 2 else [Arg(".", source=".")]
        sources = operands[:-1] if len(operands) >= 2 else operands
    else:
        return eff.problem(f"{name} without a destination")
    recursive = parsed.has("recursive") or name == "mv"
    for arg in dest:
        eff.writes.append(path_use(arg, cwd, recursive=True))
        if arg.value is not None and cwd is not None:
            for src in sources:  # the new entry inside a destination directory
                if src.value is not None:
                    target = path_use(arg, cwd)
                    if target.path is not None and target.path.is_dir():
                        base = src.value.rstrip("/").rsplit("/", 1)[-1]
                        eff.writes.append(PathUse(f"{arg.value}/{base}", target.path / base))
    for arg in sources:
        if name == "ln" and parsed.named("symbolic"):
            continue  # a symlink's target is not read now
        use = path_use(arg, cwd, recursive=recursive, follow=parsed.has("follow"))
        eff.reads.append(use)
        if name == "mv":
            eff.writes.append(use)  # moved away: the source path changes too
            eff.deletes.append(use)
    return eff


def dd(inv: Invocation, scope: Scope) -> Effect:
    eff = Effect()
    for arg in inv.args:
        value = arg.value
        if value is None:
            return eff.problem("dd operand cannot be known in advance")
        key, _, rest = value.partition("=")
        if key == "if":
            eff.reads.append(path_use(Arg(rest, source=rest), inv.cwd))
        elif key == "of":
            eff.writes.append(path_use(Arg(rest, source=rest), inv.cwd))
        elif key not in {"bs", "cbs", "conv", "count", "ibs", "iflag", "obs", "oflag", "seek",
                         "skip", "status", "iseek", "oseek"}:
            eff.problem(f"dd operand {value!r} is not known")
    return eff


def patch(inv: Invocation, scope: Scope) -> Effect:
    return Effect(writes=patch_writes(inv.args, inv, strip_default=0, base=inv.cwd))


HANDLERS: dict[str, Callable[[Invocation, Scope], Effect]] = {
    **{name: deleter for name in _DELETERS},
    "mkdir": simple_writer, "touch": simple_writer, "tee": simple_writer,
    "truncate": simple_writer, "chmod": mode_writer, "chown": mode_writer,
    "chgrp": mode_writer, "cp": copier, "mv": copier, "ln": copier, "install": copier, "dd": dd,
    "patch": patch,
}


_COMPRESSED = (".gz", ".bz2", ".xz", ".zst", ".lz", ".lzma", ".Z", ".z", ".tgz")


def compressor(inv: Invocation, scope: Scope) -> Effect:
    """gzip/bzip2/xz/zstd (and their un- forms): each file is replaced by its (de)compressed
    twin beside it, unless the output goes to stdout or nothing is written (-c, -t, -l)."""
    eff = Effect()
    values = [a.value for a in inv.args]
    operands = [a for a in inv.args if a.value is None or not a.value.startswith("-")]
    eff.reads.extend(path_use(arg, inv.cwd) for arg in operands)
    if any(v is None for v in values) or any(
            v == "-o" or v.startswith("--output") for v in values if v is not None):
        return eff.problem(f"{inv.name} writes where the checker cannot tell")
    if any(v in {"-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list"} or (
            v.startswith("-") and not v.startswith("--") and set(v[1:]) & set("ctl"))
           for v in values if v is not None):
        eff.read_only = True  # to standard output, or only testing / listing
        return eff
    for arg in operands:
        use = path_use(arg, inv.cwd)
        eff.writes.append(use)
        if use.path is not None:
            name = use.path.name
            twin = next((name[: -len(s)] for s in _COMPRESSED if name.endswith(s)), name + ".gz")
            eff.writes.append(PathUse(twin, use.path.with_name(twin)))
    return eff


_SPLIT = table("-a|--suffix-length= --additional-suffix=:suffix -b|--bytes= -C|--line-bytes= -d"
               " --numeric-suffixes? -x --hex-suffixes? -e|--elide-empty-files --filter=:exec"
               " -l|--lines= -n|--number= -t|--separator= -u|--unbuffered --verbose" + HELP)
_CSPLIT = table("-b|--suffix-format= -f|--prefix=:prefix -k|--keep-files --suppress-matched"
                " -n|--digits= -s|--quiet|--silent -z|--elide-empty-files" + HELP)


def splitter(inv: Invocation, scope: Scope) -> Effect:
    """split [FILE [PREFIX]] / csplit -f PREFIX FILE PATTERN...: output files are PREFIX
    followed by a suffix; `split --filter=CMD` runs CMD through a shell."""
    name = inv.name or "split"
    try:
        parsed = parse(_SPLIT if name == "split" else _CSPLIT, inv.args, name)
    except OptionError as exc:
        return Effect.failed(str(exc))
    eff = Effect()
    operands = parsed.operands
    if name == "split":
        prefix = operands[1].value if len(operands) >= 2 else "x"
        for code in parsed.values("exec"):
            eff.problem("split --filter runs a command for each piece")
            if code is None:
                eff.opaque_code = "split --filter runs code that cannot be known in advance"
            else:
                eff.scripts.append((code, inv.cwd))
    else:
        prefixes = parsed.values("prefix")
        prefix = prefixes[-1] if prefixes else "xx"
    if operands and operands[0].value != "-":
        eff.reads.append(path_use(operands[0], inv.cwd))
    if prefix is None:
        eff.writes.append(PathUse("the files it splits into", None))
    else:
        eff.writes.append(path_use(Arg(prefix + "aa", source=prefix + "*"), inv.cwd))
    return eff


def mktemp(inv: Invocation, scope: Scope) -> Effect:
    """mktemp [-d] [-p DIR] [TEMPLATE]: creates a file (or directory) where the template says."""
    values = [a.value for a in inv.args]
    if any(v in {"-u", "--dry-run"} for v in values):
        return Effect(read_only=True)
    directory = next((values[i + 1] for i, v in enumerate(values[:-1])
                      if v in {"-p", "--tmpdir"}), None)
    template = next((v for v in values if v is not None and not v.startswith("-")), None)
    if template is None and directory is None:
        return Effect()  # in $TMPDIR, outside the project: nothing to protect
    where = (directory + "/" if directory else "") + (template or "tmp.XXXXXXXXXX")
    return Effect(writes=[path_use(Arg(where, source=where), inv.cwd)])


HANDLERS.update({
    **{name: compressor for name in ("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz",
                                     "zstd", "unzstd", "lzma", "unlzma", "compress")},
    "split": splitter, "csplit": splitter, "mktemp": mktemp,
})
