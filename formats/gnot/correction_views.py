"""GNOT bridge teams (seed 004): correcting a match on its page (issue 8). Thin function views.

The match page (``formats.gnot.views.match_result``) shows, below the result form, the tie
rule in force with the seed's words, the final-spot mark and the match's audited changes
(:func:`corrections_context`). Directors and arbiters undo the latest change; only the director
marks a match as deciding a spot in the National or Metropolitan final (the second 1.9.3).

Both actions answer an htmx request with the page's ``#match-form`` region (the result form in
it must carry the match's new version) and a plain POST with a redirect to the match page; a
refusal is shown in the region, or as a message on the match page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from events.access import event_for_director, event_for_results
from events.errors import UserError
from events.forms import NO_VERSION
from events.models import Event, Role
from events.selectors import user_role
from events.views import HtmxHttpRequest
from formats.gnot import corrections, selectors
from formats.gnot.forms import MatchResultForm
from formats.gnot.models import TeamMatch
from formats.gnot.rules import TieRule


@dataclass(frozen=True)
class TieRuleText:
    clause: str
    text: str


# Seed 004, 1.9, word for word; the two clauses numbered 1.9.3 are told apart by their text.
SEED_TIE_RULES = {
    TieRule.RESCORE: TieRuleText(
        "1.9.1",
        "Where a fourteen board match is scheduled for the first half of the evening; ties "
        "shall be broken by rescoring the match using board-a-match scoring, and if still tied "
        "by rescoring using total point scoring. If the teams are still tied then the tie will "
        "be broken by lot.",
    ),
    TieRule.ONE_BOARD: TieRuleText(
        "1.9.2",
        "Where a fourteen board match is scheduled for the second half of the evening the tie "
        "shall be broken by a 1 board playoff, if still tied then the fifteen boards played "
        "will be rescored as per 1.9.1",
    ),
    TieRule.TWO_BOARDS: TieRuleText(
        "1.9.3 (28-board match)",
        "Where a twenty-eight board match is tied, which does not determine a spot in the "
        "National Final, the tie shall be broken by a two board playoff, and if still tied then "
        "all thirty boards will be rescored as per 1.9.1",
    ),
    TieRule.FINAL_SPOT: TieRuleText(
        "1.9.3 (final spot)",
        "Where a tie occurs which determines a spot in either the National or Metropolitan "
        "final it shall be broken by a four board playoff, and if still tied by successive one "
        "board playoffs.",
    ),
}
MAY_BE_DRAWN = TieRuleText(
    "no match tie rule",
    "this match may be drawn: a pool's ties are broken by 3.1.1's own procedure, the Swiss's "
    "by 1.9.4.",
)


def tie_rule_text(row: TeamMatch) -> TieRuleText:
    if not selectors.needs_winner(row):
        return MAY_BE_DRAWN
    return SEED_TIE_RULES[selectors.tie_rule(row)]


def corrections_context(request: HttpRequest, event: Event, row: TeamMatch) -> dict[str, Any]:
    """What the match page shows below the result form."""
    role = user_role(event, request.user)
    return {
        "changes": corrections.match_changes(event, row, selectors.match_rows(event)),
        "tie_rule": tie_rule_text(row),
        "final_spot_applies": selectors.needs_winner(row),
        "final_spot_rule": SEED_TIE_RULES[TieRule.FINAL_SPOT],
        "final_spot_refusal": corrections.final_spot_refusal(row, not row.final_spot),
        "may_undo": role in (Role.DIRECTOR, Role.ARBITER),
        "may_mark": role == Role.DIRECTOR,
    }


def _match_or_404(event: Event, match_id: int) -> TeamMatch:
    row = corrections.match_of(event, match_id)
    if row is None:
        raise Http404("No such match")
    return row


def _answer(
    request: HtmxHttpRequest, event: Event, match_id: int, *, error: str, done: str
) -> HttpResponse:
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, done)
        return redirect("gnot:match", slug=event.slug, match_id=match_id)
    row = _match_or_404(event, match_id)
    context = {
        "event": event,
        "match": row,
        "form": MatchResultForm(initial={"version": row.version}),
        "conflict": None,
        "correction_error": error,
        "correction_done": done,
        **corrections_context(request, event, row),
    }
    return render(request, "gnot/match.html#match-form", context)


@require_POST
def match_undo(request: HtmxHttpRequest, slug: str, match_id: int, entry_id: int) -> HttpResponse:
    """Undo the match's latest audited change (directors and arbiters)."""
    event = event_for_results(request, slug)
    row = _match_or_404(event, match_id)
    try:
        undo = corrections.match_result_undo(
            event=event, entry_id=entry_id, user=request.user, match_id=row.pk
        )
    except UserError as exc:
        return _answer(request, event, row.pk, error=str(exc), done="")
    return _answer(request, event, row.pk, error="", done=f"{undo.summary}.")


class FinalSpotForm(forms.Form):
    final_spot = forms.TypedChoiceField(
        choices=[("1", "decides a final spot"), ("0", "decides no final spot")],
        coerce=lambda value: value == "1",
    )
    version = forms.IntegerField(required=False)


@require_POST
def final_spot(request: HtmxHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """The director marks or unmarks the match as deciding a final spot (the second 1.9.3)."""
    event = event_for_director(request, slug)
    row = _match_or_404(event, match_id)
    form = FinalSpotForm(request.POST)
    try:
        if not form.is_valid():
            raise UserError("say whether the match decides a final spot")
        saved = corrections.match_final_spot_set(
            event=event,
            match_id=row.pk,
            final_spot=form.cleaned_data["final_spot"],
            expected_version=form.cleaned_data["version"] or NO_VERSION,
            user=request.user,
        )
    except UserError as exc:
        return _answer(request, event, row.pk, error=str(exc), done="")
    rule = tie_rule_text(saved).clause
    return _answer(request, event, row.pk, error="", done=f"Saved: ties now go by {rule}.")
