"""A club's archive: everything of one club in one file, written by `export_club` and read by
`import_club` (and the club's export/import pages and API). docs/club-archive.md is the reader's
description; this module is the format's one home.

The file is gzip'd JSON lines. The first line names the format and its version, the last one
counts the rows of each kind (an archive cut short is refused), and every line between is one row
of one kind, in the order of KINDS (a row names only rows of kinds before it):

    {"format": "tichu-club-archive", "version": 1, "exported_at": "...", "club": "slug"}
    {"t": "user", "username": "ann", "email": ""}
    {"t": "club", "name": "...", "slug": "...", "visibility": "public", ...}
    {"t": "player", "id": 7, "name": "Ann", "user": "ann", "created_at": "..."}
    ...
    {"t": "end", "counts": {"user": 3, "club": 1, "player": 12, ...}}

A row carries its model's columns by field name, except its primary key (as "id", an archive-local
name that rows after it refer to), its club (the archive's one club) and the fresh values an
import draws anew (a stream's `stream_id`, the name caches know it by). A reference to a user is
the user's username; users travel as their username (and e-mail address only when the export
was asked for them), never with a password.

The import runs in one transaction: new primary keys, every reference mapped to them, the events
of games, tournaments and brackets inserted as recorded (seq, type, payload, who, when) through the
append-only tables' INSERT checks (games/migrations 0002, 0012, 0016; tournaments 0002, 0008),
each game's events folded by the engine first (an archive is input like any other). Ratings are
not carried: they are a fold of the games and are recomputed after the import (games.hooks.
club_imported; docs/ratings.md). Rows are inserted with the values as recorded (`raw`, as
`loaddata` inserts them: no `auto_now_add` overwrites a recorded time).
"""

from __future__ import annotations

import datetime
import gzip
import io
import json
import logging
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import DatabaseError, IntegrityError, models, router, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import hooks, sql
from games.bulk_store import fold_checked
from games.models import Club, Event, Game, GameSeat, ImportedFile, ImportJob, Membership, Player
from games.online.models import OnlineSettings
from games.services import InvalidInput, RuleViolation
from games.streams.models import JSONTextField
from games.tournaments.models import (
    Bracket,
    BracketEvent,
    EntryPin,
    League,
    LeagueEvent,
    Season,
    SeasonEvent,
    TableCode,
    TableCodeWrite,
    TableGame,
    Tournament,
    TournamentEvent,
)

from .models import AuditEntry, ClaimRequest, Invitation, new_token

logger = logging.getLogger(__name__)

FORMAT = "tichu-club-archive"
VERSION = 1
#: rows per INSERT statement (events, tournament events, seats)
BATCH = 500
#: the longest line an archive may have (a row; a game's longest is its header, a file's its mended hands)
MAX_LINE_CHARS = 8_000_000


class ArchiveError(InvalidInput):
    """An archive the import refuses (nothing is stored): `code` says why, the message in words."""


@dataclass(frozen=True)
class Kind:
    """One kind of row: its model, the club's rows of it in archive order, and which fields name
    rows of other kinds (field name -> kind; "user" is a username)."""

    name: str
    model: type[models.Model]
    rows: Callable[[Club], models.QuerySet]
    refs: dict[str, str] = field(default_factory=dict)
    #: fields not carried: drawn anew on import
    fresh: tuple[str, ...] = ()
    #: whether rows of other kinds name its rows (its lines carry "id"); a stream's events are
    #: named by (stream, seq)
    named: bool = True

    def fields(self) -> list[models.Field]:
        return [
            f
            for f in self.model._meta.concrete_fields
            if not f.primary_key and f.name not in self.fresh and not (f.name == "club" and self.name != "club")
        ]


