"""A table's result is confirmed by the other side only, or the TD (issue 30, finding 5).

The probe: the code that recorded a result also confirmed it (201), and while the round was open
it undid and replayed its game: the game became 180:220, the tournament kept the confirmed
240:160, nothing flagged it. Now the side that sends a result names itself by its PIN, the other
side answers with its own, the code no longer writes a game whose result is sent, and a result
its game no longer gives is flagged, loses its confirmation and holds the round (since issue 31:
the result is the game's, so a changed game is the table's result and asks the opponents again;
only a game open again holds the round)."""

from __future__ import annotations

from html import escape

import pytest
from django.test import Client

from games.models import Game
from games.tournaments import result_sides, selectors, table_codes
from games.tournaments.models import EntryPin, TableCode, Tournament, TournamentEvent
from tests.tournament_api.test_api import append, pair_next_round
from tests.tournament_api.test_table_codes import (
    HAND,
    finish_table,
    post_hand,
    published_round,
    results_from_games,
    with_code,
)

pytestmark = pytest.mark.django_db


def url(game: int) -> str:
    return f"/api/games/{game}/tournament-table/"


def sent(client, table: dict, side: str = "ns"):
    response = client.post(url(table["game"]), {"action": "record", "pin": table["pins"][side]}, format="json")
    assert response.status_code == 201, response.json()


def test_the_side_that_sent_the_result_cannot_confirm_it(club, scorer_client):
    _tid, tables = published_round(scorer_client)
    table = tables[1]
    code = with_code(table["code"])
    finish_table(code, table["game"])
    no_pin = code.post(url(table["game"]), {"action": "record"}, format="json")
    assert (no_pin.status_code, no_pin.json()["code"]) == (403, "side_pin_required")
    sent(code, table, "ns")
    for answer in (
        {"action": "confirm"},
        {"action": "confirm", "pin": table["pins"]["ns"]},
        {"action": "dispute", "reason": "x", "pin": table["pins"]["ns"]},
    ):
        refused = code.post(url(table["game"]), answer, format="json")
        assert refused.status_code in (403, 422) and refused.json()["code"] in ("side_pin_required", "same_side")
    same = code.post(url(table["game"]), {"action": "confirm", "pin": table["pins"]["ns"].lower()}, format="json")
    assert (same.status_code, same.json()["code"]) == (422, "same_side")
    assert code.get(url(table["game"])).json()["confirmation"] == "unconfirmed"
    other = code.post(
        url(table["game"]), {"action": "confirm", "pin": table["pins"]["ew"].replace("-", "")}, format="json"
    )
    assert other.status_code == 201
    events = TournamentEvent.objects.filter(type__in=["result_recorded", "result_confirmed"]).order_by("seq")
    assert [(e.type, e.payload["side"]) for e in events] == [("result_recorded", 0), ("result_confirmed", 1)]


def test_a_pin_of_another_table_or_a_made_up_one_is_refused_and_counted(club, scorer_client, settings):
    _tid, tables = published_round(scorer_client)
    table = tables[1]
    code = with_code(table["code"])
    finish_table(code, table["game"])
    elsewhere = code.post(url(table["game"]), {"action": "record", "pin": tables[2]["pins"]["ns"]}, format="json")
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (403, "side_pin_not_at_table"), "a pair elsewhere"
    assert "table 1" in elsewhere.json()["message"]
    for _ in range(table_codes.PIN_TRIES - 1):
        assert (
            code.post(url(table["game"]), {"action": "record", "pin": "AAAAAA"}, format="json").json()["code"]
            == "side_pin_wrong"
        )
    locked = code.post(url(table["game"]), {"action": "record", "pin": table["pins"]["ns"]}, format="json")
    assert (locked.status_code, locked.json()["code"]) == (403, "side_pin_locked"), "even the right PIN waits"
    # the TD answers for the table meanwhile
    assert scorer_client.post(url(table["game"]), {"action": "record"}, format="json").status_code == 201


