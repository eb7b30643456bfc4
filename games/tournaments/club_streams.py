"""A club's own streams, written and read one way: a season, a bracket and a league are each a head
(games.tournaments.models.ClubStreamHead: club, name, header, who created it) and its events
(ClubStreamEvent), and each is created, locked for its writer, appended to, read and listed here,
by a `ClubStreamKind` that says what is the kind's own: its models, its core's header parse and
fold, the club checks of an event before the core sees it, and its words.

Writes go through the one stream store (games.streams: `with_idempotency` for a create,
`append_batch` for an append: the head row locked, `expected_seq`, Idempotency-Key, all of the
batch or nothing); each appended batch is folded by the kind's core on top of the stored stream
first, event by event, so a refused event stores nothing and answers with the core's code (or
the kind's own check's). Who may read one: anyone, in a public club; a member, otherwise. Who may
write: the club's scorers and admins. Nothing folded is stored (the kind's modules fold to read).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar

from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from games import ids
from games import selectors as game_selectors
from games.models import Club, Membership
from games.services import WriteForbidden
from games.streams.append import append_batch
from games.streams.checks import check_storable
from games.streams.errors import InvalidInput, SeqConflict
from games.streams.idempotency import fingerprint, with_idempotency
from games.streams.results import WriteResult
from games.tournaments.models import ClubStreamEvent, ClubStreamHead
from games.tournaments.services import TournamentNotFound, _core_call

Head = TypeVar("Head", bound=ClubStreamHead)

#: the most events one append may carry, for every kind
MAX_BATCH = 50
#: the longest name a head may have (ClubStreamHead.name)
NAME_LENGTH = 100


class ClubStreamNotFound(TournamentNotFound):
    """No such season, bracket or league, or one the user may not see (404)."""


class ClubStreamSeqConflict(SeqConflict):
    """`expected_seq` is not the head's current seq (409), in its kind's words."""

    def __init__(self, expected_seq: int, current_seq: int, words: str) -> None:
        super().__init__(expected_seq, current_seq)
        self.message = _(words) % {"expected": expected_seq, "current": current_seq}
        self.args = (self.message,)


@dataclass(frozen=True)
class ClubStreamWords:
    """A kind's refusals, each an English msgid marked with gettext_noop where the kind is
    declared (so each kind keeps its own sentence, translated when it is said)."""

    name: str  # "a season's name is a non-empty string of at most 100 characters"
    what: str  # "the season": what check_storable names
    not_found: str  # "no such season"
    writer: str  # "running a season needs the scorer or admin role in club '%(club)s'"
    seq_conflict: str  # "expected_seq is %(expected)s but the season is at seq %(current)s"


@dataclass(frozen=True)
class ClubStreamKind(Generic[Head]):
    """What a kind of club stream is made of. `parse` is its core's header parse (it raises the
    core's TournamentError), `fold` its core's fold of a record (a state with `apply(event)`),
    `prepare(head, event, index)` its checks of an event against the database (the club's
    tournaments, roster, games) before the core sees it, giving the event to fold and store.
    `fold_head(head, batch)`, for a kind whose fold reads the club's rows its events name (a
    league's matches from their games), is the site's fold of the stored stream with the rows of
    the stored events and of `batch` read; without it the core's `fold` of the record."""

    model: type[Head]
    event_model: type[ClubStreamEvent]
    parse: Callable[[dict], dict]
    fold: Callable[[dict], Any]
    words: ClubStreamWords
    prepare: Callable[[Head, dict, int], dict] | None = None
    fold_head: Callable[[Head, list[dict]], Any] | None = None

    @property
    def noun(self) -> str:
        """The kind's name in operations and fingerprints (`season_append`) and its event's head field."""
        return self.event_model.HEAD

    # --- writes ----------------------------------------------------------------------------------

    def create(self, *, club: Club, name: Any, header: Any, user, idempotency_key: str | None = None) -> WriteResult:
        """A new head of `club` (the caller checked the user is a scorer or admin there); the header
        is checked and normalised by the core's parse, named by `name` unless it has a name."""
        if not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH:
            raise InvalidInput(_(self.words.name))
        if not isinstance(header, dict):
            raise InvalidInput(_("header must be an object"), code="malformed")
        check_storable([name, header], self.words.what)
        parsed = _core_call(self.parse, {**header, "name": header.get("name") or name.strip()})

        def write() -> dict:
            head = self.model.objects.create(club=club, name=name.strip(), header=parsed, created_by=user)
            return body(head)

        printed = (
            fingerprint(f"{self.noun}_create", club=club.pk, name=name, header=header)
            if idempotency_key is not None
            else ""
        )
        return with_idempotency(user=user, key=idempotency_key, fingerprint=printed, write=write)

    def check_writer(self, user, head: Head) -> None:
        """Refuse (403) a user who is not a scorer or admin of the head's club."""
        if game_selectors.membership_role(user, head.club) not in Membership.WRITER_ROLES:
            raise WriteForbidden(_(self.words.writer) % {"club": head.club.slug})

    def lock_for_writer(self, pk: int, user) -> Head:
        """The head row, locked, for a writer: 404 when there is none the user may read, 403 when
        the user may read it but not write it."""
        rows = self.model.objects.select_related("club").filter(pk=pk if ids.in_range(pk) else 0)
        head = (
            rows.select_for_update(of=("self",)).first()
            if transaction.get_connection().features.has_select_for_update_of
            else rows.select_for_update().first()
        )
        if head is None or not may_read(user, head):
            raise ClubStreamNotFound(_(self.words.not_found))
        self.check_writer(user, head)
        return head

    def seq_conflict(self, expected_seq: int, current_seq: int) -> SeqConflict:
        return ClubStreamSeqConflict(expected_seq, current_seq, self.words.seq_conflict)

    def append(
        self, *, pk: int, events: Any, expected_seq: int, user, idempotency_key: str | None = None
    ) -> WriteResult:
        """Append a batch of events atomically, each checked by the kind (`prepare`) and by the
        core's fold of the stored stream first."""

        def write(head: Head, batch: list[dict]) -> dict[str, Any]:
            # the stored stream was checked when appended
            state = self.fold_head(head, batch) if self.fold_head is not None else self.fold(self.record(head))
            batch = list(batch)  # the caller's list stays as it was given
            for i, event in enumerate(batch):
                if self.prepare is not None:
                    batch[i] = event = self.prepare(head, event, i)
                _core_call(state.apply, event, index=i)
            start = head.seq
            who = user if user is not None and user.is_authenticated else None
            self.event_model.objects.bulk_create(
                self.event_model(
                    **{self.noun: head},
                    seq=start + i + 1,
                    type=e["type"],
                    payload={k: v for k, v in e.items() if k != "type"},
                    recorded_by=who,
                )
                for i, e in enumerate(batch)
            )
            head.seq = start + len(batch)
            head.save(update_fields=["seq"])
            return {**body(head), "appended": len(batch), "first_seq": start + 1}

        return append_batch(
            events=events,
            limit=MAX_BATCH,
            operation=f"{self.noun}_append",
            stream={self.noun: pk},
            expected_seq=expected_seq,
            user=user,
            idempotency_key=idempotency_key,
            lock=lambda: self.lock_for_writer(pk, user),
            conflict=self.seq_conflict,
            write=write,
        )

    # --- reads -----------------------------------------------------------------------------------

    def get(self, user, pk: int, exc: Callable[[str], Exception] = Http404) -> Head:
        """The head `pk` if the user may see its club, else `exc` (Http404, or a service's 404)."""
        head = (
            self.model.objects.filter(pk=pk, club__in=game_selectors.clubs_visible(user)).select_related("club").first()
            if ids.in_range(pk)
            else None
        )
        if head is None:
            raise exc(f"no such {self.noun}")
        return head

    def of_club(self, club: Club) -> QuerySet[Head]:
        """The club's heads of this kind, the newest first."""
        return self.model.objects.filter(club=club).order_by("-created_at", "-id")

    def record(self, head: Head) -> dict:
        """The head and its stream as the core's record (its header carries its format,
        `tichu-season/1`, as the core normalised it)."""
        rows = self.event_model.objects.filter(**{self.noun: head}).order_by("seq").only("type", "payload")
        events = [r.as_record_event() for r in rows]
        return {"format": head.header["format"], "header": head.header, "events": events}


def body(head: ClubStreamHead) -> dict[str, Any]:
    """What a write answers of its head."""
    return {"id": head.pk, "seq": head.seq}


def may_read(user, head: ClubStreamHead) -> bool:
    """Anyone may read a public club's season, bracket or league; a member, a members-only club's."""
    return head.club.is_public or game_selectors.membership_role(user, head.club) is not None
