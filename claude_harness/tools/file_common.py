"""Shared ground for the file tools (Read, Edit, Write): paths, file kinds, encodings, line
endings, the read-before-write rule and atomic replacement.

Why one module: the three tools must agree exactly on what a path means (absolute, normalised,
the cache key), on how a file's bytes become text and back (so an edit keeps a BOM or CRLF), and
on what "unchanged since you read it" means. If each tool had its own idea, Read would record a
state that Edit could not recognise.
"""

from __future__ import annotations

import codecs
import difflib
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_harness.fsutil import atomic_write_bytes
from claude_harness.permissions.paths import folds_case, on_disk_spelling
from claude_harness.protocol.tool import VALID, ToolError, ValidationResult

if TYPE_CHECKING:
    from claude_harness.protocol.context import FileState, ToolUseContext

# ---------------------------------------------------------------------------------------------
# Paths


def require_absolute(file_path: str) -> str:
    """The normalised absolute path, or a ToolError: a relative path is ambiguous for the model,
    whose idea of the working directory may differ from the shell's."""
    if not file_path or not file_path.strip():
        raise ToolError("file_path is empty; give the absolute path of the file.")
    if "\x00" in file_path:
        raise ToolError("file_path contains a NUL character.")
    expanded = os.path.expanduser(file_path)
    if not os.path.isabs(expanded):
        raise ToolError(
            f"file_path must be an absolute path, got a relative one: {file_path!r}. "
            "Prefix it with the directory it lives in."
        )
    return os.path.normpath(expanded)


def check_absolute(file_path: str) -> ValidationResult:
    """require_absolute() as a validation verdict (step 4 of the pipeline, before any prompt)."""
    try:
        require_absolute(file_path)
    except ToolError as exc:
        return ValidationResult.fail(exc.message, "relative_path")
    return VALID


async def validate_file_path(inp: Any, ctx: ToolUseContext) -> ValidationResult:
    """`validate_input` of the tools whose only semantic check is an absolute `file_path`."""
    return check_absolute(inp.file_path)


def backfill_file_path(inp: Any, ctx: ToolUseContext) -> dict[str, Any]:
    """`backfill_input` of the file tools: the absolute `file_path` rules and hooks see."""
    return {"file_path": absolute_from(inp.file_path, ctx.cwd)}


def absolute_from(file_path: str, cwd: Path) -> str:
    """For backfill: the path the permission decision and the hooks see, which is exactly the
    one the tool will open (target_path); a relative path is joined to the cwd so rules see a
    real path, though the call itself still refuses it (validate_input runs first)."""
    return target_path(file_path, cwd)


def target_path(file_path: str, cwd: Path | None = None) -> str:
    """The one path a file tool both decides on and opens.

    Absolute, `~` expanded, `..` folded (lexically: the tool opens this string, so the kernel
    never walks a `link/..`); when that name does not exist, the spelling differing only
    invisibly (Unicode NFC/NFD, the no-break space before AM/PM) that does; in a folder whose
    file system folds case, each component as the folder stores it. Deciding on anything else
    would let `Read(secret-é)` denied in NFC be read through its NFD spelling."""
    expanded = os.path.expanduser(file_path)
    if not os.path.isabs(expanded) and cwd is not None:
        expanded = os.path.join(str(cwd), expanded)
    path = os.path.normpath(expanded)
    if not os.path.lexists(path):
        path = find_existing_variant(path) or path
    if folds_case(path):
        path = on_disk_spelling(path)
    return path


def open_path(file_path: str) -> str:
    """What a file tool's call opens: require_absolute() then target_path(), the same
    function its permission decision used (through backfill)."""
    return target_path(require_absolute(file_path))


def state_key(path: str) -> str:
    """The read_file_state key: the absolute path with symlinks resolved, so a file read through
    a link and edited through its target is recognised as the same file."""
    return os.path.realpath(path)


