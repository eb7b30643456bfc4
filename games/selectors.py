"""Reads: what a user may see, and the views of a game's stream (events, state, score, record)."""
from __future__ import annotations

import functools
import json
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet, Value
from django.db.models.functions import Lower, Trim
from django.http import Http404

from games import engine, snapshots
from games.models import Club, Event, Game, Membership, Player


def _member_club_ids(user) -> QuerySet:
    return Membership.objects.filter(user=user).values("club_id")


def clubs_visible(user) -> QuerySet[Club]:
    """Public clubs, and the clubs `user` is a member of."""
    if user is None or not user.is_authenticated:
        return Club.objects.filter(visibility=Club.Visibility.PUBLIC)
    return Club.objects.filter(Q(visibility=Club.Visibility.PUBLIC) | Q(id__in=_member_club_ids(user)))


def club_q(ref: int | str) -> Q:
    """A club named by its id or by its slug ("12" or 12 is an id: a slug always has a letter)."""
    if isinstance(ref, int) or str(ref).isdigit():
        return Q(pk=int(ref))
    return Q(slug=str(ref))


def players_visible(user) -> QuerySet[Player]:
    return Player.objects.filter(club__in=clubs_visible(user)).select_related("club")


def games_visible(user) -> QuerySet[Game]:
    return (
        Game.objects.filter(club__in=clubs_visible(user))
        .select_related("club")
        .prefetch_related("seats__player")
    )


def is_visible(game: Game) -> bool:
    """For a game from `game_with_role`: may its user read it?"""
    return game.club.is_public or game.viewer_role is not None


def game_get(user, pk: int) -> Game:
    """One game as `user` may see it (Http404 otherwise), with its club and `viewer_role`."""
    game = game_with_role(pk, user)
    if game is None or not is_visible(game):
        raise Http404("no such game")
    return game


def game_with_role(game_id: int, user, *, for_update: bool = False) -> Game | None:
    """The game with its club loaded and `viewer_role` set (`user`'s role in the club, or None),
    in one query; `for_update` also locks the game row for the transaction (the append).

    Written as SQL, built once per database vendor, rather than as a queryset: compiling the
    queryset with its role subquery cost about 2 ms per call (measured on the bench machine),
    more than the rest of a `state?at=N` read. Columns come from the models' metadata and values
    pass through the same converters the ORM would use."""
    connection = transaction.get_connection()
    low, high = connection.ops.integer_field_range(Game._meta.pk.get_internal_type())
    if not low <= game_id <= high:
        return None  # no such row, and the driver would refuse the number (the ORM returns none)
    user_id = user.pk if user is not None and user.is_authenticated else None
    with connection.cursor() as cursor:
        cursor.execute(_game_with_role_sql(connection.vendor, for_update), [user_id, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    game_fields, club_fields = Game._meta.concrete_fields, Club._meta.concrete_fields
    game = _model_from_row(Game, connection, row[: len(game_fields)])
    game.club = _model_from_row(Club, connection, row[len(game_fields) : len(game_fields) + len(club_fields)])
    game.viewer_role = row[-1]
    if game.viewer_role is None and getattr(user, "table_code_game", None) == game.pk:
        # A tournament table code (games.tournaments.table_codes) scores its own game, no other.
        game.viewer_role = Membership.Role.SCORER
    return game


@functools.cache
def _game_with_role_sql(vendor: str, for_update: bool) -> str:
    connection = transaction.get_connection()
    q, features = connection.ops.quote_name, connection.features
    game, club, member = Game._meta, Club._meta, Membership._meta
    columns = [f"g.{q(f.column)}" for f in game.concrete_fields] + [f"c.{q(f.column)}" for f in club.concrete_fields]
    col = lambda meta, name: q(meta.get_field(name).column)  # noqa: E731
    lock = ""
    if for_update and features.has_select_for_update:
        lock = " " + connection.ops.for_update_sql(of=("g",) if features.has_select_for_update_of else ())
    return (
        f"SELECT {', '.join(columns)}, m.{col(member, 'role')} "
        f"FROM {q(game.db_table)} g "
        f"JOIN {q(club.db_table)} c ON c.{q(club.pk.column)} = g.{col(game, 'club')} "
        f"LEFT JOIN {q(member.db_table)} m ON m.{col(member, 'club')} = g.{col(game, 'club')} "
        f"AND m.{col(member, 'user')} = %s WHERE g.{q(game.pk.column)} = %s{lock}"
    )


def _model_from_row(model, connection, values):
    """A model instance from its concrete columns as the database returned them, converted as
    the ORM's compiler converts them (JSON, SQLite's dates and UUIDs)."""
    converted = []
    for field, value in zip(model._meta.concrete_fields, values):
        column = field.get_col(model._meta.db_table)
        for convert in connection.ops.get_db_converters(column) + column.get_db_converters(connection):
            value = convert(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, [f.attname for f in model._meta.concrete_fields], converted)


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


def game_player_names(game: Game) -> list[str]:
    return [seat.player.name for seat in game.seats.all()]


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
    return _as_json(engine.score_json(snapshots.state_at(game, game.seq)))


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
