"""What the SDK computes the same way in every run, done once in the warm process (warm/) so
that each forked run finds it ready: the validator of the stream's events and the SSL context
with the system's CA certificates. Both are the SDK's own objects, built by the SDK's own
calls; nothing here changes what a run sends or accepts."""

from __future__ import annotations

import os
from typing import Any

# One event of each kind the SDK validates against its union of stream events.
_SAMPLE_EVENT = {"type": "message_stop"}


def build_stream_event_validator() -> None:
    """The SDK validates each stream event against a pydantic union it builds at the first
    event (~15-30 ms of schema work, then cached by type in `anthropic._models.TypeAdapter`).
    Building it through the very call the stream makes (`construct_type` of the SDK's
    `RawMessageStreamEvent`) fills the cache under the key the stream will look up: the SDK
    unwraps the `Annotated` union first, so a TypeAdapter of the annotated type is never used."""
    try:
        from anthropic._models import construct_type
        from anthropic.types import RawMessageStreamEvent

        construct_type(type_=RawMessageStreamEvent, value=dict(_SAMPLE_EVENT))
    except Exception:  # an SDK without these internals: the first event builds it
        pass


def build_content_block_serializers() -> None:
    """The SDK's models defer building their serializers to first use (`defer_build`): the
    first `to_dict()` of a tool_use block in a run cost ~5-13 ms. The loop turns every content
    block it receives into the dict it sends back (agent/stream.py), so the blocks of the SDK's
    `ContentBlock` union are built here once; other models stay deferred (memory)."""
    try:
        from anthropic.types.content_block import ContentBlock
    except ImportError:
        return
    for model in _models_of(ContentBlock):
        try:
            model.model_rebuild()
        except Exception:  # a model that cannot be built yet is built by its first use
            pass


def _models_of(annotation: Any) -> list[type]:
    """The pydantic models inside a (possibly annotated) union."""
    from typing import get_args

    from pydantic import BaseModel

    found: list[type] = []
    for arg in get_args(annotation):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            found.append(arg)
        else:
            found.extend(_models_of(arg))
    return found


def share_ssl_contexts() -> None:
    """Every SDK client loads the CA certificates into a new SSL context (~20-40 ms): in the
    warm process each context is loaded once and shared by its runs, as a long-lived client
    shares one. A context is kept per source of certificates (`SSL_CERT_FILE`, `SSL_CERT_DIR`
    or the system's) and per state of that file (a changed or replaced bundle is loaded
    afresh), so a run gets the certificates its own environment names, as a cold run would."""
    try:
        import httpcore2
    except ImportError:
        return
    original = httpcore2.default_ssl_context
    if getattr(original, "shared_by_warm_start", False):
        return
    contexts: dict[tuple[Any, ...], Any] = {}

    def default_ssl_context(*, _trust_env: bool = True) -> Any:
        key = _certificate_source(_trust_env)
        if key is None:
            return original(_trust_env=_trust_env)
        if key not in contexts:
            contexts[key] = original(_trust_env=_trust_env)
        return contexts[key]

    default_ssl_context.shared_by_warm_start = True  # type: ignore[attr-defined]
    httpcore2.default_ssl_context = default_ssl_context
    default_ssl_context(_trust_env=True)  # the warm process's own environment: the usual one


def _certificate_source(trust_env: bool) -> tuple[Any, ...] | None:
    """Where the context's certificates come from, as httpcore2 chooses (SSL_CERT_FILE, else
    SSL_CERT_DIR, else the system's), with the file's identity and modification time; None
    when it cannot be told (then the context is not shared)."""
    cafile = os.environ.get("SSL_CERT_FILE") if trust_env else None
    capath = os.environ.get("SSL_CERT_DIR") if trust_env and not cafile else None
    try:
        if cafile:
            info = os.stat(cafile)
            return ("file", cafile, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
        if capath:
            info = os.stat(capath)
            return ("dir", capath, info.st_dev, info.st_ino, info.st_mtime_ns)
    except OSError:
        return None
    return ("system",)
