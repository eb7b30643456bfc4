"""League tables and player pages: HTML (templates/ratings/), JSON and CSV. The website's pages;
what they show is computed in games.ratings (queries, player_queries, standing, charts).

    /clubs/<id>/league/            ?variant=nanking&from=YYYY-MM-DD&to=YYYY-MM-DD&format=json|csv
                                   &table=elo|predictive (CSV; default predictive)
    /clubs/<id>/league.json, /clubs/<id>/league.csv
                                   &period=all|season|30d (from/to, when given, win)
    /clubs/<id>/league/settings/   the club's league rules (admins)
    /players/<id>/                 ?variant=nanking&period=...&format=json|csv   (CSV: the rating history)
                                   &before=N|after=N (the page's games, 50 a page: player_view)
    /players/<id>.json, /players/<id>.csv   (the whole history)

Reads follow the club's visibility (games.selectors.clubs_visible): a members-only club's pages
are a 404 to others.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import formats, timezone
from django.utils.cache import patch_vary_headers
from django.utils.dates import MONTHS_3
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import AuthenticationFailed

from games.api.tokens import page_reader
from games.csv_export import csv_response
from games.query_dates import MAX_DATE, MIN_DATE, QueryDateError, parse_query_date
from games.ratings import charts, player_queries, player_view, queries
from games.ratings.adapters import HAND_SD
from games.ratings.evening import evening_of, zone
from games.ratings.league_rules import LEADS_WITH_PREDICTIVE, RULE_FIELDS, league_settings_update, rule_values, rules_of
from games.ratings.player_history import Figure, Sentence
from games.ratings.standing import PERIODS, period_bounds
from games.ratings.systems import ELO
from games.selectors import club_get, club_q, clubs_visible, membership_role, players_visible, time_zone_names
from games.services import ServiceError

from .forms import LeagueSettingsForm

#: The periods' names on the pages (standing.PERIOD_LABELS, in the reader's language).
PERIOD_LABELS = {"all": _("All time"), "season": _("This season"), "30d": _("Last 30 days")}

FORMATS = ("html", "json", "csv")
PAIRS_SHOWN = 30  # the page's partnerships (most games first); the JSON has them all


if TYPE_CHECKING:
    from games.models import Club


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
    return parse_query_date(name, request.GET.get(name))


def _bad_date(fmt: str, err: QueryDateError) -> HttpResponse:
    """A date parameter out of its bounds or not a date: 400 with the code and the reason."""
    if fmt == "json":
        return JsonResponse(err.as_dict(), status=400)
    return HttpResponse(err.message, status=400, content_type="text/plain; charset=utf-8")


def _visible_club(request, club_id: int | str) -> Club:
    """By id or by slug (`/clubs/tuesday-club/league/` as well as `/clubs/12/league/`)."""
    return get_object_or_404(clubs_visible(request.user), club_q(club_id))


def _token_aware(view):
    """The league and player pages (their JSON and CSV above all) read with an API token as well
    as a session (games.api.tokens.page_reader): a members-only club's bot reads its own league.
    An unknown token is a 401, not the anonymous page; the answer varies with Authorization."""

    def wrapped(request, *args, **kwargs):
        try:
            request.user = page_reader(request)
        except AuthenticationFailed as err:
            response = JsonResponse({"code": "authentication_failed", "message": str(err.detail)}, status=401)
            response["WWW-Authenticate"] = "Token"
        else:
            response = view(request, *args, **kwargs)
        patch_vary_headers(response, ("Authorization",))
        return response

    wrapped.__name__, wrapped.__doc__ = view.__name__, view.__doc__
    return wrapped


def _period(request, club: Club) -> tuple[str, date | None, date | None]:
    """The period shown, as evenings of the club (games.ratings.evening): explicit from/to dates win
    ("custom"); else `period` (all, season, 30d) up to this evening (at 01:00 in the club's zone,
    still the one that began yesterday)."""
    start, end = _date(request, "from"), _date(request, "to")
    if start or end:
        return "custom", start, end
    period = request.GET.get("period", "all")
    if period not in PERIODS:
        raise Http404("period is all, season or 30d")
    start, end = period_bounds(period, evening_of(timezone.now(), club.time_zone), rules_of(club).season_start_month)
    return period, start, end


@_token_aware
def league(request, club_id: int, fmt: str | None = None):
    club = _visible_club(request, club_id)
    fmt = _fmt(request, fmt)
    variant = _variant(request)
    try:
        period, start, end = _period(request, club)
    except QueryDateError as err:
        return _bad_date(fmt, err)
    rule = player_queries.rank_rule(club)
    table = queries.league_table(club.pk, variant, start, end, rule=rule, tz=club.time_zone)
    elo_table = queries.league_table(club.pk, variant, start, end, table="elo", rule=rule, tz=club.time_zone)
    elo_rules = ELO.rules(variant)
    league_rules = rules_of(club)
    rules = {
        "min_games": rule.min_games,
        "inactive_days": rule.inactive_days,
        "season_start_month": league_rules.season_start_month,
        "time_zone": club.time_zone,
        "rates_bot_games": league_rules.rates_bot_games,
        "follows_tournament_vp": league_rules.follows_tournament_vp,
    }
    if fmt == "json":
        return JsonResponse(
            {
                "club": {"id": club.pk, "name": club.name, "slug": club.slug},
                "variant": variant,
                "period": period,
                "from": start.isoformat() if start else None,
                "to": end.isoformat() if end else None,
                "system": table.system,
                "games": table.games,
                "recomputed_at": table.recomputed_at.isoformat() if table.recomputed_at else None,
                "rules": rules,
                "reference": table.reference.isoformat() if table.reference else None,
                "rows": [r.as_dict() for r in table.rows],
                "leads_with": league_rules.leads_with,
                "elo": {**elo_rules, "rows": [r.as_dict() for r in elo_table.rows]},
                "partnerships": queries.league_partnerships(club.pk, variant, start, end, tz=club.time_zone),
            }
        )
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
    if league_rules.leads_with == LEADS_WITH_PREDICTIVE:
        tables.reverse()
    return render(
        request,
        "ratings/league.html",
        {
            "club": club,
            "table": table,
            "tables": tables,
            "elo": elo_rules,
            "variant": variant,
            "start": start,
            "end": end,
            "variants": list(HAND_SD),
            "period": period,
            "periods": [(k, PERIOD_LABELS[k]) for k in PERIODS],
            "rules": rules,
            "date_min": MIN_DATE,
            "date_max": MAX_DATE,
            "pairs": queries.league_partnerships(club.pk, variant, start, end, limit=PAIRS_SHOWN, tz=club.time_zone),
            "pairs_shown": PAIRS_SHOWN,
            "is_admin": membership_role(request.user, club) == "admin",
        },
    )


def league_settings(request, club_id: str):
    """The club's league rules, for its admins (others: 404, as for a page that is not theirs)."""
    club = _visible_club(request, club_id)
    if membership_role(request.user, club) != "admin":
        raise Http404("club admins only")
    club = club_get(club.pk)  # as it is now (the form shows its time zone)
    form = LeagueSettingsForm(
        request.POST or None, initial={**rule_values(rules_of(club)), "time_zone": club.time_zone}
    )
    if request.method == "POST" and form.is_valid():
        try:
            league_settings_update(
                club=club,
                actor=request.user,
                time_zone=form.cleaned_data["time_zone"],
                **{f: form.cleaned_data[f] for f in RULE_FIELDS},
            )
        except ServiceError as err:
            messages.error(request, err.message)
        else:
            messages.success(request, _("League settings saved."))
            return redirect("league:league", club_id=club.slug)
    return render(
        request, "ratings/league_settings.html", {"club": club, "form": form, "time_zones": time_zone_names()}
    )