#: every kind of the club's rows, in the archive's order: the records' own here, then those the
#: apps built on the records register (`register_kind`). A model of the club's data that is
#: neither here nor in NOT_CARRIED fails tests/clubs/test_archive.py.
KINDS: list[Kind] = [
    Kind("club", Club, lambda c: Club.objects.filter(pk=c.pk)),
    Kind("player", Player, lambda c: Player.objects.filter(club=c).order_by("pk"), {"user": "user"}),
    Kind("membership", Membership, lambda c: Membership.objects.filter(club=c).order_by("pk"), {"user": "user"}),
    Kind("import_job", ImportJob, lambda c: ImportJob.objects.filter(club=c).order_by("pk")),
    Kind(
        "imported_file",
        ImportedFile,
        lambda c: ImportedFile.objects.filter(club=c).order_by("pk"),
        {"job": "import_job"},
    ),
    Kind(
        "game", Game, lambda c: Game.objects.filter(club=c).order_by("pk"), {"created_by": "user"}, fresh=("stream_id",)
    ),
    Kind(
        "seat",
        GameSeat,
        lambda c: GameSeat.objects.filter(game__club=c).order_by("game_id", "seat"),
        {"game": "game", "player": "player"},
    ),
    Kind(
        "event",
        Event,
        lambda c: Event.objects.filter(game__club=c).order_by("game_id", "seq"),
        {"game": "game", "recorded_by": "user"},
        named=False,
    ),
    Kind(
        "tournament",
        Tournament,
        lambda c: Tournament.objects.filter(club=c).order_by("pk"),
        {"created_by": "user"},
        fresh=("stream_id",),
    ),
    Kind(
        "table_code",
        TableCode,
        lambda c: TableCode.objects.filter(tournament__club=c).order_by("pk"),
        {"tournament": "tournament", "created_by": "user"},
    ),
    # each entry's PIN for the evening (issue 33): a tournament in progress goes on with its slips
    Kind(
        "entry_pin",
        EntryPin,
        lambda c: EntryPin.objects.filter(tournament__club=c).order_by("pk"),
        {"tournament": "tournament"},
    ),
    Kind(
        "tournament_event",
        TournamentEvent,
        lambda c: TournamentEvent.objects.filter(tournament__club=c).order_by("tournament_id", "seq"),
        {"tournament": "tournament", "recorded_by": "user", "table_code": "table_code"},
        named=False,
    ),
    Kind(
        "table_game",
        TableGame,
        lambda c: TableGame.objects.filter(tournament__club=c).order_by("pk"),
        {"tournament": "tournament", "game": "game"},
    ),
    Kind(
        "table_code_write",
        TableCodeWrite,
        lambda c: TableCodeWrite.objects.filter(code__tournament__club=c).order_by("pk"),
        {"code": "table_code", "game": "game"},
    ),
    # a club's knockout brackets (issue 36): its seeding's roster ids mapped (_bracket_events)
    Kind(
        "bracket",
        Bracket,
        lambda c: Bracket.objects.filter(club=c).order_by("pk"),
        {"created_by": "user"},
        fresh=("stream_id",),
    ),
    Kind(
        "bracket_event",
        BracketEvent,
        lambda c: BracketEvent.objects.filter(bracket__club=c).order_by("bracket_id", "seq"),
        {"bracket": "bracket", "recorded_by": "user"},
        named=False,
    ),
    # a club's seasons (issue 36): a season's events name its evenings by tournament id, mapped
    # on import as a tournament event's players are (SEASON_ID_FIELDS)
    Kind(
        "season",
        Season,
        lambda c: Season.objects.filter(club=c).order_by("pk"),
        {"created_by": "user"},
        fresh=("stream_id",),
    ),
    Kind(
        "season_event",
        SeasonEvent,
        lambda c: SeasonEvent.objects.filter(season__club=c).order_by("season_id", "seq"),
        {"season": "season", "recorded_by": "user"},
        named=False,
    ),
    # a club's leagues (issue 36, item 2): the header's players and the results' games mapped
    Kind(
        "league",
        League,
        lambda c: League.objects.filter(club=c).order_by("pk"),
        {"created_by": "user"},
        fresh=("stream_id",),
    ),
    Kind(
        "league_event",
        LeagueEvent,
        lambda c: LeagueEvent.objects.filter(league__club=c).order_by("league_id", "seq"),
        {"league": "league", "recorded_by": "user"},
        named=False,
    ),
    Kind(
        "invitation",
        Invitation,
        lambda c: Invitation.objects.filter(club=c).order_by("pk"),
        {"player": "player", "created_by": "user", "accepted_by": "user"},
    ),
    Kind(
        "claim_request",
        ClaimRequest,
        lambda c: ClaimRequest.objects.filter(club=c).order_by("pk"),
        {"player": "player", "user": "user", "decided_by": "user"},
    ),
    Kind("audit_entry", AuditEntry, lambda c: AuditEntry.objects.filter(club=c).order_by("pk"), {"actor": "user"}),
    # the club's online settings (its tables' turn clock: games.online.turn_clock)
    Kind("online_settings", OnlineSettings, lambda c: OnlineSettings.objects.filter(club=c).order_by("pk")),
]
KIND = {k.name: k for k in KINDS}
#: the order of the lines: users first, then KINDS
ORDER = ["user", *KIND]


def register_kind(kind: Kind) -> Kind:
    """Carry a kind of the club's rows that an app built on the records keeps (the ratings' league
    rules: games.ratings.apps), after the records' own kinds; its rows name only the club. The app
    registers it in its `ready()`, so that the records import none of it."""
    if kind.name not in KIND:  # ready() may run twice (tests, reloads)
        KINDS.append(kind)
        KIND[kind.name] = kind
        ORDER.append(kind.name)
    return kind


#: models that hold a club's data but are not carried, and why (docs/club-archive.md)
NOT_CARRIED = {
    "GameOutcome": "a fold of the games: recomputed after the import",
    "RatingPool": "a fold of the games: recomputed after the import",
    "RatingChange": "a fold of the games: recomputed after the import",
    "PlayerRating": "a fold of the games: recomputed after the import",
    "RatingOutbox": "work in flight of the ratings: the import's recompute covers it",
    "IdempotencyKey": "a client's retry memory, kept per user, not per club",
    "OnlineTable": "a table in play (its game is carried): the undealt cards and seat links stay with this site",
    "OnlineSeat": "a table in play's seat links: secrets of this site, not carried to another",
    "FeedEntry": "news of this site, naming its ids: the feed starts afresh where the club is imported",
    "Webhook": "addresses and signing secrets: a secret is not put in a file; the admin registers them again",
    "WebhookDelivery": "the delivery log of this site's webhooks",
}

