"""GNOT bridge teams (seed 004): forms. They parse and validate what people type; the rules are
checked by the services (and, behind them, the engines)."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from events.errors import UserError
from events.limits import whole_number
from formats.gnot.bridge import EVENT_BANDS, VP_SCALES, BandRow
from formats.gnot.services import ScoreInput, TeamFields, parse_band_lines, parse_team_lines


class TeamsForm(forms.Form):
    teams = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="One team a line: name; players (e.g. “Kangaroos; Smith, Jones, Brown, Lee”).",
    )

    def team_fields(self) -> list[TeamFields]:
        return parse_team_lines(self.cleaned_data["teams"])


class SeedingForm(forms.Form):
    order = forms.CharField(
        help_text="Team numbers, best seed first, separated by spaces or commas (1.5).",
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def clean_order(self) -> list[int]:
        raw = re.split(r"[\s,;]+", self.cleaned_data["order"].strip())
        parsed = [whole_number(part) for part in raw]
        if None in parsed:
            raise forms.ValidationError("enter team numbers only")
        numbers = [number for number in parsed if number is not None]
        if len(set(numbers)) != len(numbers):
            raise forms.ValidationError("a team is listed twice")
        return numbers


SCALE_CHOICES = [(code, scale.name) for code, scale in VP_SCALES.items()] + [
    (EVENT_BANDS, "The event's own band table (below)")
]


class ScaleForm(forms.Form):
    vp_scale = forms.ChoiceField(choices=SCALE_CHOICES, label="Swiss VP scale (1.8.1)")


class BandsForm(forms.Form):
    """The event's own band table: the printed scale typed in, one band a line."""

    bands = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        label="Band table",
        help_text="One band a line: BOARDS MARGIN WINNER LOSER, e.g. “14 3 16 14” (from a "
        "margin of 3 IMPs over 14 boards the winner scores 16 VPs, the loser 14). Start each "
        "table with its draw at margin 0.",
    )

    def clean_bands(self) -> dict[int, list[BandRow]]:
        try:
            return parse_band_lines(self.cleaned_data["bands"])
        except UserError as exc:
            raise forms.ValidationError(str(exc)) from exc


class WhistScaleForm(forms.Form):
    """3.2.4.1 (exactly 25 teams): "the NSWBA scale for 8 board butler matches"."""

    whist_scale = forms.ChoiceField(
        choices=[("", "The Swiss scale"), *SCALE_CHOICES],
        required=False,
        label="American Whist VP scale (3.2.4.1)",
    )
    whist_boards = forms.IntegerField(
        min_value=1,
        max_value=64,
        initial=8,
        label="Board count of the table used",
        help_text="3.2.4.1 converts the seven-board matches on the scale for 8 boards.",
    )


class GuestForm(forms.Form):
    """3.1.8: the Double Knockout winner plays the Swiss as a non-contending team (or not)."""

    joins = forms.BooleanField(required=False)


def _nets(text: str) -> tuple[int, ...]:
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if not all(re.fullmatch(r"[-+]?\d+", p) for p in parts):
        raise forms.ValidationError("board scores are whole numbers such as 420 or -50")
    return tuple(int(p) for p in parts)


class MatchResultForm(forms.Form):
    """IMPs each side, or every board's net score for the home team (both tables together)."""

    home_imps = forms.IntegerField(min_value=0, required=False, label="Home IMPs")
    away_imps = forms.IntegerField(min_value=0, required=False, label="Away IMPs")
    board_nets = forms.CharField(
        required=False,
        label="Board scores",
        help_text="Optional: each board's net score for the home team, in board order.",
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def clean_board_nets(self) -> tuple[int, ...]:
        return _nets(self.cleaned_data.get("board_nets") or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        imps = (data.get("home_imps"), data.get("away_imps"))
        if not data.get("board_nets") and None in imps and not self.errors:
            raise forms.ValidationError("enter both teams' IMPs or every board's score")
        return data

    def score(self) -> ScoreInput:
        data = self.cleaned_data
        return ScoreInput(data.get("home_imps"), data.get("away_imps"), data["board_nets"])


class ChoiceForm(forms.Form):
    ACTIONS = ("choose", "forfeit", "director", "lot")
    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    chosen = forms.IntegerField(required=False, min_value=1)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("action") in ("choose", "director") and data.get("chosen") is None:
            raise forms.ValidationError("pick the opponent")
        return data


class AppealForm(forms.Form):
    first = forms.IntegerField(min_value=1, label="Team")
    second = forms.IntegerField(min_value=1, label="swaps with team")


class DeclineForm(forms.Form):
    team_no = forms.IntegerField(min_value=1)
    declined = forms.BooleanField(required=False)
