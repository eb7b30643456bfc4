"""A game's page: its players and seats, its house rules with their one-line explanations (the
engine's registry), and the score sheet.

Reads follow the club's visibility through `games.selectors` (members-only clubs answer 404 to
outsiders, as the API does); everything shown comes from the game's frames (`replay.data`), the
same cached data the replay page reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext, pgettext

from games import engine, selectors, visibility
from games.tournaments import game_table

from . import frames, present
from .data import replay_data

if TYPE_CHECKING:
    from games.models import Game


def _player_url(player_id: int) -> str:
    return reverse("league:player", args=[player_id])


def _visible_game(request, pk: int) -> Game:
    return selectors.game_get(request.user, pk, prefetch=("seats__player",))


def _value_words(spec: engine.Option | None, value) -> str:
    """An option's value in the reader's words: yes/no, a choice's label, a number, a deck by its
    number of cards, or "none" when unset (the words the new-game form offers, entry/forms.py)."""
    if value is None:
        return pgettext("an option's value", "none")
    if isinstance(value, bool):
        return pgettext("an option's value", "yes") if value else pgettext("an option's value", "no")
    if spec is not None:
        for choice in spec.kind.choices:
            if choice.value == value and type(choice.value) is type(value):
                return choice.label
        if spec.kind.name == "cards" and isinstance(value, list):
            return ngettext("%(count)s card", "%(count)s cards", len(value)) % {"count": len(value)}
    return str(value)


def _options_rows(data: frames.ReplayData) -> list[dict]:
    """Every house rule of the game with its value and its one-line explanation (the engine's
    registry); the preset first, with the edition it follows."""
    given = data.given_options or {}
    lang = get_language()
    by_name = {o.name: o for o in engine.option_words(data.variant, lang)}
    presets = {p.name: p for p in engine.preset_words(lang)}
    preset_label = gettext("House rules preset")  # the new-game form's word for it
    rows = []
    for name, value in data.options.items():
        if name == "preset":
            preset = presets.get(value)
            if preset is None:
                rows.append({"name": name, "label": preset_label, "value": value, "doc": "", "given": name in given})
                continue
            rows.append(
                {
                    "name": name,
                    "label": preset_label,
                    "value": preset.label,
                    "doc": preset.description[:1].upper() + preset.description[1:] + ".",
                    "given": name in given,
                }
            )
            continue
        spec = by_name.get(name)
        rows.append(
            {
                "name": name,
                "label": spec.label if spec else name,
                "value": _value_words(spec, value),
                "doc": spec.help if spec else "",
                "given": name in given,
            }
        )
    return rows


def _places(data: frames.ReplayData) -> list[str | None]:
    """Each seat's place at the table in words (South, East, ...), where the game has fixed places."""
    return present.seat_places(data.variant, len(data.players), data.options.get("direction"))


def game_detail(request, pk: int):
    game = _visible_game(request, pk)
    data = replay_data(game, visibility.reader_sight(game, request.user))
    final = data.final
    teams = final.get("teams") or []
    labels = present.team_labels(data.players, teams)
    team_of = {s: labels[i] for i, team in enumerate(teams) for s in team}
    columns = present.score_columns(data.players, final)
    ids = {seat.seat: seat.player_id for seat in game.seats.all()}
    return render(
        request,
        "replay/game.html",
        {
            "game": game,
            "club": game.club,
            "can_record": selectors.can_write(request.user, game.club) and game.status == selectors.GameStatus.ACTIVE,
            "data": data,
            "game_label": engine.variant_name(data.variant, get_language()),
            "seats": [
                {
                    "seat": i,
                    "place": place or f"{i + 1}.",
                    "name": name,
                    "team": team_of.get(i, ""),
                    "url": _player_url(ids[i]) if i in ids else None,
                }
                for i, (name, place) in enumerate(zip(data.players, _places(data)))
            ],
            "teams": columns["labels"],
            "team_totals": columns["totals"],
            "options": _options_rows(data),
            "sheet": present.sheet_rows(data.players, final.get("score_sheet") or [], data.lang),
            "totals": final.get("totals") or [],
            "complete": bool(final.get("complete")),
            "winner": columns["winner"],
            "tournament_table": game_table.table_of(game, request.user),
        },
    )