#: audit details that hold ids of the club's rows: key -> kind (a list of ids for "games")
AUDIT_ID_KEYS = {
    "player": "player",
    "source": "player",
    "target": "player",
    "invitation": "invitation",
    "claim": "claim_request",
    "games": "game",
}
#: tournament event fields that hold ids of the club's rows
TOURNAMENT_ID_FIELDS = {"players": "player", "game": "game"}
#: season event fields that hold ids of the club's rows (an evening: a tournament of the club)
SEASON_ID_FIELDS = {"tournament": "tournament"}


# --- export ------------------------------------------------------------------------------------


def _value(f: models.Field, value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def _user_names(club: Club) -> dict[int, str]:
    """The usernames of every user a row of the club names."""
    ids: set[int] = set()
    for kind in KINDS:
        for name, target in kind.refs.items():
            if target == "user":
                attname = kind.model._meta.get_field(name).attname
                ids.update(i for i in kind.rows(club).exclude(**{attname: None}).values_list(attname, flat=True))
    User = get_user_model()
    return dict(User._default_manager.filter(pk__in=ids).values_list("pk", User.USERNAME_FIELD))


def export_lines(club: Club, *, emails: bool = False) -> Iterator[dict]:
    """The archive's lines as dicts, header first and counts last (see the module)."""
    counts: dict[str, int] = {}
    yield {"format": FORMAT, "version": VERSION, "exported_at": timezone.now().isoformat(), "club": club.slug}
    usernames = _user_names(club)
    User = get_user_model()
    users = User._default_manager.filter(pk__in=usernames).order_by(User.USERNAME_FIELD)
    for user in users:
        line = {"t": "user", "username": usernames[user.pk]}
        if emails:
            line["email"] = user.email
        counts["user"] = counts.get("user", 0) + 1
        yield line
    for kind in KINDS:
        fields = kind.fields()
        for row in kind.rows(club).iterator(chunk_size=2000):
            line = {"t": kind.name, "id": row.pk} if kind.named else {"t": kind.name}
            for f in fields:
                value = getattr(row, f.attname)
                target = kind.refs.get(f.name)
                if target == "user":
                    value = usernames.get(value) if value is not None else None
                line[f.name] = _value(f, value)
            counts[kind.name] = counts.get(kind.name, 0) + 1
            yield line
    yield {"t": "end", "counts": counts}


def write_archive(club: Club, out: IO[bytes], *, emails: bool = False) -> dict[str, int]:
    """Write the club's archive to the binary stream `out` (gzip'd JSON lines). Returns the counts.
    Read in one transaction of one snapshot (games.sql.snapshot_reads), so that a game and its
    events are of the same moment; inside a caller's transaction, that one's."""
    counts: dict[str, int] = {}
    outermost = not transaction.get_connection().in_atomic_block
    with transaction.atomic(), gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz:
        if outermost:
            sql.snapshot_reads()
        for line in export_lines(club, emails=emails):
            if line.get("t") == "end":
                counts = line["counts"]
            gz.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")
    return counts


# --- import ------------------------------------------------------------------------------------


def _fail(code: str, message: str, **params: Any) -> ArchiveError:
    return ArchiveError(message, code=code, params=params)


def read_lines(data: IO[bytes]) -> Iterator[tuple[int, dict]]:
    """(line number, decoded object) of a gzip'd JSON lines archive; a file that is not one is
    refused as `not_an_archive`, a line that is not a JSON object as `malformed`."""
    try:
        stream = io.TextIOWrapper(gzip.GzipFile(fileobj=data, mode="rb"), encoding="utf-8")
        number = 0
        while text := stream.readline(MAX_LINE_CHARS + 1):
            number += 1
            if len(text) > MAX_LINE_CHARS:
                raise _fail(
                    "malformed",
                    _("line %(line)s of the archive is longer than %(chars)s characters")
                    % {"line": number, "chars": MAX_LINE_CHARS},
                    line=number,
                )
            try:
                line = json.loads(text)
            except ValueError:
                raise _fail(
                    "malformed", _("line %(line)s of the archive is not JSON") % {"line": number}, line=number
                ) from None
            if not isinstance(line, dict):
                raise _fail(
                    "malformed", _("line %(line)s of the archive is not a JSON object") % {"line": number}, line=number
                )
            yield number, line
    except (OSError, EOFError, zlib.error, UnicodeDecodeError):
        raise _fail("not_an_archive", _("the file is not a club archive (gzip'd JSON lines)")) from None


@dataclass
class _Import:
    """The state of one import: the new primary key of every archive id, by kind."""

    slug: str | None
    #: who imports through the site or the API without being a site administrator (None: the
    #: command or a site administrator): such an import may name no other account of this site
    #: and must make its importer an admin of the club (may_import, docs/club-archive.md)
    importer: Any = None
    ids: dict[str, dict[Any, int]] = field(default_factory=lambda: {k: {} for k in ORDER})
    counts: dict[str, int] = field(default_factory=dict)
    club: Club | None = None
    player_names: dict[int, str] = field(default_factory=dict)
    #: per new game id: (seq, status, finished_at) as recorded, set once its events are in
    heads: dict[int, tuple[int, str, Any]] = field(default_factory=dict)
    users_created: list[str] = field(default_factory=list)


def _ref(state: _Import, kind: str, value: Any, number: int) -> int | None:
    if value is None:
        return None
    try:
        return state.ids[kind][value]
    except (KeyError, TypeError):
        raise _fail(
            "unknown_reference",
            _("line %(line)s names a %(kind)s %(value)s the archive does not hold")
            % {"line": number, "kind": kind, "value": str(value)[:40]},
            line=number,
            kind=kind,
        ) from None


def _instance(state: _Import, kind: Kind, line: dict, number: int, *, clean: bool = True) -> models.Model:
    values: dict[str, Any] = {}
    for f in kind.fields():
        if f.name not in line:
            raise _fail(
                "malformed",
                _("line %(line)s (%(kind)s) has no %(field)s") % {"line": number, "kind": kind.name, "field": f.name},
                line=number,
            )
        raw = line[f.name]
        if raw is None and not f.null:
            raise _fail(
                "malformed",
                _("line %(line)s (%(kind)s): %(field)s is not valid")
                % {"line": number, "kind": kind.name, "field": f.name},
                line=number,
            )
        target = kind.refs.get(f.name)
        if target is not None:
            values[f.attname] = _ref(state, target, raw, number)
        else:
            try:
                if isinstance(f, (models.JSONField, JSONTextField)):  # an event's payload is the latter
                    values[f.attname] = raw
                elif isinstance(raw, (dict, list)):  # no column but a JSON one holds an object or a list
                    raise ValidationError("not a value")
                else:
                    values[f.attname] = f.to_python(raw)
            except (ValidationError, TypeError, ValueError, OverflowError):
                raise _fail(
                    "malformed",
                    _("line %(line)s (%(kind)s): %(field)s is not valid")
                    % {"line": number, "kind": kind.name, "field": f.name},
                    line=number,
                ) from None
    if kind.name != "club" and any(f.name == "club" for f in kind.model._meta.concrete_fields):
        values["club_id"] = state.club.pk
    obj = kind.model(**values)
    if clean:
        exclude = [f.name for f in kind.model._meta.concrete_fields if f.is_relation] + ["id"]
        try:
            obj.clean_fields(exclude=exclude)
        except ValidationError as exc:
            fields = ", ".join(sorted(exc.message_dict))
            raise _fail(
                "malformed",
                _("line %(line)s (%(kind)s): %(fields)s not valid")
                % {"line": number, "kind": kind.name, "fields": fields},
                line=number,
            ) from None
    return obj


def _insert(model: type[models.Model], objs: list[models.Model], *, ids: bool) -> None:
    """INSERT the rows with their values as recorded (raw: no auto_now_add, as loaddata inserts),
    in batches; with `ids` the new primary keys are set on the objects."""
    if not objs:
        return
    using = router.db_for_write(model)
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    returning = model._meta.db_returning_fields if ids else None
    for first in range(0, len(objs), BATCH):
        part = objs[first : first + BATCH]
        rows = model._base_manager._insert(part, fields=fields, returning_fields=returning, raw=True, using=using)
        if ids:
            for obj, row in zip(part, rows):
                obj.pk = row[0]
                obj._state.adding, obj._state.db = False, using


def _user(state: _Import, line: dict, number: int) -> None:
    User = get_user_model()
    username, email = line.get("username"), line.get("email") or ""
    if not isinstance(username, str) or not isinstance(email, str):
        raise _fail("malformed", _("line %(line)s (user) has no username") % {"line": number}, line=number)
    try:
        User._meta.get_field(User.USERNAME_FIELD).clean(username, None)
        if email:
            validate_email(email)
    except ValidationError:
        raise _fail(
            "malformed", _("line %(line)s (user): the username or e-mail is not valid") % {"line": number}, line=number
        ) from None
    user = User._default_manager.filter(**{User.USERNAME_FIELD: username}).first()
    if user is not None and state.importer is not None and user.pk != state.importer.pk:
        raise _fail(
            "account_exists",
            _(
                "the archive names the account “%(username)s”, which is someone else's on "
                "this site: only a site administrator may import it"
            )
            % {"username": username},
            username=username,
        )
    if user is None:
        # no usable password: the person sets one by a password reset (docs/club-archive.md)
        user = User(**{User.USERNAME_FIELD: username}, email=email)
        user.set_unusable_password()
        user.save()
        state.users_created.append(username)
    state.ids["user"][username] = user.pk


def _club(state: _Import, line: dict, number: int) -> None:
    if state.slug:
        line = {**line, "slug": state.slug}
    club = _instance(state, KIND["club"], line, number)
    if Club.objects.filter(slug=club.slug).exists():
        raise _fail(
            "club_exists",
            _(
                "a club with the slug “%(slug)s” exists here already: import it under another "
                "slug (--slug, or the form's slug field)"
            )
            % {"slug": club.slug},
            slug=club.slug,
        )
    _insert(Club, [club], ids=True)
    state.club = club
    state.ids["club"][line.get("id")] = club.pk


def _rows(state: _Import, kind: Kind, lines: list[tuple[int, dict]]) -> None:
    """Insert one kind's rows (all but the streams' events and the club)."""
    objs = []
    for number, line in lines:
        obj = _instance(state, kind, line, number)
        _adjust(state, kind, obj, line, number)
        objs.append(obj)
    _insert(kind.model, objs, ids=True)
    for (number, line), obj in zip(lines, objs):
        if "id" in line:
            if line["id"] in state.ids[kind.name]:
                raise _fail(
                    "malformed",
                    _("line %(line)s: a second %(kind)s %(id)s")
                    % {"line": number, "kind": kind.name, "id": str(line["id"])[:40]},
                    line=number,
                )
            state.ids[kind.name][line["id"]] = obj.pk
        if kind.name == "player":
            state.player_names[obj.pk] = obj.name


def _adjust(state: _Import, kind: Kind, obj: models.Model, line: dict, number: int) -> None:
    """What a row needs beyond its mapped references."""
    if kind.name == "game":
        # the stream head is inserted empty (the seq triggers), moved once its events are in
        state.heads[id(obj)] = (obj.seq, obj.status, obj.finished_at)
        obj.seq, obj.status, obj.finished_at = 0, Game.Status.ACTIVE, None
    elif kind.name == "table_code" and TableCode.objects.filter(code=obj.code).exists():
        from games.tournaments.table_codes import new_code

        obj.code = new_code()  # a code is unique on the site: one taken here is drawn anew
    elif kind.name == "invitation" and Invitation.objects.filter(token=obj.token).exists():
        obj.token = new_token()
    elif kind.name == "audit_entry":
        obj.details = _mapped_details(state, obj.details)
    elif kind.name == "league":
        obj.header = _mapped_league_header(state, obj.header, number)


def _mapped_league_header(state: _Import, header: Any, number: int) -> Any:
    """A league header's entries with their players' ids of the club mapped (a name stays)."""
    entries = header.get("entries") if isinstance(header, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise _fail(
            "malformed", _("line %(line)s: a league's header lists its entries") % {"line": number}, line=number
        )
    mapped = [_mapped_tournament_payload(state, e, number) for e in entries]
    return {**header, "entries": mapped}


def _mapped_details(state: _Import, details: Any) -> Any:
    """An audit entry's details with the ids of the club's rows mapped (an id the archive does not
    hold, such as a merged-away player's, becomes null)."""
    if not isinstance(details, dict):
        return details
    out = dict(details)
    for key, kind in AUDIT_ID_KEYS.items():
        if key not in out:
            continue
        value = out[key]
        if isinstance(value, list):
            out[key] = [state.ids[kind].get(v) if isinstance(v, int) else v for v in value]
        elif isinstance(value, int) and not isinstance(value, bool):
            out[key] = state.ids[kind].get(value)
    return out


def _mapped_tournament_payload(state: _Import, payload: Any, number: int) -> Any:
    """A tournament event's ids of the club's players and games, mapped (an entry's players by id;
    a result's game, when it is a game of the club: a string is an imported event's own link)."""
    if not isinstance(payload, dict):
        raise _fail("malformed", _("line %(line)s: a payload is a JSON object") % {"line": number}, line=number)
    out = dict(payload)
    players = out.get("players")
    if isinstance(players, list):
        out["players"] = [
            _ref(state, "player", p, number) if isinstance(p, int) and not isinstance(p, bool) else p for p in players
        ]
    game = out.get("game")
    if isinstance(game, int) and not isinstance(game, bool):
        out["game"] = _ref(state, "game", game, number)
    return out


def _mapped_bracket_payload(state: _Import, payload: Any, number: int) -> Any:
    """A bracket event's roster ids mapped: the players of each entry its seeding names (a name
    stays a name)."""
    if not isinstance(payload, dict):
        raise _fail("malformed", _("line %(line)s: a payload is a JSON object") % {"line": number}, line=number)
    out = dict(payload)
    entries = out.get("entries")
    if isinstance(entries, list):
        mapped = []
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("players"), list):
                entry = {
                    **entry,
                    "players": [
                        _ref(state, "player", p, number) if isinstance(p, int) and not isinstance(p, bool) else p
                        for p in entry["players"]
                    ],
                }
            mapped.append(entry)
        out["entries"] = mapped
    return out


def _bracket_events(state: _Import, lines: list[tuple[int, dict]]) -> None:
    kind = KIND["bracket_event"]
    objs = []
    for number, line in lines:
        obj = _instance(state, kind, line, number)
        obj.payload = _mapped_bracket_payload(state, obj.payload, number)
        objs.append(obj)
    _insert(BracketEvent, objs, ids=False)


def _game_events(state: _Import, game_ref: Any, lines: list[tuple[int, dict]]) -> None:
    """One game's events: folded by the engine as a record (a stream the engine refuses is refused
    here), inserted as recorded, then the game's head moved to them."""
    number = lines[0][0]
    game_id = _ref(state, "game", game_ref, number) if game_ref is not None else None
    if game_id is None:
        raise _fail(
            "malformed",
            _("line %(line)s (%(kind)s): %(field)s is not valid") % {"line": number, "kind": "event", "field": "game"},
            line=number,
        )
    game = Game.objects.get(pk=game_id)
    seats = list(GameSeat.objects.filter(game=game).order_by("seat").values_list("player_id", flat=True))
    kind = KIND["event"]
    objs = [_instance(state, kind, line, n, clean=False) for n, line in lines]
    for expected, obj in enumerate(objs, start=1):
        if obj.seq != expected or not isinstance(obj.type, str) or not isinstance(obj.payload, dict):
            raise _fail(
                "malformed",
                _("game %(game)s: its events are not seq 1, 2, ... with a type and a payload") % {"game": game_ref},
                game=game_ref,
            )
    _check_fold(state, game, game_ref, seats, objs)
    sql.insert_recorded_events([(game_id, e.seq, e.type, e.payload, e.recorded_by_id, e.recorded_at) for e in objs])
    seq, status, finished_at = state.heads.pop(game_id)
    if seq != len(objs):
        raise _fail(
            "malformed",
            _("game %(game)s says seq %(seq)s but the archive holds %(events)s of its events")
            % {"game": game_ref, "seq": seq, "events": len(objs)},
            game=game_ref,
        )
    Game.objects.filter(pk=game_id).update(seq=seq, status=status, finished_at=finished_at)


def _check_fold(state: _Import, game: Game, game_ref: Any, seats: list[int], events: list[Event]) -> None:
    if not isinstance(game.header, dict):  # a changed file: refused with its code, never a crash
        raise _fail(
            "malformed", _("game %(game)s: its header is not a JSON object") % {"game": game_ref}, game=game_ref
        )
    record = {k: v for k, v in game.header.items() if k != Game.OMITTED_EVENTS}
    record["variant"] = game.variant
    if game.options is not None:
        record["options"] = game.options
    record["players"] = [state.player_names[p] for p in seats]
    record["events"] = [e.as_record_event() for e in events]
    try:
        checked = fold_checked(record)
    except RuleViolation as exc:
        raise _fail(
            "game_refused",
            _("game %(game)s: event %(index)s is refused by the rules: %(reason)s")
            % {"game": game_ref, "index": exc.index, "reason": exc.message},
            game=game_ref,
            index=exc.index,
        ) from None
    except InvalidInput as exc:
        raise _fail(
            "game_refused",
            _("game %(game)s is not a valid record: %(reason)s") % {"game": game_ref, "reason": exc.message},
            game=game_ref,
        ) from None
    over = checked.state.is_over
    if over != (state.heads[game.pk][1] == Game.Status.FINISHED):
        raise _fail(
            "game_refused",
            _("game %(game)s: its status is not what its events say") % {"game": game_ref},
            game=game_ref,
        )


def _league_events(state: _Import, lines: list[tuple[int, dict]]) -> None:
    kind = KIND["league_event"]
    objs = []
    for number, line in lines:
        obj = _instance(state, kind, line, number)
        obj.payload = _mapped_tournament_payload(state, obj.payload, number)  # a result's game
        objs.append(obj)
    _insert(LeagueEvent, objs, ids=False)


def _tournament_events(state: _Import, lines: list[tuple[int, dict]]) -> None:
    kind = KIND["tournament_event"]
    objs = []
    for number, line in lines:
        obj = _instance(state, kind, line, number)
        obj.payload = _mapped_tournament_payload(state, obj.payload, number)
        objs.append(obj)
    _insert(TournamentEvent, objs, ids=False)


def _season_events(state: _Import, lines: list[tuple[int, dict]]) -> None:
    """A season's events as recorded, each evening's tournament id mapped to the copy's (an id the
    archive does not hold is refused: a season's evenings are the club's own tournaments)."""
    kind = KIND["season_event"]
    objs = []
    for number, line in lines:
        obj = _instance(state, kind, line, number)
        if not isinstance(obj.payload, dict):
            raise _fail("malformed", _("line %(line)s: a payload is a JSON object") % {"line": number}, line=number)
        payload = dict(obj.payload)
        for key, target in SEASON_ID_FIELDS.items():
            value = payload.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                payload[key] = _ref(state, target, value, number)
        obj.payload = payload
        objs.append(obj)
    _insert(SeasonEvent, objs, ids=False)


class _Reader:
    """Reads the archive's lines in order, inserting each kind's rows as its lines end."""

    def __init__(self, state: _Import) -> None:
        self.state = state
        self.kind: str | None = None
        self.buffer: list[tuple[int, dict]] = []
        self.stream: Any = None  # the game (or tournament) whose events are being read

    def feed(self, number: int, line: dict) -> None:
        t = line.get("t")
        if t not in ORDER:
            raise _fail(
                "malformed", _("line %(line)s is of no kind this version knows") % {"line": number}, line=number
            )
        if self.kind is not None and ORDER.index(t) < ORDER.index(self.kind):
            raise _fail(
                "malformed",
                _("line %(line)s (%(kind)s) comes after the %(after)s lines")
                % {"line": number, "kind": t, "after": self.kind},
                line=number,
            )
        if t == "club" and self.state.club is not None:
            raise _fail("malformed", _("an archive holds one club"), line=number)
        if t not in ("user", "club") and self.state.club is None:
            raise _fail("malformed", _("line %(line)s comes before the club's line") % {"line": number}, line=number)
        if t in KIND and KIND[t].named and (not isinstance(line.get("id"), int) or isinstance(line.get("id"), bool)):
            raise _fail(
                "malformed",
                _("line %(line)s (%(kind)s): %(field)s is not valid") % {"line": number, "kind": t, "field": "id"},
                line=number,
            )
        self.state.counts[t] = self.state.counts.get(t, 0) + 1
        if t != self.kind:
            self.flush()
            self.kind = t
        if t == "user":
            _user(self.state, line, number)
        elif t == "club":
            _club(self.state, line, number)
        elif t == "event":
            if line.get("game") != self.stream and self.buffer:
                self.flush()
            self.stream = line.get("game")
            self.buffer.append((number, line))
        else:
            self.buffer.append((number, line))
            if len(self.buffer) >= BATCH and t != "game":  # games: their heads are kept until their events
                self.flush()

    def flush(self) -> None:
        if not self.buffer:
            return
        lines, self.buffer = self.buffer, []
        if self.kind == "event":
            _game_events(self.state, self.stream, lines)
        elif self.kind == "tournament_event":
            _tournament_events(self.state, lines)
        elif self.kind == "bracket_event":
            _bracket_events(self.state, lines)
        elif self.kind == "season_event":
            _season_events(self.state, lines)
        elif self.kind == "league_event":
            _league_events(self.state, lines)
        elif self.kind == "game":
            objs = [_instance(self.state, KIND["game"], line, n) for n, line in lines]
            for obj in objs:
                _adjust(self.state, KIND["game"], obj, {}, 0)
            _insert(Game, objs, ids=True)
            for (number, line), obj in zip(lines, objs):
                self.state.heads[obj.pk] = self.state.heads.pop(id(obj))
                if line.get("id") in self.state.ids["game"]:
                    raise _fail(
                        "malformed",
                        _("line %(line)s: a second game %(id)s") % {"line": number, "id": str(line.get("id"))[:40]},
                        line=number,
                    )
                self.state.ids["game"][line.get("id")] = obj.pk
        else:
            _rows(self.state, KIND[self.kind], lines)


@dataclass(frozen=True)
class Imported:
    club: Club
    counts: dict[str, int]
    users_created: list[str]
    #: archive id -> new id, per kind (the round-trip test compares rows through it)
    ids: dict[str, dict[Any, int]]


def import_archive(data: IO[bytes], *, slug: str | None = None, importer=None) -> Imported:
    """Read an archive (a binary stream) into a new club, in one transaction: all or nothing.
    Raises ArchiveError (a code and words) for an archive it refuses. The club's ratings are
    recomputed after the commit (games.hooks.club_imported). `importer`: a member of the club who
    is no site administrator (importer_for), held to what such an import may do."""
    state = _Import(slug=slug, importer=importer)
    lines = read_lines(data)
    try:
        with transaction.atomic():
            first = next(lines, None)
            if first is None:
                raise _fail("not_an_archive", _("the archive is empty"))
            _check_header(first[1])
            reader = _Reader(state)
            end = None
            for number, line in lines:
                if end is not None:
                    raise _fail(
                        "malformed", _("line %(line)s comes after the end line") % {"line": number}, line=number
                    )
                if line.get("t") == "end":
                    reader.flush()
                    end = line
                    continue
                reader.feed(number, line)
            if end is None or state.club is None:
                raise _fail("truncated", _("the archive is cut short: it has no end line"))
            counts = end.get("counts")
            if counts != state.counts:
                raise _fail("truncated", _("the archive's rows are not the ones its end line counts"))
            if any(seq or status != Game.Status.ACTIVE for seq, status, _at in state.heads.values()):
                raise _fail("malformed", _("a game of the archive says it has events but the archive holds none"))
            _check_tournaments(state)
            _check_seasons(state)
            _check_leagues(state)
            _check_importer(state)
            club_id = state.club.pk
            transaction.on_commit(lambda: _ratings_after_import(club_id))
    except IntegrityError as exc:
        raise _fail(
            "inconsistent",
            _("the archive's rows do not fit together: %(reason)s") % {"reason": str(exc).splitlines()[0][:200]},
        ) from None
    except (DatabaseError, OverflowError) as exc:  # OverflowError: SQLite's driver, a number past 64 bits
        raise _fail(
            "inconsistent",
            _("the archive's rows cannot be stored: %(reason)s")
            % {"reason": str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__},
        ) from None
    return Imported(club=state.club, counts=state.counts, users_created=state.users_created, ids=state.ids)


def _ratings_after_import(club_id: int) -> None:
    """Queue the imported club's ratings (a fold of its games) after the commit. The import stands
    even if the broker is down: the error is logged with the command that catches up."""
    try:
        hooks.club_imported.send(club_id)
    except Exception:  # noqa: BLE001 - the import is committed; never turn it into a 500
        logger.exception(
            "club %s: ratings recompute not queued after an import; run manage.py recompute_ratings --club %s --refold",
            club_id,
            club_id,
        )


def _check_header(header: dict) -> None:
    if header.get("format") != FORMAT:
        raise _fail(
            "not_an_archive",
            _("the file is not a club archive (its first line names no %(format)s)") % {"format": FORMAT},
        )
    if header.get("version") != VERSION:
        raise _fail(
            "unknown_version",
            _("the archive is of version %(version)s; this site reads version %(known)s")
            % {"version": str(header.get("version"))[:20], "known": VERSION},
            version=header.get("version"),
            known=VERSION,
        )


def _check_tournaments(state: _Import) -> None:
    """Each tournament's stream folds as the tournament core folds it, and its seq is its events'."""
    from games.tournament import TournamentError
    from games.tournaments import selectors as tournament_selectors

    for tournament in Tournament.objects.filter(club=state.club):
        events = TournamentEvent.objects.filter(tournament=tournament).count()
        if events != tournament.seq:
            raise _fail(
                "malformed",
                _("a tournament says seq %(seq)s but the archive holds %(events)s of its events")
                % {"seq": tournament.seq, "events": events},
            )
        try:
            tournament_selectors.state_at(tournament)
        except TournamentError as exc:
            raise _fail(
                "tournament_refused",
                _("the tournament “%(name)s” does not fold: %(reason)s")
                % {"name": tournament.name, "reason": str(exc)[:200]},
            ) from None


def _check_seasons(state: _Import) -> None:
    """Each season's header is one the season core gives (parse_season_header's own output, as
    the site stores it), its stream folds as the core folds it, and its seq is its events'."""
    from games.tournament import TournamentError, fold_season, parse_season_header

    for season in Season.objects.filter(club=state.club):
        events = [e.as_record_event() for e in SeasonEvent.objects.filter(season=season).order_by("seq")]
        if len(events) != season.seq:
            raise _fail(
                "malformed",
                _("a season says seq %(seq)s but the archive holds %(events)s of its events")
                % {"seq": season.seq, "events": len(events)},
            )
        try:
            if parse_season_header(season.header) != season.header:
                raise TournamentError("malformed", "the header is not as the season core gives it")
            fold_season({"header": season.header, "events": events})
        except TournamentError as exc:
            raise _fail(
                "season_refused",
                _("the season “%(name)s” does not fold: %(reason)s") % {"name": season.name, "reason": str(exc)[:200]},
            ) from None


def _check_leagues(state: _Import) -> None:
    """Each league's header and stream fold as the site folds them (its results' games read from
    the copy's games), and its seq is its events'."""
    from games.tournament import TournamentError
    from games.tournaments import leagues

    for league in League.objects.filter(club=state.club):
        events = [e.as_record_event() for e in LeagueEvent.objects.filter(league=league).order_by("seq")]
        if len(events) != league.seq:
            raise _fail(
                "malformed",
                _("a league says seq %(seq)s but the archive holds %(events)s of its events")
                % {"seq": league.seq, "events": len(events)},
            )
        try:
            leagues.fold(league)
        except TournamentError as exc:
            raise _fail(
                "league_refused",
                _("the league “%(name)s” does not fold: %(reason)s") % {"name": league.name, "reason": str(exc)[:200]},
            ) from None


def max_upload_bytes() -> int:
    """The largest archive the site's and the API's import take (compressed bytes); the command
    takes any. TICHU_CLUB_ARCHIVE_MAX_BYTES, 100 MiB by default."""
    return int(getattr(settings, "TICHU_CLUB_ARCHIVE_MAX_BYTES", 100 * 2**20))


def may_import(user) -> bool:
    """Who may import a club through the site or the API: anyone signed in. An archive names
    accounts by username and an import makes them members and the recorders of its events, so a
    signed-in user who is no site administrator imports only a club they are an admin of, whose
    other accounts are new to this site (a club moving to its own server): importer_for."""
    return bool(getattr(user, "is_authenticated", False))


def importer_for(user):
    """The `importer` import_archive holds to those rules: None for a site administrator."""
    return None if getattr(user, "is_superuser", False) else user


def _check_importer(state: _Import) -> None:
    if state.importer is None:
        return
    if not Membership.objects.filter(club=state.club, user_id=state.importer.pk, role=Membership.Role.ADMIN).exists():
        raise _fail(
            "not_the_clubs_admin",
            _(
                "the archive's club does not have you as an admin: an admin of the club "
                "imports it under their own username, or a site administrator does"
            ),
        )


def spooled_archive(club: Club) -> IO[bytes]:
    """The club's archive (without e-mail addresses) in a temporary file, at its start: what the
    site's and the API's export send."""
    out = tempfile.SpooledTemporaryFile(max_size=8 * 2**20)
    write_archive(club, out)
    out.seek(0)
    return out


def spooled_upload(stream: IO[bytes], limit: int | None = None) -> IO[bytes]:
    """An uploaded archive copied into a temporary file, refused (`archive_too_large`) past
    `limit` bytes (max_upload_bytes)."""
    limit = max_upload_bytes() if limit is None else limit
    out = tempfile.SpooledTemporaryFile(max_size=8 * 2**20)
    size = 0
    while chunk := stream.read(2**16):
        size += len(chunk)
        if size > limit:
            raise _fail(
                "archive_too_large",
                _("the archive is larger than %(limit)s bytes: import it with manage.py import_club")
                % {"limit": limit},
                limit=limit,
            )
        out.write(chunk)
    out.seek(0)
    return out


def archive_name(club: Club, when: datetime.datetime | None = None) -> str:
    """The file name the site gives a club's archive."""
    when = when or timezone.now()
    return f"{club.slug}-{when:%Y%m%d-%H%M%S}.tichu-club.jsonl.gz"
