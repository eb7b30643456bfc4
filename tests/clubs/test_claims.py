"""Claiming a roster player (issue 30, finding 1): "This is me" is a request the club's admins
approve or refuse (or an invitation made for that player); no link changes while the player sits
in an open game, whoever asks; every step is in the club's history.

The probe: a viewer unlinked his own player and claimed a seated player of a game in play, and
was shown that seat's hand; he switched back and only a history line told."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.clubs import services
from games.clubs.models import AuditEntry, ClaimRequest
from games.models import Club, Game, GameSeat, Membership, Player
from games.services import InvalidInput, WriteForbidden
from tests.visibility.channels import Reader
from tests.visibility.test_channels import make_game, record_and_points

pytestmark = pytest.mark.django_db
SEAT = 1


@pytest.fixture
def home(db):
    users = {n: get_user_model().objects.create_user(n, password="pw") for n in ("ada", "vic", "pat", "wes")}
    club = Club.objects.create(name="Home", slug="home", visibility=Club.Visibility.PUBLIC)
    Membership.objects.create(club=club, user=users["ada"], role="admin")
    for name in ("vic", "pat", "wes"):
        Membership.objects.create(club=club, user=users[name], role="viewer")
    return club, users


def seated(game: Game, seat: int = SEAT) -> Player:
    return GameSeat.objects.get(game=game, seat=seat).player


def actions(club) -> list[str]:
    return list(AuditEntry.objects.filter(club=club).order_by("id").values_list("action", flat=True))


def test_the_probe_unlink_then_claim_a_seated_player_shows_no_hand(home):
    """Before: the claim linked at once and the state showed the seat's 14 cards."""
    club, users = home
    vic = users["vic"]
    own = Player.objects.create(club=club, name="Vic", user=vic)
    game = make_game(club)  # a game in play, its second hand being played
    target = seated(game)
    services.player_link(player=own, actor=vic, user_id=None)  # his own, seated nowhere open: allowed
    claim = services.claim_request(player=target, actor=vic)
    target.refresh_from_db()
    assert target.user_id is None and claim.state == ClaimRequest.State.PENDING
    record, _second, cut = record_and_points()
    full = engine.state_json(engine.fold(record, cut))
    state = Reader(vic).state(game.pk)
    assert len(full["hands"][SEAT]) > 0 and state["hands"][SEAT] == [engine.HIDDEN] * len(full["hands"][SEAT])
    assert state["redacted"]["seats"] == []  # he holds no seat of the game
    with pytest.raises(WriteForbidden):  # nor may he link himself directly
        services.player_link(player=target, actor=vic, user_id=vic.pk)
    assert actions(club)[-2:] == ["player_unlinked", "claim_requested"]


def test_an_admin_approves_only_once_the_players_game_is_over(home):
    club, users = home
    vic, ada = users["vic"], users["ada"]
    game = make_game(club)
    target = seated(game)
    claim = services.claim_request(player=target, actor=vic)
    with pytest.raises(InvalidInput) as refused:
        services.claim_decide(claim=claim, actor=ada, approve=True)
    assert refused.value.code == "player_in_open_game" and f"game {game.pk}" in refused.value.message
    claim.refresh_from_db()
    target.refresh_from_db()
    assert claim.state == ClaimRequest.State.PENDING and target.user_id is None
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)  # the game over
    services.claim_decide(claim=claim, actor=ada, approve=True)
    target.refresh_from_db()
    assert target.user == vic
    assert actions(club)[-1] == "claim_approved"


def test_no_link_change_on_a_player_seated_in_an_open_game_even_by_an_admin(home):
    club, users = home
    ada, pat, wes = users["ada"], users["pat"], users["wes"]
    game = make_game(club)
    target = seated(game)
    for attempt in (lambda: services.player_link(player=target, actor=ada, user_id=pat.pk),):
        with pytest.raises(InvalidInput) as refused:
            attempt()
        assert refused.value.code == "player_in_open_game"
    # a player linked before the game: neither the member nor an admin unlinks or switches it now
    other = seated(game, 2)
    Player.objects.filter(pk=other.pk).update(user=pat)
    for attempt in (
        lambda: services.player_link(player=other, actor=pat, user_id=None),
        lambda: services.player_link(player=other, actor=ada, user_id=None),
    ):
        with pytest.raises(InvalidInput) as refused:
            attempt()
        assert refused.value.code == "player_in_open_game"
    other.refresh_from_db()
    assert other.user == pat
    # relinking the same account is no change: nothing refused, nothing written
    services.player_link(player=other, actor=ada, user_id=pat.pk)
    # a merge that would give an open game's seat another account is refused too
    fresh = Player.objects.create(club=club, name="Fresh", user=wes)
    with pytest.raises(InvalidInput) as refused:
        services.player_merge(source=target, target=fresh, actor=ada)
    assert refused.value.code == "player_in_open_game"
    assert Player.objects.filter(pk=target.pk).exists()


