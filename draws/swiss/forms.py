"""Forms of the Swiss pages: parse and validate input into the services' arguments."""

from __future__ import annotations

from django import forms

from draws.models import DIRECTOR_BYES, Acceleration, InitialColour
from events.forms import DuplicatesConfirmable, one_line
from events.limits import MAX_RATING
from events.services import PlayerFields


class SwissSetupForm(forms.Form):
    initial_colour = forms.ChoiceField(
        choices=InitialColour.choices,
        required=False,
        label="Colour of pairing number 1 in round 1",
    )
    # The imported file's table (XXA) is the import's to set, not a choice here.
    acceleration = forms.ChoiceField(
        choices=[(a.value, a.label) for a in Acceleration if a != Acceleration.TABLE],
        required=False,
    )


class ByeRequestForm(forms.Form):
    start_no = forms.IntegerField(min_value=1, label="Start no.")
    round = forms.IntegerField(min_value=1, label="Round")
    kind = forms.ChoiceField(choices=[(k.value, k.label) for k in DIRECTOR_BYES], label="Bye")
    note = forms.CharField(max_length=200, required=False)


class ForbiddenPairForm(forms.Form):
    first = forms.IntegerField(min_value=1, label="Start no.")
    second = forms.IntegerField(min_value=1, label="and start no.")
    until_round = forms.IntegerField(
        min_value=1, required=False, label="Up to round", help_text="Empty: every round."
    )
    reason = forms.CharField(max_length=200, required=False, help_text="e.g. brothers, same club")


class WithdrawalForm(forms.Form):
    start_no = forms.IntegerField(min_value=1, label="Start no.")
    after_round = forms.IntegerField(
        min_value=0, required=False, label="Withdrew after round", help_text="Empty: back in."
    )


class LateEntryForm(DuplicatesConfirmable):
    name = forms.CharField(max_length=200, validators=[one_line])
    rating = forms.IntegerField(min_value=0, max_value=MAX_RATING, required=False)
    federation = forms.CharField(max_length=3, required=False)
    title = forms.CharField(max_length=3, required=False, validators=[one_line])
    fide_id = forms.CharField(max_length=15, required=False, label="FIDE id", validators=[one_line])
    missed = forms.ChoiceField(
        choices=[
            ("zero", "Zero points (C.04.2)"),
            ("half", "Half-point byes (if the rules grant them)"),
        ],
        label="Rounds already paired",
    )
    confirm_duplicates = DuplicatesConfirmable.base_fields["confirm_duplicates"]

    def player_fields(self) -> PlayerFields:
        data = self.cleaned_data
        return PlayerFields(
            name=data["name"],
            rating=data.get("rating") or 0,
            federation=data.get("federation") or "",
            title=data.get("title") or "",
            fide_id=data.get("fide_id") or "",
        )


class PairRoundForm(forms.Form):
    allow_unfinished = forms.BooleanField(
        required=False,
        label="Pair although the previous round has games without a result (they count as not "
        "played)",
    )


CHANGES = [
    ("swap", "Swap colours on a board"),
    ("exchange", "Exchange two players"),
    ("set", "Set a board"),
]


class RoundEditForm(forms.Form):
    """A manual change: ``swap`` (board), ``exchange`` (two start numbers), ``set`` (board,
    White, Black). ``confirm`` is ticked on the second submission, after the reasons."""

    change = forms.ChoiceField(choices=CHANGES, widget=forms.HiddenInput)
    first = forms.IntegerField(min_value=1)
    second = forms.IntegerField(min_value=1, required=False)
    third = forms.IntegerField(min_value=1, required=False)
    confirm = forms.BooleanField(required=False)

    def values(self) -> list[int]:
        data = self.cleaned_data
        return [v for v in (data["first"], data.get("second"), data.get("third")) if v is not None]
