"""Tien Zi Que's entry page (issue #18 item 6): a round by its score line, or action by action.

- The score line is a plain form (it works without a script): who started the round, who made
  Mah-jong and how (a Pung, a Chow), and the winner's points or the five cards of the score pile.
  It becomes one engine event, ``round_result`` (docs/tien-zi-que.md), stored through
  `services.append_events` with the page's `expected_seq`; the engine decides whether the line is
  possible and scores a pile by the book's table. A refusal is shown next to the field the
  engine names (`EngineError.params["field"]`), in the engine's words (`in_words`); a 409 (another scorer saved
  first) keeps the line but disables Save until the scorer presses "Enter again" on the new state.
- Action by action is `static/entry/tzq.js`: it offers exactly the engine's legal actions
  (GET /api/games/{id}/legal/) as taps.

No rule of the game here: the engine's entry facts (`engine.entry_facts`, its `round_sheet`) say
who may start, whether a round may be drawn and which totals a round can score.
"""

from __future__ import annotations

import re
import uuid
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, gettext, gettext_lazy

from games import engine, services, snapshots

if TYPE_CHECKING:  # types only: the page reads through the selectors
    from games.models import Game

VARIANT = "tien-zi-que"
#: the engine's ``GameInfo.board`` of the games this page enters: a draw-and-discard table by rounds
BOARD = "rounds"


def enters(variant: str) -> bool:
    """Whether this page (not the family's entry page) enters a game of ``variant``."""
    info = engine.GAMES.get(variant)
    return info is not None and info.board == BOARD


#: The form's fields, in the order the page shows them (errors go next to these).
FIELDS = ("seat", "winner", "by", "points", "score_pile")
WON_BY_WORDS = {"pung": gettext_lazy("a Pung (a card drawn: +1)"), "chow": gettext_lazy("a Chow (a discard taken)")}
#: How the round's Mah-jong was made, on the score sheet ("Ann by a Pung")
WON_BY_LINE = {"pung": gettext_lazy("%(winner)s by a Pung"), "chow": gettext_lazy("%(winner)s by a Chow")}


def in_words(players: list[str], error: dict[str, Any], lang: str | None) -> str:
    """A refusal in the engine's words, in ``lang``: its code as a heading, then its reason from
    the code and parameters, else its message with seats named by their players ('Not a
    possible score line: ...'). The scorer reads the words only; the engine's code goes in the
    field error's `data-code` (RoundLine.codes)."""
    reason = engine.refusal_words(error, players, lang or "en")
    if reason is None:
        reason = re.sub(r"^round_result: ", "", str(error.get("message", "")))
        reason = re.sub(r"\bseat ([01])\b", lambda m: players[int(m.group(1))], reason)
    return f"{engine.refusal_heading(str(error.get('code')), lang)}: {reason}"


class RoundLine:
    """The POSTed score line: `seat` (the starter), `winner` (a seat or "drawn"), `by`, `points`,
    `score_pile` (card codes), `expected_seq`, `token` (the Idempotency-Key of this form)."""

    def __init__(self, data) -> None:
        self.data = data
        self.errors: dict[str, str] = {}
        self.codes: dict[str, str] = {}  # field -> the engine's refusal code (data-code, not shown)

    def value(self, name: str) -> str:
        return str(self.data.get(name, "") or "").strip()

    @property
    def pile(self) -> list[str]:
        return [c for c in re.split(r"[\s,;]+", self.value("score_pile")) if c]

    def expected_seq(self) -> int | None:
        raw = self.value("expected_seq")
        return int(raw) if raw.isdigit() else None

    def event(self) -> dict[str, Any] | None:
        """The `round_result` event the line says, or None with `errors` for what the form itself
        cannot read (a missing choice, a number that is not one); the rules are the engine's."""
        event: dict[str, Any] = {"type": "round_result"}
        seat = self.value("seat")
        if seat not in ("0", "1"):
            self.errors["seat"] = gettext("Choose who started the round.")
        else:
            event["seat"] = int(seat)
        winner = self.value("winner")
        if winner in ("0", "1"):
            event["winner"] = int(winner)
        elif winner != "drawn":
            self.errors["winner"] = gettext("Choose who made Mah-jong (or a drawn round).")
        if winner != "drawn":
            by = self.value("by")
            if by:
                event["by"] = by
            points = self.value("points")
            if points:
                if not re.fullmatch(r"-?\d{1,4}", points):
                    self.errors["points"] = gettext("The points are a whole number.")
                else:
                    event["points"] = int(points)
            if self.pile:
                event["score_pile"] = self.pile
        if self.expected_seq() is None:
            self.errors["seat"] = gettext("The page is out of date: reload it.")
        return None if self.errors else event


