from __future__ import annotations

from django import forms

from fiderating.models import K_LIMIT, EventKind


class KForm(forms.Form):
    """A player's K set by hand (B.02 8.3.3); empty clears it."""

    k = forms.IntegerField(
        label="K",
        min_value=1,
        max_value=K_LIMIT,
        required=False,
        error_messages={
            "min_value": f"K is a whole number from 1 to {K_LIMIT} (B.02 8.3.3).",
            "max_value": f"K is a whole number from 1 to {K_LIMIT} (B.02 8.3.3).",
            "invalid": f"K is a whole number from 1 to {K_LIMIT} (B.02 8.3.3).",
        },
    )


class ConditionsForm(forms.Form):
    kind = forms.ChoiceField(choices=EventKind.choices, label="Kind of event (title norms)")
    standings_columns = forms.BooleanField(
        required=False, label="Show the rating change and performance in the standings"
    )
