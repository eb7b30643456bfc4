"""The league's rating loop's per-game arithmetic, written to be compiled with mypyc (issue 35
item 5: the loop at least 1.5x openskill's rate()).

What is here: the filter's observation of a game (`observation_of`, `length_ratio`), the rule that
a win reads as a win (`result_kept`), the usual game's step (two partnerships of two) through
every copy of mixture.py's filter (`TwoByTwoStep`, filling a `Block`), the changes a block writes
(`block_changes`), and the Elo table's update of the usual game (`elo_two_by_two`). model.py,
mixture.py and elo.py import these; the rules have this one home. The module is plain typed Python: interpreted it gives the same numbers
as compiled (mypyc's float arithmetic is C's double arithmetic, the operations and their order are
the ones written; tests/ratings/test_rating_steps_build.py compares the two builds), and the
interpreted build is the one that runs when no compiled build is present.

Why typed this way: mypyc turns `float`/`int` locals into C doubles and integers, and a `@final`
class's attributes into struct fields. The state it reads and writes stays what mixture.py keeps:
per player a tuple (games, last time, mu per copy, var per copy) of Python floats.
"""

from __future__ import annotations

from math import sqrt
from typing import Callable, Final, Iterator, final

from .base import Change
from .types import GameResult, PlayerId

NO_DRIFT: Final = -1.0  # Block.idle of a pre var recorded with its drift (a newcomer's, the general path's)

# a player's filter state in every copy: (games rated, last finished_at, mu per copy, var per copy)
State = tuple[int, float, tuple[float, ...], tuple[float, ...]]


def length_ratio(game: GameResult, target: float | None, full_hands: float) -> float:
    """A game's length as a share of a full game (MarginKalman.length_ratio says why); the
    bench gives every rival system the same ratio, so none has information the others lack."""
    scores = game.scores
    if target is None or scores is None:
        return 1.0
    for x in scores:  # max(scores) >= target, without the generic max()
        if x >= target:
            return 1.0
    return max(game.hands, 1) / full_hands


def observation_of(
    game: GameResult, i: int, j: int, hand_sd: float, hand_clip: float, obs_var: float, rank_margin: float
) -> tuple[float, float]:
    """(y, noise variance) of side i against side j, normalised per hand (model.observation with
    the parameters it reads)."""
    n = max(game.hands, 1)
    c = hand_clip
    details = game.hand_details
    if details and len(game.teams) == 2 and i == 0 and j == 1:
        tot = 0.0
        lo = -c
        for h in details:
            a, b = h.points  # two sides: two figures a line
            m = (a - b) / hand_sd
            tot += c if m > c else lo if m < lo else m
        return tot / len(details), obs_var / len(details)
    margin = game.pair_margin(i, j)
    if margin is None:
        s = game.pair_score(i, j)
        return (2.0 * s - 1.0) * rank_margin, obs_var
    y = margin / (n * hand_sd)
    return (c if y > c else -c if y < -c else y), obs_var / n


def result_kept(y: float, score: float, favour: tuple[float, ...] = ()) -> float:
    """The observation `y` of side i against side j (observation()) made to agree with the result
    (`score`, 1 when i won): a rating that follows the points must not read a win as a loss.

    * The winner's margin is never below zero. Clipping each hand at +-hand_clip can turn a win
      into a negative mean (565-435 with one clipped 400-point hand against five small ones lost):
      the result says the winner played at least level, so that is what is read.
    * An underdog's win never costs rating. `favour` is every copy's expected margin d of side i
      (mixture.py): when any copy had the winner behind (d < 0), the win counts as at least the
      largest margin any copy expected, so no copy, whichever is shown, takes rating from the
      winner (the copies disagree on the favourite only in a near-even game). A favourite who
      wins by less than expected still loses a little: the points said less than the ratings.

    A draw (0.5) is read as it is. A loser is the winner of the same pair seen from the other
    side, so a favourite who loses never gains either."""
    if score == 0.5:
        return y
    floor = 0.0
    if score > 0.5:
        if favour and min(favour) < 0.0:
            floor = max(0.0, max(favour))
        return y if y > floor else floor
    # side i lost: the same rule for side j (the margins negated: -max(favour) is min(-d), exactly)
    if favour and -max(favour) < 0.0:
        floor = max(0.0, -min(favour))
    return -(-y if -y > floor else floor)


