"""Import of tournament results (docs/tournament.md, "Results format: import").

`import_results` reads our own format (`tichu-tournament-results/1`, as `results.results_json`
writes it) into a new tournament of a club: the file's `events` are replayed through the core
(players by name join the club's roster), the event's place and date, each table's link to its
game record and the performance ratings are kept as the file gives them (`Tournament.source`),
and then the new tournament is exported again and must equal the file: a file whose standings,
rounds or entrants do not follow from its events is refused (`results_mismatch`), so the round
trip is exact by construction and a hand-edited file cannot import half-true.

Every refusal is a coded error (InvalidInput 400, TournamentRuleViolation 422) raised inside one
transaction: nothing is written unless everything is. A file is bounded before any work is done
(entrants, boards and events within the core's bounds, games.tournament.limits; an error lists at
most `LISTED` items), and an import is idempotent as the game import is (games.services): by
content (the SHA-256 of the file's canonical JSON, `games.services.import_hash`, unique per club on
`Tournament.import_hash`: the same file again answers with the tournament it made, 200
`already_imported`) and, with an `Idempotency-Key`, by key (`games.services.idempotent_write`).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import tournament as core
from games.models import Club, Membership
from games.selectors import membership_role
from games.services import InvalidInput, WriteForbidden, WriteResult, check_storable, idempotent_write, import_hash
from games.streams.imports import import_once
from games.tournaments import results, services
from games.tournaments.models import Tournament

FORMATS = ("tichu-tournament-results/1", "aragos")
LISTED = core.LISTED  # the most items an error lists (the core's bound); its params give the count
#: events a results file may carry: a real event needs far fewer (a Swiss of 100 pairs over 9 rounds,
#: with every result confirmed: ~1,000); replayed in batches of 500, each folding the stream so far
MAX_FILE_EVENTS = 10_000


def _too_many(what: str, count: int, limit: int) -> InvalidInput:
    words = {
        "entrants": _("a tournament has at most %(limit)s entrants; this file has %(count)s"),
        "boards": _("a tournament has at most %(limit)s boards; this file has %(count)s"),
        "events": _("a results file has at most %(limit)s events; this file has %(count)s"),
    }
    return InvalidInput(
        words[what] % {"limit": limit, "count": count}, code=f"too_many_{what}", params={"limit": limit, "count": count}
    )


def _need(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise InvalidInput(
            _("%(where)s: '%(key)s' is missing or has the wrong type") % {"where": where, "key": key},
            code="malformed",
            params={"field": f"{where}.{key}"},
        )
    return value


def check_writer(user, club: Club) -> None:
    if membership_role(user, club) not in Membership.WRITER_ROLES:
        raise WriteForbidden(
            _("importing a tournament needs the scorer or admin role in club '%(club)s'") % {"club": club.slug}
        )


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """The path of the first place where two JSON values differ (None when equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path} (length {len(a)} here, {len(b)} in the file)"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    same = a == b and isinstance(a, bool) == isinstance(b, bool)
    return None if same else path or "."


def _links(data: dict) -> dict[str, dict]:
    """Each table result's link to its game record, as the file gives it."""
    links = {}
    for rnd in _need(data, "rounds", list, "results"):
        for table in _need(rnd, "tables", list, "round"):
            if isinstance(table, dict) and "score" in table:
                game, record = table.get("game"), table.get("record")
                if not (game is None or (isinstance(game, int) and not isinstance(game, bool))) or not (
                    record is None or isinstance(record, str)
                ):
                    raise InvalidInput(_("a table's 'game' is an id and 'record' an address"), code="malformed")
                links[f"{_need(rnd, 'round', int, 'round')}/{_need(table, 'table', int, 'table')}"] = {
                    "game": game,
                    "record": record,
                }
    return links


def _performance(data: dict) -> dict[str, Any]:
    out = {}
    for entrant in _need(data, "entrants", list, "results"):
        entry = _need(entrant, "entry", str, "entrant")
        out[entry] = _need(entrant, "performance", dict, "entrant")
    return out


def _answer(tournament: Tournament) -> dict[str, Any]:
    return {"id": tournament.pk, "seq": tournament.seq, "status": tournament.status}


def _import_once(*, club: Club, user, content: str, idempotency_key: str | None, request: dict, write) -> WriteResult:
    """Run `write()` (which makes the tournament under `content`) unless the club imported this
    content before (the stream store's import_once), or this key was used: then the first answer."""

    def once() -> WriteResult:
        return import_once(
            model=Tournament, club=club, content=content, create=lambda: WriteResult(body=write()), answer=_answer
        )

    return idempotent_write(
        user=user, key=idempotency_key, operation="tournament_import", request={"club": club.pk, **request}, write=once
    )


