"""The tournament core: pure Python, no Django, no I/O, deterministic (the only randomness is
seeded from the record's header).

A tournament is a header and an append-only stream of events; everything else is a fold:

>>> from games.tournament import new_tournament, propose, standings_json
>>> t = new_tournament({"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 3})
>>> for i in range(4):
...     t.apply({"type": "entry_registered", "entry": f"p{i}", "players": [f"A{i}", f"B{i}"]})
>>> t.apply(propose(t).event())
>>> len(t.current_round.tables)
2

See docs/tournament.md for the record format, the events, the presets and the error codes.
"""

from .bracket import (
    BRACKET_EVENT_TYPES,
    BracketState,
    bracket_json,
    fold_bracket,
    new_bracket,
    parse_bracket_header,
    seed_order,
)
from .duplicate import MAX_PAIRS, MIN_PAIRS, board_deal, board_packets, movement
from .engine_options import engine_options
from .errors import CODES, TournamentError
from .fields import EVENT_FIELDS, check_incoming
from .from_games import hand_lines
from .league import (
    LEAGUE_EVENT_TYPES,
    LeagueState,
    fold_league,
    league_json,
    new_league,
    next_season,
    parse_league_header,
)
from .limits import (
    LISTED,
    MAX_BOARDS,
    MAX_CLOCK_MINUTES,
    MAX_ENTRIES,
    MAX_HANDS_PER_ROUND,
    MAX_ID,
    MAX_POINTS,
    MAX_ROUNDS,
    MAX_TABLE,
    MAX_TARGET,
    MAX_VP,
)
from .pairing import Pairing, propose
from .pairing.evaluate import evaluate
from .pairing.round_robin import schedule_length
from .performance import MIN_TABLES, performance, performance_rating
from .performance import expected as expected_score
from .record import BYE_RESULTS, FORMAT, LATE_ENTRY, SYSTEMS, TIEBREAKS, WITHDRAWAL, parse_header, parse_record
from .round_clock import RoundClock, utc_text
from .scoring import PRESETS, hand_vp
from .season import SEASON_EVENT_TYPES, SeasonState, fold_season, new_season, parse_season_header, season_table
from .standings import boards_json, crosstable_json, ranking, rounds_json, standings_json
from .state import EVENT_TYPES, TournamentState, fold, new_tournament
from .table_game import TABLE_GAME, length_options, partner_seat, seat_order, table_info, table_sides

__all__ = [
    "LEAGUE_EVENT_TYPES",
    "LeagueState",
    "fold_league",
    "league_json",
    "new_league",
    "next_season",
    "parse_league_header",
    "SEASON_EVENT_TYPES",
    "SeasonState",
    "fold_season",
    "new_season",
    "parse_season_header",
    "season_table",
    "BYE_RESULTS",
    "LATE_ENTRY",
    "MAX_PAIRS",
    "MIN_PAIRS",
    "MIN_TABLES",
    "SYSTEMS",
    "TIEBREAKS",
    "WITHDRAWAL",
    "board_deal",
    "board_packets",
    "expected_score",
    "movement",
    "performance_rating",
    "schedule_length",
    "utc_text",
    "BRACKET_EVENT_TYPES",
    "BracketState",
    "bracket_json",
    "fold_bracket",
    "new_bracket",
    "parse_bracket_header",
    "seed_order",
    "CODES",
    "EVENT_TYPES",
    "EVENT_FIELDS",
    "check_incoming",
    "FORMAT",
    "LISTED",
    "MAX_BOARDS",
    "MAX_CLOCK_MINUTES",
    "MAX_ENTRIES",
    "MAX_HANDS_PER_ROUND",
    "MAX_ID",
    "MAX_POINTS",
    "MAX_ROUNDS",
    "MAX_TABLE",
    "MAX_TARGET",
    "MAX_VP",
    "PRESETS",
    "TABLE_GAME",
    "length_options",
    "partner_seat",
    "seat_order",
    "table_info",
    "table_sides",
    "Pairing",
    "RoundClock",
    "TournamentError",
    "TournamentState",
    "boards_json",
    "crosstable_json",
    "engine_options",
    "evaluate",
    "fold",
    "hand_lines",
    "hand_vp",
    "new_tournament",
    "parse_header",
    "parse_record",
    "performance",
    "propose",
    "ranking",
    "rounds_json",
    "standings_json",
]
