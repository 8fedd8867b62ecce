"""Forms of the lobby and history pages: create a game, upload a record.

The forms check the shape of the input (choices, numbers, one seat for the creator); the rules
themselves (a deck of 14 cards, a record's legality) are the engine's, reached through the services
or ``games.engine.record`` so that the message shown names the rule.
"""

from __future__ import annotations

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import engine, translations
from games.engine import blksgf
from games.engine import record as engine_record
from games.models import Game, Seat, Tournament
from games.services import SeatSpec

MAX_SEATS = 4
RECORD_MAX_BYTES = 1024 * 1024  # 1 MB: a long four-player game is well under 100 kB

# Every seat kind, worded for choosing it (Seat.Kind.offer); HUMAN is the creator's own seat.
SEAT_KINDS = [(kind.value, kind.offer) for kind in Seat.Kind]
# The levels players choose from, each offered with its thinking time (``level_choices``).
LEVELS = Seat.Level.choices
# Seconds a computer level thinks per move (a Shuffle turn shares them among its decisions), from
# the AI's table of levels (games/ai/levels.py: Expert's budget, and Master's, played by a Celery
# worker). The web layers do not import the AI package (tests/code/test_import_graph.py), so the
# figures are repeated here and tests/ai/test_level_table.py checks that they agree. Beginner and
# Casual answer at once (no time budget).
LEVEL_SECONDS = {Seat.Level.EXPERT: 2, Seat.Level.MASTER: 10}
COLOUR_CHOICES = [(c, capfirst(translations.COLOUR_NAMES[c])) for c in engine.COLOURS]


def level_offer(level: str) -> str:
    """A level's name with its thinking time, as the new-game form offers it."""
    name = Seat.Level(level).label
    seconds = LEVEL_SECONDS.get(level)
    if seconds is None:
        return _("%(level)s (moves at once)") % {"level": name}
    return _("%(level)s (about %(seconds)s s a move)") % {"level": name, "seconds": seconds}


def level_choices() -> list[tuple[str, str]]:
    """The level choices in the language of the request at hand."""
    return [(value, level_offer(value)) for value, _label in LEVELS]


