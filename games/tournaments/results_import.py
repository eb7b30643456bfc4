"""Import of tournament results (docs/tournament.md, "Results format: import").

`import_results` reads our own format (`tichu-tournament-results/1`, as `results.results_json`
writes it) into a new tournament of a club: the file's `events` are replayed through the core
(players by name join the club's roster), the event's place and date, each table's link to its
game record and the performance ratings are kept as the file gives them (`Tournament.source`),
and then the new tournament is exported again and must equal the file: a file whose standings,
rounds or entrants do not follow from its events is refused (`results_mismatch`), so the round
trip is exact by construction and a hand-edited file cannot import half-true.

Every refusal is a coded error (InvalidInput 400, TournamentRuleViolation 422) raised inside one
transaction: nothing is written unless everything is.
"""
from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction

from games import tournament as core
from games.models import Club, Membership
from games.selectors import membership_role
from games.services import InvalidInput, WriteForbidden, _check_storable
from games.tournaments import results, services
from games.tournaments.models import Tournament

FORMATS = ("tichu-tournament-results/1", "aragos")


def _need(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise InvalidInput(f"{where}: '{key}' is missing or has the wrong type", code="malformed",
                           params={"field": f"{where}.{key}"})
    return value


def check_writer(user, club: Club) -> None:
    if membership_role(user, club) not in Membership.WRITER_ROLES:
        raise WriteForbidden(f"importing a tournament needs the scorer or admin role in club {club.slug!r}")


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
                if not (game is None or (isinstance(game, int) and not isinstance(game, bool))) or \
                        not (record is None or isinstance(record, str)):
                    raise InvalidInput("a table's 'game' is an id and 'record' an address", code="malformed")
                links[f"{_need(rnd, 'round', int, 'round')}/{_need(table, 'table', int, 'table')}"] = {
                    "game": game, "record": record}
    return links


def _performance(data: dict) -> dict[str, Any]:
    out = {}
    for entrant in _need(data, "entrants", list, "results"):
        entry = _need(entrant, "entry", str, "entrant")
        out[entry] = _need(entrant, "performance", dict, "entrant")
    return out


def import_results(*, club: Club, data: Any, user, game_url=None) -> dict[str, Any]:
    """A new tournament of `club` from a results file in our format; {"id", "seq", "status"}."""
    check_writer(user, club)
    if not isinstance(data, dict):
        raise InvalidInput("a results file is a JSON object", code="malformed")
    if data.get("format") != results.FORMAT:
        raise InvalidInput(f"not a {results.FORMAT} file (format {data.get('format')!r})", code="format_unknown")
    _check_storable(data, "the results file")
    event = _need(data, "event", dict, "results")
    name = _need(event, "name", str, "event")
    header = _need(event, "header", dict, "event")
    variant = event.get("variant", "nanking")
    game_options = event.get("game_options", {})
    if not isinstance(variant, str) or not isinstance(game_options, dict):
        raise InvalidInput("event: 'variant' is a string and 'game_options' an object", code="malformed")
    events = data.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise InvalidInput("the file has no 'events' (a list of tournament events): it cannot be replayed",
                           code="events_missing")
    source = {"club": _need(event, "club", str, "event"), "created_at": _need(event, "created_at", str, "event"),
              "tables": _links(data), "performance": _performance(data)}
    with transaction.atomic():
        tournament = _create(club, name, header, variant, game_options, user, source)
        _replay(tournament, events, user)
        tournament.refresh_from_db()
        again = json.loads(json.dumps(results.results_json(tournament, game_url or (lambda gid: None)),
                                      cls=DjangoJSONEncoder))
        where = first_difference(again, data)
        if where is not None:
            raise InvalidInput(f"the file does not follow from its events: it differs at {where}",
                               code="results_mismatch", params={"path": where})
    return {"id": tournament.pk, "seq": tournament.seq, "status": tournament.status}


def _create(club: Club, name: str, header: dict, variant: str, game_options: dict, user, source: dict) -> Tournament:
    if not name.strip() or len(name) > 100:
        raise InvalidInput("a tournament's name is a non-empty string of at most 100 characters")
    parsed = services._core_call(core.parse_header, header)
    services._check_table_game(variant, {**game_options, **core.engine_options(parsed)})
    return Tournament.objects.create(club=club, name=name.strip(), header=parsed, variant=variant,
                                     game_options=game_options, created_by=user, source=source)


def _replay(tournament: Tournament, events: list[dict], user) -> None:
    """The file's events through the service's append (the core checks each; players by name join
    the roster), in batches of the API's size."""
    for start in range(0, len(events), services.MAX_BATCH):
        batch = events[start:start + services.MAX_BATCH]
        try:
            services.append_events(tournament_id=tournament.pk, events=batch, expected_seq=start, user=user)
        except services.TournamentRuleViolation as err:
            if err.index is not None:
                err.index += start
            raise
