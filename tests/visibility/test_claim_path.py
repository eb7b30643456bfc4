"""The claim path on every channel (issue 30, finding 1): a member who asks to be the seated
player of a game in play - after unlinking his own player, as the probe did - is shown no card of
that seat on any channel (the API's state at every position, events, record, the replay), and
neither his request nor an admin's approval changes that while the game is open."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.clubs import services
from games.models import Club, GameSeat, Membership, Player
from games.services import InvalidInput
from tests.visibility.cards import secret_cards, universe
from tests.visibility.channels import Reader, codes_shown_from
from tests.visibility.test_channels import make_game, record_and_points

SEAT = 1


@pytest.mark.django_db
def test_asking_to_be_a_seated_player_shows_that_seat_on_no_channel():
    users = {n: get_user_model().objects.create_user(n, password="pw") for n in ("ada", "vic")}
    club = Club.objects.create(name="Home", slug="home", visibility=Club.Visibility.MEMBERS)
    Membership.objects.create(club=club, user=users["ada"], role="admin")
    Membership.objects.create(club=club, user=users["vic"], role="viewer")
    own = Player.objects.create(club=club, name="Vic", user=users["vic"])
    game = make_game(club)
    target = GameSeat.objects.get(game=game, seat=SEAT).player
    record, second, cut = record_and_points()
    cards = universe(record)
    seat_secret = secret_cards(record, cut, set()) - secret_cards(record, cut, {SEAT})  # that seat's own
    assert len(seat_secret) > 5  # not vacuous

    services.player_link(player=own, actor=users["vic"], user_id=None)
    services.claim_request(player=target, actor=users["vic"])
    with pytest.raises(InvalidInput):
        services.claim_decide(claim=target.claim_requests.get(), actor=users["ada"], approve=True)
    shown = codes_shown_from(Reader(users["vic"]), game.pk, second, cut, cards)
    assert not shown & seat_secret
    # the same reader linked (what the claim gave at once before): the seat's cards on the channels
    Player.objects.filter(pk=target.pk).update(user=users["vic"])
    assert codes_shown_from(Reader(users["vic"]), game.pk, second, cut, cards) & seat_secret
