"""The `roots` client capability: the session's working directories, offered to every server.

A server asks `roots/list` and gets one `file://` root per working directory (the cwd first, then
each `--add-dir` / `/add-dir` directory). When the set changes, every connected server that
speaks a protocol version with roots gets `notifications/roots/list_changed` and may ask again.

    roots = Roots([cwd])
    roots.add(Path("/other/dir"))      # what /add-dir calls (through McpManager.add_root)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

Listener = Callable[[], None]


class Roots:
    """An ordered set of directories and the listeners told when it changes."""

    def __init__(self, directories: Iterable[Path] = ()) -> None:
        self._dirs: list[Path] = []
        self._listeners: list[Listener] = []
        for directory in directories:
            self._insert(Path(directory))

    @property
    def directories(self) -> tuple[Path, ...]:
        return tuple(self._dirs)

    def _insert(self, directory: Path) -> bool:
        resolved = directory.expanduser().resolve()
        if resolved in self._dirs:
            return False
        self._dirs.append(resolved)
        return True

    def add(self, directory: Path) -> bool:
        """Add one directory; False (and no notification) when it was already a root."""
        if not self._insert(Path(directory)):
            return False
        self._changed()
        return True

    def replace(self, directories: Iterable[Path]) -> None:
        """Set the whole list (e.g. after /add-dir removals); notifies only on a real change."""
        before = list(self._dirs)
        self._dirs = []
        for directory in directories:
            self._insert(Path(directory))
        if self._dirs != before:
            self._changed()

    def on_change(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    def as_mcp(self) -> list[dict[str, Any]]:
        """The `roots` of a ListRootsResult: `file://` URIs named after their folder."""
        return [{"uri": d.as_uri(), "name": d.name or str(d)} for d in self._dirs]

    async def list_roots(self, context: Any) -> Any:
        """The SDK's ListRootsFnT."""
        from mcp_types import ListRootsResult, Root

        return ListRootsResult(roots=[Root.model_validate(r) for r in self.as_mcp()])
