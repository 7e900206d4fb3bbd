"""Load the TLS trust store on a thread while a cold start imports the session.

Why: the HTTP client reads the CA bundle into a new SSL context when it is made (~20 ms here,
`SSLContext.load_verify_locations`), just before the first request, with nothing else to do.
OpenSSL parses the bundle without holding the GIL, so a thread started at the top of a cold
run does it on the other core while the main thread imports the session. The context is the
one the HTTP client would make itself (`httpx2.create_ssl_context()`, with this process's
environment; see below): the client takes it only in this process and while `SSL_CERT_FILE` and
`SSL_CERT_DIR` are what they were when it was loaded; otherwise it makes its own, as before.

The thread imports only the standard library's `ssl` (importing httpx2 there as well cost more
than it saved: the two threads fought over the GIL), so it builds the context as httpcore2's
`default_ssl_context` does on Linux, step for step; tests/api/test_tls_preload.py holds the two
equal (certificates, verification settings, options) in each environment that chooses a branch.
Elsewhere (Windows, macOS: the system's trust store through truststore) nothing is preloaded.
"""

from __future__ import annotations

import os
import threading
from typing import Any

_ENV = ("SSL_CERT_FILE", "SSL_CERT_DIR")
_lock = threading.Lock()
_loaded: dict[tuple[Any, ...], Any] = {}
_thread: threading.Thread | None = None


def _key() -> tuple[Any, ...]:
    return (os.getpid(), *(os.environ.get(name) for name in _ENV))


def _load(key: tuple[Any, ...]) -> None:
    try:
        context = default_context()
    except Exception:  # the client makes its own and reports what is wrong
        return
    if context is not None:
        with _lock:
            _loaded[key] = context


# httpcore2/_ssl.py's fallbacks, for when OpenSSL's compiled-in paths are unusable
CA_FILE_CANDIDATES = (
    "/etc/ssl/cert.pem",
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
    "/etc/pki/tls/cert.pem",
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/ssl/ca-bundle.pem",
)


def default_context() -> Any | None:
    """httpcore2's `default_ssl_context()` (trusting the environment), or None where it would
    use truststore."""
    import ssl
    import sys

    if cafile := os.environ.get("SSL_CERT_FILE"):
        return ssl.create_default_context(cafile=cafile)
    if capath := os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context(capath=capath)
    if sys.platform in ("win32", "darwin"):
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    paths = ssl.get_default_verify_paths()
    cafile = paths.openssl_cafile if os.path.isfile(paths.openssl_cafile) else None
    capath = paths.openssl_capath if os.path.isdir(paths.openssl_capath) else None
    if capath and not cafile:
        import re

        if not any(re.fullmatch(r"[0-9a-fA-F]{8}\.\d", f) for f in os.listdir(capath)):
            capath = None
    if not cafile and not capath:
        cafile = next(filter(os.path.isfile, CA_FILE_CANDIDATES), None)
    if cafile or capath:
        context.load_verify_locations(cafile, capath)
    return context


def start() -> None:
    """Begin loading (once per process; nothing when it is under way or done, or when the HTTP
    client is already imported: then nothing would run beside the thread)."""
    global _thread
    import sys

    if "httpx2" in sys.modules:  # a warm process's run: the client is a moment away
        return
    with _lock:
        if _thread is not None and _thread.is_alive() or _key() in _loaded:
            return
        _thread = threading.Thread(target=_load, args=(_key(),), name="tls-preload",
                                   daemon=True)
        _thread.start()


def take() -> Any | None:
    """The preloaded context for this process and environment (waiting for the thread if it is
    still at it), or None: then the client loads its own."""
    thread = _thread
    if thread is not None and thread is not threading.current_thread():
        thread.join()  # (in a forked child the parent's thread counts as ended: no wait)
    with _lock:
        return _loaded.get(_key())
