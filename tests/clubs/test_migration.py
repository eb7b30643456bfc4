"""The migration that makes player names unique regardless of case and spaces resolves the
clashes already stored: trims, merges players who never sat together, renames those who did."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

# Migrations are DDL: as the owner in the PostgreSQL stages (tests/conftest.py's as_owner).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("as_owner")]

DATA, CONSTRAINT = "0008_player_names_trimmed_and_clashes_resolved", "0009_player_name_unique_ignoring_case_and_spaces"


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def test_existing_clashes_are_merged_or_renamed(capsys):
    before = MigrationExecutor(connection).loader.get_migration("games", DATA).dependencies
    apps = migrate([d for d in before if d[0] == "games"])
    Club, Player = apps.get_model("games", "Club"), apps.get_model("games", "Player")
    Game, GameSeat = apps.get_model("games", "Game"), apps.get_model("games", "GameSeat")
    club = Club.objects.create(name="Old", slug="old")
    anna, anna2, bob, bob2 = (Player.objects.create(club=club, name=n) for n in ("Anna", "anna ", "Bob", "BOB"))
    spaced = Player.objects.create(club=club, name="  Cid ")
    g1, g2 = (Game.objects.create(club=club, variant="nanking") for _ in range(2))
    GameSeat.objects.create(game=g1, seat=0, player=anna)
    GameSeat.objects.create(game=g2, seat=0, player=anna2)  # never together: one person
    GameSeat.objects.create(game=g1, seat=1, player=bob)
    GameSeat.objects.create(game=g1, seat=2, player=bob2)  # at one table: two people
    try:
        apps = migrate([("games", CONSTRAINT)])
        Player, GameSeat = apps.get_model("games", "Player"), apps.get_model("games", "GameSeat")
        names = dict(Player.objects.filter(club_id=club.pk).values_list("pk", "name"))
        assert names == {anna.pk: "Anna", bob.pk: "Bob", bob2.pk: "Bob (2)", spaced.pk: "Cid"}
        assert sorted(GameSeat.objects.filter(player_id=anna.pk).values_list("game_id", flat=True)) == [g1.pk, g2.pk]
        out = capsys.readouterr().out
        assert "merged into" in out and "renamed 'Bob (2)'" in out and "recompute" in out
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
