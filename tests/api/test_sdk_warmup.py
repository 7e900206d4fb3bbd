"""The warm process's SDK caches: the stream's event validator is built under the key the
stream looks up, and SSL contexts are shared only between runs naming the same, unchanged
certificates."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

httpcore2 = pytest.importorskip("httpcore2")

from claude_harness.api.sdk_warmup import (  # noqa: E402
    build_stream_event_validator,
    share_ssl_contexts,
)

SYSTEM_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")


def test_the_first_stream_event_builds_no_validator_after_the_warm_up() -> None:
    from anthropic._models import TypeAdapter, construct_type
    from anthropic.types import RawMessageStreamEvent

    build_stream_event_validator()
    misses = TypeAdapter.cache_info().misses
    event = construct_type(type_=RawMessageStreamEvent, value={
        "type": "content_block_delta", "index": 0,
        "delta": {"type": "text_delta", "text": "hi"}})
    assert type(event).__name__ == "RawContentBlockDeltaEvent"
    assert TypeAdapter.cache_info().misses == misses


@pytest.fixture
def shared(monkeypatch: pytest.MonkeyPatch) -> None:
    """share_ssl_contexts() on a module attribute that is put back afterwards."""
    monkeypatch.setattr(httpcore2, "default_ssl_context", httpcore2.default_ssl_context)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    share_ssl_contexts()


@pytest.mark.skipif(not SYSTEM_BUNDLE.is_file(), reason="no system CA bundle to copy")
def test_a_context_is_shared_only_for_the_same_unchanged_bundle(
        shared: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "a.pem", tmp_path / "b.pem"
    shutil.copy(SYSTEM_BUNDLE, first)
    shutil.copy(SYSTEM_BUNDLE, second)
    monkeypatch.setenv("SSL_CERT_FILE", str(first))
    ctx_a = httpcore2.default_ssl_context()
    assert httpcore2.default_ssl_context() is ctx_a  # loaded once
    monkeypatch.setenv("SSL_CERT_FILE", str(second))
    assert httpcore2.default_ssl_context() is not ctx_a  # another bundle: its own context
    monkeypatch.setenv("SSL_CERT_FILE", str(first))
    info = first.stat()
    os.utime(first, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    assert httpcore2.default_ssl_context() is not ctx_a  # the bundle changed: loaded afresh


def test_a_missing_bundle_is_not_shared_and_fails_as_before(
        shared: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "gone.pem"))
    with pytest.raises(OSError):
        httpcore2.default_ssl_context()


def test_without_certificate_variables_the_system_context_is_shared(shared: None) -> None:
    assert httpcore2.default_ssl_context() is httpcore2.default_ssl_context()


def test_content_blocks_are_serialised_without_a_first_time_build() -> None:
    from anthropic.types import TextBlock, ToolUseBlock

    from claude_harness.api.sdk_warmup import build_content_block_serializers

    build_content_block_serializers()
    for model in (TextBlock, ToolUseBlock):
        assert "Mock" not in type(model.__pydantic_serializer__).__name__, model
    block = ToolUseBlock.model_validate({"type": "tool_use", "id": "t1", "name": "Read",
                                         "input": {"file_path": "/x"}})
    assert block.to_dict(mode="json", exclude_unset=True) == {
        "type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/x"}}
