"""Which folders the user trusts, remembered in <data dir>/trusted_folders.json.

In a folder the user has not trusted, the repository's own settings grant nothing and its hooks
do not run. Stdlib only: the interactive app asks before its engine (and anything heavy) loads.
"""

from __future__ import annotations

import json
from pathlib import Path


def _trust_file(store: Path) -> Path:
    return store / "trusted_folders.json"


def _load(store: Path) -> list[str]:
    try:
        folders = json.loads(_trust_file(store).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [str(f) for f in folders] if isinstance(folders, list) else []


def is_trusted(store: Path, cwd: Path) -> bool:
    return str(cwd) in _load(store)


def trust_folder(store: Path, cwd: Path) -> None:
    folders = _load(store)
    if str(cwd) in folders:
        return
    folders.append(str(cwd))
    path = _trust_file(store)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(folders, indent=2), encoding="utf-8")
    tmp.replace(path)
