"""Jupyter notebooks as readable text: every cell's source followed by its outputs.

Why not the raw JSON: the escaped source lines and base64 output blobs of a notebook's JSON
waste most of the budget and hide the code; the model needs each cell's code, its id (to edit
it with NotebookEdit) and what running it printed.
"""

from __future__ import annotations

import json
from typing import Any

from claude_harness.protocol.tool import ToolError
from claude_harness.text.terminal_safety import strip_unsafe

MAX_NOTEBOOK_BYTES = 50 << 20
MAX_OUTPUT_TEXT = 10_000  # per output, so one huge print does not crowd out the code


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return "" if value is None else str(value)


def _clip(text: str) -> str:
    if len(text) <= MAX_OUTPUT_TEXT:
        return text
    return text[:MAX_OUTPUT_TEXT] + f"\n[... output cut, {len(text) - MAX_OUTPUT_TEXT} more chars]"


def _render_output(output: dict[str, Any]) -> str:
    kind = output.get("output_type", "")
    if kind == "stream":
        return _clip(_text(output.get("text")))
    if kind in ("execute_result", "display_data"):
        data = output.get("data") or {}
        if "text/plain" in data:
            text = _text(data["text/plain"])
        elif data:
            text = ""
        else:
            return ""
        others = [m for m in data if m != "text/plain"]
        if others:
            text += ("\n" if text else "") + f"[{', '.join(others)} output not shown]"
        return _clip(text)
    if kind == "error":
        trace = strip_unsafe("\n".join(_text(t) for t in output.get("traceback") or []))
        head = f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"
        return _clip(trace if trace else head)
    return ""


def render_notebook(path: str, raw: bytes) -> str:
    try:
        nb = json.loads(raw)
        cells = nb["cells"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ToolError(
            f"{path} is not a valid Jupyter notebook: {exc}", code="bad_notebook"
        ) from exc
    language = (nb.get("metadata", {}).get("language_info") or {}).get("name") or (
        nb.get("metadata", {}).get("kernelspec") or {}
    ).get("language", "")
    blocks = [
        f"Notebook {path}: {len(cells)} cell(s){f', language {language}' if language else ''}."
    ]
    for index, cell in enumerate(cells, start=1):
        cell_type = cell.get("cell_type", "code")
        attrs = f'index="{index}" type="{cell_type}"'
        if cell.get("id"):
            attrs += f' id="{cell["id"]}"'
        if cell.get("execution_count") is not None:
            attrs += f' execution_count="{cell["execution_count"]}"'
        block = f"<cell {attrs}>\n{_text(cell.get('source'))}\n</cell>"
        outputs = [o.rstrip("\n") for o in map(_render_output, cell.get("outputs") or []) if o]
        if outputs:
            block += (
                f'\n<outputs index="{index}">\n' + "\n".join(outputs).rstrip("\n") + "\n</outputs>"
            )
        blocks.append(block)
    return "\n\n".join(blocks)


def read_notebook(path: str, raw: bytes, budget: int) -> str:
    text = render_notebook(path, raw)
    if len(text) <= budget:
        return text
    cut = text.rfind("\n\n<cell ", 0, budget)
    cut = cut if cut > 0 else budget
    return (
        text[:cut]
        + "\n\n[Partial view: the notebook is larger than one read returns; later cells are not "
        "shown. Use Grep on the file or Bash (e.g. jq) to look at specific cells.]"
    )
