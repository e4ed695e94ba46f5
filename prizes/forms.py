"""Forms: parse the director's input into the prize services' typed arguments.

Choices come from the engines' registries (house style 2), so a new split rule or rounding
policy shows up here without touching the form.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms

from events.errors import UserError
from events.limits import json_parse
from events.models import Event
from prizes.categories import FIELDS, OPERATORS
from prizes.selectors import EffectivePrizeSettings, money
from prizes.split import ROUNDING_POLICIES, SPLIT_RULES, PrizeInputError, prize_regulation


class FundForm(forms.Form):
    prizes = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8, "cols": 30}),
        required=False,
        label="Place prizes",
        help_text="One line per place: “1 90000”. A line with an amount only is the next place.",
    )

    def clean_prizes(self) -> list[tuple[int, Decimal]]:
        prizes: list[tuple[int, Decimal]] = []
        for line_no, line in enumerate(self.cleaned_data["prizes"].splitlines(), 1):
            tokens = line.replace(":", " ").split()
            if not tokens:
                continue
            if len(tokens) > 2 or (len(tokens) == 2 and not tokens[0].isdigit()):
                raise forms.ValidationError(f"line {line_no}: write “place amount”, e.g. 1 90000")
            place = int(tokens[0]) if len(tokens) == 2 else (prizes[-1][0] + 1 if prizes else 1)
            try:
                prizes.append((place, money(tokens[-1], f"line {line_no}")))
            except PrizeInputError as exc:
                raise forms.ValidationError(str(exc)) from exc
        return prizes

    @staticmethod
    def initial_text(places: list[tuple[int, str]]) -> str:
        return "\n".join(f"{place} {amount}" for place, amount in places)


class SettingsForm(forms.Form):
    split_rule = forms.ChoiceField(required=False, label="Prize split")
    rounding = forms.ChoiceField(required=False, label="Rounding")
    unit = forms.CharField(
        required=False,
        max_length=20,
        label="Rounding unit",
        help_text="Empty: whole units of the currency (GCT 3.8.4). E.g. 0.01, 10, 100.",
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        regulation = prize_regulation(event.regulation.preset)
        self.fields["split_rule"].choices = [
            ("", f"As the regulation: {SPLIT_RULES[regulation.split_rule].name}"),
            *((code, rule.name) for code, rule in SPLIT_RULES.items()),
        ]
        self.fields["rounding"].choices = [
            ("", f"As the regulation: {ROUNDING_POLICIES[regulation.rounding].name}"),
            *((code, policy.name) for code, policy in ROUNDING_POLICIES.items()),
        ]

    def clean_unit(self) -> Decimal | None:
        raw = self.cleaned_data["unit"].strip()
        if not raw:
            return None
        try:
            return money(raw, "rounding unit")
        except PrizeInputError as exc:
            raise forms.ValidationError(str(exc)) from exc

    @staticmethod
    def initial_for(settings: EffectivePrizeSettings) -> dict[str, str]:
        overridden = settings.overridden
        return {
            "split_rule": settings.split_rule if "split_rule" in overridden else "",
            "rounding": settings.rounding if "rounding" in overridden else "",
            "unit": str(settings.unit) if "unit" in overridden else "",
        }


CONDITIONS_HELP = (
    "JSON list; all must hold. Fields: "
    + ", ".join(FIELDS)
    + "; operators: "
    + ", ".join(OPERATORS)
    + '. E.g. [{"field": "sex", "op": "eq", "value": "w"}] or '
    '[{"field": "birth_date", "op": "ge", "value": "2005-01-01"}].'
)


class CategoryForm(forms.Form):
    code = forms.SlugField(max_length=40, help_text="Short and stable, e.g. women, u2000.")
    name = forms.CharField(max_length=100)
    conditions = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), help_text=CONDITIONS_HELP
    )
    amounts = forms.CharField(
        max_length=400, help_text="Prizes 1st, 2nd, … separated by spaces or semicolons."
    )

    def clean_conditions(self) -> Any:
        try:
            return json_parse(self.cleaned_data["conditions"], what="the conditions")
        except UserError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean_amounts(self) -> list[str]:
        tokens = self.cleaned_data["amounts"].replace(";", " ").split()
        if not tokens:
            raise forms.ValidationError("give at least one prize")
        return tokens


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=200)
    slug = forms.SlugField(max_length=100, required=False, help_text="Empty: made from the name.")
    events = forms.ModelMultipleChoiceField(
        queryset=Event.objects.none(), widget=forms.CheckboxSelectMultiple, required=False
    )

    def __init__(self, *args: Any, events: Any, with_slug: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["events"].queryset = events
        if not with_slug:
            del self.fields["slug"]
