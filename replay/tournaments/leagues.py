"""A club's league on the site (issue 36, item 2): its table, with the promotion and relegation
places marked, its fixtures round by round with their results and dates, and the corrections'
reasons, for every reader of the club; for the TD a paper score per match (a new result, or a
correction with its reason) and, on the club's tournaments page, a form to create a league.
Every write goes through games.tournaments.leagues with the `seq` the page was drawn at; the
page shows what the API gives (leagues.league_view)."""

from __future__ import annotations

import re

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
from games.tournaments import leagues
from replay.tournaments.refusals import refusal
from replay.tournaments.views import _club

SCORING_CHOICES = [
    ("box", gettext_lazy("a game to 1000 a match")),
    ("round_vp", gettext_lazy("four hands a match")),
]
#: a team a line: "Owls: Anna, Ben" (the name, then its players)
_TEAM = re.compile(r"^\s*([^:]+?)\s*:\s*(.+?)\s*$")


class LeagueForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    teams = forms.CharField(label=gettext_lazy("Teams, one a line: “Owls: Anna, Ben”"), widget=forms.Textarea)
    legs = forms.TypedChoiceField(label=gettext_lazy("Legs"), choices=[(1, "1"), (2, "2")], coerce=int)
    scoring = forms.ChoiceField(label=gettext_lazy("A match"), choices=SCORING_CHOICES)
    three_points = forms.BooleanField(label=gettext_lazy("3 points a win, 1 a draw"), required=False)
    promotion = forms.IntegerField(label=gettext_lazy("Places going up"), min_value=0, max_value=40, initial=0)
    relegation = forms.IntegerField(label=gettext_lazy("Places going down"), min_value=0, max_value=40, initial=0)

    def clean_teams(self) -> list[dict]:
        entries = []
        for number, line in enumerate(self.cleaned_data["teams"].splitlines(), 1):
            if not line.strip():
                continue
            found = _TEAM.match(line)
            players = [p.strip() for p in found.group(2).split(",") if p.strip()] if found else []
            if not found or not players:
                raise forms.ValidationError(_("line %(n)s: a team is “Name: player, player”") % {"n": number})
            name = found.group(1)
            entries.append({"entry": f"t{len(entries) + 1}", "name": name, "players": players})
        return entries

    def header(self) -> dict:
        data = self.cleaned_data
        header = {
            "entries": data["teams"],
            "legs": data["legs"],
            "scoring": data["scoring"],
            "promotion": data["promotion"],
            "relegation": data["relegation"],
        }
        if data["three_points"]:
            header["match_points"] = {"win": 3, "draw": 1, "loss": 0}
        return header


class ScheduleForm(forms.Form):
    """The teams' own date for a match not played yet."""

    seq = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    match = forms.CharField(max_length=20, widget=forms.HiddenInput)
    date = forms.DateField(label=gettext_lazy("The teams' own date"))
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500, required=False)


class MatchForm(forms.Form):
    """A match's paper score (a new result), or the TD's correction of it (with a reason)."""

    seq = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    match = forms.CharField(max_length=20, widget=forms.HiddenInput)
    home = forms.IntegerField(label=gettext_lazy("Home"), min_value=-100_000, max_value=100_000)
    away = forms.IntegerField(label=gettext_lazy("Away"), min_value=-100_000, max_value=100_000)
    date = forms.DateField(label=gettext_lazy("Played on"), required=False)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500, required=False)


class FromGameForm(forms.Form):
    """A match's result taken from the table's recorded game (the link alone: games.tournaments.leagues)."""

    seq = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    match = forms.CharField(max_length=20, widget=forms.HiddenInput)
    game = forms.IntegerField(label=gettext_lazy("The table's game"), min_value=1)


#: how many of the club's latest finished games the TD picks a match's game from
GAME_CHOICES = 30


