"""Personal access tokens: a player's programs act for them through ``/api/v1/`` with one.

Only a hash of the secret is kept (sha256 of a 32-byte ``token_urlsafe``: a random secret of that
length needs no slow hash), and its first characters for the player to tell their tokens apart.
The secret itself is shown once, when the token is made.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class AccessToken(models.Model):
    class Scope(models.TextChoices):
        READ = "read", gettext_lazy("Read my games")
        PLAY = "play", gettext_lazy("Play my games")
        BOT = "bot", gettext_lazy("Play as a bot")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(max_length=100)
    # The scopes granted, space-separated ("read play"): a token does what its scopes say and
    # nothing more (api.auth checks them per endpoint).
    scopes = models.CharField(max_length=32)
    # The secret's first characters ("blk_Ab3dE9xQ"): shown in the list, and the index the
    # lookup starts from before the hash is compared in constant time (api.tokens.authenticate).
    prefix = models.CharField(max_length=16, db_index=True)
    hashed = models.CharField(max_length=64, unique=True)  # sha256 hex of the whole secret
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def scope_list(self) -> list[str]:
        return self.scopes.split()

    def has_scope(self, scope: str) -> bool:
        """``play`` reads too (a program must see the game it plays); ``bot`` plays and reads."""
        granted = set(self.scope_list)
        if "bot" in granted:
            granted |= {"play", "read"}
        if "play" in granted:
            granted.add("read")
        return scope in granted


class BotAccount(models.Model):
    """A bot account: its player is a program, which plays through the API only (a ``bot``
    token), never through the game pages. Becoming one is irreversible and only for an account
    without games (api.bots.bot_account_make); staff disable one by deactivating its user.

    ``games`` reads it by its relation's name (``user.api_bot``, games.models.BOT_RELATION),
    never by importing this app: nothing in games imports the API."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_bot"
    )
    since = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = gettext_lazy("bot account")

    def __str__(self) -> str:
        return f"{self.user} (bot)"
