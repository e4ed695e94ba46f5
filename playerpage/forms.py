from __future__ import annotations

from django import forms

from playerpage.models import REPORTABLE, Policy


class ReportForm(forms.Form):
    """The player's report: one of the three results of a game played over the board."""

    result = forms.ChoiceField(choices=[(r, r) for r in REPORTABLE])


class PolicyForm(forms.Form):
    policy = forms.ChoiceField(choices=Policy.choices, label="Players' reports")


class LinkActionForm(forms.Form):
    action = forms.ChoiceField(choices=[("revoke", "revoke"), ("reissue", "reissue")])