def test_the_td_confirms_without_a_pin(club, scorer_client):
    _tid, tables = published_round(scorer_client)
    table = tables[1]
    finish_table(with_code(table["code"]), table["game"])
    sent(with_code(table["code"]), table, "ew")
    assert scorer_client.post(url(table["game"]), {"action": "confirm"}, format="json").status_code == 201
    assert scorer_client.get(url(table["game"])).json()["confirmation"] == "confirmed"


def test_once_the_result_is_sent_the_code_no_longer_changes_the_game(club, scorer_client):
    _tid, tables = published_round(scorer_client)
    table = tables[1]
    code = with_code(table["code"])
    finish_table(code, table["game"])
    sent(code, table)
    seq = Game.objects.get(pk=table["game"]).seq
    undo = code.post(
        f"/api/games/{table['game']}/events/", {"expected_seq": seq, "events": [{"type": "undo"}]}, format="json"
    )
    assert (undo.status_code, undo.json()["code"]) == (400, "result_sent")
    assert Game.objects.get(pk=table["game"]).seq == seq
    # the other table, whose result is not sent, still writes its game
    assert post_hand(with_code(tables[2]["code"]), tables[2]["game"]).status_code == 201


def test_a_game_changed_after_its_confirmed_result_is_flagged_and_holds_the_round(club, scorer_client, scorer):
    """Since issue 31 the table's result is its game's: while the TD has the game open again the
    table keeps the numbers sent, flagged, and the round waits; once the game is over again its
    result is the table's, and the opponents are asked again (nothing to take again)."""
    tid, tables = published_round(scorer_client)
    for table in tables.values():
        code = with_code(table["code"])
        finish_table(code, table["game"])
        sent(code, table, "ns")
        assert (
            code.post(url(table["game"]), {"action": "confirm", "pin": table["pins"]["ew"]}, format="json").status_code
            == 201
        )
    game = tables[1]["game"]
    # the TD undoes table 1's hand and enters another: the game now says 20:80
    seq = Game.objects.get(pk=game).seq
    assert (
        scorer_client.post(
            f"/api/games/{game}/events/", {"expected_seq": seq, "events": [{"type": "undo"}]}, format="json"
        ).status_code
        == 201
    )
    view = scorer_client.get(url(game)).json()
    assert view["confirmation"] == "game_changed" and view["game_changed"] == {"sent": [70, 30], "now": None}
    td = Client()
    td.force_login(scorer)
    page = td.get(f"/tournaments/{tid}/").content.decode()
    assert 'id="game-changed"' in page and "the game is no longer over" in page.split('id="game-changed"')[1]
    assert 'data-confirmation="game_changed"' in page
    phone = Client()
    phone.get(f"/t/{tables[1]['code']}/")
    assert 'id="game-changed"' in phone.get(f"/games/{game}/enter/result/").content.decode()
    # the round does not close on it
    closing = append(scorer_client, tid, [{"type": "round_closed", "round": 1}], Tournament.objects.get(pk=tid).seq)
    assert (closing.status_code, closing.json()["code"]) == (400, "result_out_of_step")
    assert "table(s) 1" in closing.json()["message"]
    replayed = {**HAND, "points": [20, 80]}
    assert (
        scorer_client.post(
            f"/api/games/{game}/events/", {"expected_seq": seq + 1, "events": [replayed]}, format="json"
        ).status_code
        == 201
    )
    view = with_code(tables[1]["code"]).get(url(game)).json()
    assert (view["score"], view["confirmation"], view["game_changed"], view["asked_again"]) == (
        [20, 80],
        "unconfirmed",
        None,
        True,
    )
    assert 'data-asked-again="1"' in td.get(f"/tournaments/{tid}/").content.decode()
    assert (
        append(
            scorer_client, tid, [{"type": "round_closed", "round": 1}], Tournament.objects.get(pk=tid).seq
        ).status_code
        == 201
    )


