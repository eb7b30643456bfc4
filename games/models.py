"""Storage for the event-sourced game records.

One stream per game: a `Game` row (the stream head: club, variant, options, seats, status, `seq`)
and its ordered `Event` rows, unique on (game, seq). Events are append-only: the migration
`0002_event_append_only` installs database triggers that refuse UPDATE, DELETE and TRUNCATE.
Rules live in `games.engine`; writes go through `games.services`, reads through `games.selectors`.
"""

from __future__ import annotations

from functools import cache
from zoneinfo import available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower, Trim
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.choices import TextChoices
from games.streams.models import JSONTextField, StreamEvent, StreamHead


@cache
def time_zone_names() -> tuple[str, ...]:
    """The IANA zone names this server knows (its tz database), sorted: a club's time zone."""
    return tuple(sorted(available_timezones()))


def validate_time_zone(value: str) -> None:
    if value not in time_zone_names():
        raise ValidationError(
            _(
                "“%(value)s” is not a time zone this site knows: give its IANA name, such as Europe/Berlin "
                "or America/New_York."
            ),
            code="invalid_time_zone",
            params={"value": value},
        )


def validate_club_slug(value: str) -> None:
    """A club's slug has an ASCII letter (docs/api.md): a number in a path, body or ``?club=``
    names a club by its id. The one home of the rule: the model field's validator (the Django
    admin's form, any ModelForm) and ``club_create`` (the API, the site's new-club page) call it."""
    if not any(c.isascii() and c.isalpha() for c in str(value)):
        raise ValidationError(_("a club's slug needs a letter: a number names a club by its id"), code="invalid_slug")


def default_time_zone() -> str:
    """The site's zone (settings.TIME_ZONE) for a club that has not said its own; UTC if that is
    not an IANA name (Django accepts no other, but a club must always have a valid one)."""
    return settings.TIME_ZONE if settings.TIME_ZONE in time_zone_names() else "UTC"


class Club(models.Model):
    class Visibility(TextChoices):
        PUBLIC = "public", _("Public: anyone may read its games")
        MEMBERS = "members", _("Members only")

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100, unique=True, validators=[validate_club_slug])

    class RevealHands(TextChoices):
        AFTER_HAND = "after_hand", _("Every hand is shown once it is over")
        AFTER_GAME = "after_game", _("The hands are shown once the game is over")

    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC)
    # When readers other than the club's scorers see the cards of a hand (games.visibility).
    reveal_hands = models.CharField(max_length=10, choices=RevealHands.choices, default=RevealHands.AFTER_HAND)

    # The league's rules are the ratings' (games.ratings.models.LeagueRules, one row per club).
    # Where the club plays: its evenings are local ones, from 06:00 to 06:00 the next morning
    # (games.ratings.evening; docs/ratings.md "Evenings").
    time_zone = models.CharField(
        max_length=64,
        default=default_time_zone,
        validators=[validate_time_zone],
        help_text="the IANA name of the club's time zone (its evenings are local ones)",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_public(self) -> bool:
        return self.visibility == self.Visibility.PUBLIC


class Player(models.Model):
    """A person at a club's tables, known by a display name unique within the club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "name"]
        # One name per person in a club, whatever its case and surrounding spaces ("anna" is
        # "Anna "): names are trimmed on input (games.clubs.services.clean_name) and the database
        # compares LOWER(TRIM(name)), as games.clubs.services.player_named does.
        constraints = [
            models.UniqueConstraint(models.F("club"), Lower(Trim("name")), name="player_unique_name_ci_per_club")
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(TextChoices):
        VIEWER = "viewer", _("Viewer")
        SCORER = "scorer", _("Scorer")
        ADMIN = "admin", _("Admin")

    WRITER_ROLES = (Role.SCORER, Role.ADMIN)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "user_id"]
        constraints = [models.UniqueConstraint(fields=["user", "club"], name="membership_unique_user_club")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


class Game(StreamHead):
    """A game's stream head (games.streams.models: `stream_id`, `seq`, the number of events
    stored, updated only under the row lock in the transaction that inserts the events)."""

    class Status(TextChoices):
        ACTIVE = "active", _("Active")
        FINISHED = "finished", _("Finished")
        # the record's source (a log, a score sheet) ended before the game did: nobody plays it
        # on (games.services.game_end)
        UNFINISHED = "unfinished", _("Unfinished")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="games")
    variant = models.CharField(max_length=30)
    # The options exactly as the record gave them; None when the record had no `options` key.
    options = models.JSONField(null=True, blank=True)
    # Other top-level keys of the record (`format`, `meta`), kept verbatim for an exact export;
    # plus OMITTED_EVENTS (never a record key) when an imported record had no `events` key.
    OMITTED_EVENTS = "_omitted_events"
    header = models.JSONField(default=dict, blank=True)
    players = models.ManyToManyField(Player, through="GameSeat", related_name="games")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the game was played: now for a game entered live (about its created_at), the date its
    # log or score sheet gives for an import (record meta.played_at). The ratings order by it.
    played_at = models.DateTimeField(default=timezone.now)
    # An imported game's content: the SHA-256 of its record as imported (canonical JSON), unique
    # per club, so that importing the same content again finds this game instead of storing a
    # copy (services.game_import). Null for games recorded event by event.
    import_hash = models.CharField(max_length=64, null=True, blank=True, editable=False)
    # The record's content whoever recorded it (variant, options, header less `format`, events; the
    # players are compared by name at the import): a chained SHA-256 that every write extends
    # (games.services.content), so that an import recognises a game recorded by appends.
    content_hash = models.CharField(max_length=64, null=True, blank=True, editable=False)
    # The stream head's last write (creation or append): `?updated_since=` of the game lists.
    updated_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["club", "-created_at"], name="game_club_created"),
            models.Index(fields=["club", "content_hash"], name="game_club_content"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "import_hash"],
                condition=models.Q(import_hash__isnull=False),
                name="game_unique_import_per_club",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.variant}, {self.club})"

    def save(self, *args, **kwargs) -> None:
        # a new game's content hash, whoever makes the row (services, a tournament's table games):
        # every append extends it (games.services.content); bulk_create callers set it themselves
        if self._state.adding and self.content_hash is None:
            from games.services.content import content_start  # services import the models

            self.content_hash = content_start(self.variant, self.options, self.header)
        super().save(*args, **kwargs)


class GameSeat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["game_id", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_per_game")]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.player}"


class Event(StreamEvent):
    """One stored event of a game (games.streams.models: `seq`, `type`, `payload`, `recorded_at`).

    Its primary key is (game, seq): no surrogate id, and one index, which serves every lookup by
    game (migration 0031, docs/speed.md "An archive's bytes"). The payload is compact JSON text.
    The table's columns are in the order of least alignment padding (0031 made it so)."""

    pk = models.CompositePrimaryKey("game", "seq")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    # Indexed only where set (migration 0018): it serves the PROTECT lookup of a user's events;
    # an imported event records no user, and an entry per such event would be read by nothing.
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+", db_index=False
    )
    payload = JSONTextField(default=dict)

    class Meta:
        ordering = ["game_id", "seq"]
        indexes = [
            models.Index(
                fields=["recorded_by"], name="event_recorded_by_set", condition=models.Q(recorded_by__isnull=False)
            )
        ]

    def save(self, *args, **kwargs) -> None:
        # A new event is an INSERT. With its key (game, seq) given, Django would first try an
        # UPDATE, which the app role may not run on this table (games/db_roles.py).
        if self._state.adding:
            kwargs.setdefault("force_insert", True)
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"


