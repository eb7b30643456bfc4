"""The one per-process LRU of the site: live engine states and stored events (games.snapshots), a
game's replay frames (replay.data). Small, thread-safe, in memory only."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any


class LocalLru:
    """At most `size` entries; the least recently used goes first. `get` returns None when absent
    (so None is never stored)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()

    def __len__(self) -> int:
        with self.lock:
            return len(self.items)
