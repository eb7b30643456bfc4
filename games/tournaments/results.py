"""The tournament results format (JSON, `tichu-tournament-results/1`), in the spirit of USEBIO
and FIDE's TRF: the event, its entrants, every round's tables with their hand lines and a link to
each game's record, and the standings (docs/tournament.md, "Results format")."""

from __future__ import annotations

from typing import Any

from games import tournament as core
from games.csv_export import csv_text, safe_cell
from games.tournaments import selectors, visibility
from games.tournaments.models import Tournament

FORMAT = "tichu-tournament-results/1"


def _table_link(tournament: Tournament, round_number: int, table: int, game: int | None, game_url):
    """(game id, record address) of a table's result: the game played here, or, for an imported
    tournament, the link the results file gave (the record where the event was held)."""
    if game:
        return game, game_url(game)
    link = tournament.source.get("tables", {}).get(f"{round_number}/{table}")
    return (link["game"], link["record"]) if link else (None, None)


def portable_events(
    tournament: Tournament, names: dict[int, str], events: list[dict] | None = None, game_lines: dict | None = None
) -> list[dict[str, Any]]:
    """The tournament's events (`events`: as the reader may see them; all by default) as another
    server can replay them: players by name instead of this club's ids, and no game ids (each
    table's link to its game record is in `rounds`). A result taken from a game carries the lines
    that game gives now (`game_lines`: selectors.game_lines; issue 31, its result is the game's), and
    an answer the lines it was given to, so that the events fold to the same results without the
    games (an answer to lines the game no longer gives does not stand there either)."""
    out = []
    sent: dict = {}  # (round, table) -> the lines the latest result event sent
    for event in selectors.events(tournament) if events is None else events:
        where = (event.get("round"), event.get("table"))
        if event["type"] == "entry_registered":
            event = {**event, "players": [names.get(p, p) if isinstance(p, int) else p for p in event["players"]]}
        elif event["type"] in ("result_recorded", "result_corrected"):
            sent[where] = event.get("hands")
            lines = (game_lines or {}).get(event.get("game"))
            event = {k: v for k, v in event.items() if k != "game"}
            if lines:  # the game's now; the typed score and VP are the game's too
                event = {**{k: v for k, v in event.items() if k not in ("score", "vp")}, "hands": lines}
        elif (
            event["type"] in ("result_confirmed", "result_disputed")
            and "hands" not in event
            and sent.get(where) is not None
        ):
            event = {**event, "hands": sent[where]}
        out.append(event)
    return out


def results_json(tournament: Tournament, game_url, reader=None) -> dict[str, Any]:
    """`game_url(game_id)` gives the address of a game's record. `reader`: the user it is for
    (what games.tournaments.visibility lets them see); None, the whole tournament."""
    from games.tournaments.performance import performances

    shown = selectors.record(tournament) if reader is None else visibility.reader_record(tournament, reader)
    state = selectors.fold(tournament, shown)
    players = {p.pk: p.name for p in tournament.club.players.all()}
    rounds = core.rounds_json(state)["rounds"]
    out_rounds = []
    for rnd in rounds:
        tables = []
        for t in rnd["tables"]:
            row: dict[str, Any] = {"table": t["table"], "north_south": t["sides"][0], "east_west": t["sides"][1]}
            result = t.get("result")
            if result:
                game, record = _table_link(tournament, rnd["round"], t["table"], result["game"], game_url)
                row.update(
                    score=result["score"],
                    vp=result["vp"],
                    hands=result["hands"],
                    confirmation=t.get("confirmation"),
                    game=game,
                    record=record,
                )
            tables.append(row)
        out_rounds.append({"round": rnd["round"], "closed": rnd["closed"], "tables": tables, "byes": rnd["byes"]})
    perf = performances(tournament, state)
    source = tournament.source
    return {
        "format": FORMAT,
        "event": {
            "name": tournament.name,
            "club": source.get("club", tournament.club.slug),
            "created_at": source.get("created_at", tournament.created_at.isoformat()),
            "status": tournament.status,
            "header": tournament.header,
            "variant": tournament.variant,
            "game_options": tournament.game_options,
        },
        "entrants": [
            {
                "entry": e.id,
                "name": e.name,
                "players": [players.get(p, str(p)) for p in e.players],
                "active": e.active,
                "joined_after": e.joined_after,
                "performance": perf[e.id],
            }
            for e in state.entries.values()
        ],
        "rounds": out_rounds,
        "standings": [
            {**row, "players": [players.get(p, p) for p in row["players"]]}
            for row in core.standings_json(state)["standings"]
        ],
        "events": portable_events(tournament, players, shown["events"], selectors.game_lines(tournament)),
    }


STANDINGS_COLUMNS = ["rank", "name", "players", "vp", "points", "against", "difference", "played", "performance"]
TABLE_COLUMNS = [
    "round",
    "table",
    "north_south",
    "east_west",
    "score_ns",
    "score_ew",
    "vp_ns",
    "vp_ew",
    "confirmation",
    "record",
]


def rows(results: dict[str, Any]) -> dict[str, list[list[Any]]]:
    """The results as two sheets of rows (header first): standings and table results."""
    names = {e["entry"]: e["name"] for e in results["entrants"]}
    perf = {e["entry"]: e["performance"]["performance"] for e in results["entrants"]}
    standings = [STANDINGS_COLUMNS] + [
        [
            r["rank"],
            r["name"],
            " & ".join(map(str, r["players"])),
            r["vp"],
            r["points"],
            r["against"],
            r["difference"],
            r["played"],
            perf.get(r["entry"]),
        ]
        for r in results["standings"]
    ]
    tables = [TABLE_COLUMNS]
    for rnd in results["rounds"]:
        for t in rnd["tables"]:
            score, vp = t.get("score") or [None, None], t.get("vp") or [None, None]
            tables.append(
                [
                    rnd["round"],
                    t["table"],
                    " & ".join(names[e] for e in t["north_south"]),
                    " & ".join(names[e] for e in t["east_west"]),
                    score[0],
                    score[1],
                    vp[0],
                    vp[1],
                    t.get("confirmation"),
                    t.get("record"),
                ]
            )
    return {"standings": standings, "tables": tables}


def to_csv(results: dict[str, Any], sheet: str) -> str:
    """One sheet as CSV, through the project's one CSV writer (a name beginning with = + - @
    cannot become a spreadsheet formula: issue #14 finding 13)."""
    header, *body = rows(results)[sheet]
    return csv_text(header, body)


def to_xlsx(results: dict[str, Any]) -> bytes:
    import io

    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    for name, sheet_rows in rows(results).items():
        sheet = book.create_sheet(name)
        for row in sheet_rows:  # a text starting with = would be stored as a formula
            sheet.append([safe_cell(v) for v in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