def _month_names() -> list[str]:
    """The months' short names in the reader's language, for the charts' time axis."""
    return [str(MONTHS_3[m]).capitalize() for m in range(1, 13)]


def _number(f: Figure) -> str:
    """A figure of a why line as the reader's language writes numbers (9,2 in French)."""
    # rounded first: number_format cuts a float's decimals off (26.53 would read 26)
    text = formats.number_format(round(abs(f.value), f.decimals), f.decimals)
    if f.value < 0 and text.strip("0,.\u00a0 ") != "":
        return "\u2212" + text
    return ("+" if f.signed else "") + text


def _cursor(request, name: str) -> int | None:
    """A paging cursor (a game's place in the pool's replay): a whole number, or absent."""
    text = request.GET.get(name)
    if text in (None, ""):
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 10:
        raise ValueError(gettext("%(name)s must be a whole number") % {"name": name})
    return int(text)


def _paging_query(request) -> str:
    """The page's query without its cursor, ready for one ("variant=nanking&period=all&")."""
    query = request.GET.copy()
    for name in ("before", "after"):
        query.pop(name, None)
    text = query.urlencode()
    return f"{text}&" if text else ""


def _player_csv(p, variant: str, page: dict) -> HttpResponse:
    cols = [
        "game_id",
        "finished_at",
        "result",
        "expected",
        "rating_before",
        "rating_after",
        "change",
        "elo_expected",
        "elo_before",
        "elo_after",
        "elo_change",
        "points_for",
        "points_against",
        "partners",
        "opponents",
        "why",
    ]
    rows = ([";".join(g[c]) if isinstance(g[c], list) else g[c] for c in cols] for g in page["history"])
    return csv_response(cols, rows, f"player-{p.pk}-{variant}.csv")


