def finish(
    stock: bytes, drawn: int, occupied: int, down: int, ranks: bytes, heights: bytes, fill_first: bool = False, /
) -> tuple[int, int, int, int]: ...
def deal(seen: bytes, unseen: bytes, key: int, /) -> bytes: ...
def safe_ranks(occupied: int, down: int, ranks: bytes, heights: bytes, /) -> int: ...
def futures(
    seen: bytes,
    unseen: bytes,
    seed: int,
    first: int,
    count: int,
    starts: bytes,
    fill_first: bool,
    won_worth: bytes,
    lost_worth: bytes,
    /,
) -> bytes: ...
def reply(
    occupied: int,
    down: int,
    drawn: int,
    ranks: bytes,
    heights: bytes,
    hand: int,
    unseen: bytes,
    playouts: int,
    fill_first: bool,
    won_worth: bytes,
    lost_worth: bytes,
    second: int,
    second_playouts: int,
    /,
) -> tuple[float, float, float]: ...
