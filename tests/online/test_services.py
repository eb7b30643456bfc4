"""The online table's writes (games/online/services.py): a table opened by a member, seats joined
by their links, the deal by the server, each seat's actions checked against the engine's legal
actions and stored as ordinary record events through the append service."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import AnonymousUser

from games import engine, snapshots, visibility
from games import selectors as game_selectors
from games.models import Event, Game, Membership
from games.online import selectors, services
from games.online.models import OnlineTable
from games.services import InvalidInput, SeqConflict, WriteForbidden
from tests.online.play import join_all, open_four, step


@pytest.fixture
def member(make_user, club):
    user = make_user("member")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    return user


def record_of(game: Game) -> dict:
    events = [e.as_record_event() for e in Event.objects.filter(game=game).order_by("seq")]
    return {
        "format": engine.FORMAT,
        "variant": game.variant,
        "options": game.options or {},
        "players": game_selectors.game_player_names(game),
        "events": events,
    }


def test_a_member_opens_a_table_with_a_secret_link_per_seat(club, member):
    table = open_four(club, member)
    seats = list(table.seats.order_by("seat"))
    assert [s.player.name for s in seats] == ["Ada", "Ben", "Cyd", "Dot"]
    assert len({s.secret for s in seats}) == 4 and all(len(s.secret) >= 22 for s in seats)
    assert table.game.club == club and table.game.seq == 0
    assert selectors.seat_by_secret(seats[2].secret).seat == 2
    assert selectors.seat_by_secret("x" * 65) is None and selectors.seat_by_secret("nope") is None


def test_only_a_member_opens_a_table(club, make_user):
    with pytest.raises(WriteForbidden):
        open_four(club, make_user("stranger"))
    with pytest.raises(WriteForbidden):
        open_four(club, AnonymousUser())
    assert not OnlineTable.objects.exists() and not Game.objects.exists()


def test_the_table_deals_once_every_seat_has_joined(club, member):
    table = open_four(club, member)
    seats = list(table.seats.order_by("seat"))
    for seat in seats[:3]:
        services.join(seat)
    assert Game.objects.get(pk=table.game_id).seq == 0
    with pytest.raises(InvalidInput) as refused:
        services.act(seat=seats[0], action={"type": "no_grand_tichu"}, expected_seq=0)
    assert refused.value.code == "table_not_ready"
    services.join(seats[3])
    game = Game.objects.get(pk=table.game_id)
    kinds = [e.type for e in Event.objects.filter(game=game).order_by("seq")]
    assert kinds == ["shuffle", "deal", "deal", "deal", "deal"]
    view = selectors.seat_view(seats[1])
    hands = view["state"]["hands"]
    assert len(hands[1]) == 8 and "?" not in hands[1]
    assert all(h == ["?"] * 8 for s, h in enumerate(hands) if s != 1)
    assert view["grand_tichu_wait"] == [0, 1, 2, 3]
    assert {a["type"] for a in view["actions"]} >= {"grand_tichu", "no_grand_tichu"}


def test_the_rest_is_dealt_once_every_grand_tichu_is_decided(club, member):
    seats = join_all(open_four(club, member))
    seq = Game.objects.get(pk=seats[0].table.game_id).seq
    for seat in seats[:3]:
        services.act(seat=seat, action={"type": "no_grand_tichu"}, expected_seq=seq)
    assert Game.objects.get(pk=seats[0].table.game_id).seq == seq  # a "no" is not an event
    services.act(seat=seats[3], action={"type": "grand_tichu"}, expected_seq=seq)
    game = Game.objects.get(pk=seats[0].table.game_id)
    state = engine.fold(record_of(game))
    doc = engine.state_json(state)
    assert doc["calls"] == {"3": "grand_tichu"} or doc["calls"] == {3: "grand_tichu"}
    assert [len(h) for h in doc["hands"]] == [14] * 4
    assert sorted(c for h in doc["hands"] for c in h) == sorted(engine.game_info("nanking").deck)
    assert selectors.seat_view(seats[0])["push_due"]  # the exchange is next


def test_a_stale_page_and_another_seats_action_are_refused_and_nothing_is_stored(club, member):
    seats = join_all(open_four(club, member))
    game_id = seats[0].table.game_id
    seq = Game.objects.get(pk=game_id).seq
    with pytest.raises(SeqConflict):
        services.act(seat=seats[0], action={"type": "no_grand_tichu"}, expected_seq=seq - 1)
    with pytest.raises(InvalidInput) as refused:
        services.act(seat=seats[0], action={"type": "pass"}, expected_seq=seq)
    assert refused.value.code == "not_your_action"
    services.act(seat=seats[0], action={"type": "no_grand_tichu"}, expected_seq=seq)
    with pytest.raises(InvalidInput):  # said twice: the second is refused, nothing changes
        services.act(seat=seats[0], action={"type": "no_grand_tichu"}, expected_seq=seq)
    assert Game.objects.get(pk=game_id).seq == seq


def test_a_retried_action_is_stored_once(club, member):
    seats = join_all(open_four(club, member))
    game_id = seats[0].table.game_id
    seq = Game.objects.get(pk=game_id).seq
    first = services.act(seat=seats[0], action={"type": "grand_tichu"}, expected_seq=seq, idempotency_key="k1")
    again = services.act(seat=seats[0], action={"type": "grand_tichu"}, expected_seq=seq, idempotency_key="k1")
    assert again == first
    calls = [e for e in Event.objects.filter(game_id=game_id) if e.type == "grand_tichu"]
    assert len(calls) == 1
    with pytest.raises(SeqConflict):  # the same action again without its key: the page is stale
        services.act(seat=seats[0], action={"type": "grand_tichu"}, expected_seq=seq)


def test_seats_play_hands_to_the_next_deal_and_the_record_is_ordinary(club, member):
    table = open_four(club, member)
    seats = join_all(table)
    rng = random.Random(4)
    game = Game.objects.get(pk=table.game_id)
    for _ in range(400):
        if not step(table, rng):
            continue
        game.refresh_from_db()
        if sum(e.type == "shuffle" for e in Event.objects.filter(game=game)) == 2:
            break
    record = record_of(game)
    state = engine.fold(record)  # an ordinary record: the engine folds it as any other
    assert len(state.history) == 1  # one hand scored, the next one dealing
    assert engine.score_json(state)["hands"][0]["points"]
    assert all(e.recorded_by_id is None for e in Event.objects.filter(game=game))
    assert seats[0].table_id == table.pk


@pytest.mark.parametrize("variant,players", [("threechu", 3), ("tientsin", 6), ("grand-seigneur", 5)])
def test_the_other_games_play_a_hand_and_the_dealer_plays_the_dummy(club, member, variant, players):
    table = services.open_table(
        club=club, variant=variant, options=None, players=[f"P{i}" for i in range(players)], user=member
    )
    seats = join_all(table)
    rng = random.Random(7)
    game = Game.objects.get(pk=table.game_id)
    for _ in range(600):
        step(table, rng)
        game.refresh_from_db()
        if engine.state_json(engine.fold(record_of(game)))["score_sheet"]:
            break
    assert engine.state_json(engine.fold(record_of(game)))["score_sheet"], "no hand was finished"
    if variant == "threechu":  # the dummy (seat 3) acted, through its dealer's page
        dummy = [
            e for e in Event.objects.filter(game=game) if e.payload.get("seat") == 3 and e.type in ("play", "pass")
        ]
        assert dummy
        dealer = next(s for s in seats if 3 in selectors.seat_view(s)["controls"])
        assert selectors.seat_view(dealer)["state"]["hands"][3].count("?") == 0


def test_a_scorer_reading_a_table_in_play_sees_no_hand_but_the_finished_game_whole(club, member, scorer):
    table = open_four(club, member)
    join_all(table)
    game = Game.objects.select_related("club").get(pk=table.game_id)
    sight = visibility.reader_sight(game, scorer)  # a scorer of the club: everything elsewhere
    assert not sight.everything and not sight.seats
    doc = engine.redact_state(engine.state_json(snapshots.state_at(game, game.seq)), sight, game.seq)
    assert all(set(h) == {"?"} for h in doc["hands"])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    assert visibility.reader_sight(game, scorer).everything


def test_a_club_tables_seat_is_offered_the_replay_once_the_game_is_over(club, member):
    table = open_four(club, member)
    seats = join_all(table)
    assert not selectors.seat_view(seats[0])["replay_open"], "no replay while the game is played"
    Game.objects.filter(pk=table.game_id).update(status=Game.Status.FINISHED)
    assert selectors.seat_view(seats[0])["replay_open"], "a seat link without an account: the club's game is open"
    assert selectors.watch_view(table, member)["replay_open"]


def test_a_members_only_clubs_finished_table_offers_a_seat_link_without_an_account_no_replay(club, member):
    table = open_four(club, member)
    seats = join_all(table)
    Game.objects.filter(pk=table.game_id).update(status=Game.Status.FINISHED)
    type(club).objects.filter(pk=club.pk).update(visibility=type(club).Visibility.MEMBERS)
    assert not selectors.seat_view(seats[0])["replay_open"], "the replay would be a 404 for a visitor"
    assert selectors.seat_view(seats[0], member)["replay_open"], "a member reads it"


def test_grand_seigneurs_tribute_is_played_from_the_seats_views(club, member):
    """The second hand's exchange at a five-seat Grand Seigneur table: each giver's view names the
    best cards it must give (push_forced) and the fold takes them; the receivers choose theirs."""
    table = services.open_table(
        club=club, variant="grand-seigneur", options=None, players=[f"P{i}" for i in range(5)], user=member
    )
    seats = join_all(table)
    rng = random.Random(11)
    game = Game.objects.get(pk=table.game_id)
    forced_seen = {}
    for _ in range(3000):
        for seat in seats:
            view = selectors.seat_view(seat)
            if view["push_forced"]:
                forced_seen[seat.seat] = view["push_forced"]
        step(table, rng)
        state = engine.state_json(engine.fold(record_of(game)))
        if len(state["score_sheet"]) >= 2:
            break
    assert len(engine.state_json(engine.fold(record_of(game)))["score_sheet"]) >= 2, "the tribute hand was played"
    assert len(forced_seen) == 2, "five players: the Wretch and the second-last give their best cards"
    pushes = {e.payload["seat"]: e.payload["cards"] for e in Event.objects.filter(game=game, type="push")}
    for seat, forced in forced_seen.items():
        assert pushes[seat] == {t: (cs if len(cs) > 1 else cs[0]) for t, cs in forced.items()}