_AM_PM = re.compile(r"[ \u202f\u00a0](?=[AaPp][Mm]\b)")


def path_variants(path: str) -> list[str]:
    """Spellings of `path` that differ only in ways a model cannot see: the narrow no-break space
    macOS puts before AM/PM in screenshot names, and Unicode normalisation forms (macOS stores
    names decomposed)."""
    variants: list[str] = []
    for sep in ("\u202f", " ", "\u00a0"):
        variants.append(_AM_PM.sub(sep, path))
    for form in ("NFC", "NFD"):
        variants.extend(unicodedata.normalize(form, v) for v in list(variants))
    seen = {path}
    unique = []
    for v in variants:
        if v not in seen:
            seen.add(v)
            unique.append(v)
    return unique


def find_existing_variant(path: str) -> str | None:
    """The first invisible-difference variant of a missing path that exists, if any."""
    for candidate in path_variants(path):
        if os.path.lexists(candidate):
            return candidate
    return None


def suggest_similar(path: str, limit: int = 3, max_scan: int = 2000) -> list[str]:
    """Names next to a missing file that look like what was meant (cheap: one directory listing,
    capped, so a huge directory never makes an error slow)."""
    parent, name = os.path.split(path)
    try:
        with os.scandir(parent) as it:
            names = []
            for i, entry in enumerate(it):
                if i >= max_scan:
                    break
                names.append(entry.name)
    except OSError:
        return []
    stem = os.path.splitext(name)[0]
    picks = difflib.get_close_matches(name, names, n=limit, cutoff=0.6)
    for other in names:  # same stem, other extension: foo.js for foo.ts
        if other not in picks and os.path.splitext(other)[0] == stem and len(picks) < limit:
            picks.append(other)
    return [os.path.join(parent, p) for p in picks]


def missing_file_error(path: str, what: str = "File") -> ToolError:
    """A 'does not exist' error that points at near names when there are some."""
    message = f"{what} does not exist: {path}"
    similar = suggest_similar(path)
    if similar:
        message += ". Did you mean " + " or ".join(similar) + "?"
    else:
        parent = os.path.dirname(path)
        if not os.path.isdir(parent):
            message += f" (its folder {parent} does not exist either)"
    return ToolError(message, code="file_not_found")


# ---------------------------------------------------------------------------------------------
# What kind of file is it

# Paths that name "whatever this process has open": reading them reads our own stdin or hangs.
_STREAM_PATHS = {"/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/console"}
_FD_DIR = re.compile(r"^/(?:dev/fd|proc/(?:self|thread-self|\d+)/fd)(?:/|$)")


def special_kind(st: os.stat_result) -> str | None:
    """A human name for a file that is not a regular file or a directory, else None."""
    mode = st.st_mode
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "a special file"


def refuse_special(path: str, st: os.stat_result | None, action: str = "read") -> None:
    """Refuse devices, pipes, sockets and the process's own streams, judged from the path and a
    stat, never by opening: opening a FIFO blocks until a writer appears, /dev/zero never ends."""
    if path in _STREAM_PATHS or _FD_DIR.match(path):
        raise ToolError(
            f"Cannot {action} {path}: it is a process stream, not a file (it would block or "
            "touch this program's own input/output).",
            code="special_file",
        )
    if st is not None:
        kind = special_kind(st)
        if kind:
            raise ToolError(
                f"Cannot {action} {path}: it is {kind}, not a regular file"
                + (", and reading it could block or never end." if action == "read" else "."),
                code="special_file",
            )