@final
class Block:
    """What the filters of one block of games hand to the mixture: per (game, pair) row every
    copy's pre-game (d, sum v), the game's length ratio and the pair's outcome; per game where its
    players start in `counts` and `states`, their game counts, and per player four tuples (one
    number per copy): mu and var before the game, mu and var after it. The tuples are the ones
    the model's state keeps (recording them costs a reference, not a copy); the var before the
    game is the one stored at the player's previous game, its idle drift (`idle`: seconds, or
    NO_DRIFT when the tuple already has it) applied by `TwoByTwoStep.changes` to the copy shown
    only: the step computes every copy's drifted variance and keeps none of them."""

    def __init__(self) -> None:
        self.games: list[GameResult] = []
        self.first_row: list[int] = []  # row index of each game's first pair
        self.d: list[float] = []  # row-major: row, copy
        self.sv: list[float] = []
        self.lr: list[float] = []  # per row
        self.y: list[float] = []  # per row
        self.start: list[int] = []  # per game: its first player's index in counts
        self.counts: list[int] = []  # per player of each game: rated games, this one included
        self.states: list[tuple[float, ...]] = []  # per player: pre mu, pre var, post mu, post var
        self.idle: list[float] = []  # per player: the idle seconds to drift the pre var by, or NO_DRIFT


