"""A table code kept in the session (opened at /t/<code>/) makes its holder the request's user on
its game's entry page and API, and nowhere else (games.tournaments.table_codes).

The code outlives the round, so the session may still point at a page of the table's earlier
game: that page leads on to the table's current game (through /t/<code>/, no rescan). A code the
director replaced or withdrew tells its holder so in words (what to do: scan the new card), on the
page and in the entry page's API answers, instead of the refusal a stranger would get."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from games.tournaments import table_codes


def _on_pages(game_ids, path: str) -> bool:
    return any(path.startswith(f"/games/{game}/enter/") for game in game_ids)


def _on_api(game_ids, path: str) -> bool:
    return any(path.startswith(f"/api/games/{game}/") for game in game_ids)


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


class TableCodeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if table_codes.SESSION_KEY in request.session and not request.user.is_authenticated:
            raw = request.session.get(table_codes.SESSION_KEY)
            holder = table_codes.holder_for(raw) if raw else None
            if table_codes.scoped(holder, request.path):
                request.user = holder
            elif holder is not None:
                earlier = next(
                    (g for g in table_codes.table_game_ids(holder.table_code) if _on_pages([g], request.path)), None
                )
                if earlier is not None:
                    # a page of the table's earlier game: its result and where its players sit
                    # now, then on to the table's current game (replay.tournaments.table_cards)
                    url = reverse("tournaments:table-code", args=[holder.table_code.code])
                    if _wants_json(request):  # the entry page's own requests (its panels)
                        return JsonResponse(
                            {
                                "code": "table_code_next_game",
                                "message": _("This table's next game is open: open %(url)s (the table card's address)")
                                % {"url": url},
                            },
                            status=403,
                        )
                    return redirect(f"{url}?after={earlier}")
            else:
                ended = table_codes.ended_code(raw)
                if ended is not None:
                    games = table_codes.table_game_ids(ended)
                    if _on_api(games, request.path) or (_on_pages(games, request.path) and _wants_json(request)):
                        return JsonResponse(
                            {"code": f"table_code_{ended.end_reason}", "message": table_codes.ended_message(ended)},
                            status=403,
                        )
                    if _on_pages(games, request.path):
                        return redirect(reverse("tournaments:table-code", args=[ended.code]))
        return self.get_response(request)
