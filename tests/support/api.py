"""Helpers of the API tests: a token's headers, and a stream read through the site's real ASGI
application (config.asgi), line by line."""

from __future__ import annotations

import asyncio
import contextlib
import json

from asgiref.testing import ApplicationCommunicator


def bearer(secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


class Stream:
    """``GET path`` through ``config.asgi.application``, read as newline-delimited JSON."""

    def __init__(self, path: str, secret: str, query: str = ""):
        from config.asgi import application

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [
                (b"host", b"testserver"),
                (b"authorization", f"Bearer {secret}".encode()),
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.app = ApplicationCommunicator(application, scope)
        self.status = None
        self.headers = {}
        self.buffer = b""
        self.closed = False

    async def open(self, timeout: float = 5) -> int:
        await self.app.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await self.app.receive_output(timeout)
        assert start["type"] == "http.response.start"
        self.status = start["status"]
        self.headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
        return self.status

    async def next(self, timeout: float = 5) -> dict:
        """The next line, waiting at most ``timeout`` seconds for it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while b"\n" not in self.buffer:
            left = deadline - loop.time()
            if left <= 0 or self.closed:
                raise TimeoutError(f"no line within {timeout} s")
            message = await self.app.receive_output(left)
            self.buffer += message.get("body", b"")
            if not message.get("more_body", False):
                self.closed = True
        head, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(head)

    async def body(self, timeout: float = 5) -> dict:
        """A whole (non-streaming) answer's body, as JSON."""
        chunks = b""
        while True:
            message = await self.app.receive_output(timeout)
            chunks += message.get("body", b"")
            if not message.get("more_body", False):
                return json.loads(chunks)

    async def close(self) -> None:
        await self.app.send_input({"type": "http.disconnect"})
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await self.app.wait(timeout=2)