def stat_or_none(path: str) -> os.stat_result | None:
    """stat following symlinks; None when nothing is there (or a dangling link)."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None


def open_regular(path: str) -> int:
    """Open for reading without ever blocking, and prove it is a regular file (closing the race
    where a file is swapped for a FIFO between our stat and our open). Returns an fd."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except PermissionError as exc:
        raise ToolError(f"Permission denied: cannot read {path}.", code="permission") from exc
    except IsADirectoryError as exc:
        raise ToolError(f"{path} is a directory, not a file.", code="is_directory") from exc
    except OSError as exc:
        raise ToolError(f"Cannot open {path}: {exc.strerror or exc}.", code="os_error") from exc
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        refuse_special(path, st)
        raise ToolError(f"{path} is not a regular file.", code="special_file")
    return fd


BINARY_EXTENSIONS = frozenset(
    """
    exe dll so dylib o a obj lib bin class jar war pyc pyo pyd whl egg wasm
    zip gz tgz bz2 xz zst lz4 7z rar tar iso dmg img deb rpm apk msi cab
    mp3 mp4 m4a m4v mov avi mkv webm flv wmv wav flac ogg opus aac mid midi
    ttf otf woff woff2 eot psd ai sketch fig xcf blend fbx glb
    doc docx xls xlsx ppt pptx odt ods odp pages numbers key
    sqlite sqlite3 db mdb parquet avro orc feather npy npz pkl pickle pt pth ckpt onnx h5 hdf5
    swf dat
    """.split()
)


def has_binary_extension(path: str) -> bool:
    return os.path.splitext(path)[1].lower().lstrip(".") in BINARY_EXTENSIONS


def looks_binary(head: bytes) -> bool:
    """A NUL byte in the first block marks binary data, unless a UTF-16/32 BOM explains it."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    return b"\x00" in head


# ---------------------------------------------------------------------------------------------
# Encodings and line endings


@dataclass(frozen=True)
class TextEncoding:
    """How a file's bytes become text and back: the codec and the BOM it started with."""

    codec: str  # a codec without BOM handling: utf-8, utf-16-le, utf-16-be, latin-1
    bom: bytes = b""

    def decode(self, data: bytes) -> str:
        return data[len(self.bom) :].decode(self.codec)

    def encode(self, text: str) -> bytes:
        return self.bom + text.encode(self.codec)

    @property
    def label(self) -> str:
        return self.codec + (" with BOM" if self.bom else "")


UTF8 = TextEncoding("utf-8")


def encoding_from_bom(head: bytes) -> TextEncoding | None:
    if head.startswith(codecs.BOM_UTF8):
        return TextEncoding("utf-8", codecs.BOM_UTF8)
    if head.startswith(codecs.BOM_UTF16_LE):
        return TextEncoding("utf-16-le", codecs.BOM_UTF16_LE)
    if head.startswith(codecs.BOM_UTF16_BE):
        return TextEncoding("utf-16-be", codecs.BOM_UTF16_BE)
    return None


def sniff_encoding(head: bytes, complete: bool) -> TextEncoding:
    """Pick an encoding from the first bytes: a BOM decides; else UTF-8 if those bytes are valid
    UTF-8 (a multi-byte character cut at the block's end is fine), else Latin-1, which maps every
    byte and so round-trips any file unchanged."""
    by_bom = encoding_from_bom(head)
    if by_bom:
        return by_bom
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=complete)
        return UTF8
    except UnicodeDecodeError:
        return TextEncoding("latin-1")


def decode_file_bytes(data: bytes) -> tuple[str, TextEncoding]:
    """Whole-file decode for Edit/Write: exact, so writing the text back gives the same bytes."""
    enc = encoding_from_bom(data)
    if enc is None:
        try:
            return data.decode("utf-8"), UTF8
        except UnicodeDecodeError:
            enc = TextEncoding("latin-1")
    try:
        return enc.decode(data), enc
    except UnicodeDecodeError as exc:
        raise ToolError(f"The file is not valid {enc.label} text: {exc}.") from exc


def normalize_newlines(text: str) -> str:
    """CRLF to LF: the form the model sees and the form FileState stores."""
    return text.replace("\r\n", "\n")