def test_a_tournament_in_progress_keeps_its_tables_seats_as_they_are(home):
    """A duplicate table's finished game stays hidden from the other tables until its round
    closes: its players count as seated in an open game while the tournament is in progress."""
    from games.tournaments.models import TableGame, Tournament

    club, users = home
    game = make_game(club)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    tournament = Tournament.objects.create(club=club, name="Cup", header={})
    TableGame.objects.create(tournament=tournament, round=1, table=1, game=game)
    claim = services.claim_request(player=seated(game), actor=users["vic"])
    with pytest.raises(InvalidInput) as refused:
        services.claim_decide(claim=claim, actor=users["ada"], approve=True)
    assert refused.value.code == "player_in_open_game"
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    services.claim_decide(claim=claim, actor=users["ada"], approve=True)
    assert seated(game).user == users["vic"]


def test_requests_refused_withdrawn_and_one_at_a_time(home):
    club, users = home
    vic, pat, ada = users["vic"], users["pat"], users["ada"]
    ann, bob = Player.objects.create(club=club, name="Ann"), Player.objects.create(club=club, name="Bob")
    first = services.claim_request(player=ann, actor=vic)
    with pytest.raises(InvalidInput) as refused:
        services.claim_request(player=bob, actor=vic)
    assert refused.value.code == "claim_pending"
    with pytest.raises(WriteForbidden):  # only the member withdraws, and a viewer decides nothing
        services.claim_withdraw(claim=first, actor=pat)
    with pytest.raises(WriteForbidden):
        services.claim_decide(claim=first, actor=pat, approve=True)
    services.claim_withdraw(claim=first, actor=vic)
    with pytest.raises(InvalidInput) as refused:
        services.claim_decide(claim=first, actor=ada, approve=True)
    assert refused.value.code == "claim_withdrawn"
    mine, theirs = services.claim_request(player=bob, actor=vic), services.claim_request(player=bob, actor=pat)
    services.claim_decide(claim=mine, actor=ada, approve=False)
    assert Player.objects.get(pk=bob.pk).user_id is None
    services.claim_decide(claim=theirs, actor=ada, approve=True)
    assert Player.objects.get(pk=bob.pk).user == pat
    with pytest.raises(InvalidInput) as refused:  # linked now: nobody else asks for it
        services.claim_request(player=bob, actor=vic)
    assert refused.value.code == "player_linked"
    with pytest.raises(InvalidInput) as refused:  # and pat is a player already
        services.claim_request(player=ann, actor=pat)
    assert refused.value.code == "duplicate"
    assert actions(club)[-5:] == [
        "claim_withdrawn",
        "claim_requested",
        "claim_requested",
        "claim_refused",
        "claim_approved",
    ]


def test_approving_one_request_refuses_the_others_for_that_player(home):
    club, users = home
    ann = Player.objects.create(club=club, name="Ann")
    a = services.claim_request(player=ann, actor=users["vic"])
    b = services.claim_request(player=ann, actor=users["pat"])
    services.claim_decide(claim=a, actor=users["ada"], approve=True)
    b.refresh_from_db()
    assert b.state == ClaimRequest.State.REFUSED and b.decided_by == users["ada"]


def test_an_invitation_for_a_seated_player_joins_now_and_links_after_approval(home):
    club, users = home
    ada = users["ada"]
    newcomer = get_user_model().objects.create_user("neo", password="pw")
    game = make_game(club)
    target = seated(game)
    invitation = services.invitation_create(club=club, actor=ada, role="viewer", player=target)
    services.invitation_accept(token=invitation.token, user=newcomer)
    target.refresh_from_db()
    assert Membership.objects.filter(club=club, user=newcomer).exists() and target.user_id is None
    claim = ClaimRequest.objects.get(club=club, user=newcomer)
    assert (claim.player, claim.source, claim.state) == (target, "invitation", "pending")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    services.claim_decide(claim=claim, actor=ada, approve=True)
    target.refresh_from_db()
    assert target.user == newcomer


