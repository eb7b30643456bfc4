"""games/0027 and ratings/0001 move the ratings' five models from the games app's state to the
ratings app's, keeping their tables: on a populated database (PostgreSQL in `make test-postgres`,
SQLite elsewhere) no row is lost or changed, forwards and backwards, and the tables, their
indexes and constraints keep their names."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from bench.ratings_lab.fixtures import load_history
from bench.ratings_lab.synthetic import synthetic_history
from games.models import Club
from games.ratings import services

# Migrations are DDL: as the owner in the PostgreSQL stages (tests/conftest.py's as_owner).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("as_owner")]

BEFORE = ("games", "0026_api_game_content_hash_updated_at")
MODELS = ("GameOutcome", "RatingPool", "RatingChange", "PlayerRating", "RatingOutbox")
NAMES = {  # table: the indexes and constraints it keeps
    "games_gameoutcome": {"outcome_pool_order"},
    "games_ratingpool": {"rating_pool_unique"},
    "games_ratingchange": {"rating_change_unique", "ratingchange_pool_time"},
    "games_playerrating": {"player_rating_unique", "playerrating_table"},
    "games_ratingoutbox": {"rating_outbox_game"},
}


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


#: columns the ratings' later migrations added (ratings/0002: the VP an outcome is counted by),
#: which the state before the move does not have
LATER = {"GameOutcome": {"vp"}}


def rows(apps, label: str) -> dict[str, list[dict]]:
    """Every row of the five models, every column the move's states share (by name: a state's
    field order is its history's)."""
    return {
        name: [
            {k: v for k, v in row.items() if k not in LATER.get(name, ())}
            for row in apps.get_model(label, name).objects.order_by("pk").values()
        ]
        for name in MODELS
    }


def named_in_database() -> dict[str, set[str]]:
    with connection.cursor() as cursor:
        return {table: set(connection.introspection.get_constraints(cursor, table)) for table in NAMES}


def test_the_ratings_tables_move_to_the_ratings_app_without_losing_a_row():
    club = Club.objects.create(name="Moved", slug="moved")
    _, games = synthetic_history(30, 6, seed=5)
    load_history(club, games)
    services.recompute_club(club.pk)
    apps = migrate(leaves())
    now = rows(apps, "ratings")
    assert all(now[name] for name in MODELS if name != "RatingOutbox"), "a populated pool"
    names = named_in_database()
    try:
        old = migrate([("ratings", None), BEFORE])  # back: the models are the games app's again
        assert rows(old, "games") == now
        with pytest.raises(LookupError):
            old.get_model("ratings", "RatingChange")
        # a row written under the old state (an outbox row of an append, a fold)
        game = old.get_model("games", "Game").objects.filter(club_id=club.pk).order_by("pk").first()
        old.get_model("games", "RatingOutbox").objects.create(game_id=game.pk, seq=game.seq, created_at=game.created_at)
        before = rows(old, "games")

        new = migrate(leaves())
        assert rows(new, "ratings") == before  # every row, every value
        assert len(before["RatingOutbox"]) == 1
        assert named_in_database() == names
        for table, kept in NAMES.items():
            assert kept <= names[table], table
        with pytest.raises(LookupError):
            new.get_model("games", "RatingChange")
        # the app reads and writes them as before: a recompute gives the same table
        signature = services.pool_signature(club.pk, "nanking")
        services.recompute_club(club.pk)
        assert services.pool_signature(club.pk, "nanking") == signature
    finally:
        migrate(leaves())
