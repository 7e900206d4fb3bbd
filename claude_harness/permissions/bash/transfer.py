"""Programs that fetch, copy or unpack files into place: where they write, and the shell code
some of their options carry.

Why: `curl -o .git/hooks/pre-commit URL`, `wget -P .claude URL`, `unzip x.zip -d .husky`,
`rsync -a src/ .git/hooks/`, `scp host:x ~/.bashrc` write files the protected-path and
working-directory checks must see, whatever the mode. `ssh -o ProxyCommand=CMD`,
`rsync -e CMD` run CMD through a local shell: that code is analysed like `sh -c`.
None of these programs is read-only; an allow rule is what approves them.
"""

from __future__ import annotations

import zipfile

from claude_harness.permissions.bash.args import Arg
from claude_harness.permissions.bash.effects import Effect, Invocation, PathUse, Scope, path_use

MAX_MEMBERS = 5_000
_CURL_VALUE = {"-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar", "--trace",
               "--trace-ascii", "--stderr", "--output-dir", "-K", "--config", "-T",
               "--upload-file", "-d", "--data", "--data-binary", "--data-urlencode", "-F",
               "--form", "-b", "--cookie", "--libcurl", "--etag-save", "--etag-compare",
               "--hsts", "--alt-svc", "--netrc-file", "-E", "--cert", "--key", "--cacert",
               "--capath", "--crlfile", "--pinnedpubkey", "-H", "--header", "-A",
               "--user-agent", "-e", "--referer", "-u", "--user", "-X", "--request", "-x",
               "--proxy", "-w", "--write-out", "-m", "--max-time", "--connect-timeout",
               "-r", "--range", "-C", "--continue-at", "--retry", "-Y", "-y", "-z",
               "--time-cond", "--resolve", "--connect-to", "--interface", "--limit-rate"}
_CURL_WRITES = {"-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar", "--trace",
                "--trace-ascii", "--stderr", "--libcurl", "--etag-save", "--hsts", "--alt-svc"}
_CURL_READS = {"-K", "--config", "-T", "--upload-file", "--netrc-file", "-E", "--cert",
               "--key", "--etag-compare", "-b", "--cookie"}


def curl(inv: Invocation, scope: Scope) -> Effect:
    eff = Effect()
    args = inv.args
    cwd = inv.cwd
    i = 0
    while i < len(args):
        value = args[i].value
        i += 1
        if value is None:
            continue
        name, eq, attached = value.partition("=") if value.startswith("--") else (value, "", "")
        if len(value) > 2 and value.startswith("-") and not value.startswith("--"):
            name, attached, eq = value[:2], value[2:], "="  # -ofile
        if name not in _CURL_VALUE:
            if value in {"-O", "--remote-name", "-J", "--remote-header-name",
                         "--remote-name-all"}:
                eff.writes.append(PathUse("a file named after the URL", None))
            continue
        target = attached if eq else (args[i].value if i < len(args) else None)
        i += 0 if eq else 1
        use = path_use(Arg(target, source=target or "?"), cwd)
        if name in _CURL_WRITES and target != "-":
            eff.writes.append(use)
        elif name in _CURL_READS:
            eff.reads.append(use)
        elif name in {"-d", "--data", "--data-binary", "--data-urlencode", "-F", "--form"}:
            if target is not None and "@" in target:  # @file sends a file's contents
                name_part = target.split("@", 1)[1].split(";", 1)[0]
                if name_part != "-":
                    eff.reads.append(path_use(Arg(name_part, source=name_part), cwd))
        elif name == "--output-dir":
            eff.writes.append(PathUse(use.text, use.path, recursive=True))
    return eff


def wget(inv: Invocation, scope: Scope) -> Effect:
    eff = Effect()
    values = [a.value for a in inv.args]
    cwd = inv.cwd
    directory = PathUse(".", cwd, recursive=True)
    named_output = False
    for i, value in enumerate(values):
        if value is None:
            continue
        nxt = values[i + 1] if i + 1 < len(values) else None
        name, eq, attached = value.partition("=")
        target = attached if eq else nxt
        if name in {"-O", "--output-document", "-o", "--output-file", "-a", "--append-output"}:
            named_output = named_output or name in {"-O", "--output-document"}
            if target is not None and target != "-":
                eff.writes.append(path_use(Arg(target, source=target), cwd))
        elif value.startswith("-O") and len(value) > 2:
            named_output = True
            eff.writes.append(path_use(Arg(value[2:], source=value[2:]), cwd))
        elif name in {"-P", "--directory-prefix"} and target is not None:
            directory = path_use(Arg(target, source=target), cwd, recursive=True)
        elif name in {"-i", "--input-file", "--post-file", "--body-file", "--load-cookies",
                      "--ca-certificate", "--certificate", "--private-key"}:
            eff.reads.append(path_use(Arg(target, source=target or "?"), cwd))
        elif name in {"--save-cookies", "--warc-file", "--rejected-log"}:
            eff.writes.append(path_use(Arg(target, source=target or "?"), cwd))
        elif name in {"-e", "--execute", "--config"}:
            eff.problem("wget -e / --config sets options the checker has not read")
    if not named_output:
        eff.writes.append(directory)
        eff.writes.append(PathUse("files named after the URLs", None))
    return eff


