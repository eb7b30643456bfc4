"""Reads: what a user may see, and the views of a game's stream (events, state, score, record)."""
from __future__ import annotations

import json
from typing import Any

from django.db.models import CharField, OuterRef, Q, QuerySet, Subquery, Value
from django.http import Http404

from games import engine, store
from games.models import Club, Event, Game, Membership, Player


def _member_club_ids(user) -> QuerySet:
    return Membership.objects.filter(user=user).values("club_id")


def clubs_visible(user) -> QuerySet[Club]:
    """Public clubs, and the clubs `user` is a member of."""
    if user is None or not user.is_authenticated:
        return Club.objects.filter(visibility=Club.Visibility.PUBLIC)
    return Club.objects.filter(Q(visibility=Club.Visibility.PUBLIC) | Q(id__in=_member_club_ids(user)))


def players_visible(user) -> QuerySet[Player]:
    return Player.objects.filter(club__in=clubs_visible(user)).select_related("club")


def games_visible(user) -> QuerySet[Game]:
    return (
        Game.objects.filter(club__in=clubs_visible(user))
        .select_related("club")
        .prefetch_related("seats__player")
    )


def games_with_role(user) -> QuerySet[Game]:
    """Games with their club, annotated with `viewer_role`: `user`'s role in the club, or None."""
    games = Game.objects.select_related("club")
    if user is not None and user.is_authenticated:
        role = Membership.objects.filter(user=user, club=OuterRef("club_id")).values("role")[:1]
        return games.annotate(viewer_role=Subquery(role))
    return games.annotate(viewer_role=Value(None, output_field=CharField()))


def is_visible(game: Game) -> bool:
    """For a game from `games_with_role`: may its user read it?"""
    return game.club.is_public or game.viewer_role is not None


def game_get(user, pk: int) -> Game:
    """One game as `user` may see it (Http404 otherwise), in one query, annotated with
    `viewer_role`."""
    game = games_with_role(user).filter(pk=pk).first()
    if game is None or not is_visible(game):
        raise Http404("no such game")
    return game


def membership_role(user, club: Club) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, club=club).values_list("role", flat=True).first()


def can_write(user, club: Club) -> bool:
    return membership_role(user, club) in Membership.WRITER_ROLES


def is_club_admin(user, club: Club) -> bool:
    return membership_role(user, club) == Membership.Role.ADMIN


def game_player_names(game: Game) -> list[str]:
    return [seat.player.name for seat in game.seats.all()]


def game_events(game: Game, *, after: int = 0, limit: int | None = None) -> QuerySet[Event]:
    events = Event.objects.filter(game=game, seq__gt=after).select_related("recorded_by").order_by("seq")
    return events[:limit] if limit is not None else events


def _as_json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def game_state_at(game: Game, at: int) -> dict:
    """The JSON of `python -m games.engine state --at N` for this game."""
    return _as_json(engine.state_json(store.state_at(game, at)))


def game_score(game: Game) -> dict:
    """The JSON of `python -m games.engine score` for this game."""
    return _as_json(engine.score_json(store.state_at(game, game.seq)))


def game_record(game: Game) -> dict:
    """The record of section 1, exactly as imported (or as built by appends)."""
    record = {k: v for k, v in game.header.items() if k != Game.OMITTED_EVENTS}
    record["variant"] = game.variant
    if game.options is not None:
        record["options"] = game.options
    record["players"] = game_player_names(game)
    events = [e.as_record_event() for e in Event.objects.filter(game=game).order_by("seq").only("type", "payload")]
    if events or not game.header.get(Game.OMITTED_EVENTS):
        record["events"] = events
    return record