def sheet_rows(players: list[str], sheet: list[dict]) -> list[dict]:
    """The score sheet's rounds in words, each with the running totals after it; a scoring line by
    its name in the request's language (the engine's ``tzq_scoring:`` terms; its ``label`` is the
    French book's)."""
    words = engine.words(get_language())
    totals = [0, 0]
    rows = []
    for line in sheet:
        points = list(line.get("points") or [0, 0])
        totals = [t + p for t, p in zip(totals, points)]
        winner = line.get("winner")
        by = line.get("by")
        rows.append(
            {
                "round": line.get("round"),
                "starter": players[line["starter"]] if isinstance(line.get("starter"), int) else "",
                "winner": players[winner] if isinstance(winner, int) else None,
                "by": by,
                "won_by": (
                    WON_BY_LINE[by] % {"winner": players[winner]}
                    if by in WON_BY_LINE and isinstance(winner, int)
                    else players[winner]
                    if isinstance(winner, int)
                    else ""
                ),
                "drawn": bool(line.get("drawn")),
                "from_sheet": line.get("kind") == "round_result",
                "pile": list(line.get("score_pile") or []),
                "scoring": [
                    f"{words.term('tzq_scoring:' + str(s.get('name')), s['label'])} +{s['points']}"
                    for s in line.get("scoring") or []
                ],
                "points": points,
                "totals": list(totals),
                "cells": list(zip(points, totals)),  # each player's points and running total
            }
        )
    return rows


def round_over_text(players: list[str], state: dict) -> str:
    """'Round 2 is over: Bob +9 (Mah-jong by a Chow); totals Ann 10, Bob 9.' for the last line."""
    sheet = state.get("score_sheet") or []
    if not sheet:
        return ""
    line = sheet[-1]
    totals = ", ".join(f"{players[i]} {t}" for i, t in enumerate(state.get("totals") or []))
    if line.get("drawn"):
        text = gettext("Round %(round)s is over: drawn, no points; totals %(totals)s.") % {
            "round": line["round"],
            "totals": totals,
        }
    else:
        winner = line["winner"]
        said = {"round": line["round"], "winner": players[winner], "points": line["points"][winner], "totals": totals}
        if line.get("by") == "chow":
            text = (
                gettext("Round %(round)s is over: %(winner)s +%(points)s (Mah-jong by a Chow); totals %(totals)s.")
                % said
            )
        else:
            text = (
                gettext("Round %(round)s is over: %(winner)s +%(points)s (Mah-jong by a Pung); totals %(totals)s.")
                % said
            )
    if state.get("complete"):
        w = state.get("winner")
        text += " " + (
            gettext("Game over: %(winner)s wins.") % {"winner": players[w]}
            if isinstance(w, int)
            else gettext("Game over: a tie.")
        )
    return text


