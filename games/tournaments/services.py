"""Writes for tournaments: create one, append to its stream, make a round's games, take a table's
result from its game.

The same guarantees as a game's, from the one stream store (games.streams): one transaction per
write, the head row locked (writers to one tournament are serialised), `expected_seq` checked
(SeqConflict, 409), every event checked by the pure core before anything is stored (RuleViolation
with the index of the refused event), an `Idempotency-Key` remembered in the same transaction as
the write.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import engine, hooks, ids
from games import selectors as game_selectors
from games import services as game_services
from games import tournament as core
from games.clubs import feed
from games.models import Club, Game, GameSeat, Membership, Player
from games.services import GameNotFound, RuleViolation, WriteForbidden
from games.streams.append import append_batch
from games.streams.checks import check_storable
from games.streams.errors import InvalidInput, SeqConflict, ServiceError
from games.streams.idempotency import fingerprint, with_idempotency
from games.streams.results import WriteResult
from games.tournament import utc_text
from games.tournaments import duplicate_boards, refusal_words, result_sides, seating, selectors, table_codes, visibility
from games.tournaments.models import TableGame, Tournament, TournamentEvent

MAX_BATCH = 500
SEATS_PER_TABLE = sum(len(side) for side in core.table_sides())  # the engine's: two sides of two


class TournamentNotFound(GameNotFound):
    """No such tournament, or one the user may not see (404)."""


class TournamentRuleViolation(RuleViolation):
    """The core refused an event (422, the API's rule-error shape); `index` is its position in
    the batch."""

    error: core.TournamentError

    def __init__(self, error: core.TournamentError, index: int | None) -> None:
        ServiceError.__init__(self, refusal_words.message(error, index))
        self.code = error.code
        self.error = error
        self.index = index

    def in_language(self) -> str | None:
        return refusal_words.said(self.error, self.index)


def _malformed(err: core.TournamentError, index: int | None) -> InvalidInput:
    said = refusal_words.message(err, index)
    if "rule" not in err.params:
        return InvalidInput(said, code="malformed")
    return InvalidInput(said, code="malformed", params={**err.params, "index": index})


class TournamentSeqConflict(SeqConflict):
    """`expected_seq` is not the tournament's current seq (409): SeqConflict's answer, worded for
    a tournament."""

    def __init__(self, expected_seq: int, current_seq: int) -> None:
        super().__init__(expected_seq, current_seq)
        self.message = _("expected_seq is %(expected)s but the tournament is at seq %(current)s") % {
            "expected": expected_seq,
            "current": current_seq,
        }
        self.args = (self.message,)


def _core_call(fn, *args, index: int | None = None):
    try:
        return fn(*args)
    except core.TournamentError as err:
        if err.code == "malformed":
            raise _malformed(err, index) from None
        raise TournamentRuleViolation(err, index) from None


def _body(tournament: Tournament) -> dict[str, Any]:
    return {"id": tournament.pk, "seq": tournament.seq, "status": tournament.status}


# --- create ------------------------------------------------------------------------------------


def tournament_create(
    *,
    club: Club,
    name: str,
    header: dict,
    variant: str = "nanking",
    game_options: dict | None = None,
    user,
    idempotency_key: str | None = None,
) -> WriteResult:
    """A new tournament of `club` (the user must be a scorer or admin there: checked by the caller's
    permission). The header is checked by the core; the tables' game must be a four-seat Tichu
    game the engine accepts with the preset's options."""
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise InvalidInput(_("a tournament's name is a non-empty string of at most 100 characters"))
    if not isinstance(header, dict):
        raise InvalidInput(_("header must be an object"), code="malformed")
    game_options = dict(game_options or {})
    check_storable([name, header, variant, game_options], gettext_noop("the tournament"))
    parsed = _core_call(core.parse_header, {**header, "name": header.get("name") or name.strip()})
    _check_table_game(variant, {**game_options, **core.engine_options(parsed)})

    def write() -> dict:
        tournament = Tournament.objects.create(
            club=club,
            name=name.strip(),
            header=parsed,
            variant=variant,
            game_options=game_options,
            created_by=user,
            board_secret=duplicate_boards.new_secret() if parsed["system"] == "duplicate" else "",
        )
        return _body(tournament)

    printed = (
        fingerprint(
            "tournament_create", club=club.pk, name=name, header=header, variant=variant, game_options=game_options
        )
        if idempotency_key is not None
        else ""
    )
    return with_idempotency(user=user, key=idempotency_key, fingerprint=printed, write=write)


def _check_table_game(variant: str, options: dict) -> None:
    """The engine must accept the tables' game with four players (Tichu: two sides of two)."""
    try:
        engine.new_game(variant, options, players=[f"p{i}" for i in range(SEATS_PER_TABLE)])
    except engine.EngineError as err:
        raise InvalidInput(
            _("the tables' game: %(why)s") % {"why": game_services.engine_reason(err)}, code="invalid_game"
        ) from None


# --- append ------------------------------------------------------------------------------------


def _lock_for_writer(tournament_id: int, user) -> Tournament:
    tournament = (
        Tournament.objects.select_for_update(of=("self",)).select_related("club").filter(pk=tournament_id).first()
        if transaction.get_connection().features.has_select_for_update_of
        else Tournament.objects.select_for_update().select_related("club").filter(pk=tournament_id).first()
    )
    if tournament is None or not selectors.may_read(user, tournament):
        raise TournamentNotFound(_("no such tournament"))
    if game_selectors.membership_role(user, tournament.club) not in Membership.WRITER_ROLES:
        raise WriteForbidden(
            _("running a tournament needs the scorer or admin role in club '%(club)s'") % {"club": tournament.club.slug}
        )
    return tournament


def _resolve_players(club: Club, event: dict) -> dict:
    """An `entry_registered` event may name players by the club's Player id or by name (a new
    name becomes a new player of the club); the stored event always carries ids, and a name for
    the entry when none was given."""
    if event.get("type") not in ("entry_registered",) or not isinstance(event.get("players"), list):
        return event
    players: list[Player] = []
    for value in event["players"]:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise InvalidInput(_("a player is a player id of the club or a name"), code="malformed")
        if isinstance(value, int):
            player = Player.objects.filter(club=club, pk=value).first() if ids.in_range(value) else None
            if player is None:
                raise InvalidInput(
                    _("no player %(player)s in club '%(club)s'") % {"player": value, "club": club.slug},
                    code="unknown_player",
                )
        else:
            player = game_services.players_for_names(club=club, names=[value])[0]
        players.append(player)
    resolved = {**event, "players": [p.pk for p in players]}
    if not resolved.get("name"):
        resolved["name"] = " & ".join(p.name for p in players)
    return resolved


def _stamp_clock(event: dict) -> dict:
    """A round's clock starts now: the service gives `started_at` (the core reads no clock) when
    the event has none; one given is kept (an imported tournament's, as it was held)."""
    if event.get("type") != "round_clock_started" or "started_at" in event:
        return event
    return {**event, "started_at": utc_text(timezone.now())}


def _check_correction_side(state: core.TournamentState, event: dict, index: int) -> None:
    """A table whose result is its game's is corrected on the game (`correct_table_hand`), never by
    typed numbers on the tournament's stream: one source (issue 31)."""
    if event.get("type") != "result_corrected" or event.get("game") is not None:
        return
    if state.header["system"] == "duplicate":  # a board's AVG adjustment is the TD's, not a hand of the game
        return
    table = _game_table(state, event)
    if table is not None:
        raise InvalidInput(
            _(
                "table %(table)s's result is its game's: correct the hand on the game (with your reason), not "
                "the table's score"
            )
            % {"table": event["table"]},
            code="correct_on_game",
            params={"index": index, "round": event["round"], "table": table.number},
        )


def _game_table(state: core.TournamentState, event: dict):
    """The core's table an event names, if its result is its game's (or the game is open again)."""
    number, table_number = event.get("round"), event.get("table")
    rnd = selectors.round_of(state, number) if type(number) is int else None
    table = rnd.tables.get(table_number) if rnd is not None and type(table_number) is int else None
    result = table.result if table is not None else None
    return table if result is not None and (result.get("from_game") or result.get("game_open")) else None


def _answer_to_game(tournament: Tournament, state: core.TournamentState, event: dict, index: int) -> dict:
    """An answer to a game's result is given to the lines the game gives now: they are written into
    it (the core keeps them: the answer stands only while the game gives them); other lines are
    refused, as is an answer while the game is open again."""
    if event.get("type") not in ("result_confirmed", "result_disputed") or _game_table(state, event) is None:
        return event
    link = selectors.table_games(tournament, event["round"]).get(event["table"])
    if link is None or not _gives_result(tournament, link):
        raise InvalidInput(
            _("the table's game is open again (hands undone): it is answered once it is over again"),
            code="result_out_of_step",
            params={"index": index},
        )
    lines = selectors.table_game_lines(tournament, link.round, link.table, link.game)
    if event.get("hands") is not None and event["hands"] != lines:
        raise InvalidInput(
            _("this answer is to other hand lines than the game's now: look at the game again"),
            code="answer_lines_stale",
            params={"index": index},
        )
    return {**event, "hands": lines}


def _check_game_disputes(state: core.TournamentState, event: dict, index: int) -> None:
    """A round closes only when no game's result is disputed for the lines the game gives now (the
    core leaves the games' results to this check: its own fold reads the games as they are now)."""
    if event.get("type") != "round_closed" or type(event.get("round")) is not int:
        return
    rnd = selectors.round_of(state, event["round"])
    if rnd is None:
        return
    disputed = sorted(
        n
        for n, t in rnd.tables.items()
        if t.confirmation == "disputed" and _game_table(state, {"round": rnd.number, "table": n}) is not None
    )
    if disputed:
        error = core.TournamentError(
            "results_disputed",
            f"round {rnd.number}: the result of table(s) {', '.join(map(str, disputed))} is disputed: correct it first",
            round=rnd.number,
            tables=disputed,
        )
        raise TournamentRuleViolation(error, index)


def _check_result_game(club: Club, event: dict, index: int) -> None:
    """A result's `game` is the id of a game of the tournament's club ("Results from games": a
    table's game is recorded as any other game of the club); the core checks only its shape."""
    if event.get("type") not in ("result_recorded", "result_corrected"):
        return
    game = event.get("game")
    if game is None or not (isinstance(game, (int, str)) and not isinstance(game, bool)):
        return  # absent, or a shape the core refuses as malformed
    known = isinstance(game, int) and ids.in_range(game) and Game.objects.filter(club=club, pk=game).exists()
    if not known:
        raise InvalidInput(
            _("no game %(game)s in club '%(club)s'") % {"game": str(game)[:40], "club": club.slug},
            code="unknown_game",
            params={"index": index},
        )


def append_events(
    *, tournament_id: int, events: Any, expected_seq: int, user, idempotency_key: str | None = None
) -> WriteResult:
    """Append a batch of tournament events atomically: all or nothing (the stream store's append,
    games.streams.append, with the core's checks and fold)."""

    def write(tournament: Tournament, batch: list[dict]) -> dict[str, Any]:
        state = selectors.state_at(tournament)
        resolved = [_stamp_clock(_resolve_players(tournament.club, e)) for e in batch]
        for i, event in enumerate(resolved):
            _core_call(core.check_incoming, event, index=i)  # what is appended only: stored history folds as it is
            _check_result_game(tournament.club, event, i)
            _check_correction_side(state, event, i)
            resolved[i] = event = _answer_to_game(tournament, state, event, i)
            _check_game_disputes(state, event, i)
            if event.get("type") == "round_closed" and type(event.get("round")) is int:
                # no round closes on a result its game no longer gives (result_sides)
                result_sides.check_round_closes_in_step(tournament, state, event["round"])
            _core_call(state.apply, event, index=i)
        _insert(tournament, resolved, finished=state.finished, user=user)
        return {**_body(tournament), "appended": len(resolved), "first_seq": tournament.seq - len(resolved) + 1}

    return append_batch(
        events=events,
        limit=MAX_BATCH,
        operation="tournament_append",
        stream={"tournament": tournament_id},
        expected_seq=expected_seq,
        user=user,
        idempotency_key=idempotency_key,
        lock=lambda: _lock_for_writer(tournament_id, user),
        conflict=TournamentSeqConflict,
        write=write,
    )


def _insert(tournament: Tournament, events: list[dict], *, finished: bool, user) -> None:
    start = tournament.seq
    code = getattr(user, "table_code", None)  # a table code's write is recorded as made with it
    user = user if user is not None and user.is_authenticated and code is None else None
    TournamentEvent.objects.bulk_create(
        TournamentEvent(
            tournament=tournament,
            seq=start + i + 1,
            type=e["type"],
            payload={k: v for k, v in e.items() if k != "type"},
            recorded_by=user,
            table_code=code,
        )
        for i, e in enumerate(events)
    )
    tournament.seq = start + len(events)
    tournament.status = Tournament.Status.FINISHED if finished else Tournament.Status.ACTIVE
    tournament.save(update_fields=["seq", "status"])
    table_codes.end_for_events(tournament, events)
    for game in visibility.released_games(tournament, events):  # a closed round's games: rated now
        hooks.finished_game_changed.send(game)
    changed = _result_games(tournament, events)
    if changed:  # a league that follows the tournaments' VP counts these games anew
        hooks.table_results_changed.send(tournament, changed)
    feed.tournament_events(tournament, events)  # rounds closed, the end: the club's feed


def _result_games(tournament: Tournament, events: list[dict]) -> list[Game]:
    """The finished games of the tables whose result the appended `events` record or correct."""
    tables = {(e.get("round"), e.get("table")) for e in events if e.get("type") in result_sides.RESULT_TYPES}
    if not tables:
        return []
    links = TableGame.objects.filter(tournament=tournament, round__in={r for r, _ in tables})
    ids = [link.game_id for link in links if (link.round, link.table) in tables]
    return list(Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED).order_by("pk"))