def test_an_unconfirmed_result_whose_game_changed_is_not_confirmed(club, scorer_client):
    _tid, tables = published_round(scorer_client)
    table = tables[1]
    code = with_code(table["code"])
    finish_table(code, table["game"])
    sent(code, table, "ns")
    seq = Game.objects.get(pk=table["game"]).seq
    scorer_client.post(
        f"/api/games/{table['game']}/events/", {"expected_seq": seq, "events": [{"type": "undo"}]}, format="json"
    )
    refused = code.post(url(table["game"]), {"action": "confirm", "pin": table["pins"]["ew"]}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "result_out_of_step")


def test_each_entry_has_its_own_pin_and_a_reissued_code_keeps_them(club, scorer_client):
    tid, tables = published_round(scorer_client)
    pins = tables[1]["pins"]
    assert pins["ns"] != pins["ew"] and all(len(p) == 7 and p[3] == "-" for p in pins.values())
    assert all(table_codes.normalise(p.replace("-", "") + "AA") for p in pins.values()), "the codes' alphabet"
    stored = table_codes.entry_pins(tid)
    tournament = Tournament.objects.get(pk=tid)
    assert len(set(stored.values())) == len(stored) == len(selectors.state_at(tournament).entries)
    fresh = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/code/").json()
    assert fresh["pins"] == pins, "the PINs are the entries', not the card's"
    row = TableCode.objects.get(tournament_id=tid, round=1, table=1, ended_at__isnull=True)
    assert (row.ns_pin, row.ew_pin) == ("", "")
    assert result_sides.side_by_pin(row, pins["ew"].lower(), 1) == 1


def test_a_tournament_made_before_entry_pins_keeps_its_side_pins(club, scorer_client):
    tid, tables = published_round(scorer_client)
    EntryPin.objects.filter(tournament_id=tid).delete()  # as a tournament made before issue 33
    row = TableCode.objects.get(tournament_id=tid, table=1, ended_at__isnull=True)
    TableCode.objects.filter(pk=row.pk).update(ns_pin="ACDEFG", ew_pin="HJKMNP")
    row.refresh_from_db()
    assert result_sides.side_by_pin(row, "HJK-MNP", 1) == 1
    listed = scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()
    assert listed[0]["pins"] == {"ns": "ACD-EFG", "ew": "HJK-MNP"}
    fresh = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/tables/2/code/").json()
    assert fresh["pins"]["ns"] and fresh["pins"]["ns"] != fresh["pins"]["ew"], "a reissue draws side PINs"
    assert not EntryPin.objects.filter(tournament_id=tid).exists()


def test_the_table_cards_give_each_side_its_pin_slip(club, scorer_client, scorer):
    tid, tables = published_round(scorer_client)
    td = Client()
    td.force_login(scorer)
    page = td.get(f"/tournaments/{tid}/rounds/1/cards/").content.decode()
    slips = page.split('id="pin-slips"')[1]
    for table in tables.values():
        assert table["pins"]["ns"] in slips and table["pins"]["ew"] in slips
    assert table["pins"]["ns"] not in page.split('id="pin-slips"')[0], "not on the card the table shares"
    from tests.tournament_api.test_printouts import pdf_text

    text = pdf_text(td.get(f"/tournaments/{tid}/rounds/1/cards.pdf"))
    for table in tables.values():
        assert table["pins"]["ns"] in text and table["pins"]["ew"] in text


