"""A club's knockout bracket on the site (issue 36, item 3): its rounds, matches and winners for
every reader of the club (stacked on a phone, side by side on a laptop or projector, and a print
stylesheet for paper); for the TD the forms to seed it, record a match's result and correct one
with a reason, and, on the club's tournaments page, one to create a bracket. Every write goes
through games.tournaments.brackets with the `seq` the page was drawn at; the layout is the one the
API gives (brackets.bracket_view: the core's fold)."""

from __future__ import annotations

import re

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import selectors as game_selectors
from games.services import ServiceError
from games.tournaments import brackets, selectors
from replay.tournaments.refusals import refusal
from replay.tournaments.views import _club

BEST_OF = [(n, str(n)) for n in (1, 3, 5, 7, 9)]
SEEDING_CHOICES = [
    ("hand", gettext_lazy("by hand (the order given)")),
    ("rating", gettext_lazy("by the club's Elo table")),
    ("previous_stage", gettext_lazy("by a tournament's standings")),
]
GAME = re.compile(r"^\s*(-?\d+)\s*[-:–]\s*(-?\d+)\s*$")


class BracketForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    best_of = forms.TypedChoiceField(label=gettext_lazy("Games per match (best of)"), choices=BEST_OF, coerce=int)
    hands = forms.IntegerField(
        label=gettext_lazy("Hands per game (empty: to 1000)"), min_value=1, max_value=64, required=False
    )
    consolation = forms.BooleanField(
        label=gettext_lazy("Consolation bracket for the first round's losers"), required=False
    )

    def header(self) -> dict:
        data = self.cleaned_data
        out = {"best_of": data["best_of"], "consolation": data["consolation"]}
        if data["hands"]:
            out["hands"] = data["hands"]
        return out


class SeedForm(forms.Form):
    seq = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    by = forms.ChoiceField(choices=SEEDING_CHOICES)
    entries = forms.CharField(required=False, max_length=20000)
    tournament = forms.IntegerField(required=False, min_value=1)
    top = forms.IntegerField(required=False, min_value=2, max_value=200)


class ResultForm(forms.Form):
    seq = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    match = forms.CharField(max_length=20)
    games = forms.CharField(required=False, max_length=500)
    walkover = forms.CharField(required=False, max_length=200)
    reason = forms.CharField(required=False, max_length=500)
    correct = forms.BooleanField(required=False)


def _bracket(request: HttpRequest, slug: str, pk: int):
    bracket = brackets.bracket_get(request.user, pk)
    if bracket.club.slug != slug:
        raise Http404("no such bracket")
    return bracket


@login_required
@require_POST
def bracket_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    if not game_selectors.can_write(request.user, club):
        raise Http404("no such page")
    form = BracketForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not stored: a bracket needs a name and a number of games per match."))
        return redirect("tournaments:club-tournaments", slug=club.slug)
    try:
        body = brackets.bracket_create(
            club=club, name=form.cleaned_data["name"], header=form.header(), user=request.user
        ).body
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return redirect("tournaments:club-tournaments", slug=club.slug)
    messages.success(request, _("Bracket created. Seed its entries."))
    return redirect("tournaments:bracket", slug=club.slug, pk=body["id"])


def bracket_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    bracket = _bracket(request, slug, pk)
    can_run = game_selectors.can_write(request.user, bracket.club) and "print" not in request.GET
    if request.method == "POST":
        if not game_selectors.can_write(request.user, bracket.club):
            raise Http404("no such page")
        if "by" in request.POST:
            _seed(request, bracket)
        else:
            _result(request, bracket)
        return redirect("tournaments:bracket", slug=slug, pk=pk)
    view = brackets.bracket_view(bracket)
    names = {s["entry"]: s for s in view["seeding"]["seeds"]}
    sections = _sections(view)
    return render(
        request,
        "tournaments/bracket.html",
        {
            "club": bracket.club,
            "bracket": bracket,
            "view": view,
            "sections": sections,
            "winner": names.get(view["winner"]) if view["winner"] else None,
            "consolation_winner": names.get(view["consolation_winner"]) if view["consolation_winner"] else None,
            "can_run": can_run,
            "printing": "print" in request.GET,
            "tournaments": selectors.club_tournaments(bracket.club) if can_run and not view["seeding"]["seeds"] else [],
            "seeding_choices": SEEDING_CHOICES,
        },
    )


def _sections(view: dict) -> list[dict]:
    names = {s["entry"]: s for s in view["seeding"]["seeds"]}
    return [
        {
            "key": key,
            "title": _("Bracket") if key == "main" else _("Consolation bracket"),
            "rounds": [_round(view, rnd, names, key, i, len(rounds)) for i, rnd in enumerate(rounds)],
        }
        for key, rounds in view["brackets"].items()
    ]