# --- the tables' games ---------------------------------------------------------------------------


def make_round_games(*, tournament_id: int, round_number: int, user, deal_first_board: bool = True) -> list[TableGame]:
    """A game of the club for every table of the round that has none yet (or whose seating an
    override changed), seated as the pairing says: side 0 North/South (seats 0, 2), side 1
    East/West (seats 1, 3). Returns the round's table games, newest per table. A duplicate
    table's new game is dealt its first board whole, unless `deal_first_board` is False: a round
    played online deals each board itself, in two packets where Grand Tichu is allowed."""
    with transaction.atomic():
        tournament = _lock_for_writer(tournament_id, user)
        state = selectors.state_at(tournament)
        rnd = selectors.round_of(state, round_number)
        if rnd is None:
            raise InvalidInput(
                _("round %(round)s has not been paired") % {"round": round_number}, code="round_not_found"
            )
        if rnd.closed:
            raise InvalidInput(_("round %(round)s is closed") % {"round": round_number}, code="round_closed")
        existing = selectors.table_games(tournament, round_number)
        options = {**tournament.game_options, **core.engine_options(tournament.header)}
        made = {}
        for number, table in sorted(rnd.tables.items()):
            seats = seating.table_seats(state, table.sides)  # North, East, South, West
            linked = existing.get(number)
            if linked is not None and [s.player_id for s in linked.game.seats.all()] == seats:
                made[number] = linked
                continue
            players = {p.pk: p for p in Player.objects.filter(club=tournament.club, pk__in=seats)}
            if len(players) != len(set(seats)):
                raise InvalidInput(_("a table's players are not all players of the club"), code="unknown_player")
            game = Game.objects.create(
                club=tournament.club,
                variant=tournament.variant,
                options=options,
                header={
                    "format": engine.FORMAT,
                    "meta": {"tournament": tournament.pk, "round": round_number, "table": number},
                },
                created_by=user if user is not None and user.is_authenticated else None,
            )
            GameSeat.objects.bulk_create(GameSeat(game=game, seat=i, player=players[p]) for i, p in enumerate(seats))
            made[number] = TableGame.objects.create(tournament=tournament, round=round_number, table=number, game=game)
            if deal_first_board and duplicate_boards.is_duplicate(tournament):  # the first board, at every table alike
                duplicate_boards.deal_next_board(tournament, made[number], user)
        table_codes.issue_for_round(tournament, round_number, sorted(made), user, entry_ids=list(state.entries))
    return [made[n] for n in sorted(made)]


