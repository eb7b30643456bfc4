"""``@interpreted_class``: a class that the compiled build (``mypyc_build.py``) keeps a Python class.

mypyc compiles a class with no decorator, or only ``@dataclass``/``@final``/``@trait``/``@mypyc_attr``,
to a native class: fixed attributes, single inheritance, no attribute or method patched at run
time. Any other class decorator makes it build an ordinary Python class whose methods are still
compiled. The fold's state classes need that: :class:`~.state.GameState` joins the phase classes
by multiple inheritance, and its dispatch tables are set on the class after it is made. A
decorator of the engine's own, not ``mypy_extensions.mypyc_attr(native_class=False)``: the engine
imports nothing outside the standard library (tests/engine/test_purity.py).
"""

from __future__ import annotations

from typing import TypeVar

C = TypeVar("C", bound=type)


def interpreted_class(cls: C) -> C:
    return cls
