"""Writing files safely: the one atomic writer and the one lock helper every part of the
harness uses (settings, transcripts' side files, checkpoints and rewind restores, Edit, Write,
NotebookEdit, an approved `sed -i` edit, memory files, plugin and agent files).

A leaf below everything that writes files (it imports nothing of the harness).
"""

from claude_harness.fsutil.atomic import (
    atomic_write_bytes,
    atomic_write_text,
    fsync_dir,
    prepare_beside,
    write_target,
)
from claude_harness.fsutil.lock import LockTimeout, exclusive_lock, try_flock

__all__ = ["LockTimeout", "atomic_write_bytes", "atomic_write_text", "exclusive_lock",
           "fsync_dir", "prepare_beside", "try_flock", "write_target"]
