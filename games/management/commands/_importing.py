"""What the import commands share (the leading underscore keeps this from being a command)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError

from games.importing import files_under
from games.models import Club


def club_by_slug(slug: str) -> Club:
    try:
        return Club.objects.get(slug=slug)
    except Club.DoesNotExist:
        raise CommandError(f"no club with slug {slug!r}") from None


def input_files(paths: list[str], suffix: str) -> list[Path]:
    try:
        return files_under(paths, suffix)
    except FileNotFoundError as exc:
        raise CommandError(str(exc)) from None