def _why(sentence: Sentence) -> str:
    """A game's why line in the reader's language: whole sentences from the catalogue."""
    return sentence.render(gettext, _number)


@_token_aware
def player(request, player_id: int, fmt: str | None = None):
    p = get_object_or_404(players_visible(request.user), pk=player_id)
    club = _visible_club(request, p.club_id)
    fmt = _fmt(request, fmt)
    variant = _variant(request)
    try:
        period, start, end = _period(request, club)
    except QueryDateError as err:
        return _bad_date(fmt, err)
    if fmt != "html":
        # the downloads stay whole: a download is not a page a person waits on (player_view)
        page = player_queries.player_page(p, variant, start, end)
        if fmt == "json":
            return JsonResponse(page)
        return _player_csv(p, variant, page)
    try:
        before, after = _cursor(request, "before"), _cursor(request, "after")
    except ValueError as err:
        return HttpResponse(str(err), status=400, content_type="text/plain; charset=utf-8")
    page = player_view.player_view(p, variant, start, end, before=before, after=after, render_why=_why)
    chart = charts.rating_chart(
        player_view.chart_points(page["chart_history"]),
        title=_("%(player)s: rating after each game (%(variant)s)") % {"player": p.name, "variant": variant},
        legend=(
            str(_("Elo table")),
            # xgettext:no-python-format
            str(_("predictive (band: 95% range)")),
        ),
        months=_month_names(),
        tz=zone(club.time_zone),
        empty=str(_("No rated games yet")),
    )
    ranks = [(date.fromisoformat(d["day"]), d["rank"], d["played"]) for d in page["rank"]["chart"]]
    rank_chart = charts.rank_chart(
        ranks,
        title=_("%(player)s: rank after each club day") % {"player": p.name},
        months=_month_names(),
        tz=zone(club.time_zone),
        empty=str(_("Not ranked yet")),
    )
    return render(
        request,
        "ratings/player.html",
        {
            "player": p,
            "club": club,
            "league_rules": rules_of(club),
            "page": page,
            "chart": mark_safe(chart),
            "rank_chart": mark_safe(rank_chart),
            "variant": variant,
            "period": period,
            "periods": [(k, PERIOD_LABELS[k]) for k in PERIODS],
            "start": start,
            "end": end,
            "recent": list(reversed(page["history"])),
            "evenings": list(reversed(page["evenings"])),
            "rank_days": page["rank"]["played"],
            "chart_points": player_view.CHART_POINTS,
            "thinned": len(page["chart_history"]) < page["games"],
            "paging_query": _paging_query(request),
        },
    )
