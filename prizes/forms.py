"""Forms: parse the director's input into the prize services' typed arguments.

Choices come from the engines' registries (house style 2), so a new split rule or rounding
policy shows up here without touching the form.
"""

from __future__ import annotations

import datetime as dt
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


SEX_CHOICES = (("", "any"), ("w", "women (w)"), ("m", "men (m)"))
RATED_CHOICES = (
    ("", "rated and unrated"),
    ("unrated", "unrated players only"),
    ("rated", "rated players only"),
)
MAX_AGE = 120


def _years_before(day: dt.date, years: int) -> dt.date:
    """The same day ``years`` earlier (29 February becomes 28 February)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


class CategoryForm(forms.Form):
    """A category prize from plain fields (issue 20), stored as the conditions the prize engine
    reads (:mod:`prizes.categories`): every field given is one condition, and all must hold.
    The JSON conditions stay for what the fields do not say (advanced use), added to them."""

    code = forms.SlugField(max_length=40, help_text="Short and stable, e.g. women, u2000.")
    name = forms.CharField(max_length=100)
    amounts = forms.CharField(
        max_length=400, help_text="Prizes 1st, 2nd, … separated by spaces or semicolons."
    )
    rating_min = forms.IntegerField(
        label="Rating at least", required=False, min_value=0, max_value=4000
    )
    rating_max = forms.IntegerField(
        label="Rating at most",
        required=False,
        min_value=0,
        max_value=4000,
        help_text="E.g. at most 1999 for an under-2000 prize. Unrated players have no rating.",
    )
    rated = forms.ChoiceField(label="Rated", choices=RATED_CHOICES, required=False)
    age_under = forms.IntegerField(
        label="Younger than (years)",
        required=False,
        min_value=1,
        max_value=MAX_AGE,
        help_text="Juniors: younger than this on the reference date (by birth date).",
    )
    age_from = forms.IntegerField(
        label="At least (years old)",
        required=False,
        min_value=1,
        max_value=MAX_AGE,
        help_text="Seniors: this age or older on the reference date (by birth date).",
    )
    age_on = forms.DateField(
        label="Reference date", required=False, help_text="YYYY-MM-DD, e.g. 1 January."
    )
    born_from = forms.IntegerField(
        label="Born in or after (year)",
        required=False,
        min_value=1900,
        max_value=2100,
        help_text="By birth year, for players whose list gives only the year.",
    )
    born_to = forms.IntegerField(
        label="Born in or before (year)", required=False, min_value=1900, max_value=2100
    )
    sex = forms.ChoiceField(label="Sex", choices=SEX_CHOICES, required=False)
    federations = forms.CharField(
        label="Federations",
        required=False,
        max_length=200,
        help_text="FIDE codes separated by spaces or commas, e.g. NOR SWE.",
    )
    conditions = forms.CharField(
        label="More conditions (JSON, advanced)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text=CONDITIONS_HELP,
    )

    def clean_conditions(self) -> Any:
        text = self.cleaned_data["conditions"].strip()
        if not text:
            return []
        try:
            return json_parse(text, what="the conditions")
        except UserError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean_amounts(self) -> list[str]:
        tokens = self.cleaned_data["amounts"].replace(";", " ").split()
        if not tokens:
            raise forms.ValidationError("give at least one prize")
        return tokens

    def clean_federations(self) -> list[str]:
        codes = self.cleaned_data["federations"].replace(",", " ").upper().split()
        for code in codes:
            if not (len(code) == 3 and code.isascii() and code.isalpha()):
                raise forms.ValidationError(f"{code!r} is not a three-letter federation code")
        return codes

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        conditions = self._field_conditions(data)
        extra = data.get("conditions") or []
        if not isinstance(extra, list):
            raise forms.ValidationError("the JSON conditions must be a list")
        if not conditions and not extra:
            raise forms.ValidationError(
                "say who the category is for: a rating band, an age, sex, federations or "
                "unrated players"
            )
        return {
            "code": data["code"],
            "name": data["name"],
            "amounts": data["amounts"],
            "conditions": [*conditions, *extra],
        }

    def _field_conditions(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        found = _band_conditions(
            "rating",
            data.get("rating_min"),
            data.get("rating_max"),
            "the rating band {}–{} is empty",
        )
        if data.get("rated"):
            found.append(_condition("rated", "eq", data["rated"] == "rated"))
        found += self._age_conditions(data)
        if data.get("sex"):
            found.append(_condition("sex", "eq", data["sex"]))
        codes = data.get("federations") or []
        if codes:
            found.append(
                _condition("federation", "eq", codes[0])
                if len(codes) == 1
                else _condition("federation", "in", codes)
            )
        return found

    def _age_conditions(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        found = []
        under, older, on = data.get("age_under"), data.get("age_from"), data.get("age_on")
        if (under or older) and on is None:
            raise forms.ValidationError("an age needs the reference date it is counted on")
        if under:  # younger than N on the day: born after the day N years before
            found.append(_condition("birth_date", "gt", _years_before(on, under).isoformat()))
        if older:
            found.append(_condition("birth_date", "le", _years_before(on, older).isoformat()))
        return found + _band_conditions(
            "birth_year",
            data.get("born_from"),
            data.get("born_to"),
            "born {}–{}: the years are the wrong way round",
        )


def _condition(field: str, op: str, value: Any) -> dict[str, Any]:
    return {"field": field, "op": op, "value": value}


def _band_conditions(field: str, low: Any, high: Any, empty: str) -> list[dict[str, Any]]:
    """``field`` from ``low`` to ``high`` (either may be None: no bound); a band whose ends
    are the wrong way round is refused with ``empty``, formatted with its two ends."""
    if low is not None and high is not None and low > high:
        raise forms.ValidationError(empty.format(low, high))
    found = []
    if low is not None:
        found.append(_condition(field, "ge", low))
    if high is not None:
        found.append(_condition(field, "le", high))
    return found


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
