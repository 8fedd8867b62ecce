"""allauth's hooks for this site."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.contrib import messages
from django.utils import translation
from django.utils.translation import gettext

from accounts import closing
from accounts.models import User
from config.middleware import supported_language


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        """A new username may not read as an existing player's username or display name
        (accounts.names: NFKC, case-folded), so that nobody signs up as someone else."""
        username = super().clean_username(username, shallow=shallow)
        if User().name_taken(username):
            raise forms.ValidationError(gettext("That name is taken by another player."))
        return username

    def save_user(self, request, user, form, commit=True):
        """A new player keeps the language they signed up in (the page's, from their browser or
        the footer's switcher), so that their emails come in it too; Settings changes it."""
        code = supported_language(translation.get_language() or "")
        if code and not user.language:
            user.language = code
        return super().save_user(request, user, form, commit=commit)

    def pre_login(self, request, user, **kwargs):
        """Signing in with the right password reopens an account its owner closed and cancels
        a pending deletion (accounts.closing); allauth has checked the password, and only then
        would it turn an inactive account away."""
        if not user.is_active and closing.reopen(user=user):
            messages.info(
                request,
                gettext(
                    "Welcome back: your account is open again, and any deletion you had asked "
                    "for is cancelled."
                ),
            )
        return super().pre_login(request, user, **kwargs)
