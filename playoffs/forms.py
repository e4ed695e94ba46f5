"""Playoff forms: confirmation with the start (2.2 / 3.2), coin toss (2.5.3), the chief
arbiter's decision (3.5)."""

from __future__ import annotations

import re

from django import forms
from django.utils import timezone

from events.limits import whole_number
from playoffs.models import TossChoice


class ConfirmForm(forms.Form):
    last_round_date = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Classical: the playoff is on the reserve day after this date (3.2).",
    )
    last_game_end = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="Rapid & Blitz: the playoff starts thirty minutes after this (2.2).",
    )


def confirm_form() -> ConfirmForm:
    """Prefilled with now: the director confirms on the last day, right after the last game."""
    now = timezone.localtime().replace(second=0, microsecond=0)
    return ConfirmForm(initial={"last_round_date": now.date(), "last_game_end": now})


class CoinTossForm(forms.Form):
    toss_winner = forms.IntegerField(min_value=1)
    choice = forms.ChoiceField(choices=TossChoice.choices)


class ArbiterDecisionForm(forms.Form):
    order = forms.CharField(
        max_length=200, help_text="Start numbers of the players still tied, best first: 5, 2, 7"
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="The means the chief arbiter used, after consulting the players (3.5).",
    )

    def clean_order(self) -> list[int]:
        text = self.cleaned_data["order"]
        parts = [part for part in re.split(r"[\s,;]+", text) if part]
        numbers = [whole_number(part) for part in parts]
        if not parts or None in numbers:
            raise forms.ValidationError("list start numbers separated by commas")
        return [number for number in numbers if number is not None]
