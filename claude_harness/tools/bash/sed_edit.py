"""Apply a pre-approved `sed -i` result (the permission layer's simulation) atomically."""

from __future__ import annotations

from pathlib import Path

from claude_harness.fsutil import atomic_write_text
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.bash.schema import SimulatedSedEdit


def apply_sed_edit(edit: SimulatedSedEdit) -> Path:
    """Replace the file's content with the approved text through the one atomic writer
    (fsutil): a crash never leaves it half-written, it keeps its mode and owner, a symlink is
    written through."""
    path = Path(edit.file_path)
    if not path.is_absolute():
        raise ToolError(f"The simulated sed edit needs an absolute path, got {edit.file_path!r}.")
    if not path.is_file():
        raise ToolError(f"Cannot apply the sed edit: {path} is not an existing file.")
    try:
        atomic_write_text(path, edit.new_content)
    except OSError as exc:
        raise ToolError(f"Cannot apply the sed edit to {path}: {exc.strerror or exc}.") from exc
    return path
