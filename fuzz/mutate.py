"""Inputs made without atheris: the seed corpus mutated by `random.Random(seed)` (bytes flipped, cut, put in,
copied from another input), so that the harnesses prove something where atheris is not installed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"

TOKENS: tuple[bytes, ...] = (
    b"\n",
    b": ",
    b"- ",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b'"',
    b"'",
    b"&a ",
    b"*a",
    b"!!",
    b"#",
    b"\x1e",
    b"=",
)
TOKENS += (b"0", b"-1", b"40", b"1e999", b"null", b"true", b"top", b"shift ", b"undo", b"\xff", b"\r", b"\x00")


def seeds(harness: str) -> list[bytes]:
    """The seed corpus of `harness` (fuzz/corpus/HARNESS/), in name order."""
    folder = CORPUS / harness
    return [path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()] if folder.is_dir() else []


def mutated(data: bytes, others: list[bytes], rng: random.Random, max_len: int) -> bytes:
    """`data` with one to four changes: a bit flipped, a byte set, a piece cut out or cut off, a token or
    random bytes put in, a piece of another input spliced in; at most `max_len` bytes."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(out))
        kind = rng.randrange(7)
        if kind == 0 and out:
            at = min(at, len(out) - 1)
            out[at] ^= 1 << rng.randrange(8)
        elif kind == 1 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif kind == 2:
            del out[at : at + rng.randint(1, 16)]
        elif kind == 3:
            del out[at:]
        elif kind == 4:
            out[at:at] = rng.choice(TOKENS)
        elif kind == 5:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif others:
            other = rng.choice(others)
            start = rng.randint(0, len(other))
            out[at:at] = other[start : start + rng.randint(1, 64)]
    return bytes(out[:max_len])


def inputs(harness: str, count: int, seed: int, max_len: int, pool: list[bytes] | None = None) -> Iterator[bytes]:
    """`pool` (by default the seed corpus of `harness`), then `count` mutations of it, each of an input of the pool
    or of an earlier mutation, drawn from `random.Random` seeded with the harness's name and `seed`."""
    rng = random.Random(f"{harness}:{seed}")
    made = list(pool if pool is not None else seeds(harness)) or [b""]
    yield from made
    for _ in range(count):
        data = mutated(rng.choice(made), made, rng, max_len)
        made.append(data)
        yield data