def page_context(
    request, game: Game, form: RoundLine | None = None, *, stale: int | None = None, note: str = ""
) -> dict[str, Any]:
    players = [s.player.name for s in game.seats.select_related("player")]
    state = snapshots.state_at(game, game.seq)
    facts = engine.entry_facts(state)
    doc = facts["state"]
    sheet = facts.get("round_sheet")
    errors = form.errors if form is not None else {}
    values = {f: form.value(f) for f in FIELDS} if form is not None else {}
    if sheet and stale is None and values.get("seat") not in [str(s) for s in sheet["starters"]]:
        # the engine's starter (the first player changes every round); a line kept from before
        # another scorer's entry is told, not silently changed (the 409 page shows it as typed)
        if values.get("seat") and len(sheet["starters"]) == 1 and not errors:
            errors = {
                **errors,
                "seat": gettext("Round %(round)s is started by %(player)s: the first player changes every round.")
                % {"round": sheet["round"], "player": players[sheet["starters"][0]]},
            }
        values["seat"] = str(sheet["starters"][0]) if len(sheet["starters"]) == 1 else ""
    return {
        "game": game,
        "club": game.club,
        "players": players,
        "seats": list(enumerate(players)),
        "facts": facts,
        "round_sheet": sheet,
        "in_play": doc.get("phase") in ("action", "drawn", "reshuffle"),
        "values": values,
        "errors": errors,
        "error_codes": form.codes if form is not None else {},
        "stale": stale,
        "note": note,
        # a new key per form shown: a double tap sends the same one and is stored once
        "token": uuid.uuid4().hex,
        "expected_seq": form.expected_seq() if stale is not None and form is not None else game.seq,
        "rows": sheet_rows(players, doc.get("score_sheet") or []),
        "totals": doc.get("totals") or [0, 0],
        "won_by": list(WON_BY_WORDS.items()),
        # card faces and the engine's wording in the reader's language, for static/shared/cards.js
        "words": engine.page_words(get_language(), VARIANT),
        "config": {
            "game": game.pk,
            "seq": game.seq,
            "players": players,
            "legal_url": reverse("game-legal", args=[game.pk]),
            "panels_url": reverse("entry:panels", args=[game.pk]),
            "events_url": reverse("game-events", args=[game.pk]),
            "csrf": get_token(request),
            "login_url": f"{settings.LOGIN_URL}?next={request.path}",
            "cards": {c: engine.words(get_language()).card_face(c) for c in engine.variant_cards(VARIANT)},
        },
    }


def sheet_panel(request, game: Game) -> JsonResponse:
    """The running score as HTML (entry/_tzq_sheet.html, as the page first drew it), for the
    entry script to swap in when a round ends or is undone: the sheet is drawn in one place."""
    players = [s.player.name for s in game.seats.select_related("player")]
    doc = engine.state_json(snapshots.state_at(game, game.seq))
    context = {
        "players": players,
        "rows": sheet_rows(players, doc.get("score_sheet") or []),
        "totals": doc.get("totals") or [0, 0],
    }
    return JsonResponse({"seq": game.seq, "sheet": render_to_string("entry/_tzq_sheet.html", context, request=request)})


def enter_page(request, game: Game):
    """GET /games/{id}/enter/ for a Tien Zi Que game; `?saved=N` announces the round just saved."""
    note = ""
    if request.GET.get("saved"):
        state = engine.state_json(snapshots.state_at(game, game.seq))
        note = round_over_text([s.player.name for s in game.seats.select_related("player")], state)
    return render(request, "entry/tien_zi_que.html", page_context(request, game, note=note))


def round_line(request, game: Game):
    """POST /games/{id}/enter/round/: store a round by its score line, or say why not."""
    form = RoundLine(request.POST)
    players = [s.player.name for s in game.seats.select_related("player")]
    if request.POST.get("action") == "reenter":  # after a 409: the same line, on the new state
        form.data = {**request.POST.dict(), "expected_seq": str(game.seq)}
        return render(request, "entry/tien_zi_que.html", page_context(request, game, form))
    event = form.event()
    if event is None:
        return render(request, "entry/tien_zi_que.html", page_context(request, game, form), status=400)
    token = form.value("token")
    try:
        services.append_events(
            game=game,
            events=[event],
            expected_seq=form.expected_seq(),
            user=request.user,
            idempotency_key=token if re.fullmatch(r"[0-9a-f]{32}", token) else None,
        )
    except services.SeqConflict as err:
        return render(
            request, "entry/tien_zi_que.html", page_context(request, game, form, stale=err.current_seq), status=409
        )
    except services.RuleViolation as err:
        field = err.error.params.get("field") if err.error.params.get("field") in FIELDS else "seat"
        form.errors[field] = in_words(players, err.error.as_dict(), get_language())
        form.codes[field] = err.code
        return render(request, "entry/tien_zi_que.html", page_context(request, game, form), status=422)
    except services.ServiceError as err:
        form.errors["seat"] = err.message
        return render(request, "entry/tien_zi_que.html", page_context(request, game, form), status=400)
    return redirect(reverse("entry:enter", args=[game.pk]) + f"?saved={game.seq}#score-line")