@final
class TwoByTwoStep:
    """The usual game (two partnerships of two) through every copy of the filter, with what
    mixture._Block records of it. The operations, and their order, are those of the general path
    in mixture.PoolBayesKalman._filter and of model.MarginKalman: the drift (var + tau_game^2 +
    drift^2 * idle days, capped at the prior), d = (mu_a + mu_b) - (mu_c + mu_d), the result kept
    (result_kept with every copy's d), S = sum v + r, mu +- v * (y - d) / S, v - v * v / S."""

    def __init__(
        self,
        per_second: tuple[float, ...],
        prior: float,
        tau_game2: float,
        hand_sd: float,
        hand_clip: float,
        obs_var: float,
        rank_margin: float,
        target: float | None,
        full_hands: float,
    ) -> None:
        self.per_second: Final = per_second  # each copy's variance growth per idle second
        self.n: Final = len(per_second)
        self.prior: Final = prior
        self.tau_game2: Final = tau_game2
        self.hand_sd: Final = hand_sd
        self.hand_clip: Final = hand_clip
        self.obs_var: Final = obs_var
        self.rank_margin: Final = rank_margin
        self.target: Final = target
        self.full_hands: Final = full_hands
        # a newcomer in every copy (shared: the block keeps references, never changes them)
        self.zeros: Final[tuple[float, ...]] = tuple([0.0] * len(per_second))
        self.priors: Final[tuple[float, ...]] = tuple([prior] * len(per_second))

    def drifted(self, v: float, k: int, dt: float) -> float:
        """Copy k's variance v after dt idle seconds: var + tau_game^2 + drift^2 * idle days,
        capped at the prior (model.MarginKalman._pre, mixture.PoolBayesKalman._pre)."""
        x = v + self.tau_game2 + self.per_second[k] * dt
        return self.prior if x > self.prior else x

    def pre_var(self, v: float, k: int, dt: float) -> float:
        """The variance before the game of Block.states' pre var v (Block.idle says why)."""
        return v if dt == NO_DRIFT else self.drifted(v, k, dt)

    def fill(
        self,
        state: dict[PlayerId, State],
        games: Iterator[GameResult],
        size: int,
        block: Block,
        other: Callable[[GameResult, Block], None],
    ) -> None:
        """Take up to `size` games from `games` into `block` (mixture.PoolBayesKalman.update_many's
        loop): the usual game through this step, any other shape through `other` (the mixture's
        general path); each game's first row and first player recorded first."""
        taken = 0
        for game in games:
            block.first_row.append(len(block.y))
            block.games.append(game)
            block.start.append(len(block.counts))
            teams = game.teams
            if len(teams) == 2 and len(teams[0]) == 2 and len(teams[1]) == 2:
                self.step(state, game, block)
            else:
                other(game, block)
            taken += 1
            if taken == size:
                return

    def step(self, state: dict[PlayerId, State], game: GameResult, block: Block) -> None:
        """Apply `game` (teams ((a, b), (c, d))) to every copy's state and append to the block:
        every copy's pre-game d and sum v, the length ratio and the outcome, each player's
        (pre mu, pre var, post mu, post var) and game count."""
        t = game.finished_at
        (a, b), (c, d) = game.teams
        score = game.pair_score(0, 1)
        y, r = observation_of(game, 0, 1, self.hand_sd, self.hand_clip, self.obs_var, self.rank_margin)
        n = self.n
        # per player: games with this one, mu before, var before (stored), idle seconds
        games: list[int] = []
        pm: list[tuple[float, ...]] = []
        pv: list[tuple[float, ...]] = []
        idle: list[float] = []
        for player in (a, b, c, d):
            st = state.get(player)
            if st is None:
                games.append(1)
                pm.append(self.zeros)
                pv.append(self.priors)
                idle.append(NO_DRIFT)
            else:
                games.append(st[0] + 1)
                pm.append(st[2])
                pv.append(st[3])
                dt = t - st[1]
                idle.append(0.0 if dt < 0.0 else dt)  # a game filed out of order: no drift backwards
        ma, mb, mc, md = pm[0], pm[1], pm[2], pm[3]
        ds: list[float] = []
        for k in range(n):
            ds.append((ma[k] + mb[k]) - (mc[k] + md[k]))
        y = result_kept(y, score, tuple(ds))
        va, vb, vc, vd = pv[0], pv[1], pv[2], pv[3]
        ia, ib, ic, id_ = idle[0], idle[1], idle[2], idle[3]
        qma: list[float] = []
        qmb: list[float] = []
        qmc: list[float] = []
        qmd: list[float] = []
        qva: list[float] = []
        qvb: list[float] = []
        qvc: list[float] = []
        qvd: list[float] = []
        for k in range(n):
            xa = va[k] if ia == NO_DRIFT else self.drifted(va[k], k, ia)
            xb = vb[k] if ib == NO_DRIFT else self.drifted(vb[k], k, ib)
            xc = vc[k] if ic == NO_DRIFT else self.drifted(vc[k], k, ic)
            xd = vd[k] if id_ == NO_DRIFT else self.drifted(vd[k], k, id_)
            sv = (xa + xb) + (xc + xd)
            S = sv + r
            i = (y - ds[k]) / S
            block.sv.append(sv)
            qma.append(ma[k] + xa * i)
            qmb.append(mb[k] + xb * i)
            qmc.append(mc[k] - xc * i)
            qmd.append(md[k] - xd * i)
            qva.append(xa - xa * xa / S)
            qvb.append(xb - xb * xb / S)
            qvc.append(xc - xc * xc / S)
            qvd.append(xd - xd * xd / S)
        block.d.extend(ds)
        post = (
            (a, tuple(qma), tuple(qva)),
            (b, tuple(qmb), tuple(qvb)),
            (c, tuple(qmc), tuple(qvc)),
            (d, tuple(qmd), tuple(qvd)),
        )
        for x in range(4):
            player, qm, qv = post[x]
            state[player] = (games[x], t, qm, qv)
            block.states.append(pm[x])
            block.states.append(pv[x])
            block.states.append(qm)
            block.states.append(qv)
            block.idle.append(idle[x])
            block.counts.append(games[x])
        block.lr.append(length_ratio(game, self.target, self.full_hands))
        block.y.append(score)