def test_the_players_page_for_a_member_and_for_the_admin(home):
    club, users = home
    vic, ada = users["vic"], users["ada"]
    ann = Player.objects.create(club=club, name="Ann")
    member, admin = Client(), Client()
    member.force_login(vic)
    admin.force_login(ada)
    assert "This is me" in member.get("/clubs/home/players/").content.decode()
    response = member.post("/clubs/home/players/", {"action": "claim", "player": ann.pk}, follow=True)
    page = response.content.decode()
    assert "Your request to be Ann is sent" in page and 'id="my-claim"' in page and "This is me" not in page
    claim = ClaimRequest.objects.get(user=vic)
    assert (
        member.post("/clubs/home/players/", {"action": "approve", "claim": claim.pk}, follow=True)
        .content.decode()
        .count("this needs the admin role in the club")
        == 1
    )
    page = admin.get("/clubs/home/players/").content.decode()
    assert 'id="claims"' in page and "vic asks to be Ann" in page
    page = admin.post("/clubs/home/players/", {"action": "refuse", "claim": claim.pk}, follow=True).content.decode()
    assert "Request refused." in page and 'id="claims"' not in page
    history = admin.get("/clubs/home/history/").content.decode()
    assert "asked to be the player “Ann”" in history and "refused that vic is the player “Ann”" in history


def test_a_refused_approval_says_why_on_the_page(home):
    club, users = home
    game = make_game(club)
    target = seated(game)
    claim = services.claim_request(player=target, actor=users["vic"])
    admin = Client()
    admin.force_login(users["ada"])
    page = admin.post("/clubs/home/players/", {"action": "approve", "claim": claim.pk}, follow=True).content.decode()
    assert f"sits in game {game.pk}, which is still open" in page


