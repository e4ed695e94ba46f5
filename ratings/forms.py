"""Forms: the type-ahead's search, and a list's upload with its CSV column mapping."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django import forms

from ratings.names import MAX_QUERY_CHARS
from ratings.parsers import CSV_DELIMITERS, CSV_FIELDS, RATINGS

_MONTH = re.compile(r"(\d{4})-(\d{1,2})(?:-\d{1,2})?")
COLUMN_LABELS = {
    "name": "Name column",
    "surname": "…or surname column",
    "first_name": "…and first-name column",
    "fide_id": "FIDE id column",
    "national_id": "National id column",
    "federation": "Federation column",
    "sex": "Sex column",
    "title": "Title column",
    "birth_year": "Year (or date) of birth column",
    "standard": "Standard rating column",
    "rapid": "Rapid rating column",
    "blitz": "Blitz rating column",
}


class SearchForm(forms.Form):
    q = forms.CharField(
        required=False,
        max_length=MAX_QUERY_CHARS,
        label="Name or FIDE id",
        error_messages={"max_length": f"Search with at most {MAX_QUERY_CHARS} characters."},
    )
    list = forms.IntegerField(required=False, min_value=1, label="List")


class RefreshForm(forms.Form):
    """The list to refresh the event's players from and, for *Apply*, the preview's digest."""

    list = forms.IntegerField(
        min_value=1,
        max_value=2**31 - 1,
        label="List",
        error_messages={
            "required": "Choose a rating list.",
            "invalid": "Choose one of the rating lists.",
            "min_value": "Choose one of the rating lists.",
            "max_value": "Choose one of the rating lists.",
        },
    )
    digest = forms.CharField(required=False, max_length=64)
    page = forms.IntegerField(required=False, min_value=1, max_value=10**6)

    def refusal(self) -> str:
        """The first error, in one line."""
        return next(iter(error for errors in self.errors.values() for error in errors), "")


def parse_month(text: str) -> dt.date | None:
    """``2026-11`` (an ``<input type="month">``'s value) → 1 Nov 2026; blank → None."""
    text = text.strip()
    if not text:
        return None
    match = _MONTH.fullmatch(text)
    if match is None or not 1 <= int(match.group(2)) <= 12:
        raise ValueError(f"{text[:20]!r} is not a month (YYYY-MM)")
    return dt.date(int(match.group(1)), int(match.group(2)), 1)


class ListUploadForm(forms.Form):
    file = forms.FileField(
        required=False,
        label="List file",
        help_text="FIDE's download as it comes (players_list.zip, standard_rating_list.zip, "
        "players_list_xml.zip, …) or the file inside it, or a national list as CSV.",
    )
    upload = forms.CharField(required=False, widget=forms.HiddenInput)  # a previewed file's key
    upload_name = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)
    name = forms.CharField(
        required=False,
        max_length=100,
        help_text="E.g. “FIDE standard”. A list of the same name is replaced. Empty for FIDE's "
        "lists: “FIDE”, “FIDE standard”, “FIDE rapid” or “FIDE blitz” from the file.",
    )
    published = forms.CharField(
        required=False,
        label="Month of the list",
        widget=forms.DateInput(attrs={"type": "month"}),
        help_text="Empty: the month in the file's header, when it has one.",
    )
    kind = forms.ChoiceField(
        required=False,
        label="Rating of a single FIDE list",
        choices=[("", "From the file's name")] + [(kind, kind.title()) for kind in RATINGS],
    )
    csv = forms.BooleanField(required=False, label="A national list (CSV with a header line)")
    delimiter = forms.ChoiceField(
        required=False,
        choices=[("", "Guess"), *((name, name.title()) for name in CSV_DELIMITERS)],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in CSV_FIELDS:
            self.fields[f"column_{field}"] = forms.CharField(
                required=False, max_length=60, label=COLUMN_LABELS[field]
            )

    def clean_published(self) -> dt.date | None:
        try:
            return parse_month(self.cleaned_data.get("published") or "")
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean_upload(self) -> str:
        token = self.cleaned_data.get("upload") or ""
        if token and not re.fullmatch(r"[A-Za-z0-9_-]{16,64}", token):
            raise forms.ValidationError("The previewed file is gone: choose it again.")
        return token

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("file") and not data.get("upload"):
            self.add_error("file", "Choose the list's file.")
        return data

    def mapping(self) -> dict[str, str] | None:
        """The CSV column mapping (field → column name or number), or None for FIDE's lists."""
        if not self.cleaned_data.get("csv"):
            return None
        return {
            field: self.cleaned_data[f"column_{field}"]
            for field in CSV_FIELDS
            if self.cleaned_data.get(f"column_{field}")
        }

    def column_fields(self) -> list[forms.BoundField]:
        return [self[f"column_{field}"] for field in CSV_FIELDS]