def _open_table(tournament_id: int, round_number: int, table: int, user) -> Tournament:
    tournament = _lock_for_writer(tournament_id, user)
    rnd = selectors.round_of(selectors.state_at(tournament), round_number)
    if rnd is None or table not in rnd.tables:
        raise InvalidInput(
            _("round %(round)s has no table %(table)s") % {"round": round_number, "table": table},
            code="table_not_found",
        )
    if rnd.closed:
        raise InvalidInput(_("round %(round)s is closed") % {"round": round_number}, code="round_closed")
    if table not in selectors.table_games(tournament, round_number):
        raise InvalidInput(
            _("table %(table)s of round %(round)s has no game") % {"table": table, "round": round_number},
            code="no_game",
        )
    return tournament


def reissue_table_code(*, tournament_id: int, round_number: int, table: int, user):
    """End the table's code and give it a new one (a TD's act: scorers and admins)."""
    with transaction.atomic():
        tournament = _open_table(tournament_id, round_number, table, user)
        return table_codes.reissue(tournament, round_number, table, user)


def revoke_table_code(*, tournament_id: int, round_number: int, table: int, user) -> int:
    """End the table's code without a new one; the number of codes ended (0 or 1)."""
    with transaction.atomic():
        tournament = _open_table(tournament_id, round_number, table, user)
        return table_codes.revoke(tournament, round_number, table)


