"""How a record writes its whole numbers (the seed, the score, the counts): as plain decimal digits, or `0x` and hex
digits. Other forms YAML takes mean different numbers to different readers (`024` is 20 to a YAML 1.1 reader and
24 to a 1.2 one; `1:30`, `0b101`, `1_000` are numbers to 1.1 alone), so a record that uses one is refused by name,
never read one way here and another elsewhere."""

from __future__ import annotations

import re

from .safe_yaml import Node, ScalarNode

PLAIN_NUMBER = re.compile(r"0|[1-9][0-9]*|0x[0-9a-fA-F]+")


def capital_x(value: object) -> str:
    """A word on a seed written `0X5c`: the command line takes it from a person, but to YAML it is text (hex is
    `0x`, a small x, in YAML 1.1 and 1.2 alike), so a record that has it is refused, and told why."""
    if isinstance(value, str) and re.fullmatch(r"0X[0-9a-fA-F]+", value.strip()):
        return f" (hex is written 0x, a small x: 0x{value.strip()[2:]})"
    return ""


def number_form(written: str) -> str:
    if ":" in written:
        return "base 60"
    if "_" in written:
        return "digits with underscores"
    if written.lower().startswith(("0b", "+0b")):
        return "binary"
    if written.startswith("+"):
        return "a plus sign"
    if written.startswith("0"):
        return "a leading 0 means octal"
    return "not plain decimal"


def not_plain(key: str, node: Node) -> str | None:
    """Why a whole number of the record (a score, a count) written other than as a seed is (plain decimal digits,
    or 0x hex) is refused, or None: `024` is 20 to a YAML 1.1 reader and 24 to a 1.2 one, and a sign on a count
    (`-0`) is no form a writer of records uses; a seed's rule, so every number of a record reads alike."""
    written = node.value if isinstance(node, ScalarNode) else ""
    if written.startswith(("-", "+")):
        return f"{key}: {written[:40]} is written with a sign; write it in decimal digits"
    if PLAIN_NUMBER.fullmatch(written):
        return None
    return (
        f"{key}: {written[:40]} is a YAML 1.1 number form ({number_form(written)}) that readers disagree on; "
        "write it in decimal digits"
    )
