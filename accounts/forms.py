from django import forms
from django.conf import settings
from django.utils.translation import gettext, gettext_lazy

from accounts.models import AccountDeletion, User, time_zone_names
from accounts.names import visible_text


class SettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = [
            "display_name",
            "language",
            "time_zone",
            "confirm_moves",
            "email_turns",
            "email_when_open",
            "reminder_hours",
            "digest_hour",
        ]
        widgets = {"email_turns": forms.RadioSelect}
        labels = {
            "display_name": gettext_lazy("Display name"),
            "time_zone": gettext_lazy("Time zone"),
        }
        help_texts = {
            "display_name": gettext_lazy(
                "Shown to other players instead of your username. Leave blank to use your username."
            ),
            "time_zone": gettext_lazy("Turn deadlines and reminders are shown in this time zone."),
        }

    def clean_display_name(self):
        name = visible_text(self.cleaned_data.get("display_name", ""))
        if name and self.instance.name_taken(name):
            raise forms.ValidationError(
                gettext(
                    "That name is another player's (or reads the same): choose another, so that "
                    "nobody takes you for them."
                )
            )
        return name

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A list to choose from; the model's validator still refuses any name not in it.
        zones = sorted(time_zone_names())
        self.fields["time_zone"].widget = forms.Select(choices=[(z, z) for z in zones])
        # Blank: the pages follow the browser (or the footer's switcher), the emails are English.
        # Each language is named in itself, so that a reader finds their own.
        self.fields["language"].choices = [
            ("", gettext_lazy("Automatic (the browser's language)")),
            *settings.LANGUAGES,
        ]


class DeletionForm(forms.Form):
    """Deleting the account: the password confirms it is the owner, and the running games are
    resigned or handed to the computer (games.services.accounts_deletion)."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    running_games = forms.ChoiceField(
        label=gettext_lazy("Your running games"),
        choices=AccountDeletion.RunningGames.choices,
        initial=AccountDeletion.RunningGames.RESIGN,
        widget=forms.RadioSelect,
    )
