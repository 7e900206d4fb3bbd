"""Scripted sessions shared by tests and benchmarks, so a figure and its test measure the same
conversation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TEXT = {"content": [{"type": "text", "text": "ok"}]}


def make_demo_project(root: Path) -> Path:
    """A small project: src/app.py, src/util.py, README.md."""
    proj = root / "proj"
    (proj / "src").mkdir(parents=True, exist_ok=True)
    (proj / "src" / "app.py").write_text(
        "def greet(name):\n    return 'hello ' + name\n\n\ndef main():\n    print(greet('world'))\n"
    )
    (proj / "src" / "util.py").write_text("def helper():\n    return 42\n")
    (proj / "README.md").write_text("# demo project\n")
    return proj


def thirty_turn_session(project: Path) -> list[list[dict[str, Any]]]:
    """Three prompts, thirty requests: parallel Read/Grep/Glob turns, then a ToolSearch load of
    the deferred NotebookEdit and a call to it. Meant to run with a mode change between the
    first and second prompt."""
    app = str(project / "src" / "app.py")
    util = str(project / "src" / "util.py")
    nb = project / "nb.ipynb"
    nb.write_text(json.dumps({"cells": [{"cell_type": "code", "id": "c1", "metadata": {},
                                         "source": "x = 1", "outputs": [],
                                         "execution_count": None}],
                              "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    parallel = {"content": [
        {"type": "tool_use", "name": "Read", "input": {"file_path": app}},
        {"type": "tool_use", "name": "Grep", "input": {"pattern": "def"}},
        {"type": "tool_use", "name": "Glob", "input": {"pattern": "**/*.py"}}]}
    read_util = {"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": util}}]}
    first = [parallel, read_util] * 5 + [TEXT]
    second = [read_util, parallel] * 4 + [TEXT]
    third = [
        {"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": str(nb)}}]},
        {"content": [{"type": "tool_use", "name": "ToolSearch",
                      "input": {"query": "select:NotebookEdit"}}]},
        {"content": [{"type": "tool_use", "name": "NotebookEdit",
                      "input": {"notebook_path": str(nb), "cell_id": "c1",
                                "new_source": "x = 2"}}]},
        parallel, read_util, parallel, read_util, parallel, read_util,
        TEXT,
    ]
    return [first, second, third]
