"""Migration 0010 gives every duplicate tournament made before `board_secret` a secret drawn with
`secrets` (issue 30: they dealt their boards from the public string ``tournament:<id>``), and a
tournament without a secret deals no board rather than one its readers could compute."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Club
from games.services import InvalidInput
from games.tournament.duplicate import board_deal
from games.tournaments import duplicate_boards
from games.tournaments.models import Tournament

# Migrations are DDL: as the owner in the PostgreSQL stages (tests/conftest.py's as_owner).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("as_owner")]

BEFORE, AFTER = ("tournaments", "0010_bounds_tournament_import_hash"), ("tournaments", "0011_bounds_board_secrets")
DUPLICATE = {"system": "duplicate", "scoring": "matchpoints", "entrants": "pairs", "hands_per_round": 3}


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def test_old_duplicate_tournaments_get_a_secret_and_keep_one_they_have():
    apps = migrate([BEFORE])  # the clubs' tables stay as they are (only the tournaments go back)
    Old = apps.get_model("tournaments", "Tournament")
    club = Club.objects.create(name="Old", slug="old")
    first = Old.objects.create(club_id=club.pk, name="a", header=DUPLICATE, board_secret="")
    second = Old.objects.create(club_id=club.pk, name="b", header=DUPLICATE, board_secret="")
    kept = Old.objects.create(club_id=club.pk, name="c", header=DUPLICATE, board_secret="f" * 32)
    swiss = Old.objects.create(club_id=club.pk, name="d", header={"system": "swiss"}, board_secret="")
    try:
        migrate([AFTER])
        secrets = dict(Tournament.objects.values_list("pk", "board_secret"))
        assert len(secrets[first.pk]) == 32 and len(secrets[second.pk]) == 32
        assert secrets[first.pk] != secrets[second.pk]
        assert secrets[kept.pk] == "f" * 32 and secrets[swiss.pk] == ""
        # board 1 is no longer the public string's board
        tournament = Tournament.objects.get(pk=first.pk)
        assert duplicate_boards.deal(tournament, 1) != board_deal(1, f"tournament:{first.pk}")
        assert duplicate_boards.deal(tournament, 1) == board_deal(1, secrets[first.pk])
        # the reverse keeps the secrets
        migrate([BEFORE])
        assert dict(Tournament.objects.values_list("pk", "board_secret")) == secrets
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def test_a_tournament_without_a_secret_deals_nothing():
    tournament = Tournament(pk=7, header=DUPLICATE, board_secret="")
    with pytest.raises(InvalidInput) as err:
        duplicate_boards.deal(tournament, 1)
    assert err.value.code == "no_board_secret"
