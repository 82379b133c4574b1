"""Sets of small integers as the bits of a Python int (peg solitaire's boards, the strips
family's sets of facts and of actions)."""
from __future__ import annotations

from typing import Iterable, Iterator


def mask_of(indices: Iterable[int]) -> int:
    """The mask with the bits ``indices`` set: linear in the mask's size (or-ing the bits one by
    one into a big int copies it every time: minutes on a board of a million holes)."""
    indices = list(indices)
    if not indices:
        return 0
    raw = bytearray(max(indices) // 8 + 1)
    for i in indices:
        raw[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(raw, "little")


def bits(mask: int) -> Iterator[int]:
    """The positions of the bits set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
