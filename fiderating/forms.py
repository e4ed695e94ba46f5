from __future__ import annotations

from django import forms

from fiderating.models import EventKind
from fiderating.rating import K_VALUES


class KForm(forms.Form):
    """A player's K set by hand: one of B.02 8.3.3's (40, 20, 10); empty clears it."""

    k = forms.TypedChoiceField(
        label="K",
        choices=[("", "—"), *((k, str(k)) for k in K_VALUES)],
        coerce=int,
        empty_value=None,
        required=False,
        error_messages={"invalid_choice": "K is 40, 20 or 10 (B.02 8.3.3)."},
    )


class ConditionsForm(forms.Form):
    kind = forms.ChoiceField(choices=EventKind.choices, label="Kind of event (title norms)")
    standings_columns = forms.BooleanField(
        required=False,
        label="Show the rating change and performance in the standings and the wall chart",
    )
