"""A game's place in a tournament, for the game's own pages (issue 31, item 3): which table of
which round it plays, and that table's result as the tournament counts it (its score and, under a
VP preset, its VP: "6 : 3 VP"). The table's result is the game's fold (selectors.fold), so the two
never disagree; the VP are the preset's, which the game's own score sheet does not know."""

from __future__ import annotations

from collections import defaultdict

from games.models import Game
from games.tournaments import selectors, visibility
from games.tournaments.models import TableGame


def _reader(user):
    """A visitor or a table code's holder reads as anyone does (no open duplicate round's results)."""
    signed_in = getattr(user, "is_authenticated", False) and getattr(user, "table_code", None) is None
    return user if signed_in else None


def vp_of(game_ids, user) -> dict[int, list]:
    """{game id: [VP of side 0, VP of side 1]} for the games among `game_ids` that are a tournament
    table's game with a VP result the reader may see (the club page's evening: one fold a
    tournament, whatever the number of its games)."""
    from games.tournaments.services import table_vp  # services imports this app's modules: late

    by_tournament = defaultdict(list)
    for link in TableGame.objects.filter(game_id__in=list(game_ids)).select_related("tournament__club"):
        by_tournament[link.tournament].append(link)
    found: dict[int, list] = {}
    for tournament, links in by_tournament.items():
        state = visibility.reader_state(tournament, _reader(user))
        for link in links:
            rnd = selectors.round_of(state, link.round)
            table = rnd.tables.get(link.table) if rnd is not None else None
            if table is None or table.result is None or table.result.get("game") != link.game_id:
                continue
            vp = table_vp(state, link.round, link.table)
            if vp:
                found[link.game_id] = vp
    return found


def table_of(game: Game, user) -> dict | None:
    """{tournament, name, round, table, score, vp} for a game played at a tournament table whose
    result the reader may see; None otherwise (not a table's game, a replaced one, no result yet,
    or a round the reader may not see yet)."""
    link = TableGame.objects.filter(game_id=game.pk).select_related("tournament__club").first()
    if link is None:
        return None
    tournament = link.tournament
    state = visibility.reader_state(tournament, _reader(user))
    rnd = selectors.round_of(state, link.round)
    table = rnd.tables.get(link.table) if rnd is not None else None
    if table is None or table.result is None or table.result.get("game") != game.pk:
        return None
    from games.tournaments.services import table_vp  # services imports this app's modules: late

    return {
        "tournament": tournament.pk,
        "name": tournament.name,
        "round": link.round,
        "table": link.table,
        "score": list(table.result["score"]),
        "vp": table_vp(state, link.round, link.table),
    }
