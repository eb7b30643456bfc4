"""Every channel, read by every kind of reader: what the rule of games.visibility lets each see.

The game: a bot-played Nanking game imported in the middle of its second hand (the first hand is
over: open; the second is in play: its other hands masked)."""

from __future__ import annotations

import functools

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import engine, services
from games.models import Club, Game, GameSeat, Membership
from tests.visibility.cards import secret_cards
from tests.visibility.channels import CARD_ATTR, Reader

H = engine.HIDDEN
SEAT = 1  # the seat the seated reader holds


@functools.lru_cache(maxsize=None)
def record_and_points() -> tuple[dict, int, int]:
    """A bot game, the start of its second hand and a position 75 events into it (its play)."""
    record = engine.random_game(5)
    second = [i for i, e in enumerate(record["events"]) if e["type"] == "shuffle"][1]
    cut = second + 75
    assert engine.fold(record, cut).phase == "play"
    return record, second, cut


def make_game(club: Club, cut: int | None = None) -> Game:
    record, _, default_cut = record_and_points()
    cut = default_cut if cut is None else cut
    result = services.game_import(club=club, record={**record, "events": record["events"][:cut]}, user=None)
    return Game.objects.get(pk=result.body["id"])


def full_state(at: int) -> dict:
    record = record_and_points()[0]
    return engine.state_json(engine.fold(record, at))


@pytest.fixture
def people(db):
    users = {
        name: get_user_model().objects.create_user(name, password="pw")
        for name in ("ann", "sam", "vic", "pat", "pia", "otto")
    }
    return users


def setup_club(people, visibility: str, reveal: str = "after_hand") -> tuple[Club, Game]:
    club = Club.objects.create(name="Home", slug=f"home-{visibility}", visibility=visibility, reveal_hands=reveal)
    away = Club.objects.create(name="Away", slug=f"away-{visibility}", visibility=Club.Visibility.MEMBERS)
    for name, role in (("ann", "admin"), ("sam", "scorer"), ("vic", "viewer"), ("pat", "viewer")):
        Membership.objects.create(club=club, user=people[name], role=role)
    Membership.objects.create(club=away, user=people["otto"], role="admin")
    game = make_game(club)
    seated = GameSeat.objects.get(game=game, seat=SEAT).player
    # pat: a viewer of the club seated in the game; in a public club pia (no member) sits there
    seated.user = people["pat" if visibility == Club.Visibility.MEMBERS else "pia"]
    seated.save()
    return club, game


def reader_of(people, who: str) -> Reader:
    return Reader(None if who == "anonymous" else people[who])


READERS = ["anonymous", "vic", "seated", "sam", "ann", "otto"]


def who_is(visibility: str, reader: str) -> str:
    if reader == "seated":
        return "pat" if visibility == Club.Visibility.MEMBERS else "pia"
    return reader


def expected(visibility: str, reader: str) -> str:
    """ "404" (may not read the game), "all" (every hand), "seat" (own hand), "table"."""
    if reader in ("sam", "ann"):
        return "all"
    if visibility == Club.Visibility.MEMBERS and reader in ("anonymous", "otto"):
        return "404"
    return "seat" if reader == "seated" else "table"


