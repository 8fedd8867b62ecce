"""A stub push service and a stub chat webhook in one small HTTP server (a thread of the test
process): they record what they are sent, and answer 201 unless told otherwise. ``Device`` is a
browser's side of a push subscription: its keys, and the decryption of what it is sent
(RFC 8291, aes128gcm), so a test reads exactly what a phone would show."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


@dataclass
class Stub:
    server: ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)  # status codes to answer next, in order
    location: str = ""  # the Location header of a 3xx answer
    # Called with each request before it is answered (in the server's thread): a test holds an
    # answer back with it.
    before_answer: Callable[[Received], None] | None = None

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def on(self, prefix: str) -> list[Received]:
        return [r for r in self.received if r.path.startswith(prefix)]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def start() -> Stub:
    stub: Stub

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            received = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            stub.received.append(received)
            if stub.before_answer is not None:
                stub.before_answer(received)
            status = stub.answers.pop(0) if stub.answers else 201
            self.send_response(status)
            if 300 <= status < 400 and stub.location:
                self.send_header("Location", stub.location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stub = Stub(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return stub


@dataclass
class Device:
    """A browser's push subscription keys (what ``PushSubscription.toJSON()`` gives)."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64u(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return b64u(self.secret)

    def subscription(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def read(self, received: Received) -> dict:
        """Decrypt a notice as the browser does, and parse its JSON."""
        assert received.headers.get("content-encoding") == "aes128gcm"
        plain = http_ece.decrypt(
            received.body, private_key=self.key, auth_secret=self.secret, version="aes128gcm"
        )
        return json.loads(plain)