def test_the_claims_api_ask_list_decide_withdraw(home):
    from rest_framework.authtoken.models import Token

    from tests.conftest import client_for

    club, users = home
    for user in users.values():
        Token.objects.create(user=user)
    vic, pat, admin = client_for(users["vic"]), client_for(users["pat"]), client_for(users["ada"])
    ann, bob = Player.objects.create(club=club, name="Zoe"), Player.objects.create(club=club, name="Yan")
    game = make_game(club)
    seated_player = seated(game)
    asked = vic.post("/api/clubs/home/claims/", {"player": ann.pk}, format="json")
    assert asked.status_code == 201 and asked.json()["state"] == "pending" and asked.json()["player_name"] == "Zoe"
    again = vic.post("/api/clubs/home/claims/", {"player": bob.pk}, format="json")
    assert (again.status_code, again.json()["code"]) == (400, "claim_pending")
    theirs = pat.post("/api/clubs/home/claims/", {"player": seated_player.pk}, format="json").json()
    assert [c["username"] for c in vic.get("/api/clubs/home/claims/").json()] == ["vic"]  # a member: their own
    assert len(admin.get("/api/clubs/home/claims/").json()) == 2
    assert (
        vic.post(f"/api/clubs/home/claims/{asked.json()['id']}/", {"decision": "approve"}, format="json").status_code
        == 403
    )
    bad = admin.post(f"/api/clubs/home/claims/{asked.json()['id']}/", {"decision": "maybe"}, format="json")
    assert bad.status_code == 400
    refused = admin.post(f"/api/clubs/home/claims/{theirs['id']}/", {"decision": "approve"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "player_in_open_game")
    assert pat.delete(f"/api/clubs/home/claims/{theirs['id']}/").json()["state"] == "withdrawn"
    approved = admin.post(f"/api/clubs/home/claims/{asked.json()['id']}/", {"decision": "approve"}, format="json")
    assert approved.status_code == 200 and approved.json()["state"] == "approved", approved.json()
    assert Player.objects.get(pk=ann.pk).user == users["vic"]
    outsider = get_user_model().objects.create_user("out", password="pw")
    Token.objects.create(user=outsider)
    assert client_for(outsider).get("/api/clubs/home/claims/").status_code == 403
    assert client_for(outsider).post("/api/clubs/home/claims/", {"player": bob.pk}, format="json").status_code == 403


def test_the_django_admin_keeps_the_rule_and_the_history(home):
    club, users = home
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123")
    staff = Client()
    staff.force_login(root)
    game = make_game(club)
    target = seated(game)
    form = {"name": target.name, "club": club.pk, "user": users["vic"].pk}
    page = staff.post(f"/admin/games/player/{target.pk}/change/", form)
    assert page.status_code == 200 and "which is still open" in page.content.decode()
    target.refresh_from_db()
    assert target.user_id is None
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert staff.post(f"/admin/games/player/{target.pk}/change/", form).status_code == 302
    assert staff.post(f"/admin/games/player/{target.pk}/change/", {**form, "user": ""}).status_code == 302
    assert [
        (e.action, e.actor_name, e.details["user"]) for e in AuditEntry.objects.filter(club=club).order_by("id")
    ] == [("player_linked", "root", "vic"), ("player_unlinked", "root", "vic")]


ACTORS = ("ada", "vic", "pat")
STEP = st.tuples(
    st.sampled_from(["claim", "approve", "refuse", "withdraw", "link", "unlink", "merge"]),
    st.sampled_from(ACTORS),
    st.sampled_from(ACTORS),
    st.sampled_from([1, 2]),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(STEP, min_size=1, max_size=8))
def test_no_sequence_of_link_changes_moves_a_seat_of_an_open_game(home, steps):
    """Property: whatever members and the admin do - claims, approvals, refusals, withdrawals,
    links, unlinks, merges, in any order - the accounts of the seats of a game in play stay as they
    were until it is over; every refusal is a coded error."""
    club, users = home
    with transaction.atomic():
        game = make_game(club)
        seats = {s: seated(game, s) for s in (1, 2)}
        Player.objects.filter(pk=seats[2].pk).update(user=users["pat"])  # one seat linked before the game
        spare = Player.objects.create(club=club, name="Spare")
        before = dict(GameSeat.objects.filter(game=game).values_list("seat", "player__user_id"))
        for action, actor, other, seat in steps:
            player = Player.objects.filter(pk=seats[seat].pk).first() or spare
            try:
                if action == "claim":
                    services.claim_request(player=player, actor=users[actor])
                elif action in ("approve", "refuse", "withdraw"):
                    claim = ClaimRequest.objects.filter(club=club, state="pending").order_by("id").first()
                    if claim is None:
                        continue
                    if action == "withdraw":
                        services.claim_withdraw(claim=claim, actor=users[actor])
                    else:
                        services.claim_decide(claim=claim, actor=users[actor], approve=action == "approve")
                elif action == "link":
                    services.player_link(player=player, actor=users[actor], user_id=users[other].pk)
                elif action == "unlink":
                    services.player_link(player=player, actor=users[actor], user_id=None)
                else:
                    services.player_merge(source=player, target=spare, actor=users[actor])
            except (InvalidInput, WriteForbidden) as refused:
                assert refused.code and refused.message
            assert dict(GameSeat.objects.filter(game=game).values_list("seat", "player__user_id")) == before, steps
        transaction.set_rollback(True)


def test_an_invitation_for_a_seated_player_replaces_the_members_own_waiting_request(home):
    """Before: the second waiting request broke the one-per-member constraint (IntegrityError, a
    500) and the invitation could not be accepted."""
    club, users = home
    vic, ada = users["vic"], users["ada"]
    zoe = Player.objects.create(club=club, name="Zoe")
    services.claim_request(player=zoe, actor=vic)
    game = make_game(club)
    target = seated(game)
    invitation = services.invitation_create(club=club, actor=ada, role="scorer", player=target)
    services.invitation_accept(token=invitation.token, user=vic)
    assert Membership.objects.get(club=club, user=vic).role == "scorer"
    states = dict(ClaimRequest.objects.filter(user=vic).values_list("player__name", "state"))
    assert states == {"Zoe": "withdrawn", target.name: "pending"}
    assert actions(club)[-3:] == ["invitation_accepted", "claim_withdrawn", "claim_requested"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_link_and_an_approval_at_once_leave_the_member_one_player():
    import threading

    from django.db import connection

    for attempt in range(5):
        ada, bob, vic = (
            get_user_model().objects.create_user(f"{n}{attempt}", password="pw") for n in ("ada", "bob", "vic")
        )
        club = Club.objects.create(name=f"Race {attempt}", slug=f"race-{attempt}")
        for user, role in ((ada, "admin"), (bob, "admin"), (vic, "viewer")):
            Membership.objects.create(club=club, user=user, role=role)
        first, second = Player.objects.create(club=club, name="First"), Player.objects.create(club=club, name="Second")
        claim = services.claim_request(player=second, actor=vic)
        barrier, outcomes = threading.Barrier(2), []

        def run(action, barrier=barrier, outcomes=outcomes):  # this attempt's, bound now
            try:
                barrier.wait()
                action()
                outcomes.append("done")
            except InvalidInput as err:
                outcomes.append(err.code)
            finally:
                connection.close()

        threads = [
            threading.Thread(
                target=run,
                args=(
                    lambda first=first, ada=ada, vic=vic: services.player_link(player=first, actor=ada, user_id=vic.pk),
                ),
            ),
            threading.Thread(
                target=run,
                args=(lambda claim=claim, bob=bob: services.claim_decide(claim=claim, actor=bob, approve=True),),
            ),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert Player.objects.filter(club=club, user=vic).count() == 1, (attempt, outcomes)
        assert sorted(outcomes) == ["done", "duplicate"], outcomes
