"""Storage for tournaments: the stream head, its events, and the link from a table to its game.

Rules (what an event may do, standings, pairings) live in `games.tournament`; writes go through
`games.tournaments.services`, reads through `games.tournaments.selectors`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.choices import TextChoices
from games.models import Club, Game
from games.streams.models import StreamEvent, StreamHead


class Tournament(StreamHead):
    """A tournament's stream head (games.streams.models: `stream_id`, `seq`, the number of events
    stored, moved only under the row lock in the transaction that inserts the events) and its
    header (system, scoring, rounds, ...)."""

    class Status(TextChoices):
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=100)
    # The header exactly as the core's parse_header normalised it (docs/tournament.md).
    header = models.JSONField()
    # The game every table plays (an engine variant) and extra engine options the TD chose; the
    # scoring preset's options (games.tournament.engine_options) are added when a game is made.
    variant = models.CharField(max_length=30, default="nanking")
    game_options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    # Set when the tournament was imported from a results file (games.tournaments.results_import):
    # where and when it was held, the links to each table's game record there, and the
    # performance ratings computed there. Empty for a tournament run here.
    source = models.JSONField(default=dict, blank=True)
    # Duplicate: the secret the boards' deals are drawn from (games.tournament.duplicate.board_deal),
    # kept out of the header, which anyone who can read the tournament sees; only the TD's board
    # sheets and the tables' games (one board at a time) reveal the deals.
    board_secret = models.CharField(max_length=64, blank=True, default="")
    # An imported tournament's content: the SHA-256 of the file as imported (canonical JSON,
    # games.services.import_hash), unique per club, so that importing the same file again answers
    # with this tournament instead of making a copy (results_import). Null for one run here.
    import_hash = models.CharField(max_length=64, null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "import_hash"],
                condition=models.Q(import_hash__isnull=False),
                name="tournament_unique_import_per_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"


class TournamentEvent(StreamEvent):
    """One stored tournament event (games.streams.models: 1-based `seq`, `type`, `payload` without
    its type, `recorded_at`)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="events", db_index=False)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Set when the event was written with a table code (the opponents' confirmation, a result
    # taken from the table's game); recorded_by is then empty.
    table_code = models.ForeignKey("TableCode", null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["tournament_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="tournament_event_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}#{self.seq} {self.type}"


class ClubStreamHead(StreamHead):
    """The head of a club's own stream (a season, a bracket, a league: games.tournaments.club_streams
    writes and reads them all): its name, its header exactly as the kind's core parse normalised
    it, who created it and when. Each kind adds its `club` (its own related name, `club.seasons`:
    a "%(class)s" pattern here would be a migration of its own)."""

    club: models.ForeignKey
    name = models.CharField(max_length=100)
    header = models.JSONField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"


class ClubStreamEvent(StreamEvent):
    """One stored event of a club's own stream (games.streams.models: 1-based `seq`, `type`,
    `payload` without its type, `recorded_at`; append-only in the database, as a tournament's events
    are) and who recorded it. Each kind adds its foreign key to its head, named `HEAD` (`season`),
    with its ordering and its unique (head, seq)."""

    HEAD = ""

    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.HEAD} {getattr(self, self.HEAD + '_id')}#{self.seq} {self.type}"


class Season(ClubStreamHead):
    """A club's season (docs/tournament.md, "Seasons"): a series of the club's tournaments scored
    into one table. Its stream (SeasonEvent: evening_added / evening_removed, each with its reason)
    says which evenings count; the table is a fold of that stream and of the evenings' own records
    (games.tournaments.seasons), never stored. Its header is parse_season_header's."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="seasons")


class SeasonEvent(ClubStreamEvent):
    """One stored season event."""

    HEAD = "season"

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="events", db_index=False)

    class Meta:
        ordering = ["season_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["season", "seq"], name="season_event_unique_seq"),
        ]


class Bracket(ClubStreamHead):
    """A club's knockout bracket (docs/tournament.md, "Knockout brackets"): single elimination, best
    of N. Its stream (BracketEvent: bracket_seeded once, then match_result / match_corrected) is
    folded by the core (games.tournament.bracket); who meets whom is never stored. Its header is
    parse_bracket_header's."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="brackets")


class BracketEvent(ClubStreamEvent):
    """One stored bracket event."""

    HEAD = "bracket"

    bracket = models.ForeignKey(Bracket, on_delete=models.PROTECT, related_name="events", db_index=False)

    class Meta:
        ordering = ["bracket_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["bracket", "seq"], name="bracket_event_unique_seq"),
        ]


class League(ClubStreamHead):
    """A club's league (docs/tournament.md, "Leagues"): entries, matches and legs fixed in advance
    by its header (parse_league_header's; the fixtures are a fold of it, never stored). Its stream
    (LeagueEvent: match_result, match_corrected with its reason, match_scheduled) holds the results;
    the table is a fold of the two (games.tournaments.leagues)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="leagues")


class LeagueEvent(ClubStreamEvent):
    """One stored league event."""

    HEAD = "league"

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="events", db_index=False)

    class Meta:
        ordering = ["league_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["league", "seq"], name="league_event_unique_seq"),
        ]


class TableGame(models.Model):
    """The game a table of a round plays. A row is written once, when the round's games are made
    (a table re-seated by an override gets a new row: the newest is the table's game)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="table_games")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="tournament_table")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "round", "table", "-id"]
        indexes = [models.Index(fields=["tournament", "round", "table"], name="tablegame_round_table")]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.round} table {self.table}: game {self.game_id}"


class TableCode(models.Model):
    """A table's code for the evening (one table card): whoever holds it may record that table's
    current game (its TableGame of the newest round), nothing else, until the tournament finishes
    or the TD revokes it (`ended_at`, with `end_reason`). Written when the first round with a game
    at the table is made (`round`: the round it was first used in); a reissue ends the old code and
    writes a new row. See games.tournaments.table_codes."""

    class Ended(TextChoices):
        REVOKED = "revoked", "Revoked by the TD"
        REISSUED = "reissued", "Replaced by a new code"
        ROUND_CLOSED = "round_closed", "The round closed"  # codes made before they outlived their round
        FINISHED = "finished", "The tournament finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="table_codes")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    # The code as typed (normalised: upper case, no separator); random from table_codes.ALPHABET.
    code = models.CharField(max_length=16, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=20, choices=Ended.choices, blank=True)
    # Each side's PIN (side 0 North/South, side 1 East/West), on its own slip of the table card:
    # the table's result is sent by one side and confirmed by the other, each with its PIN, so the
    # phone that holds the code cannot both send and confirm (issue 30, finding 5).
    ns_pin = models.CharField(max_length=8, blank=True, default="")
    ew_pin = models.CharField(max_length=8, blank=True, default="")

    class Meta:
        ordering = ["tournament_id", "round", "table", "-id"]
        indexes = [models.Index(fields=["tournament", "round", "table"], name="tablecode_round_table")]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.round} table {self.table}: {self.code}"


