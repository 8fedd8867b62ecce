"""The API over HTTP with the standard library only (urllib): JSON requests with the bearer
token, and the newline-delimited JSON streams read line by line as they come."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

# A stream sends a keepalive line after 20 s of silence: a minute without a line is a dead one.
STREAM_TIMEOUT = 60.0
REQUEST_TIMEOUT = 30.0


class ApiError(RuntimeError):
    """An answer other than 2xx: ``status``, and the API's ``detail`` and ``code``."""

    def __init__(self, status: int, detail: str, code: str = "", body: dict | None = None):
        super().__init__(f"{status} {code}: {detail}")
        self.status, self.detail, self.code, self.body = status, detail, code, body or {}


class Client:
    def __init__(self, url: str, token: str):
        self.base = url.rstrip("/") + "/api/v1"
        self.token = token

    def _request(self, method: str, path: str, body: dict | None = None, timeout=REQUEST_TIMEOUT):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            return urllib.request.urlopen(request, timeout=timeout)
        except urllib.error.HTTPError as exc:
            raise _api_error(exc) from None

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        """One JSON request; waits out a 429 once (its Retry-After) before giving up."""
        for attempt in range(2):
            try:
                with self._request(method, path, body) as response:
                    return json.loads(response.read() or b"{}")
            except ApiError as exc:
                if exc.status != 429 or attempt:
                    raise
                time.sleep(min(60, int(exc.body.get("retry_after", 0) or 0) or 30))
        raise AssertionError("unreachable")

    def get(self, path: str, **params) -> dict:
        query = {k: v for k, v in params.items() if v is not None}
        return self.call("GET", path + ("?" + urllib.parse.urlencode(query) if query else ""))

    def post(self, path: str, body: dict | None = None) -> dict:
        return self.call("POST", path, body if body is not None else {})

    def stream(self, path: str, **params) -> Iterator[dict]:
        """The events of a stream, one dict a line, until the server or the network ends it."""
        query = {k: v for k, v in params.items() if v is not None}
        path += "?" + urllib.parse.urlencode(query) if query else ""
        with self._request("GET", path, timeout=STREAM_TIMEOUT) as response:
            for raw in response:
                raw = raw.strip()
                if raw:
                    yield json.loads(raw)


def _api_error(exc: urllib.error.HTTPError) -> ApiError:
    try:
        body = json.loads(exc.read() or b"{}")
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    if exc.headers.get("Retry-After"):
        body["retry_after"] = exc.headers["Retry-After"]
    return ApiError(exc.code, str(body.get("detail", exc.reason)), str(body.get("code", "")), body)
