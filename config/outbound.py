"""Requests to addresses that players give the site: chat webhooks and Web Push endpoints
(games.jobs.push sends to them, games.services.devices checks them when they are saved).

Such an address must not make the site call its own network (SSRF): the database, Redis, a
cloud's metadata service at 169.254.169.254. Checking the host name and then letting an HTTP
client connect is not enough, for two reasons, and ``post`` closes both:

- the client resolves the name again when it connects, and a name whose DNS answers a public
  address to the check and 127.0.0.1 a moment later (DNS rebinding) passes the check and reaches
  the loopback. Here the name is resolved once, every address it has is checked, and the
  connection goes to the checked address; the name still goes in the Host header and in TLS
  (SNI, and the certificate is verified against it), so a real push service answers as usual;
- a client that follows redirects goes wherever the answer says: a push service (or anyone
  posing as one) answering ``307 Location: http://127.0.0.1:6379/`` had the worker POST there.
  Redirects are never followed: a 3xx is an answer like any other, and the address is refused.

Local addresses are allowed only with settings.WEBHOOK_ALLOW_HTTP (the tests' stub services,
`make run`).
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter

# The well-known NAT64 prefix (RFC 6052): 64:ff9b::7f00:1 reaches 127.0.0.1 through a gateway.
NAT64 = ipaddress.ip_network("64:ff9b::/96")


class Refused(Exception):
    """The address may not be called. ``reason`` is one of REASONS."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


PRIVATE = "private"  # the host is, or resolves to, an address that is not on the public internet
UNKNOWN = "unknown"  # the host does not resolve
REDIRECT = "redirect"  # the address answered with a redirect
REASONS = (PRIVATE, UNKNOWN, REDIRECT)


def public(address: str) -> bool:
    """Whether an IP address is on the public internet, looking through the IPv6 forms that
    carry an IPv4 address (``::ffff:127.0.0.1``, 6to4, Teredo, NAT64)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    inner = []
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            inner.append(ip.ipv4_mapped)
        if ip.sixtofour is not None:
            inner.append(ip.sixtofour)
        if ip.teredo is not None:
            inner.extend(ip.teredo)
        if ip in NAT64:
            inner.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return all(a.is_global and not a.is_multicast for a in [ip, *inner])


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to (a literal address: itself), in the resolver's
    order. A test stands in for DNS by replacing this."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in infos))


def checked_address(url: str) -> str:
    """The address to connect to for ``url``: its host resolved once, every address it has on
    the public internet (unless settings allow local ones). Raises Refused."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        addresses = resolve(host, port) if host else []
    except (OSError, UnicodeError, ValueError):
        addresses = []
    if not addresses:
        raise Refused(UNKNOWN)
    if not settings.WEBHOOK_ALLOW_HTTP and not all(public(a) for a in addresses):
        raise Refused(PRIVATE)
    return addresses[0]


def refusal(url: str) -> str:
    """Why ``url`` may not be called ("" when it may): one of REASONS. Where settings allow local
    addresses (tests, `make run`), nothing is looked up: "" for any address."""
    if settings.WEBHOOK_ALLOW_HTTP:
        return ""
    try:
        checked_address(url)
    except Refused as exc:
        return exc.reason
    return ""


class PinnedAdapter(HTTPAdapter):
    """A transport that connects to one address whatever the URL's host: the host stays in the
    Host header (set by ``post``), in TLS's SNI and in the certificate check."""

    def __init__(self, address: str):
        self.address = address
        super().__init__(max_retries=0)

    def get_connection_with_tls_context(self, request, verify, proxies=None, cert=None):
        host_params, pool_kwargs = self.build_connection_pool_key_attributes(request, verify, cert)
        if host_params["scheme"] == "https":
            pool_kwargs["server_hostname"] = host_params["host"]
            pool_kwargs["assert_hostname"] = host_params["host"]
        host_params = {**host_params, "host": self.address}
        return self.poolmanager.connection_from_host(**host_params, pool_kwargs=pool_kwargs)


class PinnedSession:
    """What pywebpush calls ``post`` on (its ``requests_session``): ``post`` below."""

    def post(self, url, **kwargs):
        return post(url, **kwargs)


def post(url: str, *, timeout: float, headers=None, **kwargs) -> requests.Response:
    """POST to ``url`` on the address ``checked_address`` allows, following no redirect (a
    3xx raises Refused). Raises Refused, or requests.RequestException for the network."""
    address = checked_address(url)
    parts = urlsplit(url)
    default_port = 443 if parts.scheme == "https" else 80
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    if parts.port and parts.port != default_port:
        host = f"{host}:{parts.port}"
    with requests.Session() as session:
        session.trust_env = False  # no proxy from the environment: it would connect by name
        adapter = PinnedAdapter(address)
        session.mount("https://", adapter)
        session.mount("http://", adapter)
        response = session.post(
            url,
            headers={**(headers or {}), "Host": host},
            timeout=timeout,
            allow_redirects=False,
            **kwargs,
        )
    if response.is_redirect or 300 <= response.status_code < 400:
        raise Refused(REDIRECT)
    return response