@pytest.mark.django_db
@pytest.mark.parametrize("visibility", [Club.Visibility.PUBLIC, Club.Visibility.MEMBERS])
@pytest.mark.parametrize("reader", READERS)
def test_every_channel_shows_each_reader_what_the_rule_allows(people, visibility, reader):
    club, game = setup_club(people, visibility)
    record, second, cut = record_and_points()
    r = reader_of(people, who_is(visibility, reader))
    sees = expected(visibility, reader)
    if sees == "404":
        for path in ("state/", "events/", "record/", "score/", ""):
            assert r.get(f"/api/games/{game.pk}/{path}").status_code == 404
        assert r.page.get(reverse("replay:game-replay", args=[game.pk])).status_code == 404
        assert r.page.get(reverse("replay:game-detail", args=[game.pk])).status_code == 404
        return
    full = full_state(cut)
    state = r.state(game.pk)
    assert [len(h) for h in state["hands"]] == [len(h) for h in full["hands"]]  # counts always
    assert state["trick"] == full["trick"] and state["played"] == full["played"] and state["calls"] == full["calls"]
    events = [e["event"] for e in r.events(game.pk)["events"]]
    exported = r.record(game.pk)
    table, rebuilt, texts = r.replay(game.pk)
    if sees == "all":
        assert state == full
        assert events == record["events"][:cut] and exported["events"] == record["events"][:cut]
        assert "redacted" not in exported and "redacted" not in state
        assert table == []  # the page's table is drawn by its script, from the frames checked here
        assert rebuilt[cut]["hands"] == full["hands"]
        return
    mine = {SEAT} if sees == "seat" else set()
    for s, hand in enumerate(state["hands"]):
        assert hand == (full["hands"][s] if s in mine else [H] * len(hand))
    assert state["redacted"] == {"card": H, "seats": sorted(mine)}
    # the first hand is over: open at every position, in the events and the record
    assert r.state(game.pk, second - 1) == full_state(second - 1)
    assert events[:second] == record["events"][:second] == exported["events"][:second]
    assert exported["redacted"] == {"from": second, "card": H, "seats": sorted(mine)}
    assert r.events(game.pk)["redacted"] == exported["redacted"]
    for i, event in enumerate(events[second:], start=second):
        original = record["events"][i]
        if event["type"] == "draw":
            assert event["card"] == (original["card"] if original["seat"] in mine else H)
        elif event["type"] == "push" and original["seat"] not in mine:
            assert set(event["cards"].values()) == {H}
        else:
            assert event == original
    # the replay: its table, every frame of the hand in play, and the words of its events
    hand_cards = secret_cards(record, cut, mine)
    assert len(hand_cards) > 20  # not vacuous: most of the other hands are still held
    assert not hand_cards & set(table)
    for n in range(second + 1, cut + 1):
        for s, hand in enumerate(rebuilt[n]["hands"]):
            assert s in mine or set(hand) <= {H}
    assert rebuilt[cut]["hands"] == state["hands"]
    assert rebuilt[second - 1]["hands"] == full_state(second - 1)["hands"]
    told = " | ".join(texts[second + 1 :])
    for c in hand_cards:
        assert f"draws the {engine_card_name(c)}" not in told
    assert not hand_cards & set(CARD_ATTR.findall(r.game_page(game.pk)))


def engine_card_name(code: str) -> str:
    from replay.frames import card_name

    return card_name(code)


@pytest.mark.django_db
def test_once_the_hand_is_over_everyone_sees_it(people):
    club = Club.objects.create(name="Home", slug="home", visibility=Club.Visibility.PUBLIC)
    record, second, _ = record_and_points()
    third = [i for i, e in enumerate(record["events"]) if e["type"] == "shuffle"][2]
    game = make_game(club, cut=third)  # the second hand over, the third not begun
    anonymous = Reader()
    assert anonymous.state(game.pk, second + 75) == full_state(second + 75)
    assert anonymous.record(game.pk)["events"] == record["events"][:third]
    assert "redacted" not in anonymous.events(game.pk)
    assert anonymous.replay(game.pk)[1][second + 75]["hands"] == full_state(second + 75)["hands"]


@pytest.mark.django_db
def test_after_game_clubs_keep_every_hand_hidden_until_the_game_is_over(people):
    club, game = setup_club(people, Club.Visibility.PUBLIC, reveal="after_game")
    record, second, cut = record_and_points()
    anonymous = Reader()
    earlier = anonymous.state(game.pk, second - 1)
    assert set(c for h in earlier["hands"] for c in h) == {H}
    assert anonymous.record(game.pk)["redacted"]["from"] == 0
    seated = Reader(people["pia"])
    assert seated.state(game.pk, second - 1)["hands"][SEAT] == full_state(second - 1)["hands"][SEAT]
    finished = services.game_import(club=club, record=record, user=None).body["id"]
    assert anonymous.record(finished)["events"] == record["events"]
    assert "redacted" not in anonymous.record(finished)


