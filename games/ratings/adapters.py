"""From the engine's score JSON (record-format.md section 4) to a GameResult, per variant.

Pure: takes the variant name, the rated player ids in seat order and the `score` JSON. Anything
the ratings cannot use raises NotRated with the reason that the league page shows.

* nanking: sides (seat 0, 2) and (1, 3); per-hand lines, calls and double victories kept.
* tientsin: sides (0, 2, 4) and (1, 3, 5).
* threechu: scores are per player (four entries, the dummy last). The dummy is not rated: the
  three real players are three sides ranked by their totals (pairwise, like a ranking game).
  Each player's total mixes hands as dealer (with the dummy) and as an opponent, so every
  player has had the dummy equally often over a full game (hands divisible by 3).
* grand-seigneur: one side per player, ranked by their totals (first out scores n-1, ...);
  pairwise in the model, K/(N-1) in Elo.
* tien-zi-que: two sides of one player, on their totals.
"""

from __future__ import annotations

from typing import Sequence

from games import engine

from .types import GameResult, HandDetail, NotRated

# The games' seats and teams are the engine's registry's: fixed partnerships (Nanking, Tientsin)
# are rated as teams, every other game per player.
TEAM_SEATS = {g.name: g.teams for g in engine.games() if g.teams is not None}
PER_PLAYER = {g.name for g in engine.games() if g.teams is None}
# per-hand spread of each variant's score sheet (ModelParams.hand_sd), documented in docs/ratings.md
# (per-hand spread of side 0 minus side 1 in engine games of random bots: Nanking 199 on the real
# tracker sheets, Tientsin 169, Threechu 126 between two players, Tien Zi Que 2.9)
HAND_SD = {g.name: g.hand_spread for g in engine.games()}  # each game's declared GameInfo.hand_spread
#: rated seats where a game has one table size (Threechu's dummy is not a player)
SIZE = {g.name: g.seat_counts[0] for g in engine.games() if len(g.seat_counts) == 1}


def result_from_score(game_id, finished_at: float, variant: str, players: Sequence, score: dict) -> GameResult:
    if not score.get("ok", True):
        raise NotRated("the record does not fold: " + str(score.get("error")))
    if not score.get("complete"):
        raise NotRated("the game is not over")
    totals = score.get("totals")
    hands = score.get("hands") or []
    if not hands:
        raise NotRated("no hand was played")
    expect = SIZE.get(variant)
    dummy = engine.GAMES[variant].dummy_seat if variant in engine.GAMES else None
    if dummy is not None and len(players) == dummy + 1:
        players = list(players[:dummy])  # a seat listed for the dummy is not a player
    if expect is not None and len(players) != expect:
        raise NotRated(f"{variant} needs {expect} seats, the game has {len(players)}")
    if variant in TEAM_SEATS:
        seats = TEAM_SEATS[variant]
        teams = tuple(tuple(players[s] for s in side) for side in seats)
        details = []
        for h in hands:
            calls = {int(k): v for k, v in (h.get("calls") or {}).items()}
            out = h.get("out") or []
            first = out[0] if out else None
            tichu = tuple((players[s], first == s) for s, c in sorted(calls.items()) if c == "tichu")
            grand = tuple((players[s], first == s) for s, c in sorted(calls.items()) if c == "grand_tichu")
            # The model's hand details take double victories (two of a team out first: the game's
            # declared sweep; the engine says which team), not Tientsin's triple.
            dv = engine.sweep_team(variant, out) if engine.GAMES[variant].sheet.sweep == 2 else None
            details.append(HandDetail(tuple(float(x) for x in h["points"]), tichu, grand, dv))
        winner = score.get("winner")
        return GameResult(
            game_id,
            finished_at,
            teams,
            tuple(totals or ()),  # a complete score has its totals (else: one score per side is needed)
            winner if isinstance(winner, int) else None,
            len(hands),
            variant,
            hand_details=tuple(details),
        )
    if variant in PER_PLAYER:
        if totals is None:
            raise NotRated(f"{variant}: the score has no totals to rank the players by")
        if dummy is not None:
            if len(totals) != dummy + 1:
                raise NotRated(f"{variant}: expected {dummy + 1} totals (the dummy last)")
            real = list(players[:dummy])
            totals = list(totals[:dummy])  # the dummy is not rated
        else:
            real = list(players)
            if len(totals) != len(real):
                raise NotRated(f"{variant}: one total per player is needed")
            if engine.GAMES[variant].rank_scoring and len(set(totals)) == 1:
                # played without the optional score: score each hand's finishing order the way
                # the option would (first out n-1, ..., last 0)
                n = len(real)
                totals = [0] * n
                for h in hands:
                    points = engine.finishing_order_points(variant, h.get("out") or [], n)
                    totals = [t + p for t, p in zip(totals, points)]
        return GameResult(game_id, finished_at, tuple((p,) for p in real), tuple(totals), None, len(hands), variant)
    raise NotRated(f"variant {variant!r} is not rated")
