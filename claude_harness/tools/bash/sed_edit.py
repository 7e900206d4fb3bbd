"""Apply a pre-approved `sed -i` result (the permission layer's simulation) atomically."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from claude_harness.fsutil import atomic_write_text
from claude_harness.protocol.client_files import BufferWriter
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.bash.schema import SimulatedSedEdit
from claude_harness.tools.editor_files import editor_text, write_through_editor


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


async def sed_edit_in_editor(edit: SimulatedSedEdit, writer: BufferWriter,
                             before_change: Callable[[str], None]) -> Path:
    """The approved result through the editor (tools/editor_files.py), so its open buffer shows
    it. The result was computed from the disk: when the buffer holds unsaved changes, writing it
    would throw them away, so the edit is refused (nothing written) and the model told why."""
    path = Path(edit.file_path)
    if not path.is_absolute() or not path.is_file():
        raise ToolError(f"Cannot apply the sed edit: {path} is not an existing file.")
    buffer = await editor_text(str(path))
    if buffer is not None:
        try:
            on_disk = path.read_text(encoding="utf-8", errors="surrogateescape")
        except OSError as exc:
            raise ToolError(f"Cannot apply the sed edit to {path}: {exc.strerror or exc}.") from exc
        if buffer != on_disk:
            raise ToolError(
                f"{path} has unsaved changes in the editor, and the approved sed result was "
                "computed from the file on disk; nothing was written. Read the file again and "
                "change it with Edit.", code="buffer_differs")
    before_change(str(path))
    await write_through_editor(writer, str(path), edit.new_content)
    return path
