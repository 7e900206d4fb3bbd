"""The CA bundle loaded on a thread at a cold start (warm/tls_preload.py): the context is the
one httpx2 would make itself, in each environment that picks a branch of its choice, and a
`-p` run over TLS verifies the server with it (trusting what SSL_CERT_FILE names, refusing
what it does not)."""

from __future__ import annotations

import json
import os
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

from claude_harness.testing.mock_api import MockApiServer
from claude_harness.warm import tls_preload

COMPARE = r'''
import json, ssl, httpx2
from claude_harness.warm.tls_preload import default_context
def shape(c):
    return {"certs": sorted(json.dumps(x, sort_keys=True) for x in c.get_ca_certs()),
            "stats": c.cert_store_stats(), "mode": int(c.verify_mode),
            "host": c.check_hostname, "options": int(c.options), "flags": int(c.verify_flags),
            "min": str(c.minimum_version), "max": str(c.maximum_version),
            "protocol": int(c.protocol)}
print(json.dumps([shape(default_context()), shape(httpx2.create_ssl_context())]))
'''


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 that is its own CA, and its key (the openssl command)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    return cert, key


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}
    return {**env, **extra}


@pytest.mark.parametrize("variant", ["system", "SSL_CERT_FILE", "SSL_CERT_DIR"])
def test_the_context_is_the_one_httpx2_makes(tmp_path: Path, variant: str) -> None:
    extra = {}
    if variant == "SSL_CERT_FILE":
        extra["SSL_CERT_FILE"] = str(self_signed(tmp_path)[0])
    elif variant == "SSL_CERT_DIR":
        extra["SSL_CERT_DIR"] = ssl.get_default_verify_paths().openssl_capath
    done = subprocess.run([sys.executable, "-c", COMPARE], capture_output=True, text=True,
                          env=_clean_env(**extra), timeout=60, check=True)
    ours, httpx = json.loads(done.stdout)
    assert ours == httpx
    if variant == "SSL_CERT_FILE":
        assert len(ours["certs"]) == 1


def test_a_context_loaded_for_another_environment_is_not_taken(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tls_preload, "_loaded", {})
    monkeypatch.setattr(tls_preload, "_thread", None)
    monkeypatch.setitem(sys.modules, "httpx2", None)  # as at a cold start: not imported yet
    monkeypatch.delitem(sys.modules, "httpx2")
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.setenv("SSL_CERT_FILE", str(self_signed(tmp_path)[0]))
    tls_preload.start()
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "another.pem"))
    assert tls_preload.take() is None  # the client loads the bundle the environment names now
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "cert.pem"))
    assert isinstance(tls_preload.take(), ssl.SSLContext)


def test_a_print_run_over_tls_verifies_the_server_with_it(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    with MockApiServer({"turns": ["Over TLS."]}) as server:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        httpd = server._httpd  # the scripted server's own socket, wrapped in TLS
        httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
        url = server.url.replace("http://", "https://")
        runs = {}
        for name, extra in (("trusted", {"SSL_CERT_FILE": str(cert)}), ("untrusted", {})):
            env = _clean_env(ANTHROPIC_BASE_URL=url, ANTHROPIC_API_KEY="k", HOME=str(home),
                             CLAUDE_CONFIG_DIR=str(home / ".claude"),
                             CLAUDE_HARNESS_NO_DAEMON="1", CLAUDE_HARNESS_MAX_RETRIES="0", **extra)
            runs[name] = subprocess.run(
                [str(Path(sys.executable).with_name("claude-harness")), "-p", "hi"],
                capture_output=True, text=True, env=env, timeout=90, cwd=tmp_path)
    assert runs["trusted"].returncode == 0, runs["trusted"].stderr
    assert runs["trusted"].stdout == "Over TLS.\n"
    assert runs["untrusted"].returncode != 0
    assert "certificate" in (runs["untrusted"].stdout + runs["untrusted"].stderr).lower()