@pytest.mark.django_db
def test_a_finished_game_is_open_to_every_reader(people):
    club, _ = setup_club(people, Club.Visibility.MEMBERS)
    record = record_and_points()[0]
    game_id = services.game_import(club=club, record=record, user=None).body["id"]
    for who in ("vic", "pat"):
        r = Reader(people[who])
        assert r.record(game_id)["events"] == record["events"]
        assert r.state(game_id, 100) == engine.state_json(engine.fold(record, 100))


@pytest.mark.django_db
def test_entry_pages_are_for_scorers_who_see_every_hand(people):
    club, game = setup_club(people, Club.Visibility.PUBLIC)
    for who in ("sam", "ann"):
        page = Reader(people[who]).page.get(reverse("entry:enter", args=[game.pk]))
        assert page.status_code == 200
        assert Reader(people[who]).page.get(reverse("entry:panels", args=[game.pk])).status_code == 200
        legal = Reader(people[who]).get(f"/api/games/{game.pk}/legal/").json()
        assert legal["state"]["hands"] == full_state(record_and_points()[2])["hands"]
    for who in ("vic", "pia"):
        assert Reader(people[who]).page.get(reverse("entry:enter", args=[game.pk])).status_code in (403, 404)
        assert Reader(people[who]).page.get(reverse("entry:panels", args=[game.pk])).status_code in (403, 404)
        assert Reader(people[who]).get(f"/api/games/{game.pk}/legal/").status_code in (403, 404)


@pytest.mark.django_db
def test_cached_renderings_never_reach_the_wrong_reader(people):
    """The replay's frames are cached per game version and per what the reader sees: a scorer's
    open frames, the table's and a seated player's are three entries, whichever comes first."""
    _, game = setup_club(people, Club.Visibility.PUBLIC)
    cut = record_and_points()[2]
    full = full_state(cut)
    order = [
        ("sam", "all"),
        ("anonymous", "table"),
        ("pia", "seat"),
        ("vic", "table"),
        ("ann", "all"),
        ("anonymous", "table"),
        ("pia", "seat"),
    ]
    for who, sees in order:
        hands = reader_of(people, who).replay(game.pk)[1][cut]["hands"]
        for s, hand in enumerate(hands):
            shown = sees == "all" or (sees == "seat" and s == SEAT)
            assert hand == (full["hands"][s] if shown else [H] * len(hand)), (who, s)


@pytest.mark.django_db
def test_the_club_setting_is_read_and_set_by_the_api(people):
    club, _ = setup_club(people, Club.Visibility.PUBLIC)
    ann, vic = Reader(people["ann"]), Reader(people["vic"])
    assert ann.get(f"/api/clubs/{club.pk}/").json()["reveal_hands"] == "after_hand"
    assert vic.api.patch(f"/api/clubs/{club.pk}/", {"reveal_hands": "after_game"}, format="json").status_code == 403
    response = ann.api.patch(f"/api/clubs/{club.pk}/", {"reveal_hands": "after_game"}, format="json")
    assert response.status_code == 200 and response.json()["reveal_hands"] == "after_game"
    assert ann.api.patch(f"/api/clubs/{club.pk}/", {"reveal_hands": "never"}, format="json").status_code == 400
    created = ann.api.post("/api/clubs/", {"name": "New", "slug": "new", "reveal_hands": "after_game"}, format="json")
    assert created.status_code == 201 and created.json()["reveal_hands"] == "after_game"


@pytest.mark.django_db
def test_the_create_a_club_page_sets_when_hands_are_shown(people):
    founder = Reader(people["ann"]).page
    assert "When readers see the cards" in founder.get("/new-club/").content.decode()
    founder.post(
        "/new-club/", {"name": "Late Reveal", "slug": "late", "visibility": "public", "reveal_hands": "after_game"}
    )
    founder.post("/new-club/", {"name": "Usual", "slug": "usual", "visibility": "public"})
    assert Club.objects.get(slug="late").reveal_hands == "after_game"
    assert Club.objects.get(slug="usual").reveal_hands == "after_hand"
