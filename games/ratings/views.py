"""League tables and player pages: HTML (templates/ratings/), JSON and CSV.

    /clubs/<id>/league/            ?variant=nanking&from=YYYY-MM-DD&to=YYYY-MM-DD&format=json|csv
                                   &table=elo|predictive (CSV; default predictive)
    /clubs/<id>/league.json, /clubs/<id>/league.csv
    /players/<id>/                 ?variant=nanking&format=json|csv   (CSV: the rating history)
    /players/<id>.json, /players/<id>.csv

Reads follow the club's visibility (games.selectors.clubs_visible): a members-only club's pages
are a 404 to others.
"""
from __future__ import annotations

from datetime import date

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe

from games.csv_export import csv_response
from games.models import Club, Player
from games.selectors import club_q, clubs_visible

from . import queries
from .adapters import HAND_SD
from .elo import CLUB_ELO

FORMATS = ("html", "json", "csv")


def _fmt(request, fmt: str | None) -> str:
    fmt = (fmt or request.GET.get("format") or "html").lower()
    if fmt not in FORMATS:
        raise Http404("unknown format")
    return fmt


def _variant(request) -> str:
    v = request.GET.get("variant", "nanking")
    if v not in HAND_SD:
        raise Http404("unknown variant")
    return v


def _date(request, name: str) -> date | None:
    raw = request.GET.get(name)
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise Http404(f"{name} must be a date YYYY-MM-DD") from None


def _visible_club(request, club_id: int | str) -> Club:
    """By id or by slug (`/clubs/tuesday-club/league/` as well as `/clubs/12/league/`)."""
    return get_object_or_404(clubs_visible(request.user), club_q(club_id))


def league(request, club_id: int, fmt: str | None = None):
    club = _visible_club(request, club_id)
    fmt = _fmt(request, fmt)
    variant = _variant(request)
    start, end = _date(request, "from"), _date(request, "to")
    table = queries.league_table(club.pk, variant, start, end)
    elo_table = queries.league_table(club.pk, variant, start, end, table="elo")
    elo_rules = {"k": CLUB_ELO.k, "provisional_k": CLUB_ELO.provisional_k,
                 "provisional_games": CLUB_ELO.provisional_games, "initial": CLUB_ELO.initial}
    if fmt == "json":
        return JsonResponse({
            "club": {"id": club.pk, "name": club.name, "slug": club.slug}, "variant": variant,
            "from": start.isoformat() if start else None, "to": end.isoformat() if end else None,
            "system": table.system, "games": table.games,
            "recomputed_at": table.recomputed_at.isoformat() if table.recomputed_at else None,
            "rows": [r.as_dict() for r in table.rows],
            "leads_with": club.league_leads_with,
            "elo": {**elo_rules, "rows": [r.as_dict() for r in elo_table.rows]},
        })
    if fmt == "csv":
        which = request.GET.get("table", "predictive")
        if which not in queries.TABLES:
            raise Http404("table is elo or predictive")
        table = elo_table if which == "elo" else table
        rows = []
        for r in table.rows:
            d = r.as_dict()
            d["rating"] = f"{r.rating:.1f}"
            d["rd"] = f"{r.rd:.1f}"
            d["last_change"] = f"{r.last_change:+.1f}"
            d["win_rate"] = f"{r.win_rate:.3f}"
            rows.append([d[c] for c in queries.CSV_COLUMNS])
        name = f"{club.slug}-{variant}-league{'-elo' if which == 'elo' else ''}.csv"
        return csv_response(queries.CSV_COLUMNS, rows, name)
    tables = [elo_table, table]
    if club.league_leads_with == Club.LeagueLeadsWith.PREDICTIVE:
        tables.reverse()
    return render(request, "ratings/league.html", {
        "club": club, "table": table, "tables": tables, "elo": elo_rules, "variant": variant,
        "start": start, "end": end, "variants": list(HAND_SD),
    })


def player(request, player_id: int, fmt: str | None = None):
    p = get_object_or_404(Player, pk=player_id)
    club = _visible_club(request, p.club_id)
    fmt = _fmt(request, fmt)
    variant = _variant(request)
    page = queries.player_page(p, variant)
    if fmt == "json":
        return JsonResponse(page)
    if fmt == "csv":
        cols = ["game_id", "finished_at", "result", "expected", "rating_before", "rating_after", "change",
                "points_for", "points_against", "partners", "opponents"]
        rows = ([";".join(g[c]) if isinstance(g[c], list) else g[c] for c in cols] for g in page["history"])
        return csv_response(cols, rows, f"player-{p.pk}-{variant}.csv")
    chart = queries.rating_chart_svg(queries.daily_points(page["history"]),
                                     title=f"{p.name}: rating history ({variant})")
    return render(request, "ratings/player.html", {
        "player": p, "club": club, "page": page, "chart": mark_safe(chart), "variant": variant,
        "recent": list(reversed(page["history"][-20:])),
    })