def block_changes(
    step: TwoByTwoStep,
    block: Block,
    mean: list[float],
    shown: list[int],
    shown_of: dict[PlayerId, int],
    initial: float,
    scale: float,
) -> Iterator[list[Change]]:
    """Every game's changes of a block, game by game (mixture.PoolBayesKalman._changes): each
    player's rating and RD before and after in the copy shown (`shown`, per game), the side's
    expected score (`mean`, the mixture's forecast per row) and actual score; `shown_of` records
    the copy. A generator: a game's changes are made when the loop reaches it and dropped when
    the caller is done with them, so they never outlive a young-generation collection (a list of
    the block's changes made the collector walk thousands of tuples more)."""
    states, counts, starts, first_row, ys = block.states, block.counts, block.start, block.first_row, block.y
    idle = block.idle
    new = tuple.__new__  # Change(...) less its Python-level __new__: the same tuple
    for b in range(len(block.games)):
        game = block.games[b]
        k = shown[b]
        teams = game.teams
        n = len(teams)
        r = first_row[b]
        s = starts[b]
        gid = game.game_id
        changes: list[Change] = []
        if n == 2:  # one pair: its forecast and outcome are the sides' expected and actual
            e, y = mean[r], ys[r]
            f, z = 1.0 - e, 1.0 - y
            for side in range(2):
                for pl in teams[side]:
                    shown_of[pl] = k
                    x = 4 * s
                    changes.append(
                        new(
                            Change,
                            (
                                gid,
                                pl,
                                initial + scale * states[x][k],
                                initial + scale * states[x + 2][k],
                                scale * sqrt(step.pre_var(states[x + 1][k], k, idle[s])),
                                scale * sqrt(states[x + 3][k]),
                                e if side == 0 else f,
                                y if side == 0 else z,
                                counts[s],
                            ),
                        )
                    )
                    s += 1
            yield changes
            continue
        extra = float(n - 1)
        expected, actual = [0.0] * n, [0.0] * n
        for i in range(n):
            for j in range(i + 1, n):
                e, y = mean[r], ys[r]
                expected[i] += e
                expected[j] += 1.0 - e
                actual[i] += y
                actual[j] += 1.0 - y
                r += 1
        for i in range(n):
            e, a = expected[i] / extra, actual[i] / extra
            for pl in teams[i]:
                shown_of[pl] = k
                x = 4 * s
                changes.append(
                    new(
                        Change,
                        (
                            gid,
                            pl,
                            initial + scale * states[x][k],
                            initial + scale * states[x + 2][k],
                            scale * sqrt(step.pre_var(states[x + 1][k], k, idle[s])),
                            scale * sqrt(states[x + 3][k]),
                            e,
                            a,
                            counts[s],
                        ),
                    )
                )
                s += 1
        yield changes


def elo_two_by_two(
    ratings: dict[PlayerId, float],
    games: dict[PlayerId, int],
    game: GameResult,
    initial: float,
    k: float,
    provisional_k: float,
    provisional_games: int,
    scale: float,
) -> list[Change]:
    """elo.ClubElo.update of the usual game, two partnerships of two (its rule is stated there):
    the side's K the mean of its players' K, E from the sides' mean ratings, every player of a
    side moved by K_side * (S - E). Written out; tests/ratings/test_mixture_speed_and_drifts.py
    holds it to TeamElo's general loop to the bit."""
    (a, b), (c, d) = game.teams
    ra, rb, rc, rd = ratings.get(a, initial), ratings.get(b, initial), ratings.get(c, initial), ratings.get(d, initial)
    ga, gb, gc, gd = games.get(a, 0), games.get(b, 0), games.get(c, 0), games.get(d, 0)
    pk, pg = provisional_k, provisional_games
    k0 = ((pk if ga < pg else k) + (pk if gb < pg else k)) / 2
    k1 = ((pk if gc < pg else k) + (pk if gd < pg else k)) / 2
    e = 1.0 / (1.0 + 10.0 ** (((rc + rd) / 2 - (ra + rb) / 2) / scale))
    s = game.pair_score(0, 1)
    up, down = k0 * (s - e), k1 * (s - e)
    ratings[a], ratings[b], ratings[c], ratings[d] = ra + up, rb + up, rc - down, rd - down
    games[a], games[b], games[c], games[d] = ga + 1, gb + 1, gc + 1, gd + 1
    gid, f, s1 = game.game_id, 1.0 - e, 1.0 - s
    new = tuple.__new__
    return [
        new(Change, (gid, a, ra, ra + up, 0.0, 0.0, e, s, ga + 1)),
        new(Change, (gid, b, rb, rb + up, 0.0, 0.0, e, s, gb + 1)),
        new(Change, (gid, c, rc, rc - down, 0.0, 0.0, f, s1, gc + 1)),
        new(Change, (gid, d, rd, rd - down, 0.0, 0.0, f, s1, gd + 1)),
    ]