def unzip(inv: Invocation, scope: Scope) -> Effect:
    """unzip ARCHIVE [names] [-d DIR]: the archive's entries are listed now."""
    eff = Effect()
    values = [a.value for a in inv.args]
    cwd = inv.cwd
    dest = PathUse(".", cwd)
    archive = None
    listing = False
    skip = False
    for i, value in enumerate(values):
        if skip:
            skip = False
            continue
        if value is None:
            return Effect.failed("unzip argument cannot be known in advance")
        if value == "-d" and i + 1 < len(values):
            dest = path_use(Arg(values[i + 1], source=values[i + 1] or "?"), cwd)
            skip = True
        elif value.startswith("-"):
            listing = listing or any(c in value for c in "lvtpzZ")
        elif archive is None:
            archive = path_use(Arg(value, source=value), cwd)
    if archive is not None:
        eff.reads.append(archive)
    if listing:
        eff.read_only = not eff.problems
        return eff
    eff.writes.append(PathUse(dest.text, dest.path, recursive=True))
    eff.writes.extend(_zip_entries(archive, dest))
    return eff


def _zip_entries(archive: PathUse | None, dest: PathUse) -> list[PathUse]:
    unknown = [PathUse("the entries of the zip archive", None)]
    if archive is None or archive.path is None or dest.path is None:
        return unknown
    try:
        with zipfile.ZipFile(archive.path) as handle:
            names = handle.namelist()
    except (OSError, zipfile.BadZipFile, ValueError):
        return unknown
    if len(names) > MAX_MEMBERS:
        return unknown
    return [PathUse(name, dest.path / name) for name in names if name.strip("/")]


_SSH_VALUE = set("BbcDEeFIiJLlmOoPpQRSWw")


def ssh(inv: Invocation, scope: Scope) -> Effect:
    """ssh/scp/sftp: ProxyCommand / LocalCommand run locally through a shell; -F reads a config
    (which can hold them); scp's last operand is where it writes."""
    eff = Effect()
    args = inv.args
    cwd = inv.cwd
    operands: list[Arg] = []
    i = 0
    while i < len(args):
        value = args[i].value
        i += 1
        if value is None:
            operands.append(args[i - 1])
            continue
        if value.startswith("-") and len(value) > 1:
            letter = value[1]
            attached = value[2:]
            if letter in _SSH_VALUE:
                option = attached or (args[i].value if i < len(args) else None)
                i += 0 if attached else 1
                if letter == "o":
                    _ssh_option(option, eff, cwd)
                elif letter == "F":
                    eff.reads.append(path_use(Arg(option, source=option or "?"), cwd))
                    eff.problem("ssh -F reads a config that can run commands")
                elif letter in {"i", "E"} and inv.name == "ssh":
                    eff.reads.append(path_use(Arg(option, source=option or "?"), cwd))
            continue
        operands.append(args[i - 1])
    if inv.name == "scp" and len(operands) >= 2:
        for arg in operands[:-1]:
            if arg.value is not None and ":" not in arg.value:
                eff.reads.append(path_use(arg, cwd))
        dest = operands[-1]
        if dest.value is None or ":" not in dest.value:
            eff.writes.append(path_use(dest, cwd, recursive=True))
    return eff


def _ssh_option(option: str | None, eff: Effect, cwd) -> None:
    if option is None:
        eff.opaque_code = "ssh -o value cannot be known in advance"
        return
    key, _, value = option.replace("=", " ", 1).partition(" ")
    if key.lower() in {"proxycommand", "localcommand", "knownhostscommand"}:
        eff.problem(f"ssh -o {key} runs a local command")
        eff.scripts.append((value.strip(), cwd))
    elif key.lower() in {"permitlocalcommand", "include", "identityagent", "controlpath"}:
        eff.problem(f"ssh -o {key} is not modelled")


def rsync(inv: Invocation, scope: Scope) -> Effect:
    """rsync SRC... DEST: DEST is written (unless remote); `-e CMD` runs CMD locally."""
    eff = Effect()
    args = inv.args
    cwd = inv.cwd
    operands: list[Arg] = []
    i = 0
    while i < len(args):
        value = args[i].value
        i += 1
        if value is None:
            operands.append(args[i - 1])
            continue
        if value in {"-e", "--rsh"} or value.startswith(("--rsh=", "-e")) and value != "-e":
            command = value.split("=", 1)[1] if "=" in value else (
                value[2:] if value.startswith("-e") and len(value) > 2 else (
                    args[i].value if i < len(args) else None))
            if not ("=" in value or len(value) > 2):
                i += 1
            if command is None:
                eff.opaque_code = "rsync -e runs a command that cannot be known in advance"
            else:
                eff.scripts.append((command, cwd))
                eff.problem("rsync -e runs a remote-shell command")
            continue
        if value.startswith(("--rsync-path", "--files-from", "--exclude-from", "--include-from",
                             "--password-file", "--log-file", "--write-batch", "--read-batch",
                             "--backup-dir", "--partial-dir", "--temp-dir", "--compare-dest",
                             "--copy-dest", "--link-dest", "--only-write-batch", "--info",
                             "--debug", "--filter", "-f")):
            eff.problem(f"rsync option {value} is not modelled")
            continue
        if value.startswith("-"):
            if "--delete" in value or value.startswith("--remove-source-files"):
                eff.problem(f"rsync {value} deletes files")
            continue
        operands.append(args[i - 1])
    if len(operands) >= 2:
        for arg in operands[:-1]:
            if arg.value is None or ":" not in arg.value:
                eff.reads.append(path_use(arg, cwd, recursive=True))
        dest = operands[-1]
        if dest.value is None or ":" not in dest.value:
            eff.writes.append(path_use(dest, cwd, recursive=True))
    elif operands:
        eff.reads.append(path_use(operands[0], cwd, recursive=True))
    return eff
