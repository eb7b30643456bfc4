"""Issue 31, item 6: the two correction paths end with one result on every page, at 390 and 1280
px. Path 1: the director's "Correct this result" on the tournament page (a hand corrected on the
table's game). Path 2: the director fixes the game itself (undo, the hand entered again). After
each, the tournament page, the game page, the replay, the table's confirm page and the standings
say the same score (and the same VP, DTM)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services as game_services
from games.models import Club, Game, Membership
from games.tournaments import services
from games.tournaments.models import TableGame, Tournament
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
PAIRS = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]
HEADER = {"entrants": "pairs", "system": "swiss", "scoring": "dtm", "rounds": 1, "hands_per_round": 2}


def hand(points: int) -> dict:
    return {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [points, 100 - points]}


@pytest.fixture
def evening(live_server):
    """A DTM round of two tables, each game played and its result sent: table 1 60:40 and 70:30."""
    club = Club.objects.create(name="Home", slug="home", time_zone="Europe/Berlin")
    user = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=user, role="scorer")
    created = services.tournament_create(club=club, name="Thursday", header=HEADER, user=user).body
    tid = created["id"]
    events = [{"type": "entry_registered", "entry": f"e{i}", "players": p} for i, p in enumerate(PAIRS)]
    events.append(
        {
            "type": "round_paired",
            "round": 1,
            "byes": [],
            "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}],
        }
    )
    services.append_events(tournament_id=tid, events=events, expected_seq=0, user=user)
    services.make_round_games(tournament_id=tid, round_number=1, user=user)
    for link in TableGame.objects.filter(tournament_id=tid):
        game_services.append_events(game=link.game_id, events=[hand(60), hand(70)], expected_seq=0, user=user)
        services.table_action(game_id=link.game_id, action="record", user=user)
    game = TableGame.objects.get(tournament_id=tid, table=1).game_id
    return user, tid, game


def said(page) -> str:
    return page.inner_text("main") if page.query_selector("main") else page.inner_text("body")


def one_result_everywhere(open_as, user, tid: int, game: int, score: str, vp: str, name: str) -> None:
    """Every page that shows table 1's result says `score` ("N/S:E/W") and `vp` ("a : b VP")."""
    ns, ew = score.split(":")
    for viewport, width in ((PHONE, 390), (LAPTOP, 1280)):
        pages = {
            "tournament": f"/tournaments/{tid}/",
            "game": f"/games/{game}/",
            "replay": f"/games/{game}/replay/",
            "confirm": f"/games/{game}/enter/result/",
        }
        for label, path in pages.items():
            page = open_as(user, path, viewport)
            text = said(page)
            assert vp in text, (label, width, vp)
            if label == "tournament":
                card = page.inner_text("article.table-card[data-table='1']")
                assert ns in card and ew in card, (label, card)
            elif label == "confirm":
                assert page.get_attribute("#table-result .score >> nth=0", "class") is not None
                assert page.inner_text("#table-result .score >> nth=0") == ns
                assert page.inner_text("#table-result .score >> nth=1") == ew
            else:
                assert page.get_attribute("#tournament-table", "data-score") == score, (label, width)
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), (label, width)
            page.screenshot(path=str(SCREENSHOTS / f"one-result-{name}-{label}-{width}.png"), full_page=True)
            page.context.close()


def test_both_correction_paths_end_with_one_result_on_every_page(open_as, evening, live_server):
    user, tid, game = evening
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    one_result_everywhere(open_as, user, tid, game, "130:70", "4 : 0 VP", "sent")

    # path 1: "Correct this result" on the tournament page, on a phone: hand 2 was 45:55
    td = open_as(user, f"/tournaments/{tid}/", PHONE)
    card = td.locator("article.table-card[data-table='1']")
    card.locator("details.correct-hand summary").click()
    card.locator("input[name=hand]").fill("2")
    card.locator("select[name=out_0]").select_option("0")
    card.locator("input[name=points_0]").fill("45")
    card.locator("input[name=reason]").fill("sheet added up wrong")
    controls = card.locator(
        "details.correct-hand select, details.correct-hand input:not([type=hidden]), details.correct-hand button"
    )
    for i in range(controls.count()):
        box = controls.nth(i).bounding_box()
        assert box and box["height"] >= 44, "controls a thumb can hit"
    td.screenshot(path=str(SCREENSHOTS / "one-result-correct-form-390.png"), full_page=True)
    card.locator("details.correct-hand button[type=submit]").click()
    td.wait_for_selector("text=hand 2 corrected on its game")
    td.context.close()
    assert Game.objects.get(pk=game).seq == 3, "the correction is an event on the game"
    one_result_everywhere(open_as, user, tid, game, "105:95", "2 : 2 VP", "corrected")
    text = said(open_as(user, f"/games/{game}/", LAPTOP))
    assert "corrected by the tournament director: sheet added up wrong" in text

    # path 2: the director fixes the game itself: undo the correction and hand 2, enter hand 2 again
    seq = Game.objects.get(pk=game).seq
    game_services.append_events(game=game, events=[{"type": "undo"}, {"type": "undo"}], expected_seq=seq, user=user)
    game_services.append_events(game=game, events=[hand(25)], expected_seq=seq + 2, user=user)
    one_result_everywhere(open_as, user, tid, game, "85:115", "2 : 2 VP", "refixed")
    assert Tournament.objects.get(pk=tid).seq == 7, "nothing was typed on the tournament's stream"