def _count_entrants(events: list[dict]) -> int:
    return sum(e.get("type") == "entry_registered" for e in events)


def import_results(*, club: Club, data: Any, user, game_url=None, idempotency_key: str | None = None) -> WriteResult:
    """A new tournament of `club` from a results file in our format; body {"id", "seq", "status"}
    (and `already_imported` when the club imported this file before: nothing new, 200)."""
    check_writer(user, club)
    if not isinstance(data, dict):
        raise InvalidInput(_("a results file is a JSON object"), code="malformed")
    if data.get("format") != results.FORMAT:
        raise InvalidInput(
            _("not a %(expected)s file (format %(format)s)")
            % {"expected": results.FORMAT, "format": repr(data.get("format"))},
            code="format_unknown",
        )
    check_storable(data, gettext_noop("the results file"))
    event = _need(data, "event", dict, "results")
    name = _need(event, "name", str, "event")
    header = _need(event, "header", dict, "event")
    variant = event.get("variant", "nanking")
    game_options = event.get("game_options", {})
    if not isinstance(variant, str) or not isinstance(game_options, dict):
        raise InvalidInput(_("event: 'variant' is a string and 'game_options' an object"), code="malformed")
    events = data.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise InvalidInput(
            _("the file has no 'events' (a list of tournament events): it cannot be replayed"), code="events_missing"
        )
    if len(events) > MAX_FILE_EVENTS:
        raise _too_many("events", len(events), MAX_FILE_EVENTS)
    if _count_entrants(events) > core.MAX_ENTRIES:
        raise _too_many("entrants", _count_entrants(events), core.MAX_ENTRIES)
    source = {
        "club": _need(event, "club", str, "event"),
        "created_at": _need(event, "created_at", str, "event"),
        "tables": _links(data),
        "performance": _performance(data),
    }
    content = import_hash(data)

    def write() -> dict[str, Any]:
        tournament = _create(club, name, header, variant, game_options, user, source, content)
        _replay(tournament, events, user)
        tournament.refresh_from_db()
        again = json.loads(
            json.dumps(results.results_json(tournament, game_url or (lambda gid: None)), cls=DjangoJSONEncoder)
        )
        where = first_difference(again, data)
        if where is not None:
            raise InvalidInput(
                _("the file does not follow from its events: it differs at %(path)s") % {"path": where},
                code="results_mismatch",
                params={"path": where},
            )
        return {"id": tournament.pk, "seq": tournament.seq, "status": tournament.status}

    return _import_once(
        club=club,
        user=user,
        content=content,
        idempotency_key=idempotency_key,
        request={"format": results.FORMAT, "data": data},
        write=write,
    )


def _create(
    club: Club, name: str, header: dict, variant: str, game_options: dict, user, source: dict, content: str
) -> Tournament:
    if not name.strip() or len(name) > 100:
        raise InvalidInput(_("a tournament's name is a non-empty string of at most 100 characters"))
    parsed = services._core_call(core.parse_header, header)
    services._check_table_game(variant, {**game_options, **core.engine_options(parsed)})
    from games.tournaments.duplicate_boards import new_secret

    # an imported duplicate tournament gets boards of its own (the secret is never exported)
    secret = new_secret() if parsed["system"] == "duplicate" else ""
    return Tournament.objects.create(
        club=club,
        name=name.strip(),
        header=parsed,
        variant=variant,
        game_options=game_options,
        created_by=user,
        source=source,
        board_secret=secret,
        import_hash=content,
    )


def _replay(tournament: Tournament, events: list[dict], user) -> None:
    """The file's events through the service's append (the core checks each; players by name join
    the roster), in batches of the API's size."""
    for start in range(0, len(events), services.MAX_BATCH):
        batch = events[start : start + services.MAX_BATCH]
        try:
            services.append_events(tournament_id=tournament.pk, events=batch, expected_seq=start, user=user)
        except services.TournamentRuleViolation as err:
            if err.index is not None:
                err.index += start
            raise


# --- aragos/tichu-tournament ------------------------------------------------------------------------

ARAGOS_ADJUSTMENTS = ("AVG", "AVG+", "AVG-")  # AVG++ and AVG-- have no counterpart here


