"""Ratings on the database: outcomes, the incremental update and the full recompute.

* `ensure_outcome(game)`: folds a finished game (through games.selectors.game_score, which
  uses the cached snapshots) into its GameOutcome row; a game the ratings refuse keeps the reason.
  The row records the game's seq it was folded at and is reused only while the game is still at
  that seq (the stream is append-only, so the same seq is the same events).
* `apply_game(game_id)`: the outbox task (games/ratings/outbox.py) of a game that finished, was
  reopened by an `undo`, or changed while finished. Under the pool's row lock it brings the
  ratings in line with the game as it folds now: a reopened game leaves the pool (its outcome is
  deleted and the pool recomputed without it), a game rated from a stale outcome is refolded and
  the pool recomputed; a new finish is applied on top of the stored ratings when it is the
  newest game of its pool, and an older game (an import of last year's sheets) or a changed
  SYSTEM triggers a full recompute of the pool. A game already rated from its current fold is
  left alone, so a redelivered task is harmless. A game `games.holds` holds (a duplicate table's
  until its round closes) is rated by no task and no recompute; the end of its hold sends it to
  be rated.
* `recompute_pool` / `recompute_club` (None: every club): replay every outcome of a pool in
  finishing order (finished_at, game id) and rewrite its RatingChange and PlayerRating rows in one
  transaction. The result depends only on the outcomes, so running it twice, or again after a
  worker died midway (its transaction rolled back), gives the same table.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, Callable

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from games import holds, sql
from games.models import Game, GameSeat
from games.online.record_marks import bot_marks

from . import outbox
from .adapters import result_from_score
from .elo import ClubElo
from .league_rules import rules_of_club_id
from .mixture import PoolBayesKalman
from .models import GameOutcome, PlayerRating, RatingChange, RatingPool
from .systems import ELO, PREDICTIVE
from .tournament_vp import league_vp, ranks_by_vp
from .types import GameResult, HandDetail, NotRated, PlayerId

logger = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]
BATCH = 5000


def _ts(dt: datetime) -> float:
    return dt.timestamp()


# -- outcomes ---------------------------------------------------------------------------------


def outcome_fields(result: GameResult) -> dict:
    calls: dict[str, list[int]] = {}
    doubles: dict[str, int] = {}
    for h in result.hand_details:
        for p, made in h.tichu:
            c = calls.setdefault(str(p), [0, 0, 0, 0])
            c[0] += 1
            c[1] += made
        for p, made in h.grand_tichu:
            c = calls.setdefault(str(p), [0, 0, 0, 0])
            c[2] += 1
            c[3] += made
        if h.double_victory is not None:
            doubles[str(h.double_victory)] = doubles.get(str(h.double_victory), 0) + 1
    return {
        "sides": [list(t) for t in result.teams],
        "totals": list(result.scores) if result.scores is not None else None,
        "winner": result.winner,
        "hands": result.hands,
        "hand_points": [list(h.points) for h in result.hand_details],
        "calls": calls,
        "doubles": doubles,
    }


def current_outcome(game: Game) -> GameOutcome | None:
    """The game's outcome row if it is current: folded at the game's seq and, for a league that
    follows the tournaments' VP, with the VP its tournament table's result gives now (a result
    recorded or corrected on the tournament's stream changes them, not the game's seq)."""
    existing = GameOutcome.objects.filter(game=game, seq=game.seq).first()
    if existing is not None and not existing.reason and existing.vp != league_vp(game):
        return None
    return existing


def ensure_outcome(game: Game, refold: bool = False) -> GameOutcome:
    """The game's outcome row at its current seq, folding the events when it is missing or stale
    (current_outcome), or with `refold`."""
    if not refold:
        existing = current_outcome(game)
        if existing is not None:
            return existing
    from games.selectors import game_score

    players = list(GameSeat.objects.filter(game=game).order_by("seat").values_list("player_id", flat=True))
    fields = _outcome_row(game, players, lambda: game_score(game), vp=league_vp)
    try:
        outcome, _ = GameOutcome.objects.update_or_create(game=game, defaults=fields)
    except IntegrityError:  # a concurrent task created it: theirs is the same
        outcome = GameOutcome.objects.get(game=game)
    return outcome


def store_imported_outcomes(imported) -> None:
    """The outcome rows of the finished games of a bulk-imported file, in its transaction: each
    (game, seat player ids, score function) as games.hooks.finished_games_stored_held passes
    them, the score from the state the import folded (one INSERT, no fold, no query). Best
    effort: a game whose outcome cannot be worked out here is logged and left to the job's
    recompute, which folds it (`ensure_outcomes`)."""
    rows = []
    for game, players, score in imported:
        try:
            rows.append(GameOutcome(game=game, **_outcome_row(game, players, score)))
        except Exception:  # noqa: BLE001 - never fails the file; the recompute redoes it
            logger.warning("game %s: rating outcome left to the job's recompute", game.pk, exc_info=True)
    GameOutcome.objects.bulk_create(rows)


def _outcome_row(
    game: Game, players: list[int], score: Callable[[], dict], vp: Callable[[Game], list | None] | None = None
) -> dict:
    """The fields of a finished game's outcome row at its seq, from its seats' players and its
    score (`selectors.game_score`'s JSON); a game the ratings refuse keeps the reason. `vp`: the
    VP the league counts the game by (tournament_vp.league_vp; a bulk import's games are no
    tournament table's)."""
    # the ratings' order of play: when the game was played (an import's own date), then its id
    finished = game.played_at or game.finished_at or game.created_at
    fields: dict = {
        "club_id": game.club_id,
        "variant": game.variant,
        "finished_at": finished,
        "sides": [],
        "totals": None,
        "winner": None,
        "hands": 0,
        "hand_points": [],
        "calls": {},
        "doubles": {},
        "reason": "",
        "seq": game.seq,
        "vp": None,
    }
    if bot_marks(game.header) and not rules_of_club_id(game.club_id).rates_bot_games:
        fields["reason"] = "an engine's bot played a seat (the club's league leaves bot games out)"
        return fields
    try:
        result = result_from_score(game.pk, _ts(finished), game.variant, players, score())
        fields.update(outcome_fields(result))
        fields["vp"] = vp(game) if vp is not None and len(result.teams) == 2 else None
    except NotRated as exc:
        fields["reason"] = exc.reason[:200]
    except Exception as exc:  # an engine without this variant: refuse, with its message
        code = getattr(exc, "code", None)
        if code is None:
            raise
        fields["reason"] = f"{game.variant}: {getattr(exc, 'message', exc)}"[:200]
    return fields


def result_of(o: GameOutcome | dict) -> GameResult:
    """The GameResult of an outcome row (or of its values() dict)."""
    get: Callable[[str], Any] = o.get if isinstance(o, dict) else (lambda k: getattr(o, k))
    game_id = get("game_id")
    totals = get("totals")
    # a tournament's VP, kept for a league that follows them: the VP decide who won, the points
    # stay the points (the predictive model reads the hand lines, held to the VP result)
    ranks, winner = ranks_by_vp(get("vp")) if get("vp") else (None, get("winner"))
    return GameResult(
        game_id=game_id,
        finished_at=_ts(get("finished_at")),
        teams=tuple(tuple(s) for s in get("sides")),
        scores=tuple(totals) if totals is not None else None,
        winner=winner,
        hands=get("hands"),
        variant=get("variant"),
        ranks=ranks,
        hand_details=tuple(HandDetail(tuple(p)) for p in (get("hand_points") or ())),
    )


# -- writing --------------------------------------------------------------------------------------

CHANGE_COLUMNS = (
    "game_id",
    "player_id",
    "club_id",
    "variant",
    "finished_at",
    "ordinal",
    "side",
    "rating_before",
    "rating_after",
    "rd_before",
    "rd_after",
    "expected",
    "score",
    "games",
    "points_for",
    "points_against",
    "tichu_called",
    "tichu_made",
    "grand_called",
    "grand_made",
    "double_victories",
    "elo_before",
    "elo_after",
)


def _change_values(o, changes, ordinal: int, elo: dict) -> list[tuple]:
    """One tuple per player (CHANGE_COLUMNS order) for the RatingChange rows of a game; `elo` maps
    each player to the Elo table's Change of the same game."""
    get: Callable[[str], Any] = o.get if isinstance(o, dict) else (lambda k: getattr(o, k))
    sides = get("sides")
    totals = get("totals")
    calls = get("calls") or {}
    doubles = get("doubles") or {}
    game_id, club_id, variant, finished = get("game_id"), get("club_id"), get("variant"), get("finished_at")
    side_of = {p: i for i, s in enumerate(sides) for p in s}
    rows = []
    for c in changes:
        i = side_of[c.player]
        pf = pa = None
        if totals is not None:
            pf = totals[i]
            pa = max(t for j, t in enumerate(totals) if j != i)
        tc = calls.get(str(c.player), (0, 0, 0, 0))
        rows.append(
            (
                game_id,
                c.player,
                club_id,
                variant,
                finished,
                ordinal,
                i,
                c.before,
                c.after,
                c.rd_before,
                c.rd_after,
                c.expected,
                c.score,
                c.games,
                pf,
                pa,
                tc[0],
                tc[1],
                tc[2],
                tc[3],
                doubles.get(str(i), 0),
                elo[c.player].before,
                elo[c.player].after,
            )
        )
    return rows


def _change_rows(o, changes, ordinal: int, elo: dict) -> list[RatingChange]:
    return [RatingChange(**dict(zip(CHANGE_COLUMNS, v))) for v in _change_values(o, changes, ordinal, elo)]


def _write_changes(values: list[tuple], progress: Progress | None = None) -> None:
    """Insert RatingChange rows: COPY on PostgreSQL (the 100,000-game recompute), bulk_create elsewhere."""
    from django.db import connection

    if connection.vendor == "postgresql":
        for start in range(0, len(values), BATCH * 10):
            chunk = values[start : start + BATCH * 10]
            sql.copy_rows(RatingChange, CHANGE_COLUMNS, chunk)
            if progress:
                progress("write", start + len(chunk), len(values))
        return
    for start in range(0, len(values), BATCH):
        RatingChange.objects.bulk_create(
            [RatingChange(**dict(zip(CHANGE_COLUMNS, v))) for v in values[start : start + BATCH]]
        )
        if progress:
            progress("write", min(start + BATCH, len(values)), len(values))


def _player_rating(
    model: PoolBayesKalman,
    elo: ClubElo,
    club_id: int,
    variant: str,
    player: PlayerId,
    last_change: float,
    last_game_at: datetime,
) -> PlayerRating:
    """The player's row: the rating shown is the one written at their last game (the copy chosen
    then, `model.shown`), whichever path wrote it; every copy's state is kept for the forecast."""
    mu, var, games, last_t = model.shown_state(player)
    st = model.standing(player)
    return PlayerRating(
        player_id=player,
        club_id=club_id,
        variant=variant,
        rating=st.rating,
        rd=st.rd,
        games=games,
        provisional=st.provisional,
        last_change=last_change,
        last_game_at=last_game_at,
        mu=mu,
        var=var,
        last_t=last_t,
        copies=model.player_copies(player),
        shown=model.shown[player],
        elo=elo.ratings[player],
    )


def _model_from(variant: str, log_weights: list, rows) -> PoolBayesKalman:
    """The shipped model continued from stored state: the pool's log weights ([]: the prior) and
    every copy's state of the players of `rows` (PlayerRating). A row written under an older
    SYSTEM has no copies yet, or another number of them (pool-bayes-kalman/5 kept four, /6
    seven; the pool recomputes on its next update): each copy starts from its single state."""
    model = PREDICTIVE.start(variant)
    n = len(model.drifts)
    if log_weights and len(log_weights) == n:
        model.log_w = [list(row) for row in log_weights]
    for r in rows:
        copies = r.copies if r.copies and len(r.copies) == n else [[r.mu, r.var, r.last_t]] * n
        model.load_player(r.player_id, copies, r.games, r.shown if r.copies and len(r.copies) == n else 0)
    return model


def load_model(club_id: int, variant: str, players=None) -> PoolBayesKalman:
    """The pool's model as stored (its log weights, and every copy's state of `players`, or of
    every rated player of the pool): what the forecast reads."""
    pool = RatingPool.objects.filter(club_id=club_id, variant=variant).first()
    rows = PlayerRating.objects.filter(club_id=club_id, variant=variant)
    if players is not None:
        rows = rows.filter(player_id__in=list(players))
    return _model_from(variant, pool.log_weights if pool is not None and pool.system == PREDICTIVE.name else [], rows)


def forecast(club_id: int, variant: str, sides, at: datetime | None = None) -> list[tuple[int, int, float]]:
    """Win chances of a game not yet played between `sides` (player ids per side) in the pool, at
    `at` (now by default): [(i, j, P(side i ahead of side j))], the shipped model's mixture
    forecast. A player without a rating counts as a newcomer. Nothing in the site calls it yet
    (tournament pairings read no rating); the tests use it to show that the stored mixture
    forecasts as the uninterrupted one does."""
    sides = tuple(tuple(s) for s in sides)
    model = load_model(club_id, variant, [p for s in sides for p in s])
    game = GameResult(
        game_id=0, finished_at=_ts(at or timezone.now()), teams=sides, scores=None, winner=0, hands=1, variant=variant
    )
    return model.pair_probabilities(game)


def _lock_pool(club_id: int, variant: str) -> RatingPool:
    """The pool row, locked until the end of the current transaction."""
    try:
        with transaction.atomic():
            RatingPool.objects.get_or_create(club_id=club_id, variant=variant, defaults={"system": PREDICTIVE.name})
    except IntegrityError:
        pass
    return RatingPool.objects.select_for_update().get(club_id=club_id, variant=variant)


OUTCOME_FIELDS = (
    "game_id",
    "club_id",
    "variant",
    "finished_at",
    "sides",
    "totals",
    "winner",
    "hands",
    "hand_points",
    "calls",
    "doubles",
    "vp",
)


def _read_outcomes(club_id: int, variant: str) -> list[dict]:
    """The pool's rated outcomes in finishing order, as values() dicts: only the outcomes of
    finished games folded at the game's current seq (a stale one, of a game an undo reopened or
    changed, is never rated; its own outbox task refolds it). On PostgreSQL the six JSON columns
    come as one JSON array per row (one decode instead of five: the read is the largest Python
    cost of a 100,000-game recompute)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        rows = list(
            GameOutcome.objects.filter(
                club_id=club_id,
                variant=variant,
                reason="",
                hands__gt=0,
                game__status=Game.Status.FINISHED,
                seq=F("game__seq"),
            )
            .order_by("finished_at", "game_id")
            .values(*OUTCOME_FIELDS)
        )
    else:
        rows = sql.rated_outcome_rows(GameOutcome, club_id, variant)
    held = holds.rating_held()  # a duplicate table's game until its round closes (games.holds)
    return [o for o in rows if o["game_id"] not in held] if held else rows


def recompute_pool(club_id: int, variant: str, progress: Progress | None = None) -> dict:
    """Replay a (club, variant) pool from its outcomes and rewrite its tables atomically."""
    from django.db import connection

    with transaction.atomic():
        if connection.vendor == "postgresql":
            # The recompute is re-runnable from the outcomes: a crash right after the commit may
            # lose it (never corrupt it), so it need not wait for the WAL flush.
            sql.commit_without_wal_wait()
        pool = _lock_pool(club_id, variant)
        outcomes = _read_outcomes(club_id, variant)
        total = len(outcomes)
        model = PREDICTIVE.start(variant)
        elo = ELO.start(variant)
        rows: list[tuple] = []
        last: dict[int, tuple[float, datetime]] = {}
        step = max(1, total // 100)
        # update_many: the model's block loop (the mixture's arithmetic for a block of games at
        # once), fed lazily so that only a block of GameResults is alive at a time
        rated = model.update_many(result_of(o) for o in outcomes)
        for k, (o, (result, changes)) in enumerate(zip(outcomes, rated)):
            rows.extend(_change_values(o, changes, k, {c.player: c for c in elo.update(result)}))
            for c in changes:
                last[c.player] = (c.after - c.before, o["finished_at"])
            if progress and (k % step == 0 or k == total - 1):
                progress("rate", k + 1, total)
        RatingChange.objects.filter(club_id=club_id, variant=variant).delete()
        PlayerRating.objects.filter(club_id=club_id, variant=variant).delete()
        _write_changes(rows, progress)
        PlayerRating.objects.bulk_create(
            [_player_rating(model, elo, club_id, variant, p, d, at) for p, (d, at) in sorted(last.items())],
            batch_size=BATCH,
        )
        pool.system = PREDICTIVE.name
        pool.log_weights = model.log_w
        pool.games_rated = total
        pool.last_finished_at = outcomes[-1]["finished_at"] if outcomes else None
        pool.last_game_id = outcomes[-1]["game_id"] if outcomes else None
        pool.recomputed_at = timezone.now()
        pool.save()
    return {"club": club_id, "variant": variant, "games": total, "players": len(last), "changes": len(rows)}


def ensure_outcomes(club_id: int | None = None, refold: bool = False, progress: Progress | None = None) -> int:
    """Fold the finished games whose outcome is missing or stale (all of them with `refold`), and
    drop the outcomes of games that are no longer finished (reopened by an undo)."""
    reopened = GameOutcome.objects.exclude(game__status=Game.Status.FINISHED)
    games = Game.objects.filter(status=Game.Status.FINISHED)
    if club_id is not None:
        games = games.filter(club_id=club_id)
        reopened = reopened.filter(club_id=club_id)
    reopened.delete()
    if not refold:
        games = games.filter(Q(outcome__isnull=True) | Q(outcome__seq__lt=F("seq")) | Q(outcome__seq__gt=F("seq")))
    total = games.count()
    # the queryset already left out the games with a current outcome: no second check per game
    for k, game in enumerate(games.order_by("id").iterator()):
        ensure_outcome(game, refold=True)
        if progress:
            progress("fold", k + 1, total)
    return total


def pools(club_id: int | None = None) -> list[tuple[int, str]]:
    qs = GameOutcome.objects.all()
    if club_id is not None:
        qs = qs.filter(club_id=club_id)
    found = set(qs.values_list("club_id", "variant").distinct())
    rp = RatingPool.objects.all() if club_id is None else RatingPool.objects.filter(club_id=club_id)
    found |= set(rp.values_list("club_id", "variant"))
    return sorted(found)


def recompute_club(club_id: int | None = None, refold: bool = False, progress: Progress | None = None) -> list[dict]:
    """Full recompute of one club (or of every club with `club_id=None`)."""
    ensure_outcomes(club_id, refold, progress)
    return [recompute_pool(c, v, progress) for c, v in pools(club_id)]


def apply_game(game_id: int) -> str:
    """Bring the ratings in line with the game as its events fold now (the outbox task). Returns
    what was done. Idempotent: run twice, or in any order with the game's other tasks, it leaves
    the same tables, since it reads the game's current state under the pool lock."""
    game = Game.objects.filter(pk=game_id).only("club_id", "variant").first()
    if game is None:
        return "missing"
    with transaction.atomic():
        pool = _lock_pool(game.club_id, game.variant)
        game = Game.objects.get(pk=game_id)  # as it is now, under the lock: tasks of a game serialise
        done = _sync_game(game, pool)
        outbox.handled(game.pk, game.seq)
    return done


def _sync_game(game: Game, pool: RatingPool) -> str:
    rated = RatingChange.objects.filter(game=game).exists()
    if game.status != Game.Status.FINISHED:
        GameOutcome.objects.filter(game=game).delete()
        if rated:  # reopened by an undo: the game no longer counts
            recompute_pool(game.club_id, game.variant)
            return "withdrawn"
        return "not finished"
    if game.pk in holds.rating_held():  # rated when its hold ends (the round closes): games.holds
        if rated:
            recompute_pool(game.club_id, game.variant)
            return "withdrawn: held"
        return "not rated: held"
    existing = current_outcome(game)  # checked once: a missing or stale outcome is folded anew
    current = existing is not None
    outcome = existing if existing is not None else ensure_outcome(game, refold=True)
    if rated:
        if current:
            return "already rated"
        recompute_pool(game.club_id, game.variant)  # rated from an older fold: re-rate in place
        return "re-rated"
    if outcome.reason:
        return f"not rated: {outcome.reason}"
    if outcome.hands == 0:
        return "not rated: no hand was played"
    key = (outcome.finished_at, outcome.game_id)
    newest = pool.last_finished_at is None or key > (pool.last_finished_at, pool.last_game_id or 0)
    if pool.system != PREDICTIVE.name or not newest:
        recompute_pool(outcome.club_id, outcome.variant)
        return "recomputed"
    result = result_of(outcome)
    stored = {
        r.player_id: r for r in PlayerRating.objects.filter(variant=outcome.variant, player_id__in=result.players)
    }
    model = _model_from(outcome.variant, pool.log_weights, stored.values())
    elo = ELO.start(outcome.variant)
    for p, r in stored.items():
        elo.ratings[p], elo.games[p] = r.elo, r.games
    changes = model.update(result)
    elo_changes = {c.player: c for c in elo.update(result)}
    RatingChange.objects.bulk_create(_change_rows(outcome, changes, pool.games_rated, elo_changes))
    for c in changes:
        new = _player_rating(
            model, elo, outcome.club_id, outcome.variant, c.player, c.after - c.before, outcome.finished_at
        )
        old = stored.get(c.player)
        if old is not None:
            new.pk = old.pk
            new.save()
        else:
            new.save(force_insert=True)
    pool.games_rated += 1
    pool.last_finished_at, pool.last_game_id = key
    pool.log_weights = model.log_w
    pool.save(update_fields=["games_rated", "last_finished_at", "last_game", "log_weights", "updated_at"])
    return "rated"


def pool_signature(club_id: int, variant: str) -> list[tuple]:
    """The whole written table of a pool, for determinism checks."""
    changes = list(
        RatingChange.objects.filter(club_id=club_id, variant=variant)
        .order_by("ordinal", "player_id")
        .values_list(
            "game_id",
            "player_id",
            "ordinal",
            "rating_before",
            "rating_after",
            "rd_after",
            "expected",
            "score",
            "games",
            "elo_before",
            "elo_after",
        )
    )
    ratings = list(
        PlayerRating.objects.filter(club_id=club_id, variant=variant)
        .order_by("player_id")
        .values_list(
            "player_id", "rating", "rd", "games", "provisional", "mu", "var", "last_t", "elo", "copies", "shown"
        )
    )
    weights = list(
        RatingPool.objects.filter(club_id=club_id, variant=variant).values_list("system", "games_rated", "log_weights")
    )
    return changes + ratings + weights
