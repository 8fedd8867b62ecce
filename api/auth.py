"""How a request through the API is authenticated: ``Authorization: Bearer <token>`` and nothing
else. No session cookie is read (a page open in the same browser lends the API nothing), so the
API needs no CSRF check: a forged cross-site request carries no bearer token.

Each endpoint names the scope it needs (``TokenAuth("play")``); the token is read again on every
request (api.tokens.authenticate), counted against its minute (api.tokens.count_request), and the
request then speaks its owner's language (their setting, as their emails do).
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _
from ninja.security import HttpBearer

from api import tokens
from api.models import AccessToken


class ApiError(Exception):
    """An answer other than 200, with its reason: ``{"detail": message, "code": code, ...}``."""

    def __init__(self, status: int, message: str, code: str, headers=None, **extra):
        super().__init__(message)
        self.status, self.code, self.headers, self.extra = status, code, headers or {}, extra


class TokenAuth(HttpBearer):
    def __init__(self, scope: str):
        super().__init__()
        self.scope = scope

    def __call__(self, request):
        header = request.headers.get("Authorization", "")
        if not header:
            raise ApiError(
                401, _("send your token as the header Authorization: Bearer <token>"), "no_token"
            )
        if header.split(" ")[0].lower() != "bearer":
            raise ApiError(401, _("only Authorization: Bearer <token> is understood"), "no_token")
        return super().__call__(request)

    def authenticate(self, request, token: str) -> AccessToken:
        found = tokens.authenticate(token.strip())
        if found is None:
            raise ApiError(
                401, _("this token is unknown or revoked, or its account is closed"), "bad_token"
            )
        try:
            tokens.count_request(found)
        except tokens.RateLimited as exc:
            raise ApiError(
                429, str(exc), "rate_limited", headers={"Retry-After": str(exc.retry_after)}
            ) from None
        language = found.user.email_language()
        translation.activate(language)
        request.LANGUAGE_CODE = language
        if not found.has_scope(self.scope):
            raise ApiError(
                403,
                _("this token lacks the %(scope)s scope (it has: %(scopes)s)")
                % {"scope": self.scope, "scopes": ", ".join(found.scope_list)},
                "scope",
            )
        return found


READ = TokenAuth("read")
PLAY = TokenAuth("play")