def round_table_codes(*, tournament_id: int, round_number: int, user) -> dict:
    """The live codes of the round's tables (a table's code is the same every round): the TD's to
    hand out (scorers and admins only)."""
    with transaction.atomic():
        tournament = _lock_for_writer(tournament_id, user)
        return table_codes.live_codes(tournament, selectors.table_games(tournament, round_number))


def record_result_from_game(
    *, tournament_id: int, round_number: int, table: int, user, reason: str | None = None
) -> WriteResult:
    """Append the table's result taken from its game's score sheet: `result_recorded`, or
    `result_corrected` with `reason` when the table has a result already (a TD correction)."""
    with transaction.atomic():
        tournament = _lock_for_writer(tournament_id, user)
        link = selectors.table_games(tournament, round_number).get(table)
        if link is None:
            raise InvalidInput(
                _("table %(table)s of round %(round)s has no game") % {"table": table, "round": round_number},
                code="no_game",
            )
        game = link.game
        event: dict[str, Any] = {
            "type": "result_recorded",
            "round": round_number,
            "table": table,
            "game": game.pk,
            "hands": selectors.table_game_lines(tournament, round_number, table, game),
        }
        state = selectors.state_at(tournament)
        rnd = selectors.round_of(state, round_number)
        if rnd is not None and table in rnd.tables and rnd.tables[table].result is not None:
            # a paper result replaced by the game's, or (the result is the game's already) the TD's
            # word that the game's result stands: it settles a dispute, for these lines only
            event["type"] = "result_corrected"
            event["reason"] = reason or ""
        expected = tournament.seq
    return append_events(tournament_id=tournament_id, events=[event], expected_seq=expected, user=user)