def test_an_entrys_pin_follows_it_to_its_table_of_each_round(club, scorer_client):
    """Issue 33: pairs change tables between rounds; a pair's one slip names its side wherever it sits."""
    tid, tables = published_round(scorer_client)
    results_from_games(scorer_client, tid, 1, tables)
    seq = Tournament.objects.get(pk=tid).seq
    assert append(scorer_client, tid, [{"type": "round_closed", "round": 1}], seq).status_code == 201
    pair_next_round(scorer_client, tid)
    games = {g["table"]: g["game"] for g in scorer_client.post(f"/api/tournaments/{tid}/rounds/2/games/").json()}
    pins = table_codes.entry_pins(tid)
    rnd = selectors.round_of(selectors.state_at(Tournament.objects.get(pk=tid)), 2)
    codes = {row.table: row for row in TableCode.objects.filter(tournament_id=tid, ended_at__isnull=True)}
    moved = 0
    for number, table in rnd.tables.items():
        for side, entries in enumerate(table.sides):
            for entry in entries:
                assert result_sides.side_by_pin(codes[number], pins[entry], 2) == side
                other = codes[3 - number]
                with pytest.raises(result_sides.SidePinRefused) as refused:
                    result_sides.side_by_pin(other, pins[entry], 2)
                assert refused.value.code == "side_pin_not_at_table"
                was_at = next(
                    n
                    for n, t in selectors.round_of(selectors.state_at(Tournament.objects.get(pk=tid)), 1).tables.items()
                    if any(entry in x for x in t.sides)
                )
                moved += was_at != number
    assert moved, "some pair changed tables (else this proves nothing)"
    # end to end: the pair now East/West at table 2 sends table 2's result with its own slip's PIN
    ew = rnd.tables[2].sides[1][0]
    code = with_code(table_codes.printed(codes[2].code))
    finish_table(code, games[2])
    response = code.post(url(games[2]), {"action": "record", "pin": pins[ew]}, format="json")
    assert response.status_code == 201, response.json()
    sent_event = TournamentEvent.objects.filter(tournament_id=tid, type="result_recorded").order_by("-seq").first()
    assert (sent_event.payload["round"], sent_event.payload["table"], sent_event.payload["side"]) == (2, 2, 1)


def test_the_cards_page_prints_each_entrys_slip_and_a_late_entry_gets_its_pin(club, scorer_client, scorer):
    tid, tables = published_round(scorer_client)
    tournament = Tournament.objects.get(pk=tid)
    names = {e: entry.name for e, entry in selectors.state_at(tournament).entries.items()}
    late = next(iter(names))
    EntryPin.objects.filter(tournament_id=tid, entry=late).delete()  # as an entry registered after the round
    td = Client()
    td.force_login(scorer)
    page = td.get(f"/tournaments/{tid}/rounds/1/cards/").content.decode()
    pins = table_codes.entry_pins(tid)
    assert set(pins) == set(names), "the late entry got its PIN when its slip was printed"
    slips = page.split('id="pin-slips"')[1]
    for entry, pin in pins.items():
        assert table_codes.printed_pin(pin) in slips and f"{escape(names[entry])}: your PIN for the evening" in slips
        assert table_codes.printed_pin(pin) not in page.split('id="pin-slips"')[0]
    assert "Table 1, round 1" not in slips, "a slip names the entry, not a table"
    again = td.get(f"/tournaments/{tid}/rounds/1/cards/")
    assert again.status_code == 200 and table_codes.entry_pins(tid) == pins, "printing again changes no PIN"


def test_in_an_individual_tournament_each_player_has_a_pin_that_names_their_side(club, scorer_client):
    from tests.tournament_api.test_api import create

    header = {"entrants": "individuals", "system": "individual", "scoring": "dtm", "rounds": 1}
    tid = create(scorer_client, header=header)["id"]
    events = [{"type": "entry_registered", "entry": f"i{n}", "players": [name]} for n, name in enumerate("ABCDEFGH")]
    assert append(scorer_client, tid, events, 0).status_code == 201
    pair_next_round(scorer_client, tid)
    assert scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").status_code == 201
    pins = table_codes.entry_pins(tid)
    assert sorted(pins) == [f"i{n}" for n in range(8)] and len(set(pins.values())) == 8, "a PIN per player"
    rnd = selectors.round_of(selectors.state_at(Tournament.objects.get(pk=tid)), 1)
    codes = {row.table: row for row in TableCode.objects.filter(tournament_id=tid, ended_at__isnull=True)}
    for number, table in rnd.tables.items():
        for side, players in enumerate(table.sides):
            assert len(players) == 2
            for player in players:  # either partner's slip names the side
                assert result_sides.side_by_pin(codes[number], pins[player], 1) == side
