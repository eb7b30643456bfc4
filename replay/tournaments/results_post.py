"""Results to post (issue 33, item 8): per tournament, a results page and a one-file summary, HTML
and PDF, that a club can mail or put on its website: the standings, each entry's rounds (table,
partners, opponents, score, VP) and the address of each table's replay; in any of the site's four
languages (`?lang=`), whatever the reader's own.

Everything is read off the core's fold of what the reader may see (games.tournaments.visibility:
an open duplicate round's results stay the TD's), and the replays' addresses are absolute, so the
file still leads to them once it has left the site."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games import tournament as core
from games.tournaments import at_the_table, selectors, visibility

from .forms import SCORING_LABELS, SYSTEM_LABELS

LANGUAGES = [code for code, _name in settings.LANGUAGES]


if TYPE_CHECKING:
    from games.tournaments.models import Tournament


def summary(tournament: Tournament, request: HttpRequest) -> dict[str, Any]:
    """What the page, the file and the PDF show, in the active language."""
    state = visibility.reader_state(tournament, request.user)
    standings = core.standings_json(state)
    crosstable = {line["entry"]: line["rounds"] for line in core.crosstable_json(state)["crosstable"]}
    games = selectors.table_games(tournament)
    names = {e.id: e.name for e in state.entries.values()}
    people = at_the_table.player_names(state)
    unit = {"points": _("Points"), "matchpoints": _("MP")}.get(state.header["scoring"], _("VP"))

    def replay(round_number: int, table: int | None) -> str | None:
        link = games.get((round_number, table)) if table else None
        return request.build_absolute_uri(reverse("replay:game-replay", args=[link.game_id])) if link else None

    entries = []
    for line in standings["standings"]:
        rounds = []
        for cell in crosstable.get(line["entry"], []):
            kind = cell["kind"]
            rounds.append(
                {
                    "round": cell["round"],
                    "kind": kind,
                    "table": cell.get("table"),
                    "partners": " & ".join(names[p] for p in cell.get("partners", [])),
                    "opponents": " & ".join(names[o] for o in cell.get("opponents", [])),
                    "score": f"{cell['points']}:{cell['against']}"
                    if kind == "table" and cell.get("points") is not None
                    else "",
                    "vp": _number(cell.get("vp")) if kind in ("table", "bye", "late") else "",
                    "replay": replay(cell["round"], cell.get("table")) if kind == "table" else None,
                    "what": _cell_words(kind),
                }
            )
        entries.append(
            {
                "entry": line["entry"],
                "rank": line["rank"],
                "name": line["name"],
                "players": ", ".join(people.get(p, str(p)) for p in state.entries[line["entry"]].players),
                "rounds": rounds,
            }
        )
    return {
        "tournament": tournament,
        "club": tournament.club,
        "finished": state.finished,
        "system_label": SYSTEM_LABELS[state.header["system"]],
        "scoring_label": SCORING_LABELS[state.header["scoring"]],
        "rounds_played": sum(1 for r in state.rounds if r.closed),
        "unit": unit,
        "standings": [
            {**line, "vp": _number(line["vp"]), "unranked": line["rank"] is None} for line in standings["standings"]
        ],
        "entries": entries,
        "individuals": state.header["entrants"] == "individuals",
        "page_url": request.build_absolute_uri(reverse("tournaments:tournament-results", args=[tournament.pk])),
    }


def _number(value: Any) -> str:
    """VP as the standings write them: 2, 1.5, 12.3333 (matchpoints), never 2.0."""
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, float) else str(value)


def _cell_words(kind: str) -> str:
    return {"bye": _("bye"), "late": _("late entry"), "absent": "–", "pending": _("no result yet")}.get(kind, "")


def _language(request: HttpRequest) -> str:
    """The summary's language: `?lang=` (one of the site's four), else the reader's."""
    lang = request.GET.get("lang") or translation.get_language()
    if lang not in LANGUAGES:
        raise Http404("no such language")
    return lang


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    try:
        return selectors.tournament_get(request.user, pk)
    except Http404:
        raise Http404("no such tournament") from None


def results_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The results on the site, with the one-file summary (HTML, PDF) in each language."""
    tournament = _tournament(request, pk)
    with translation.override(_language(request)):
        context = summary(tournament, request)
        downloads = [{"lang": code, "name": name} for code, name in settings.LANGUAGES]
        return HttpResponse(
            render_to_string("tournaments/results.html", {**context, "downloads": downloads}, request=request)
        )


def results_file(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """The summary as one file to mail or publish: `results.html` (a page of its own, its style
    inside it, no script) or `results.pdf`."""
    tournament = _tournament(request, pk)
    lang = _language(request)
    with translation.override(lang):
        context = summary(tournament, request)
        if kind == "html":
            body = render_to_string("tournaments/results_file.html", {**context, "lang": lang})
            response = HttpResponse(body, content_type="text/html; charset=utf-8")
        elif kind == "pdf":
            from . import printouts

            response = HttpResponse(printouts.results_pdf(context), content_type="application/pdf")
        else:
            raise Http404("no such file")
    response["Content-Disposition"] = f'attachment; filename="tournament-{pk}-results-{lang}.{kind}"'
    return response
