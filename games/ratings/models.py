"""Rating storage: the ratings app's models (label `ratings`). Their tables keep the names they had
while the models were declared under the games app (`games_ratingchange`, ...): migration
ratings/0001 moved the models' state from games to ratings and no table or row (games/0027 took
them out of the records' state).


* GameOutcome: the compact score-sheet summary of a finished game (sides, totals, hands, calls,
  double victories), folded once from the events so that a full recompute never re-folds 100,000
  event streams. `reason` is set when the game is refused by the ratings (NotRated). `seq` is the
  game's seq (its stream tip) when it was folded: the stream is append-only, so the outcome is
  current exactly while `outcome.seq == game.seq`; any later event (an `undo`, a new finish)
  makes it stale and it is folded again, never reused.
* RatingOutbox: the transactional outbox of the rating task. The append that finishes or
  reopens a game writes a row in its own transaction; the row is deleted once a task has
  brought the ratings in line with the game (docs/ratings.md, "Delivery").
* RatingPool: one rating pool per (club, variant): its lock row, the system/parameter version,
  the last game applied (the incremental update continues from there) and the model's pool
  state (the mixture's log weights).
* RatingChange: one row per (game, player): the rating before and after, the expected and actual
  score, and the player's Tichu line of that game. The league table and the player page are
  queries on it.
* PlayerRating: the current rating per (player, variant), with the model's exact state (every
  copy's mu, var, last game time, and the copy shown) so that the incremental update equals the
  full recompute.
* LeagueRules: a club's league rules (which table leads, who is ranked, the season, whether bot
  games and the tournaments' VP count), one row per club, made when an admin first saves them
  (`games.ratings.league_rules`; a club without a row has the defaults). Migration ratings/0003
  copied them from the columns `Club` had.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.choices import TextChoices


class GameOutcome(models.Model):
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="outcome")
    club = models.ForeignKey("games.Club", on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=30)
    finished_at = models.DateTimeField()
    # player ids per side, e.g. [[3, 7], [5, 9]]; per-player sides for ranking variants
    sides = models.JSONField(default=list)
    totals = models.JSONField(null=True, blank=True)
    winner = models.SmallIntegerField(null=True, blank=True)
    hands = models.PositiveIntegerField(default=0)
    hand_points = models.JSONField(default=list, blank=True)  # per hand, per side: the sheet line
    # {player id: [tichu called, tichu made, grand called, grand made]}, {side: double victories}
    calls = models.JSONField(default=dict, blank=True)
    doubles = models.JSONField(default=dict, blank=True)
    reason = models.CharField(max_length=200, blank=True, default="")  # non-empty: not rated
    # the VP of the tournament table's result the game is, as the tournament counts them [side 0,
    # side 1], read when folded for a club whose league follows the tournaments' VP
    # (LeagueRules.follows_tournament_vp; games.ratings.tournament_vp); None: counted on points
    vp = models.JSONField(null=True, blank=True)
    seq = models.PositiveIntegerField()  # the game's seq this outcome was folded at

    class Meta:
        db_table = "games_gameoutcome"  # the table it had under the games app (ratings/0001 moved only the state)
        indexes = [models.Index(fields=["club", "variant", "finished_at", "game"], name="outcome_pool_order")]


class RatingPool(models.Model):
    club = models.ForeignKey("games.Club", on_delete=models.CASCADE, related_name="rating_pools")
    variant = models.CharField(max_length=30)
    system = models.CharField(max_length=60)
    games_rated = models.PositiveIntegerField(default=0)
    last_finished_at = models.DateTimeField(null=True, blank=True)
    last_game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    recomputed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # the model's per-pool state (mixture.PoolBayesKalman): the log weights of its drift x scale
    # hypotheses after the last game applied ([] : the prior)
    log_weights = models.JSONField(default=list, blank=True)

    class Meta:
        db_table = "games_ratingpool"  # the table it had under the games app (ratings/0001 moved only the state)
        constraints = [models.UniqueConstraint(fields=["club", "variant"], name="rating_pool_unique")]


class RatingChange(models.Model):
    # No single-column FK indexes: the unique (game, player) and the two indexes below lead with
    # game, player and club, and every index less is faster to rewrite in a full recompute.
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes", db_index=False)
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="rating_changes", db_index=False)
    club = models.ForeignKey("games.Club", on_delete=models.CASCADE, related_name="+", db_index=False)
    variant = models.CharField(max_length=30)
    finished_at = models.DateTimeField()
    ordinal = models.PositiveIntegerField()  # position of the game in its pool's replay
    side = models.PositiveSmallIntegerField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    rd_before = models.FloatField()
    rd_after = models.FloatField()
    expected = models.FloatField()  # win probability of the player's side before the game
    score = models.FloatField()  # 1 win, 0.5 draw, 0 loss (mean over pairs in ranking games)
    games = models.PositiveIntegerField()  # the player's rated games, this one included
    points_for = models.FloatField(null=True)
    points_against = models.FloatField(null=True)  # best opposing total
    tichu_called = models.PositiveSmallIntegerField(default=0)
    tichu_made = models.PositiveSmallIntegerField(default=0)
    grand_called = models.PositiveSmallIntegerField(default=0)
    grand_made = models.PositiveSmallIntegerField(default=0)
    double_victories = models.PositiveSmallIntegerField(default=0)
    # the league's Elo table (games.ratings.elo.ClubElo), replayed alongside the predictive rating
    elo_before = models.FloatField(default=1500.0)
    elo_after = models.FloatField(default=1500.0)

    class Meta:
        db_table = "games_ratingchange"  # the table it had under the games app (ratings/0001 moved only the state)
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="rating_change_unique")]
        indexes = [
            models.Index(fields=["club", "variant", "finished_at"], name="ratingchange_pool_time"),
            models.Index(fields=["player", "variant", "ordinal"], name="ratingchange_player"),
        ]


class PlayerRating(models.Model):
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="ratings")
    club = models.ForeignKey("games.Club", on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=30)
    rating = models.FloatField()
    rd = models.FloatField()
    games = models.PositiveIntegerField()
    provisional = models.BooleanField()
    last_change = models.FloatField(default=0.0)
    last_game_at = models.DateTimeField()
    # the model's exact state (model units), so an incremental update equals a recompute: the
    # shown copy's (mu, var, last game time), and every copy's [[mu, var, last_t], ...] (mixture.py)
    mu = models.FloatField()
    var = models.FloatField()
    last_t = models.FloatField()
    copies = models.JSONField(default=list, blank=True)
    shown = models.PositiveSmallIntegerField(default=0)  # the copy chosen at the player's last game
    elo = models.FloatField(default=1500.0)  # the Elo table's rating (ClubElo; its games = games)

    class Meta:
        db_table = "games_playerrating"  # the table it had under the games app (ratings/0001 moved only the state)
        constraints = [models.UniqueConstraint(fields=["player", "variant"], name="player_rating_unique")]
        indexes = [models.Index(fields=["club", "variant", "-rating"], name="playerrating_table")]


class RatingOutbox(models.Model):
    """A game whose standing for the ratings changed (it finished, or an `undo` reopened it) and
    that no task has handled yet. Written with the events; deleted by the task that handled it."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()  # the game's seq after the append that wrote the row
    created_at = models.DateTimeField()
    queued_at = models.DateTimeField(null=True, blank=True)  # last re-queued by a sweep

    class Meta:
        db_table = "games_ratingoutbox"  # the table it had under the games app (ratings/0001 moved only the state)
        indexes = [models.Index(fields=["game", "seq"], name="rating_outbox_game")]


