"""Settings > Access tokens: make a token (its secret shown once, on the page that made it),
list them with when each was last used, revoke one. Session pages, signed in, CSRF-protected
like every form of the site; the tokens themselves never log anyone in to a page."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from api import bots, tokens
from api.models import AccessToken


class TokenForm(forms.Form):
    name = forms.CharField(
        label=pgettext_lazy("access token", "Name"),
        max_length=tokens.NAME_LENGTH,
        help_text=gettext_lazy("What will use it, to tell your tokens apart."),
    )
    scopes = forms.MultipleChoiceField(
        label=pgettext_lazy("access token", "Scopes"),
        choices=AccessToken.Scope.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=[AccessToken.Scope.READ],
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        if not tokens.is_bot(user):  # the bot scope is a bot account's only
            self.fields["scopes"].choices = [
                c for c in AccessToken.Scope.choices if c[0] != AccessToken.Scope.BOT
            ]


# The page that shows a new secret must not be kept by the browser's cache.
@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens_page(request):
    form = TokenForm(request.POST or None, user=request.user)
    secret = ""
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                issued = tokens.token_issue(
                    user=request.user,
                    name=form.cleaned_data["name"],
                    scopes=form.cleaned_data["scopes"],
                )
            except tokens.TokenError as exc:
                form.add_error(None, str(exc))
            else:
                # Shown here once (no redirect: it is never stored where a later page could
                # read it back).
                secret, status, form = issued.secret, 201, TokenForm(user=request.user)
    rows = AccessToken.objects.filter(user=request.user)
    context = {"form": form, "secret": secret, "tokens": rows}
    return render(request, "api/tokens.html", context, status=status)


@login_required
@require_POST
def token_revoke(request, token_id: int):
    token = tokens.token_revoke(user=request.user, token_id=token_id)
    if token is None:
        messages.error(request, _("There is no such token."))
    else:
        messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("api_tokens")


class BotForm(forms.Form):
    confirm = forms.CharField(
        label=gettext_lazy("Type your username to confirm"), max_length=150, strip=True
    )


@login_required
@require_http_methods(["GET", "POST"])
def bot_page(request):
    """Settings > Bot account: what a bot is, and the irreversible change, confirmed by typing
    the username."""
    form = BotForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                bots.bot_account_make(user=request.user, confirm=form.cleaned_data["confirm"])
            except bots.BotError as exc:
                form.add_error("confirm", str(exc))
            else:
                messages.success(
                    request,
                    _("Your account is a bot account now: make a token with the bot scope."),
                )
                return redirect("api_tokens")
    context = {"form": form, "is_bot": tokens.is_bot(request.user)}
    return render(request, "api/bot.html", context, status=status)
