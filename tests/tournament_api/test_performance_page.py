"""Each entrant's performance rating for the event, from the club's Elo table as it stood before
the event, on the standings page and in the results export."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from games.models import Game, Player
from games.ratings.models import RatingChange
from games.tournaments.models import Tournament
from tests.tournament_api.test_api import append, create, pair_next_round, register_pairs


def rate(club, name: str, elo: float, when, ordinal: int) -> None:
    player = Player.objects.get(club=club, name=name)
    game = Game.objects.create(club=club, variant="nanking", options={}, header={})
    RatingChange.objects.create(
        game=game,
        player=player,
        club=club,
        variant="nanking",
        finished_at=when,
        ordinal=ordinal,
        side=0,
        rating_before=elo,
        rating_after=elo,
        rd_before=50,
        rd_after=50,
        expected=0.5,
        score=1,
        games=12,
        elo_before=elo,
        elo_after=elo,
    )


@pytest.mark.django_db
def test_performance_uses_the_ratings_from_before_the_event(club, scorer_client):
    from tests.tournament_api.test_api import HEADER

    tid = create(scorer_client, header={**HEADER, "system": "round_robin", "rounds": 3})["id"]
    register_pairs(scorer_client, tid)  # e0 Anna & Ben, e1 Cleo & Dan, e2 Eva & Finn, e3 Gus & Hanna
    start = Tournament.objects.get(pk=tid).created_at
    before, after = start - timedelta(days=3), start + timedelta(hours=1)
    for i, (name, elo) in enumerate(
        {
            "Anna": 1600,
            "Ben": 1600,
            "Cleo": 1700,
            "Dan": 1500,
            "Eva": 1400,
            "Finn": 1400,
            "Gus": 1500,
            "Hanna": 1500,
        }.items()
    ):
        rate(club, name, elo, before, i)
        rate(club, name, elo + 300, after, 100 + i)  # rated during the event: must not count
    strength = {"e0": 1600, "e1": 1600, "e2": 1400, "e3": 1500}
    for number in (1, 2, 3):  # a round robin: everyone meets everyone; the lower id always wins
        paired = pair_next_round(scorer_client, tid)
        seq = scorer_client.get(f"/api/tournaments/{tid}/").json()["seq"]
        results = [
            {
                "type": "result_recorded",
                "round": number,
                "table": t["table"],
                "score": [60, 40] if t["sides"][0][0] < t["sides"][1][0] else [40, 60],
            }
            for t in paired["tables"]
        ]
        assert append(scorer_client, tid, [*results, {"type": "round_closed", "round": number}], seq).status_code == 201
        body = Client().get(f"/api/tournaments/{tid}/results/").json()
        perf = {e["entry"]: e["performance"] for e in body["entrants"]}
        if number < 3:
            assert all(p["performance"] is None and p["tables"] == number for p in perf.values()), (
                "not shown before 3 rounds played: one won table is +800 whatever happened"
            )
            html = Client().get(f"/tournaments/{tid}/standings/").content.decode()
            assert "Perf." not in html and 'id="perf-note"' not in html, "no column of dashes before anyone has one"
    opponents = {e: sum(v for o, v in strength.items() if o != e) / 3 for e in strength}
    assert perf["e0"]["performance"] == opponents["e0"] + 800 and perf["e0"]["bound"] == "max", "all won: +800"
    assert perf["e3"]["performance"] == pytest.approx(opponents["e3"] - 800, abs=0.1) and perf["e3"]["bound"] == "min"
    for e in ("e1", "e2"):
        assert opponents[e] - 800 < perf[e]["performance"] < opponents[e] + 800 and perf[e]["bound"] == ""
        assert perf[e]["opponents"] == pytest.approx(opponents[e], abs=0.1), "ratings from before the event"
    html = Client().get(f"/tournaments/{tid}/standings/").content.decode()
    assert "Perf." in html and 'id="perf-note"' in html and "never more than 800 above or below" in html
    for p in perf.values():
        assert f'<td class="num perf">{p["performance"]:.0f}</td>' in html
