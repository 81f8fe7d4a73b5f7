"""Opaque cursors for pages of a ranked search.

A search ranks its whole pool deterministically, so a page is an offset into that
ranking. The cursor carries the offset and a fingerprint of the structured request, so
a cursor sent with another search is refused instead of silently paging through the
wrong list. Writes between two pages may shift the ranking (as with any offset paging).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json

from talentrag.errors import MalformedRequest


def request_fingerprint(request_json: str) -> str:
    """A short, stable digest of the structured request (without page size or cursor)."""
    return hashlib.sha256(request_json.encode()).hexdigest()[:16]


def encode_cursor(offset: int, fingerprint: str) -> str:
    """The cursor of the page starting at ``offset``."""
    payload = json.dumps({"offset": offset, "search": fingerprint}, separators=(",", ":"))
    return base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, fingerprint: str) -> int:
    """The offset a cursor points to; ``MalformedRequest`` when forged or from another search."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        payload = json.loads(base64.urlsafe_b64decode(padded))
        offset, search = int(payload["offset"]), str(payload["search"])
    except (binascii.Error, ValueError, KeyError, TypeError) as exc:
        raise MalformedRequest(
            "cursor is not valid; pass the next_cursor of the previous page"
        ) from exc
    if offset < 0 or search != fingerprint:
        raise MalformedRequest(
            "cursor belongs to another search; send it with the same skills, levels, "
            "years and exclusions as the page that returned it"
        )
    return offset