class TableCodeWrite(models.Model):
    """An append made with a table code: events `first_seq`..`last_seq` of `game` (their
    `recorded_by` is empty). Written in the append's transaction, never changed by the app."""

    code = models.ForeignKey(TableCode, on_delete=models.PROTECT, related_name="writes")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="+")
    first_seq = models.PositiveIntegerField()
    last_seq = models.PositiveIntegerField()
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "first_seq"]
        indexes = [models.Index(fields=["game", "first_seq"], name="tablecodewrite_game_seq")]

    def __str__(self) -> str:
        return f"game {self.game_id} events {self.first_seq}-{self.last_seq} by code {self.code_id}"


class EntryPin(models.Model):
    """An entry's PIN for the evening (a pair's, or a player's in an individual tournament), on
    the entry's own slip (issue 33): the side that sends a table's result, and the side that
    answers it, each type a PIN of an entry sitting on that side of the table this round, so the
    PINs follow the entries from table to table. Drawn once per entry, when the entry's first
    round's tables are made or its slip is printed, never changed by the app. A tournament
    without any (made before issue 33) keeps its table codes' per-side PINs (TableCode.ns_pin)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entry_pins")
    # the core's entry id (games.tournament.state.Entry.id)
    entry = models.TextField()
    # as typed (normalised: upper case, no separator); random from table_codes.ALPHABET
    pin = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "entry"], name="entrypin_one_per_entry"),
            # a PIN names one entry of its tournament
            models.UniqueConstraint(fields=["tournament", "pin"], name="entrypin_unique_in_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} entry {self.entry}: PIN"
