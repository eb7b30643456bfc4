"""A club's season on the site (issue 36, item 1): its table, its evenings and its history for
every reader of the club; for the TD a form to add or remove an evening (a removal with its
reason) and, on the club's tournaments page, one to create a season. Every write goes through
games.tournaments.seasons with the `seq` the page was drawn at; the table is the one the API
gives (seasons.season_view: each evening as the reader may see it)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games import selectors as game_selectors
from games.services import ServiceError
from games.tournaments import seasons, selectors
from replay.tournaments.refusals import refusal
from replay.tournaments.views import _club

SCORING_CHOICES = [
    ("place", gettext_lazy("by place (the last of n scores 1, the first n)")),
    ("vp", gettext_lazy("by the evening's VP")),
]


class SeasonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    scoring = forms.ChoiceField(label=gettext_lazy("Scoring of an evening"), choices=SCORING_CHOICES)
    best = forms.IntegerField(
        label=gettext_lazy("Best evenings counted (empty: all)"), min_value=1, max_value=200, required=False
    )
    min_evenings = forms.IntegerField(
        label=gettext_lazy("Evenings needed to be ranked"), min_value=0, max_value=200, initial=0
    )

    def header(self) -> dict:
        data = self.cleaned_data
        return {"scoring": data["scoring"], "best": data["best"], "min_evenings": data["min_evenings"] or 0}


class EveningForm(forms.Form):
    seq = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    action = forms.ChoiceField(choices=[("add", "add"), ("remove", "remove")], widget=forms.HiddenInput)
    tournament = forms.IntegerField(label=gettext_lazy("Evening"), min_value=1)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500, required=False)


def _season(request: HttpRequest, slug: str, pk: int):
    season = seasons.season_get(request.user, pk)
    if season.club.slug != slug:
        raise Http404("no such season")
    return season


@login_required
@require_POST
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    if not game_selectors.can_write(request.user, club):
        raise Http404("no such page")
    form = SeasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not stored: a season needs a name, a scoring and numbers in range."))
        return redirect("tournaments:club-tournaments", slug=club.slug)
    try:
        body = seasons.season_create(
            club=club, name=form.cleaned_data["name"], header=form.header(), user=request.user
        ).body
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return redirect("tournaments:club-tournaments", slug=club.slug)
    messages.success(request, _("Season created. Add its evenings."))
    return redirect("tournaments:season", slug=club.slug, pk=body["id"])


def season_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    season = _season(request, slug, pk)
    can_run = game_selectors.can_write(request.user, season.club)
    if request.method == "POST":
        if not can_run:
            raise Http404("no such page")
        _act(request, season)
        return redirect("tournaments:season", slug=slug, pk=pk)
    view = seasons.season_view(season, request.user)
    names = {e["tournament"]: e["name"] for e in view["evenings"]}
    addable = [t for t in selectors.club_tournaments(season.club) if t.pk not in names] if can_run else []
    return render(
        request,
        "tournaments/season.html",
        {
            "club": season.club,
            "season": season,
            "view": view,
            "evening_names": names,
            "rows": _rows(view),
            "can_run": can_run,
            "addable": addable,
        },
    )


def _rows(view: dict) -> list[dict]:
    """Each table row with one cell per evening of the season (empty where the player was absent)."""
    order = [e["tournament"] for e in view["evenings"]]
    rows = []
    for line in view["table"]["table"]:
        by_evening = {e["tournament"]: e for e in line["evenings"]}
        rows.append({**line, "cells": [by_evening.get(tid) for tid in order]})
    return rows


def _act(request: HttpRequest, season) -> None:
    form = EveningForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not stored: choose an evening (and give a reason to remove one)."))
        return
    data = form.cleaned_data
    event: dict = {
        "type": "evening_added" if data["action"] == "add" else "evening_removed",
        "tournament": data["tournament"],
    }
    if data["reason"]:
        event["reason"] = data["reason"]
    try:
        seasons.append_season_events(season_id=season.pk, events=[event], expected_seq=data["seq"], user=request.user)
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return
    if data["action"] == "add":
        messages.success(request, _("Evening added to the season."))
    else:
        messages.success(request, _("Evening removed from the season."))