class GameForm(forms.Form):
    mode = forms.ChoiceField(
        choices=Game.Mode.choices, initial=Game.Mode.SHUFFLE, widget=forms.RadioSelect
    )
    players = forms.TypedChoiceField(
        choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=2, widget=forms.RadioSelect
    )
    scoring = forms.ChoiceField(
        choices=Game.Scoring.choices, initial=Game.Scoring.BASIC, widget=forms.RadioSelect
    )
    recipe = forms.ChoiceField(
        label=_("Deck"),
        choices=[("default", _("Default deck (R1.4)")), ("custom", _("Custom deck"))],
        initial="default",
        widget=forms.RadioSelect,
    )
    shared_color = forms.ChoiceField(
        label=_("Shared colour (3 players)"), choices=COLOUR_CHOICES, initial="green"
    )
    move_seconds = forms.TypedChoiceField(
        label=_("Time per move"), choices=Game.MOVE_TIMES, coerce=int, initial=24 * 3600
    )
    visibility = forms.ChoiceField(
        choices=Game.Visibility.choices, initial=Game.Visibility.PUBLIC, widget=forms.RadioSelect
    )
    seating = forms.ChoiceField(
        choices=Game.Seating.choices, initial=Game.Seating.CHOSEN, widget=forms.RadioSelect
    )
    rated = forms.BooleanField(
        label=_("Rated: the result changes the players' ratings"),
        required=False,
        initial=True,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in engine.CARD_KINDS:  # the custom recipe: one count per card kind
            self.fields[f"card_{kind}"] = forms.IntegerField(
                label=translations.card_name(kind),
                min_value=0,
                max_value=14,
                initial=engine.DEFAULT_RECIPE.get(kind, 0),
                required=False,
            )
        for i in range(MAX_SEATS):
            self.fields[f"seat{i}_kind"] = forms.ChoiceField(
                label=_("Seat %(number)d") % {"number": i + 1},
                choices=SEAT_KINDS,
                initial=Seat.Kind.HUMAN if i == 0 else Seat.Kind.OPEN,
            )
            self.fields[f"seat{i}_username"] = forms.CharField(
                label=_("Username"), max_length=150, required=False
            )
            self.fields[f"seat{i}_level"] = forms.ChoiceField(
                label=_("Level"), choices=level_choices(), initial=Seat.Level.CASUAL
            )

    # -- groups of fields for the template --------------------------------------------------

    def card_fields(self):
        return [self[f"card_{kind}"] for kind in engine.CARD_KINDS]

    def seat_rows(self):
        return [
            {
                "number": i + 1,
                "kind": self[f"seat{i}_kind"],
                "username": self[f"seat{i}_username"],
                "level": self[f"seat{i}_level"],
            }
            for i in range(MAX_SEATS)
        ]

    # -- validation -------------------------------------------------------------------------

    def clean(self):
        data = super().clean()
        players = data.get("players")
        if players is None:
            return data
        mine = 0
        for i in range(players):  # seats past the player count are ignored
            kind = data.get(f"seat{i}_kind")
            if kind == Seat.Kind.HUMAN:
                mine += 1
            if kind == Seat.Kind.INVITED and not (data.get(f"seat{i}_username") or "").strip():
                self.add_error(f"seat{i}_username", _("Give the username of the player to invite."))
        if mine != 1:
            raise forms.ValidationError(
                _("Take exactly one seat yourself (“%(me)s”).") % {"me": Seat.Kind.HUMAN.offer}
            )
        if data.get("mode") == Game.Mode.SHUFFLE and data.get("recipe") == "custom":
            for kind in engine.CARD_KINDS:
                if data.get(f"card_{kind}") is None:
                    self.add_error(f"card_{kind}", _("Give a count (0 for none)."))
        return data

    def seat_specs(self) -> list[SeatSpec]:
        data = self.cleaned_data
        specs = []
        for i in range(data["players"]):
            kind = Seat.Kind(data[f"seat{i}_kind"])
            specs.append(
                SeatSpec(
                    kind,
                    username=data[f"seat{i}_username"].strip() if kind == Seat.Kind.INVITED else "",
                    level=data[f"seat{i}_level"] if kind == Seat.Kind.AI else "",
                )
            )
        return specs

    def deck_recipe(self) -> dict[str, int] | None:
        """The custom recipe, or None for the default (the engine checks the total, R1.4)."""
        data = self.cleaned_data
        if data["mode"] != Game.Mode.SHUFFLE or data["recipe"] != "custom":
            return None
        return {kind: data[f"card_{kind}"] for kind in engine.CARD_KINDS}

    @staticmethod
    def initial_like(game: Game, seats: list) -> dict:
        """The form's initial values for "a new game with these settings" (``seats``: the
        SeatSpecs of a game like it, ``services.rematch_seats``)."""
        initial = {
            "mode": game.mode,
            "players": game.players,
            "scoring": game.scoring,
            "shared_color": game.shared_color or "green",
            "move_seconds": game.move_seconds,
            "visibility": game.visibility,
            "seating": game.seating,
            "rated": game.rated,
        }
        recipe = game.deck_recipe or engine.DEFAULT_RECIPE
        initial["recipe"] = "default" if recipe == engine.DEFAULT_RECIPE else "custom"
        for kind in engine.CARD_KINDS:
            initial[f"card_{kind}"] = recipe.get(kind, 0)
        for i, spec in enumerate(seats):
            initial[f"seat{i}_kind"] = spec.kind
            initial[f"seat{i}_username"] = spec.username
            if spec.level:
                initial[f"seat{i}_level"] = spec.level
        return initial

    def create_kwargs(self) -> dict:
        """Keyword arguments for ``services.game_create`` (all but ``creator``)."""
        data = self.cleaned_data
        return {
            "mode": data["mode"],
            "players": data["players"],
            "scoring": data["scoring"],
            "seats": self.seat_specs(),
            "deck_recipe": self.deck_recipe(),
            "shared_color": data["shared_color"] if data["players"] == 3 else "",
            "move_seconds": data["move_seconds"],
            "visibility": data["visibility"],
            "seating": data["seating"],
            "rated": data["rated"],
        }


class RecordUploadForm(forms.Form):
    """A ``blokus-record/1`` file, or a classic game saved by Pentobi (``.blksgf``), read and
    replayed by the engine before anything is kept."""

    record = forms.FileField(label=_("Record file (JSON, or Pentobi's .blksgf; at most 1 MB)"))

    def clean_record(self):
        upload = self.cleaned_data["record"]
        if upload.size > RECORD_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        raw = upload.read(RECORD_MAX_BYTES + 1)
        pentobi = (upload.name or "").lower().endswith(".blksgf") or raw.lstrip()[:1] == b"("
        try:
            data = blksgf.parse(raw) if pentobi else engine_record.parse(raw)
            engine_record.replay(data)
        except ValueError as exc:  # RecordError, IllegalAction: the message names the rule
            raise forms.ValidationError(str(exc)) from None
        except Exception:  # input the engine did not foresee: refuse it, never a 500
            raise forms.ValidationError(_("The record could not be read.")) from None
        return data


def _fill_label(seconds: int | None) -> str:
    if seconds is None:
        return _("Never: wait for people")
    minutes = seconds // 60
    if minutes < 60:
        n, text = minutes, ngettext("After %(n)d minute", "After %(n)d minutes", minutes)
    elif minutes < 24 * 60:
        n = minutes // 60
        text = ngettext("After %(n)d hour", "After %(n)d hours", n)
    else:
        n = minutes // (24 * 60)
        text = ngettext("After %(n)d day", "After %(n)d days", n)
    return text % {"n": n}


NEVER = "never"


class PlayNowForm(forms.Form):
    """ "Play now": what game the player wants; the site finds the table (games.services.seeks).
    The choices are the new-game form's (mode, time per move) and the matcher's (its waits)."""

    mode = forms.ChoiceField(
        choices=Game.Mode.choices, initial=Game.Mode.SHUFFLE, widget=forms.RadioSelect
    )
    players = forms.TypedChoiceField(
        choices=[(2, "2"), (3, "3"), (4, "4"), (0, _("Any"))],
        coerce=int,
        initial=2,
        widget=forms.RadioSelect,
    )
    move_seconds = forms.TypedChoiceField(
        label=_("Time per move"), choices=Game.MOVE_TIMES, coerce=int, initial=24 * 3600
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    fill_after = forms.ChoiceField(label=_("If nobody comes, the computer takes the empty seats"))

    def __init__(self, *args, fill_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fill_after"].choices = [
            (NEVER if seconds is None else str(seconds), _fill_label(seconds))
            for seconds in fill_choices
        ]
        self.fields["fill_after"].initial = str(fill_choices[0]) if fill_choices else NEVER

    def ask_kwargs(self) -> dict:
        data = self.cleaned_data
        fill = data["fill_after"]
        return {
            "mode": data["mode"],
            "players": data["players"],
            "move_seconds": data["move_seconds"],
            "rated": data["rated"],
            "fill_after": None if fill == NEVER else int(fill),
        }


class TournamentForm(forms.Form):
    """A new tournament; the start is read in the creator's time zone (config.middleware)."""

    name = forms.CharField(label=_("Name"), max_length=80)
    format = forms.ChoiceField(
        label=_("Format"),
        choices=Tournament.Format.choices,
        initial=Tournament.Format.SWISS,
        widget=forms.RadioSelect,
    )
    mode = forms.ChoiceField(
        label=_("Mode"),
        choices=Game.Mode.choices,
        initial=Game.Mode.SHUFFLE,
        widget=forms.RadioSelect,
    )
    size = forms.TypedChoiceField(
        label=_("Players per game"),
        choices=[(2, "2"), (3, "3"), (4, "4")],
        coerce=int,
        initial=2,
        widget=forms.RadioSelect,
    )
    move_seconds = forms.TypedChoiceField(
        label=_("Time per move"), choices=Game.MOVE_TIMES, coerce=int, initial=24 * 3600
    )
    rounds = forms.IntegerField(label=_("Rounds (Swiss)"), min_value=1, max_value=15, initial=5)
    double = forms.BooleanField(
        label=_("Each pair meets twice, the first move swapped (round robin of two)"),
        required=False,
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    # Bot accounts (the API's programs) register only where the creator allows them.
    allow_bots = forms.BooleanField(label=_("Bot accounts may play"), required=False)
    min_players = forms.IntegerField(label=_("Fewest players"), min_value=2, initial=4)
    max_players = forms.IntegerField(label=_("Most players"), min_value=2, initial=32)
    starts_at = forms.DateTimeField(
        label=_("Starts at (your time)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    late_join_until = forms.IntegerField(
        label=_("Late joiners welcome until round (Swiss; 0: none)"),
        min_value=0,
        max_value=15,
        initial=0,
    )

    def create_kwargs(self) -> dict:
        return dict(self.cleaned_data)
