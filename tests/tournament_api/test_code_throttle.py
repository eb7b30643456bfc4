"""Table codes are throttled (issue 30: 300 wrong codes in 2.2 s went through): failed attempts
count per client address and per tournament (games.tournaments.code_throttle); at the limit every
attempt is refused with 429 and Retry-After before the code is looked up, a valid one too, so a
throttled guess learns nothing; other addresses and other tournaments are not affected."""

from __future__ import annotations

from itertools import islice, product

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from games.tournaments.table_codes import ALPHABET
from tests.tournament_api.test_table_codes import published_round

LIMITS = {"TICHU_TABLE_CODE_FAILURES_PER_ADDRESS": 5, "TICHU_TABLE_CODE_FAILURES_PER_TOURNAMENT": 8}
WRONG = "AAAA-AAAA"


def api_try(code: str, game: int, address: str):
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"TableCode {code}")
    return client.get(f"/api/games/{game}/state/")


@pytest.mark.django_db
@override_settings(**LIMITS)
def test_the_site_throttles_wrong_codes_per_address(club, scorer_client):
    _tid, tables = published_round(scorer_client)
    good = tables[1]["code"]
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(5):
        assert guesser.get(f"/t/{WRONG}/").status_code == 404
    refused = guesser.get(f"/t/{good}/")  # a valid code too, once the address is over
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "too many wrong table codes" in refused.content.decode()
    # another address opens its table
    assert Client(REMOTE_ADDR="198.51.100.2").get(f"/t/{good}/").status_code == 302


@pytest.mark.django_db
@override_settings(**LIMITS)
def test_the_api_throttles_wrong_codes_per_address(club, scorer_client):
    _tid, tables = published_round(scorer_client)
    game, good = tables[1]["game"], tables[1]["code"]
    assert api_try(good, game, "203.0.113.7").status_code == 200  # a valid code counts nothing
    for _ in range(5):
        assert api_try(WRONG, game, "203.0.113.7").status_code == 401
    refused = api_try(good, game, "203.0.113.7")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert refused.json()["retry_after"] > 0 and "Retry-After" in refused
    assert api_try(good, game, "198.51.100.2").status_code == 200


@pytest.mark.django_db
@override_settings(**LIMITS)
def test_the_api_throttles_wrong_codes_per_tournament_across_addresses(club, scorer_client):
    """Guesses spread over many addresses, each under its own limit, against one tournament's
    games: the tournament's count stops them; another tournament's tables are not affected."""
    _tid, tables = published_round(scorer_client)
    _other, others = published_round(scorer_client)
    game, good = tables[1]["game"], tables[1]["code"]
    for i in range(8):
        assert api_try(WRONG, tables[1 + i % 2]["game"], f"192.0.2.{i}").status_code == 401
    assert api_try(good, game, "198.51.100.9").status_code == 429  # a fresh address, same tournament
    assert api_try(others[1]["code"], others[1]["game"], "198.51.100.9").status_code == 200
    # a code used on another table's game is a failure too
    assert api_try(others[1]["code"], others[2]["game"], "198.51.100.10").status_code == 401


@pytest.mark.django_db
def test_by_default_300_wrong_codes_are_not_all_tried(club, scorer_client):
    """The probe's 300 wrong codes from one address: at most the default limit are looked up."""
    _tid, tables = published_round(scorer_client)
    game = tables[1]["game"]
    guesses = ["".join(p) for p in islice(product(ALPHABET, repeat=8), 300)]
    answers = [api_try(guess, game, "203.0.113.50").status_code for guess in guesses]
    assert answers.count(401) == 30 and answers.count(429) == 270
