"""Django's TextChoices, as the type checker should read them.

Django ships no type information and the project does not use django-stubs (pyproject.toml,
[tool.mypy]), so mypy would read a member written ``FINISHED = "finished", _("Finished")`` as the
tuple it is written as, where Django's metaclass makes it a str enum member whose value is
"finished". For mypy, TextChoices is a str Enum with Django's extra attributes; at run time it is
Django's own class, unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import enum
    from typing import ClassVar

    class TextChoices(str, enum.Enum):
        _value_: str
        label: str
        choices: ClassVar[list[tuple[str, str]]]
        labels: ClassVar[list[str]]
        values: ClassVar[list[str]]
        names: ClassVar[list[str]]

else:
    from django.db.models import TextChoices

__all__ = ["TextChoices"]
