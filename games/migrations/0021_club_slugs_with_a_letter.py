"""Every club's slug has a letter (docs/api.md), also the clubs stored before club_create checked it.

A slug without an ASCII letter (``123``, ``-1``, ``1-2``) is renamed ``club-<old slug>`` (cut to the
field's 100 characters), and ``club-<old slug>-2``, ``-3``... when that is taken; each rename is
printed. An all-digit slug never named its club in a path or ``?club=`` (a number is an id there,
``selectors.club_q``), so ``/api/clubs/<digits>/`` and ``/clubs/<digits>/`` keep naming the club
with that id, as before.

Reverse: a no-op. The new slugs are valid slugs for the code before this migration too, and a
club created since may have a slug ``club-<digits>`` of its own choosing, which no reverse could
tell from a renamed one.
"""

from django.db import migrations

MAX_LENGTH = 100  # Club.slug's max_length
PREFIX = "club-"


def has_letter(slug: str) -> bool:
    """games.clubs.services.club_create's rule, frozen here as this migration applies it."""
    return any(c.isascii() and c.isalpha() for c in slug)


def _free_slug(taken: set[str], old: str) -> str:
    base = (PREFIX + old)[:MAX_LENGTH]
    if base not in taken:
        return base
    n = 2
    while True:
        suffix = f"-{n}"
        candidate = base[: MAX_LENGTH - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        n += 1


def rename_letterless_slugs(apps, schema_editor):
    Club = apps.get_model("games", "Club")
    taken = set(Club.objects.values_list("slug", flat=True))
    for club in Club.objects.order_by("pk"):
        if has_letter(club.slug):
            continue
        new = _free_slug(taken, club.slug)
        print(f"  club {club.pk}: slug {club.slug!r} renamed {new!r} (a slug needs a letter)")
        taken.add(new)
        club.slug = new
        club.save(update_fields=["slug"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_club_time_zone"),
    ]

    operations = [
        migrations.RunPython(rename_letterless_slugs, migrations.RunPython.noop),
    ]
