"""Apply a pre-approved `sed -i` result (the permission layer's simulation) atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from claude_harness.protocol.tool import ToolError
from claude_harness.tools.bash.schema import SimulatedSedEdit


def apply_sed_edit(edit: SimulatedSedEdit) -> Path:
    """Replace the file's content with the approved text: temp file, same mode, os.replace.

    Atomic so a crash never leaves the file half-written; the temp file sits in the same
    directory so the rename cannot cross file systems.
    """
    path = Path(edit.file_path)
    if not path.is_absolute():
        raise ToolError(f"The simulated sed edit needs an absolute path, got {edit.file_path!r}.")
    if not path.is_file():
        raise ToolError(f"Cannot apply the sed edit: {path} is not an existing file.")
    mode = path.stat().st_mode & 0o7777
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(edit.new_content)
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return path
