"""Keys for the caches that every session of a server shares (``st.cache_data``/``st.cache_resource``).

A shared cache hands one visitor's value to another whose key is equal, so a key must name
everything its value is made of, and two different inputs must never give the same key. Joining
texts with a separator is not enough ("x\\ty" as one reference cell and "x", "y" as two columns
join alike), so ``digest`` hashes a length-prefixed encoding: every string, number and container
carries its type and length, and no two different values encode alike.
"""
from __future__ import annotations

import hashlib
import struct


def digest(*parts) -> str:
    """SHA-256 (hex) of ``parts`` under an unambiguous encoding. Parts may be None, bool, int,
    float, str, bytes, and lists, tuples and dicts of these (dicts in their order: a different
    order is a different value, as the order of systems is)."""
    h = hashlib.sha256()
    _feed(h, parts)
    return h.hexdigest()


def _feed(h, value) -> None:
    if value is None:
        h.update(b"N")
    elif isinstance(value, bool):  # (before int: True is an int)
        h.update(b"T" if value else b"F")
    elif isinstance(value, int):
        text = str(value).encode()
        h.update(b"I%d:" % len(text) + text)
    elif isinstance(value, float):
        h.update(b"R" + struct.pack("<d", value))
    elif isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
        h.update(b"S%d:" % len(data))
        h.update(data)
    elif isinstance(value, bytes):
        h.update(b"B%d:" % len(value))
        h.update(value)
    elif isinstance(value, (list, tuple)):
        h.update(b"L%d:" % len(value))
        if value and all(type(v) is str for v in value):  # the usual case (a file's lines): one update
            encoded = [v.encode("utf-8", "surrogatepass") for v in value]
            h.update(b"".join(b"S%d:" % len(e) + e for e in encoded))
        else:
            for item in value:
                _feed(h, item)
    elif isinstance(value, dict):
        h.update(b"D%d:" % len(value))
        for key, item in value.items():
            _feed(h, key)
            _feed(h, item)
    else:
        raise TypeError(f"cannot key a cache by a {type(value).__name__}")