class LeagueRules(models.Model):
    """A club's league rules (docs/ratings.md "League rules"). Read through
    `games.ratings.league_rules.rules_of`, which answers the defaults for a club without a row."""

    class LeadsWith(TextChoices):
        ELO = "elo", _("The Elo table (a win never loses rating)")
        PREDICTIVE = "predictive", _("The predictive rating (win chances, with its uncertainty)")

    club = models.OneToOneField("games.Club", on_delete=models.CASCADE, related_name="league_rules")
    # Which of the two tables its league page shows first (games.ratings.systems).
    leads_with = models.CharField(max_length=12, choices=LeadsWith.choices, default=LeadsWith.ELO)
    # The ranked part of the league tables (games.ratings.standing). Low defaults so that a new
    # club has a ranked table after its first evening.
    min_games = models.PositiveSmallIntegerField(
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(200)],
        help_text="rated games a player needs to be ranked",
    )
    inactive_days = models.PositiveSmallIntegerField(
        default=180,
        validators=[MaxValueValidator(3650)],
        help_text="a player whose last game is this many days older than the club's latest game is "
        "listed as inactive, unranked (0: never)",
    )
    season_start_month = models.PositiveSmallIntegerField(
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
        help_text="the month a season starts (the league's 'this season' period)",
    )
    # Whether the league rates the games an engine's bot played a seat of (an online table's bot
    # seats, the record's meta.bots: games.online); off, they are stored but not rated.
    rates_bot_games = models.BooleanField(default=False)
    # Whether a game played at a tournament table whose tournament scores by VP counts as its VP
    # say (the VP winner wins, equal VP a draw); off, as every game: the side with more points.
    follows_tournament_vp = models.BooleanField(default=False)

    class Meta:
        verbose_name_plural = "league rules"

    def __str__(self) -> str:
        return f"league rules of club {self.club_id}"