def correct_table_hand(
    *,
    tournament_id: int,
    round_number: int,
    table: int,
    hand: Any,
    calls: Any,
    out: Any,
    points: Any = None,
    reason: Any,
    user,
) -> WriteResult:
    """The TD's correction of a table whose result is its game's: a `hand_corrected` event on the
    game (games/engine/corrections.py), checked by the engine like any event. The table's result
    follows from the game's fold, and the opponents are asked again (the core's `reasked`)."""
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput(_("a correction needs a reason"), code="reason_required")
    with transaction.atomic():
        tournament = _lock_for_writer(tournament_id, user)
        rnd = selectors.round_of(selectors.state_at(tournament), round_number)
        link = selectors.table_games(tournament, round_number).get(table)
        result = rnd.tables[table].result if rnd is not None and table in rnd.tables else None
        if link is None or result is None or result.get("game") != link.game_id:
            raise InvalidInput(
                _("table %(table)s of round %(round)s has no result from its game to correct")
                % {"table": table, "round": round_number},
                code="no_game_result",
            )
        event: dict[str, Any] = {
            "type": "hand_corrected",
            "hand": hand,
            "calls": calls,
            "out": out,
            "reason": reason.strip(),
        }
        if points is not None:
            event["points"] = points
        game = link.game
        return game_services.append_events(game=game, events=[event], expected_seq=game.seq, user=user)


