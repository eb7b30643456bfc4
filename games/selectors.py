"""Reads: what a user may see, and the views of a game's stream (events, state, score, record)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db.models import Q, QuerySet, Value, prefetch_related_objects
from django.db.models.functions import Lower, Trim
from django.http import Http404

from games import engine, holds, ids, snapshots, sql
from games.models import Club, Event, Game, ImportedFile, ImportJob, Membership, Player
from games.models import default_time_zone as default_time_zone  # re-exported for the pages' forms
from games.models import time_zone_names as time_zone_names
from games.models import validate_time_zone as validate_time_zone


def _member_club_ids(user) -> QuerySet:
    return Membership.objects.filter(user=user).values("club_id")


def clubs_visible(user) -> QuerySet[Club]:
    """Public clubs, and the clubs `user` is a member of."""
    if user is None or not user.is_authenticated:
        return Club.objects.filter(visibility=Club.Visibility.PUBLIC)
    return Club.objects.filter(Q(visibility=Club.Visibility.PUBLIC) | Q(id__in=_member_club_ids(user)))


def club_get(pk: int) -> Club:
    """The club as it is now (a page that shows a setting just changed reads it again)."""
    return Club.objects.get(pk=pk)


def club_q(ref: int | str) -> Q:
    """A club named by its id or by its slug ("12" or 12 is an id: a slug always has a letter). An
    id past the database's range, however long, names no club; "²" (a digit to str.isdigit, not
    to int) is a slug, which no club has."""
    if isinstance(ref, int):
        return Q(pk=ref) if ids.in_range(ref) else Q(pk__in=[])
    text = str(ref)
    if text.isascii() and text.isdigit():
        pk = ids.from_text(text)
        return Q(pk=pk) if pk is not None else Q(pk__in=[])
    return Q(slug=text)


def players_visible(user) -> QuerySet[Player]:
    return Player.objects.filter(club__in=clubs_visible(user)).select_related("club")


def games_visible(user) -> QuerySet[Game]:
    """The games `user` may find in a list: their clubs' (`clubs_visible`), less those held from
    them (games.holds: a duplicate table's until its round closes)."""
    return (
        games_listed(Game.objects.filter(club__in=clubs_visible(user)), user)
        .select_related("club")
        .prefetch_related("seats__player")
    )


def games_listed(games: QuerySet[Game], user) -> QuerySet[Game]:
    """`games` less those no list may show `user` (games.holds.unlisted): every list of games
    (the API's, a club's page and its evening) goes through here."""
    held = holds.unlisted(user)
    return games.exclude(pk__in=held) if held else games


def unlisted_game_ids(user) -> set[int]:
    """The games no list (nor count of games) may show `user` (games.holds.unlisted)."""
    return holds.unlisted(user)


def is_visible(game: Game) -> bool:
    """For a game from `game_with_role`: may its user read it?"""
    return game.club.is_public or game.viewer_role is not None


def may_read(user, pk: int) -> bool:
    """Whether `game_get(user, pk)` would find the game (a page offering a link to it asks)."""
    return _readable(game_with_role(pk, user), user)


def _readable(game: Game | None, user) -> bool:
    return game is not None and is_visible(game) and not holds.game_held(game, user)


def game_get(user, pk: int, *, prefetch: Sequence[str] = ()) -> Game:
    """One game as `user` may see it (Http404 otherwise), with its club and `viewer_role`: the
    one door through which the API, the entry pages and the game's pages read a game (a public
    club's, a member's, a tournament table code's own; another table's game is held until the
    tournament ends: games.holds). `prefetch`: the relations a page reads, loaded with it
    (`("seats__player",)`)."""
    game = game_with_role(pk, user)
    if game is None or not _readable(game, user):
        raise Http404("no such game")
    if prefetch:
        prefetch_related_objects([game], *prefetch)
    return game


def game_with_role(
    game_id: int,
    user,
    *,
    for_update: bool = False,
    has_one: type | None = None,
    events_after: int | None = None,
    version: bool = False,
) -> Game | None:
    """The game with its club loaded and `viewer_role` set (`user`'s role in the club, or None),
    in one query (games.sql: the queryset cost more than the read); `for_update` also locks the
    game row for the transaction (the append); `has_one` (a model with a one-to-one `game`) sets
    `game.has_one`, whether the game has one, and `events_after` sets `game.events_after`, its
    event rows after that seq (PostgreSQL), and `version` `game.row_version` (PostgreSQL), in the
    same query (games.sql.game_with_role)."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    found = sql.game_with_role(
        game_id, user_id, for_update=for_update, has_one=has_one, events_after=events_after, version=version
    )
    if found is None:
        return None
    game, role = found
    game.viewer_role = role
    if game.viewer_role is None and getattr(user, "table_code_game", None) == game.pk:
        # A tournament table code (games.tournaments.table_codes) scores its own game, no other.
        game.viewer_role = Membership.Role.SCORER
    return game


def token_with_user(token_model: type, key: str) -> Any:
    """The API token whose key is `key` with its user loaded, or None (games.sql.token_with_user:
    DRF's lookup in one hand-written query; games.api.authentication, every API request)."""
    return sql.token_with_user(token_model, key)


def membership_role(user, club: Club) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, club=club).values_list("role", flat=True).first()


def can_write(user, club: Club) -> bool:
    return membership_role(user, club) in Membership.WRITER_ROLES


def is_club_admin(user, club: Club) -> bool:
    return membership_role(user, club) == Membership.Role.ADMIN


def player_named(club: Club, name: str) -> Player | None:
    """The club's player with this name, regardless of case and surrounding spaces: compared by
    the database's own LOWER(TRIM()), as the unique constraint on Player compares them."""
    return (
        Player.objects.filter(club=club)
        .annotate(name_key=Lower(Trim("name")))
        .filter(name_key=Lower(Trim(Value(name))))
        .first()
    )


def game_finished(game_id: int) -> bool:
    """Whether the game with this id exists and is finished (a table code's page leads to its result)."""
    return Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists()


def club_of_game(game_id: int) -> Club | None:
    return Club.objects.filter(games__pk=game_id).first()


def game_player_names(game: Game) -> list[str]:
    return [seat.player.name for seat in game.seats.all()]


# --- the website's reads of clubs, members and rosters (replay imports no model: it reads here) ---

#: a member's roles, a game's statuses and a club's choices, for the pages and their forms (the time
#: zones' helpers, default_time_zone, time_zone_names and validate_time_zone, are imported above)
Role = Membership.Role
WRITER_ROLES = Membership.WRITER_ROLES
GameStatus = Game.Status
ClubVisibility = Club.Visibility
RevealHands = Club.RevealHands


def club_choice_words(field: str) -> dict[Any, str]:
    """A club setting's choices in words (value -> label), as the club's model declares them
    (FieldDoesNotExist for a name that is not a field of the club)."""
    return {k: str(v) for k, v in Club._meta.get_field(field).flatchoices}


def scores_somewhere(user) -> bool:
    """The user scores (or runs) at least one club."""
    return Membership.objects.filter(user=user, role__in=Membership.WRITER_ROLES).exists()


def writer_clubs(user) -> QuerySet[Club]:
    """The clubs the user scores for, by name."""
    return Club.objects.filter(memberships__user=user, memberships__role__in=Membership.WRITER_ROLES).order_by("name")


def user_memberships(user) -> QuerySet[Membership]:
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name")


def membership(user, club: Club) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def club_memberships(club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("user__username")


def user_players(user) -> QuerySet[Player]:
    """The roster players linked to the user (approved "This is me" claims), by club."""
    return Player.objects.filter(user=user).select_related("club").order_by("club__name")


def user_player_ids(user) -> frozenset[int]:
    return frozenset(Player.objects.filter(user=user).values_list("pk", flat=True))


def player_names(club_id: int, player_ids) -> list[str]:
    """The names of these players of one club."""
    return list(Player.objects.filter(pk__in=player_ids, club_id=club_id).values_list("name", flat=True))


def roster(club: Club) -> QuerySet[Player]:
    """The club's roster by name, each with its linked user."""
    return Player.objects.filter(club=club).select_related("user").order_by("name")


def club_player(club: Club, pk: int | None) -> Player | None:
    """One player of the club's roster, or None."""
    return Player.objects.filter(club=club, pk=pk).first()


def unlinked_players(club: Club) -> QuerySet[Player]:
    """The roster players no user is linked to (an invitation may name one)."""
    return Player.objects.filter(club=club, user__isnull=True).order_by("name")


def linked_players(club: Club) -> dict[int, Player]:
    """The club's roster players linked to a user, by the user's id."""
    return {p.user_id: p for p in Player.objects.filter(club=club, user__isnull=False)}


def players_of(games: QuerySet[Game], club: Club) -> list[Player]:
    """The club's players seated in these games, by name."""
    return list(Player.objects.filter(club=club, games__in=games).distinct().order_by("name", "id"))


def partners_and_opponents(games: QuerySet[Game], mine: set[int]) -> dict[int, Player]:
    """The players these games seated beside `mine`, by id (ordered by name)."""
    players = Player.objects.filter(seats__game__in=games.values("pk")).exclude(pk__in=mine).distinct()
    return {p.pk: p for p in players.order_by("name", "id")}


def game_ids_of_player(player: Player) -> QuerySet:
    """The ids of the games that seated this player (a sub-query)."""
    return Game.objects.filter(seats__player=player).values("pk")


def club_games(club: Club) -> QuerySet[Game]:
    """Every game of the club, for a reader's filter (games_listed) to narrow."""
    return Game.objects.filter(club=club)


def finished_games(club: Club, limit: int) -> list[Game]:
    """The club's finished games, the latest played first, their seats' players read with them
    (a league match taken from its game: the TD's choice); a game held back from readers (a
    duplicate table before its round closes, games.holds) is not offered: it gives no result yet."""
    games = (
        Game.objects.filter(club=club, status=Game.Status.FINISHED)
        .exclude(pk__in=holds.rating_held())
        .prefetch_related("seats__player")
    )
    return list(games.order_by("-played_at", "-id")[:limit])


def active_games(club: Club, limit: int) -> list[Game]:
    """The club's games in play, newest first, their seats' players read with them."""
    games = Game.objects.filter(club=club, status=Game.Status.ACTIVE).prefetch_related("seats__player")
    return list(games.order_by("-created_at", "-id")[:limit])


def stored_events(game: Game) -> list[Event]:
    """The game's events up to its seq, in order, with who recorded each."""
    return list(Event.objects.filter(game=game, seq__lte=game.seq).order_by("seq").select_related("recorded_by"))


def import_jobs(club: Club, limit: int) -> list[ImportJob]:
    """The club's bulk import jobs, newest first."""
    return list(ImportJob.objects.filter(club=club)[:limit])


def mended_files(club: Club, jobs: list[ImportJob], limit: int) -> list[ImportedFile]:
    """The files of these jobs with a hand mended, newest first."""
    files = ImportedFile.objects.filter(club=club, job__in=jobs).exclude(hands_mended=[])
    return list(files.order_by("-imported_at", "-id")[:limit])


def game_events(game: Game, *, after: int = 0, limit: int | None = None) -> QuerySet[Event]:
    events = Event.objects.filter(game=game, seq__gt=after).select_related("recorded_by").order_by("seq")
    return events[:limit] if limit is not None else events


def _as_json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def game_state_at(game: Game, at: int, *, sight: engine.Sight) -> dict:
    """The JSON of `python -m games.engine state --at N` for this game, as a reader with `sight`
    (games.visibility.reader_sight) may see it."""
    return engine.redact_state(_as_json(engine.state_json(snapshots.state_at(game, at))), sight, at)


def event_seen(event: Event, sight: engine.Sight) -> dict:
    """A stored event as a record event, as a reader with `sight` may see it."""
    return engine.redact_event(event.as_record_event(), sight, event.seq - 1)


def game_score(game: Game) -> dict:
    """The JSON of `python -m games.engine score` for this game."""
    return state_score(snapshots.state_at(game, game.seq))


def state_score(state: engine.PlayState) -> dict:
    """The JSON of `python -m games.engine score` for a game in this state (the bulk import's
    folded state: games.bulk_store)."""
    return _as_json(engine.score_json(state))


def game_record_seen(game: Game, *, sight: engine.Sight) -> dict:
    """The record of section 1 as a reader with `sight` may see it (the export)."""
    return engine.redact_record(game_record(game), sight)


def game_record(game: Game) -> dict:
    """The whole record of section 1, exactly as imported (or as built by appends). For the
    site's own folding; what a reader gets is `game_record_seen`."""
    record = {k: v for k, v in game.header.items() if k != Game.OMITTED_EVENTS}
    record["variant"] = game.variant
    if game.options is not None:
        record["options"] = game.options
    record["players"] = game_player_names(game)
    events = [e.as_record_event() for e in Event.objects.filter(game=game).order_by("seq").only("type", "payload")]
    if events or not game.header.get(Game.OMITTED_EVENTS):
        record["events"] = events
    return record
