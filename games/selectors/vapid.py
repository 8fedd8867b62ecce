"""The site's VAPID key pair (RFC 8292) for Web Push: read from settings (games.jobs.push sends
with it, the Settings page hands the public key to browsers)."""

from __future__ import annotations

import base64
import functools
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

DEV_KEY = Path(settings.BASE_DIR) / "out" / "vapid.key"


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_private_key() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return b64u(key.private_numbers().private_value.to_bytes(32, "big"))


@functools.cache
def private_key() -> str:
    """The VAPID private key (base64url, 32 raw bytes), or "" when Web Push is off."""
    if settings.VAPID_PRIVATE_KEY:
        return settings.VAPID_PRIVATE_KEY
    if not settings.DEBUG:
        return ""
    if not DEV_KEY.exists():  # `make run`: one key kept across restarts, never committed (out/)
        DEV_KEY.parent.mkdir(parents=True, exist_ok=True)
        DEV_KEY.write_text(new_private_key())
    return DEV_KEY.read_text().strip()


@functools.cache
def public_key() -> str:
    """The applicationServerKey browsers subscribe with: the uncompressed P-256 point,
    base64url; "" when Web Push is off."""
    private = private_key()
    if not private:
        return ""
    raw = base64.urlsafe_b64decode(private + "=" * (-len(private) % 4))
    if len(raw) == 32:
        key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    else:
        key = serialization.load_der_private_key(raw, password=None)
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64u(point)