def _rules(header: dict) -> str:
    """The bracket's rules in a sentence, as the page says them (for the PDF)."""
    said = [
        ngettext("Each match is %(n)s game.", "Each match is the best of %(n)s games.", header["best_of"])
        % {"n": header["best_of"]}
    ]
    if header.get("hands"):
        said.append(
            ngettext("A game is %(n)s hand.", "A game is %(n)s hands.", header["hands"]) % {"n": header["hands"]}
        )
    else:
        said.append(_("A game is played to %(n)s.") % {"n": header["target"]})
    return " ".join(said)


@never_cache
def bracket_pdf(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The bracket as a PDF to post or hand out, for whoever may read its page, in the reader's language."""
    from . import printouts
    from .table_cards import _pdf_response

    bracket = _bracket(request, slug, pk)
    view = brackets.bracket_view(bracket)
    names = {s["entry"]: s for s in view["seeding"]["seeds"]}
    winners = []
    if view["winner"] and view["winner"] in names:
        winners.append(_("Winner: %(name)s") % {"name": names[view["winner"]]["name"]})
    if view["consolation_winner"] and view["consolation_winner"] in names:
        winners.append(_("Consolation bracket: %(name)s") % {"name": names[view["consolation_winner"]]["name"]})
    data = printouts.bracket_pdf(bracket.club.name, bracket.name, _rules(view["header"]), _sections(view), winners)
    return _pdf_response(data, f"bracket-{bracket.pk}.pdf")


def _round(view: dict, matches: list[dict], names: dict, key: str, index: int, count: int) -> dict:
    """A round's matches for the template: each side with its seed's name, players and games won."""
    if index == count - 1 and count > 1:
        title = _("Final")
    elif index == count - 2 and count > 2:
        title = _("Semi-finals")
    else:
        title = _("Round %(n)s") % {"n": index + 1}
    out = []
    for m in matches:
        wins = [0, 0]
        for a, b in m.get("games") or []:
            wins[0 if a > b else 1] += 1
        sides = []
        for i, entry in enumerate(m["sides"]):
            seed = names.get(entry) if entry is not None else None
            sides.append(
                {
                    "entry": entry,
                    "name": seed["name"] if seed else None,
                    "players": _players_line(seed),
                    "seed": seed["seed"] if seed else None,
                    "wins": wins[i] if m.get("games") else None,
                    "won": entry is not None and entry == m["winner"],
                }
            )
        out.append(
            {
                **m,
                "side_list": sides,
                "ready": None not in m["sides"] and not m.get("bye"),
                "games_text": ", ".join(f"{a}–{b}" for a, b in m.get("games") or []),
            }
        )
    return {"title": title, "matches": out}


def _players_line(seed: dict | None) -> str:
    """The seed's players under its name, unless the name is only them."""
    if not seed or not seed["player_names"]:
        return ""
    names = [str(p) for p in seed["player_names"]]
    said = ", ".join(names)
    return "" if seed["name"] in (said, " & ".join(names)) else said


def _entries(text: str, club) -> list[dict]:
    """One entry a line: `name: player, player` (or the players alone); a player named as one of
    the club's roster is that roster player (by id), any other name stays a name."""
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        name, _sep, rest = line.rpartition(":") if ":" in line else ("", "", line)
        players: list[str | int] = []
        for p in (x.strip() for x in rest.split(",")):
            if p:
                found = game_selectors.player_named(club, p)
                players.append(found.pk if found is not None else p)
        label = name.strip() or " & ".join(str(p) for p in rest.split(",") if p.strip())
        out.append({"entry": str(n), "players": players, "name": label.strip()[:200]})
    return out


def _seed(request: HttpRequest, bracket) -> None:
    form = SeedForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not stored: check the seeding form."))
        return
    data = form.cleaned_data
    entries = _entries(data["entries"], bracket.club) if data["entries"].strip() else None
    if entries is None and data["tournament"] is None:
        messages.error(request, _("Not stored: give the entries, one a line, or take them from a tournament."))
        return
    try:
        brackets.seed_bracket(
            bracket_id=bracket.pk,
            entries=entries,
            by=data["by"],
            tournament=data["tournament"],
            top=data["top"],
            expected_seq=data["seq"],
            user=request.user,
        )
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return
    messages.success(request, _("Bracket seeded."))


def _result(request: HttpRequest, bracket) -> None:
    form = ResultForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not stored: check the result form."))
        return
    data = form.cleaned_data
    event: dict = {"type": "match_corrected" if data["correct"] else "match_result", "match": data["match"]}
    if data["walkover"]:
        event["walkover"] = data["walkover"]
    else:
        games = [GAME.match(g) for g in data["games"].split(",") if g.strip()]
        if not games or not all(games):
            messages.error(request, _("Not stored: write each game's score as 600-400, games separated by commas."))
            return
        event["games"] = [[int(g.group(1)), int(g.group(2))] for g in games if g]
    if data["reason"]:
        event["reason"] = data["reason"]
    try:
        brackets.append_bracket_events(
            bracket_id=bracket.pk, events=[event], expected_seq=data["seq"], user=request.user
        )
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return
    messages.success(request, _("Result corrected.") if data["correct"] else _("Result recorded."))