def dominant_eol(text: str) -> str:
    """CRLF when most line breaks are CRLF, else LF; what new text should be written with."""
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    return "\r\n" if crlf > lf else "\n"


def with_eol(text: str, eol: str) -> str:
    text = normalize_newlines(text)
    return text if eol == "\n" else text.replace("\n", eol)


# ---------------------------------------------------------------------------------------------
# Read-before-write and staleness


def record_state(ctx: ToolUseContext, key: str, content: str, mtime_ns: int, partial: bool) -> None:
    """Remember what was read. A partial view of an unchanged file does not replace a full read
    of it: looking at lines 10-20 again should not forget that the whole file was seen."""
    from claude_harness.protocol.context import FileState

    known = ctx.read_file_state.get(key)
    if partial and known is not None and not known.partial and known.mtime_ns == mtime_ns:
        return
    ctx.read_file_state.set(key, FileState(normalize_newlines(content), mtime_ns, partial))


def ensure_fresh(
    ctx: ToolUseContext,
    key: str,
    display_path: str,
    mtime_ns: int,
    current_text: Callable[[], str],
) -> FileState:
    """Refuse to change a file the model has not read, or one that changed after it read it.

    Unchanged means: same mtime; or, when only the mtime moved (a `touch`, a checkout that wrote
    the same bytes), the same full content as the read saw. A partial read cannot vouch for the
    content, so a moved mtime is then enough to ask for a fresh read. `current_text` is only
    called (the file only decoded) when the mtimes differ.
    """
    state = ctx.read_file_state.get(key)
    if state is None:
        raise ToolError(
            f"{display_path} has not been read yet. Read it first, then change it.",
            code="not_read",
        )
    if state.mtime_ns == mtime_ns:
        return state
    if not state.partial and state.content == normalize_newlines(current_text()):
        return state
    raise ToolError(
        f"{display_path} has changed on disk since it was last read (by the user, a formatter "
        "or another tool). Read it again before changing it; nothing was written.",
        code="stale",
    )


def ensure_writable(path: str) -> None:
    """Refuse a file we may not write: os.replace would otherwise swap it out regardless of its
    own permissions, since only the folder's permissions matter to a rename."""
    if not os.access(path, os.W_OK):
        raise ToolError(f"Permission denied: {path} is not writable.", code="permission")


# ---------------------------------------------------------------------------------------------
# Atomic write


def make_parent_dirs(path: str) -> None:
    parent = os.path.dirname(path)
    try:
        os.makedirs(parent, exist_ok=True)
    except FileExistsError as exc:
        raise ToolError(
            f"Cannot create folder for {path}: a part of {parent} is a file, not a folder.",
            code="bad_parent",
        ) from exc
    except NotADirectoryError as exc:
        raise ToolError(
            f"Cannot create folder for {path}: a part of {parent} is a file, not a folder.",
            code="bad_parent",
        ) from exc
    except PermissionError as exc:
        raise ToolError(f"Permission denied creating folder {parent}.", code="permission") from exc


def atomic_write(path: str, data: bytes) -> int:
    """Replace `path` with `data` so a reader sees the old file or the new one, never half
    (fsutil: a temp file beside it, fsync of the file and its folder, then a rename). The file
    keeps its permission bits and owner; a new file gets the usual umask mode; a symlink is
    written through. Returns mtime_ns."""
    try:
        return atomic_write_bytes(path, data).st_mtime_ns
    except PermissionError as exc:
        raise ToolError(f"Permission denied writing into {os.path.dirname(path)}.",
                        code="permission") from exc
    except OSError as exc:
        raise ToolError(f"Cannot write {path}: {exc.strerror or exc}.", code="os_error") from exc


def numbered(lines: list[str], first: int) -> str:
    """`<n>\\t<text>` lines, n unpadded: the shape Read uses and Edit's snippet repeats."""
    return "\n".join(f"{first + i}\t{line}" for i, line in enumerate(lines))