def finished_table_games(tournament: Tournament, round_number: int) -> list[TableGame]:
    """The round's tables whose games give their result now: finished, or a short round's played."""
    return [
        tg
        for tg in selectors.table_games(tournament, round_number).values()
        if selectors.game_takes_result(tournament, round_number, tg.table, tg.game)
    ]


# --- a table's result answered at the table ---------------------------------------------------------

TABLE_ACTIONS = ("record", "confirm", "dispute", "deal")


def _lock_for_table(game_id: int, user) -> tuple[Tournament, TableGame]:
    """The tournament (row locked) whose table plays `game_id`, if `user` may act for that table:
    a scorer or admin of the club, or the holder of the table's live code."""
    link = TableGame.objects.filter(game_id=game_id).first() if ids.in_range(game_id) else None
    if link is None:
        raise GameNotFound(_("this game is not a tournament table's game"))
    if getattr(user, "table_code_game", None) == game_id:
        tournament = Tournament.objects.select_for_update().get(pk=link.tournament_id)
    else:
        tournament = _lock_for_writer(link.tournament_id, user)
    newest = selectors.table_games(tournament, link.round).get(link.table)
    if newest is None or newest.game_id != game_id:
        raise InvalidInput(_("this game no longer plays the table (the pairing changed)"), code="no_game")
    return tournament, newest


def table_result(*, game_id: int, user) -> dict[str, Any]:
    """The table's result as the tournament holds it, and whether the game has finished."""
    with transaction.atomic():
        tournament, link = _lock_for_table(game_id, user)
        state = selectors.state_at(tournament)
    table = selectors.round_of(state, link.round).tables[link.table]
    names = [" & ".join(state.entries[e].name for e in side) for side in table.sides]
    changed = result_sides.out_of_step(table, link)
    return {
        "tournament": tournament.pk,
        "round": link.round,
        "table": link.table,
        "game": game_id,
        "sides": names,
        "game_finished": _gives_result(tournament, link),
        "score": list(table.result["score"]) if table.result else None,
        "vp": table_vp(state, link.round, link.table) if table.result else None,
        # the game changed after the opponents answered: they are asked again
        "asked_again": table.reasked,
        # a confirmation stands only while the game still gives the result (result_sides)
        "confirmation": (table.confirmation if changed is None else "game_changed") if table.result else None,
        "game_changed": changed,
        "sent_by_side": table.recorded_side if table.result else None,
        "pin_needed": getattr(user, "table_code", None) is not None,
        "dispute_reason": table.dispute_reason,
        "seq": tournament.seq,
    }