def _aragos_int(obj: dict, key: str, low: int, where: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InvalidInput(
            _("%(where)s: '%(key)s' is an integer >= %(low)s") % {"where": where, "key": key, "low": low},
            code="malformed",
            params={"field": key},
        )
    return value


def aragos_events(data: Any) -> tuple[dict, list[dict], dict]:
    """(header, events, kept) for aragos/tichu-tournament's tournament JSON (`name`, `no_pairs`,
    `no_boards`, `players`, `hands`: docs/api.md of that project): a duplicate tournament whose
    rounds are the board sets (the boards the same tables played), each table's result its boards'
    N/S and E/W scores or AVG adjustments. `kept` is what has no place in our events (calls, notes,
    e-mail addresses), stored with the tournament's source."""
    if not isinstance(data, dict):
        raise InvalidInput(_("an aragos tournament is a JSON object"), code="malformed")
    pairs = _aragos_int(data, "no_pairs", 1, "tournament")
    boards = _aragos_int(data, "no_boards", 1, "tournament")
    if pairs > core.MAX_ENTRIES:
        raise _too_many("entrants", pairs, core.MAX_ENTRIES)
    if boards > core.MAX_BOARDS:
        raise _too_many("boards", boards, core.MAX_BOARDS)
    hands, players = data.get("hands", []), data.get("players", [])
    if not isinstance(hands, list) or not isinstance(players, list):
        raise InvalidInput(_("tournament: 'hands' and 'players' are lists"), code="malformed")
    # a board is played at most once by each pair: more hands than that cannot be a tournament
    if len(hands) > boards * (pairs // 2) or len(players) > 2 * pairs:
        raise InvalidInput(
            _("tournament: more hands or players than %(pairs)s pairs and %(boards)s boards can have")
            % {"pairs": pairs, "boards": boards},
            code="malformed",
        )
    names: dict[int, list[str]] = {}
    emails = {}
    for p in players:
        if not isinstance(p, dict):
            raise InvalidInput(_("a player is an object"), code="malformed")
        number = _aragos_int(p, "pair_no", 1, "player")
        if number > pairs:
            raise InvalidInput(
                _("player of pair %(pair)s: the tournament has %(pairs)s pairs") % {"pair": number, "pairs": pairs},
                code="malformed",
            )
        name = p.get("name")
        if isinstance(name, str) and name.strip():
            names.setdefault(number, []).append(name.strip())
        if p.get("email"):
            emails.setdefault(str(number), []).append(p["email"])
    by_board: dict[int, dict[tuple[int, int], dict]] = {}
    kept_hands = []
    for h in hands:
        if not isinstance(h, dict):
            raise InvalidInput(_("a hand is an object"), code="malformed")
        board, ns, ew = (_aragos_int(h, k, 1, "hand") for k in ("board_no", "ns_pair", "ew_pair"))
        if board > boards or ns > pairs or ew > pairs or ns == ew:
            raise InvalidInput(
                _("hand of board %(board)s: boards 1..%(boards)s, two different pairs 1..%(pairs)s")
                % {"board": board, "boards": boards, "pairs": pairs},
                code="malformed",
            )
        line = _aragos_line(h, board)
        if (ns, ew) in by_board.setdefault(board, {}) or (ew, ns) in by_board[board]:
            raise InvalidInput(
                _("board %(board)s is scored twice for pairs %(ns)s and %(ew)s") % {"board": board, "ns": ns, "ew": ew},
                code="malformed",
            )
        by_board[board][(ns, ew)] = line
        if h.get("calls") or h.get("notes"):
            kept_hands.append(
                {"board_no": board, "ns_pair": ns, "ew_pair": ew, "calls": h.get("calls"), "notes": h.get("notes")}
            )
    missing = [b for b in range(1, boards + 1) if b not in by_board]
    if missing:
        raise InvalidInput(
            _("boards without any result: %(boards)s; only a tournament whose every board was played can be read")
            % {"boards": _listed(missing)},
            code="aragos_incomplete",
            params={"boards": missing[:LISTED], "count": len(missing)},
        )
    size = _board_set_size(by_board, boards)
    events: list[dict] = []
    for n in range(1, pairs + 1):
        given = names.get(n, [])[:2]
        players_of = given + [f"Pair {n} player {i}" for i in range(len(given) + 1, 3)]
        events.append(
            {
                "type": "entry_registered",
                "entry": f"p{n}",
                "players": players_of,
                "name": " & ".join(given) if given else f"Pair {n}",
            }
        )
    for r in range(boards // size):
        set_boards = range(r * size + 1, (r + 1) * size + 1)
        meetings = sorted(by_board[set_boards[0]])
        tables = [{"table": i + 1, "sides": [[f"p{ns}"], [f"p{ew}"]]} for i, (ns, ew) in enumerate(meetings)]
        seated = {p for m in meetings for p in m}
        byes = [f"p{n}" for n in range(1, pairs + 1) if n not in seated]
        events.append(
            {
                "type": "round_paired",
                "round": r + 1,
                "tables": tables,
                "byes": byes,
                "explanation": {
                    "system": "duplicate",
                    "method": "imported from aragos/tichu-tournament",
                    "boards": list(set_boards),
                },
            }
        )
        for i, meeting in enumerate(meetings):
            events.append(
                {
                    "type": "result_recorded",
                    "round": r + 1,
                    "table": i + 1,
                    "hands": [by_board[b][meeting] for b in set_boards],
                }
            )
        events.append({"type": "round_closed", "round": r + 1})
    events.append({"type": "tournament_finished"})
    header = {
        "name": data.get("name") if isinstance(data.get("name"), str) else "",
        "entrants": "pairs",
        "system": "duplicate",
        "scoring": "matchpoints",
        "hands_per_round": size,
        "rounds": boards // size,
        "grand_tichu": True,
    }
    kept = {"format": "aragos", "hands": kept_hands, "emails": emails}
    return header, events, kept


def _listed(items: list) -> str:
    """At most LISTED items, and how many more (an error's size does not grow with the file)."""
    shown = ", ".join(str(i) for i in items[:LISTED])
    return shown if len(items) <= LISTED else shown + " " + _("and %(n)s more") % {"n": len(items) - LISTED}


def _aragos_line(h: dict, board: int) -> dict:
    ns, ew = h.get("ns_score"), h.get("ew_score")
    if isinstance(ns, str) or isinstance(ew, str):
        ns_adj = ns if isinstance(ns, str) else None
        ew_adj = ew if isinstance(ew, str) else None
        if ns_adj not in ARAGOS_ADJUSTMENTS or ew_adj not in ARAGOS_ADJUSTMENTS:
            raise InvalidInput(
                _("board %(board)s: adjustments read are %(adjustments)s for both pairs (not %(ns)s / %(ew)s)")
                % {"board": board, "adjustments": ", ".join(ARAGOS_ADJUSTMENTS), "ns": repr(ns), "ew": repr(ew)},
                code="aragos_unmappable",
                params={"board": board},
            )
        return {"adjustment": [ns_adj, ew_adj]}
    for v in (ns, ew):
        if not isinstance(v, int) or isinstance(v, bool):
            raise InvalidInput(
                _("board %(board)s: a score is an integer or an AVG adjustment") % {"board": board}, code="malformed"
            )
    return {"points": [ns, ew]}


def _board_set_size(by_board: dict[int, dict], boards: int) -> int:
    """The number of boards a set has: consecutive boards the same tables (same pairs, same
    directions) played. Our rounds are such sets; a file whose boards are not dealt out in
    equal consecutive sets cannot be read as rounds."""
    size = 1
    while size < boards and set(by_board[size + 1]) == set(by_board[1]):
        size += 1
    sets_ok = boards % size == 0 and all(
        set(by_board[b]) == set(by_board[(b - 1) // size * size + 1]) for b in range(1, boards + 1)
    )
    if sets_ok:
        for start in range(1, boards + 1, size):
            seen = [p for m in by_board[start] for p in m]
            sets_ok = sets_ok and len(seen) == len(set(seen))
    if not sets_ok:
        raise InvalidInput(
            _(
                "the boards are not played in equal sets of consecutive boards by the same tables, which "
                "is how rounds are read here"
            ),
            code="aragos_unmappable",
        )
    return size


def import_aragos(
    *, club: Club, data: Any, user, name: str | None = None, idempotency_key: str | None = None
) -> WriteResult:
    """A new duplicate tournament of `club` from aragos/tichu-tournament's tournament JSON (body
    as `import_results`'s, idempotent the same way: the file and the name given are the content)."""
    check_writer(user, club)
    check_storable(data, gettext_noop("the aragos file"))
    header, events, kept = aragos_events(data)
    title = (name or header["name"] or "Imported duplicate").strip()[:100]
    content = import_hash({"format": "aragos", "data": data, "name": name})

    def write() -> dict[str, Any]:
        tournament = _create(club, title, {**header, "name": title}, "nanking", {}, user, {"aragos": kept}, content)
        _replay(tournament, events, user)
        tournament.refresh_from_db()
        return {"id": tournament.pk, "seq": tournament.seq, "status": tournament.status}

    return _import_once(
        club=club,
        user=user,
        content=content,
        idempotency_key=idempotency_key,
        request={"format": "aragos", "data": data, "name": name},
        write=write,
    )
