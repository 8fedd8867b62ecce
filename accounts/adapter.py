"""allauth's hooks for this site."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms

from accounts.models import User


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        """A new username may not read as an existing player's username or display name
        (accounts.names: NFKC, case-folded), so that nobody signs up as someone else."""
        username = super().clean_username(username, shallow=shallow)
        if User().name_taken(username):
            raise forms.ValidationError("That name is taken by another player.")
        return username