def table_vp(state: core.TournamentState, round_number: int, table: int) -> list | None:
    """The VP of the table's two sides as the standings count them (the preset's), or None."""
    if state.preset.unit in ("none", "board"):  # points only, or matchpoints: no VP at one table
        return None
    for rnd in core.rounds_json(state)["rounds"]:
        if rnd["round"] == round_number:
            row = next((t for t in rnd["tables"] if t["table"] == table), None)
            return row["result"]["vp"] if row and row.get("result") else None
    return None


def _gives_result(tournament: Tournament, link: TableGame) -> bool:
    """The table's game gives its result now: over, or a short round's hands played."""
    return selectors.game_takes_result(tournament, link.round, link.table, link.game)


def _answered_lines(tournament: Tournament, link: TableGame) -> dict:
    """What an answer at the table is given to: the game's lines now (the core keeps them, and the
    answer stands only while the game gives them)."""
    if not _gives_result(tournament, link):
        return {}
    return {"hands": selectors.table_game_lines(tournament, link.round, link.table, link.game)}


def table_action(*, game_id: int, action: str, user, reason: str | None = None, pin: str | None = None) -> WriteResult:
    """At the table: `record` the result from the finished game (result_recorded), then the other
    side's `confirm` (result_confirmed) or `dispute` with a reason (result_disputed). A result
    that exists is never replaced from here: only the TD's correction changes it. With the table's
    code each of the three names its side by that side's `pin`, and the side that sent the result
    does not answer it (result_sides); the TD acts without a side."""
    if action not in TABLE_ACTIONS:
        raise InvalidInput(
            _("action must be one of %(actions)s") % {"actions": ", ".join(TABLE_ACTIONS)}, code="malformed"
        )
    with transaction.atomic():
        tournament, link = _lock_for_table(game_id, user)
        where = {"round": link.round, "table": link.table}
        if action == "deal":  # duplicate: the game's next hand from its board
            return duplicate_boards.deal_next_board(tournament, link, user)
        code_row = getattr(user, "table_code", None)
        side = {} if code_row is None else {"side": result_sides.side_by_pin(code_row, pin, link.round)}
        if action == "record":
            if not _gives_result(tournament, link):
                raise InvalidInput(_("the table's game is not over yet"), code="game_not_finished")
            event = {
                "type": "result_recorded",
                **where,
                "game": game_id,
                "hands": selectors.table_game_lines(tournament, link.round, link.table, link.game),
                **side,
            }
        elif action == "confirm":
            rnd = selectors.round_of(selectors.state_at(tournament), link.round)
            table = rnd.tables.get(link.table) if rnd is not None else None
            if table is not None and result_sides.out_of_step(table, link) is not None:
                raise InvalidInput(
                    _("the table's game is open again (hands undone): it is answered once it is over again"),
                    code="result_out_of_step",
                )
            event = {"type": "result_confirmed", **where, **side, **_answered_lines(tournament, link)}
        else:
            event = {
                "type": "result_disputed",
                **where,
                "reason": reason if isinstance(reason, str) else "",
                **side,
                **_answered_lines(tournament, link),
            }
        state = selectors.state_at(tournament)
        event = _answer_to_game(tournament, state, event, 0)
        _core_call(state.apply, event, index=0)
        _insert(tournament, [event], finished=state.finished, user=user)
        return WriteResult(body={**_body(tournament), "appended": 1, "first_seq": tournament.seq})