class IdempotencyKey(models.Model):
    """The first successful answer to a write sent with an `Idempotency-Key` header.

    Scoped by user (a key is the client's, not global) and stored in the same transaction as the
    write itself, so a key is remembered exactly when its write committed. `fingerprint` hashes
    method, path and body: the same key with another request is refused."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_user_key")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"


class ImportJob(models.Model):
    """One `import_bsw --workers` run into a club: how many files it holds and how many the workers
    have imported, skipped (already imported: same content hash) or failed. The club's imports page
    shows it; the command follows it. Counters move by F() updates, one per file, from any worker."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="import_jobs")
    files_total = models.PositiveIntegerField(default=0)
    files_done = models.PositiveIntegerField(default=0)
    files_skipped = models.PositiveIntegerField(default=0)
    files_failed = models.PositiveIntegerField(default=0)
    games_stored = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]

    @property
    def files_handled(self) -> int:
        return self.files_done + self.files_skipped + self.files_failed

    def __str__(self) -> str:
        return f"import {self.pk} into {self.club}: {self.files_handled}/{self.files_total}"


class ImportedFile(models.Model):
    """A log file whose games are stored in a club, by the SHA-256 of its bytes: written in the
    same transaction as the file's games, so a file is either imported with all its games or not
    at all, and a second import of the same content (another run, a redelivered task, a
    concurrent worker losing on the unique constraint) stores nothing."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="imported_files")
    sha256 = models.CharField(max_length=64)
    name = models.CharField(max_length=255)
    games_stored = models.PositiveIntegerField(default=0)
    # the report's hands_mended (games.importing): each hand repaired, kept as its score-sheet line
    # or skipped, with its line, its English reason and the rule and params the imports page words
    # it from in the page's language (games/engine/bsw_words.py)
    hands_mended = models.JSONField(default=list, blank=True)
    job = models.ForeignKey(ImportJob, null=True, blank=True, on_delete=models.SET_NULL, related_name="files")
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "sha256"], name="imported_file_unique_club_hash")]

    def __str__(self) -> str:
        return f"{self.name} ({self.sha256[:12]}) in {self.club_id}"
