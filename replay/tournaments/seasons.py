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
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import selectors as game_selectors
from games.csv_export import csv_response
from games.services import ServiceError
from games.tournaments import seasons, selectors
from replay.tournaments.forms import SeasonForm
from replay.tournaments.refusals import refusal
from replay.tournaments.views import _club, list_context


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
    """Create a season; a form the core refuses is drawn again on the club's tournaments page,
    each refusal next to the field it is about (nothing stored)."""
    club = _club(request, slug)
    if not game_selectors.can_write(request.user, club):
        raise Http404("no such page")
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            body = seasons.season_create(
                club=club, name=form.cleaned_data["name"], header=form.header(), user=request.user
            ).body
        except ServiceError as err:
            _refuse_season_header(form, err)
        else:
            messages.success(request, _("Season created. Add its evenings."))
            return redirect("tournaments:season", slug=club.slug, pk=body["id"])
    return render(request, "tournaments/list.html", list_context(request, club, season_form=form), status=400)


def _refuse_season_header(form: SeasonForm, err: ServiceError) -> None:
    """The core's refusal of the header at the field it is about, with what to do; its code in
    `data-code`. From this form (best and min_evenings checked in range first) the core can only
    refuse the scoring and its points."""
    rule = getattr(err, "params", {}).get("rule")
    if rule == "season_points_table":
        words = _(
            "Each place scores at least the points of the place after it: write the points from the first place down."
        )
    elif rule == "season_header" and form.cleaned_data["scoring"] == "table":
        words = _(
            "Write the points of places 1, 2, 3, … as whole numbers from 0 to 10000, separated by commas "
            "(at most 64 places; a place past the end scores 0)."
        )
    elif rule == "season_header" and form.cleaned_data.get("points_table", "").strip():
        words = _("Points per place are for the scoring by a table of points: choose it, or leave the points empty.")
    else:
        form.add_error(None, refusal(err, _("Not stored")))
        return
    form.add_error("points_table", format_html('<span class="refusal" data-code="{}">{}</span>', err.code, words))


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


@never_cache
def season_file(request: HttpRequest, slug: str, pk: int, kind: str) -> HttpResponse:
    """The season table to download, for whoever may read the page: `table.csv` (a line per
    player, three columns per evening: games.tournaments.seasons.table_rows) or `table.pdf` (the
    table, then each player's evenings), in the reader's language."""
    season = _season(request, slug, pk)
    view = seasons.season_view(season, request.user)
    if kind == "csv":
        header, *rows = seasons.table_rows(view)
        return csv_response(header, rows, f"season-{season.pk}-table.csv")
    if kind != "pdf":
        raise Http404("no such file")
    from . import printouts
    from .table_cards import _pdf_response

    data = printouts.season_pdf(season.club.name, view, _rows(view), _rules(view["header"]))
    return _pdf_response(data, f"season-{season.pk}-table.pdf")


def _rules(header: dict) -> str:
    """The season's rules in a sentence, as the page says them (for the PDF)."""
    if header["scoring"] == "place":
        said = [_("An evening scores by place: the last of n ranked entries scores 1, the first n.")]
    elif header["scoring"] == "vp":
        said = [_("An evening scores its VP.")]
    else:
        said = [
            _("An evening scores by a table of points per place: %(points)s (a place past the end scores 0).")
            % {"points": ", ".join(map(str, header["points_table"]))}
        ]
    if header["best"]:
        said.append(
            ngettext("Counted: the best %(n)s evening.", "Counted: the best %(n)s evenings.", header["best"])
            % {"n": header["best"]}
        )
    else:
        said.append(_("Every evening counts."))
    if header["min_evenings"]:
        said.append(
            ngettext("Ranked after %(n)s evening.", "Ranked after %(n)s evenings.", header["min_evenings"])
            % {"n": header["min_evenings"]}
        )
    return " ".join(said)


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
