"""A club's league on the site (issue 36, item 2): its table, with the promotion and relegation
places marked, its fixtures round by round with their results and dates, and the corrections'
reasons, for every reader of the club. Read only: the TD writes through the API
(games.tournaments.leagues, docs/api.md "Leagues"); the page shows what the API gives
(leagues.league_view)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.tournaments import leagues


def league_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league = leagues.league_get(request.user, pk)
    if league.club.slug != slug:
        raise Http404("no such league")
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
        },
    )
