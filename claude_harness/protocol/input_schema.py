"""The JSON Schema of a tool's input model, generated once per model class.

pydantic builds a model's JSON Schema anew on every `model_json_schema()` call (~2-3 ms for a
built-in tool, ~30 ms for all of them at each session's start). The schema depends on the
class alone, so it is kept per class (weakly: an MCP server's models go with their tools), and
the warm process (warm/) fills it once for every run it forks. Each caller gets its own copy:
a schema sent in one request is never changed under another.
"""

from __future__ import annotations

import copy
import weakref
from typing import Any

from pydantic import BaseModel

_schemas: weakref.WeakKeyDictionary[type[BaseModel], dict[str, Any]] = (
    weakref.WeakKeyDictionary())


def model_input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The schema sent to the API: `type: object`, `additionalProperties: false`, no titles."""
    schema = _schemas.get(model)
    if schema is None:
        schema = _generate(model)
        _schemas[model] = schema
    return copy.deepcopy(schema)


def _generate(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True)
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    schema["additionalProperties"] = False
    schema.setdefault("type", "object")
    return schema