def _game_choices(league, rounds: list[dict]) -> list[dict]:
    """The club's latest finished games not yet any match's (`rounds`: the page's fold of the
    league), for the TD's "from its game" form."""
    linked = {m.get("game") for r in rounds for m in r["matches"]}
    return [
        {"id": g.pk, "played_at": g.played_at, "players": ", ".join(game_selectors.game_player_names(g))}
        for g in game_selectors.finished_games(league.club, GAME_CHOICES)
        if g.pk not in linked
    ]


@login_required
@require_POST
def league_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    if not game_selectors.can_write(request.user, club):
        raise Http404("no such page")
    form = LeagueForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not stored: a league needs a name, its teams (“Name: player, player”) and places."))
        return redirect("tournaments:club-tournaments", slug=club.slug)
    try:
        body = leagues.league_create(
            club=club, name=form.cleaned_data["name"], header=form.header(), user=request.user
        ).body
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return redirect("tournaments:club-tournaments", slug=club.slug)
    messages.success(request, _("League created: its fixtures are below."))
    return redirect("tournaments:league", slug=club.slug, pk=body["id"])


def league_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league = leagues.league_get(request.user, pk)
    if league.club.slug != slug:
        raise Http404("no such league")
    can_run = game_selectors.can_write(request.user, league.club)
    if request.method == "POST":
        if not can_run:
            raise Http404("no such page")
        _record(request, league)
        return redirect("tournaments:league", slug=slug, pk=pk)
    view = leagues.league_view(league)
    data = view["league"]
    names = {e["entry"]: e["name"] for e in data["header"]["entries"]}
    rounds = [
        {
            **r,
            "matches": [{**m, "home_name": names[m["home"]], "away_name": names[m["away"]]} for m in r["matches"]],
            "sits_out_names": [names[e] for e in r["sits_out"]],
        }
        for r in data["rounds"]
    ]
    corrections = [h for h in view["history"] if h["type"] == "match_corrected"]
    return render(
        request,
        "tournaments/league.html",
        {
            "club": league.club,
            "league": league,
            "data": data,
            "header": data["header"],
            "rounds": rounds,
            "corrections": corrections,
            "can_run": can_run,
            "game_choices": _game_choices(league, data["rounds"]) if can_run else [],
        },
    )


def _schedule(request: HttpRequest, league) -> None:
    form = ScheduleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not stored: give the date as 2027-03-14."))
        return
    data = form.cleaned_data
    event = {"type": "match_scheduled", "match": data["match"], "date": data["date"].isoformat()}
    if data["reason"]:
        event["reason"] = data["reason"]
    try:
        leagues.append_league_events(league_id=league.pk, events=[event], expected_seq=data["seq"], user=request.user)
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return
    messages.success(request, _("The match is moved to the teams' date."))


def _from_game(request: HttpRequest, league) -> None:
    form = FromGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not stored: choose the table's game."))
        return
    data = form.cleaned_data
    event = {"type": "match_result", "match": data["match"], "game": data["game"]}
    try:
        leagues.append_league_events(league_id=league.pk, events=[event], expected_seq=data["seq"], user=request.user)
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return
    messages.success(request, _("Result stored: the match counts as its game says, corrections of the game included."))


def _record(request: HttpRequest, league) -> None:
    if request.POST.get("action") == "schedule":
        _schedule(request, league)
        return
    if request.POST.get("action") == "from_game":
        _from_game(request, league)
        return
    form = MatchForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not stored: give both scores (and a date as 2027-03-14)."))
        return
    data = form.cleaned_data
    correcting = request.POST.get("action") == "correct"
    event: dict = {
        "type": "match_corrected" if correcting else "match_result",
        "match": data["match"],
        "score": [data["home"], data["away"]],
    }
    if data["date"]:
        event["date"] = data["date"].isoformat()
    if data["reason"]:
        event["reason"] = data["reason"]
    try:
        leagues.append_league_events(league_id=league.pk, events=[event], expected_seq=data["seq"], user=request.user)
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return
    messages.success(request, _("Correction stored.") if correcting else _("Result stored."))
