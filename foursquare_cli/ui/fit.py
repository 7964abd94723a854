"""Lines that fit the terminal, and commands a player can paste: the one wrapper every text goes through at a
terminal (`fitted`), and how to name this tool in a command (`program_name`)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
import textwrap

_ESCAPES = re.compile(r"\x1b\[[0-9;]*m")
_SECOND_COLUMN = re.compile(r"\S( {2,})(?=\S)")
_KEPT_SPACE = "\0"  # a space inside a command to copy, while the line is broken


def program_name() -> str:
    """How to name this tool in a command a user will paste into the same shell.

    `foursquare` when that finds this very installation on the PATH; else the
    script as it was invoked, or `python -m foursquare_cli` with this interpreter.
    """
    bin_dir = os.path.dirname(os.path.abspath(sys.executable))
    found = shutil.which("foursquare")
    if found is not None and os.path.dirname(os.path.abspath(found)) == bin_dir:
        return "foursquare"
    invoked = sys.argv[0] if sys.argv else ""
    if os.path.basename(invoked) == "foursquare" and os.path.exists(invoked):
        return shlex.quote(invoked)
    return f"{shlex.quote(sys.executable)} -m foursquare_cli"


_WINDOWS_SPECIAL = set(" &|<>^\"%;,=()!$`'")


def shell_word(path: str, platform: str | None = None, shell: str | None = None) -> str:
    """A path as one word of the shell the user runs, to paste: on Windows in double quotes when it needs
    them (cmd's and PowerShell's); elsewhere `shlex`'s quoting, and a path with characters no terminal should
    be sent (a newline, bytes not UTF-8) in ANSI-C quotes (`$'a\nb'`: bash, zsh, ksh, and sh since POSIX
    2024), or for fish its own escapes; never anything that writes a control character to the screen."""
    platform = platform or sys.platform
    if platform == "win32":  # a Windows name holds no control character and no double quote
        return f'"{path}"' if not path or _WINDOWS_SPECIAL & set(path) else path
    if path.isprintable():
        return shlex.quote(path)
    shell = shell if shell is not None else os.environ.get("SHELL", "")
    escaped = "".join(
        chr(byte) if 32 <= byte < 127 and chr(byte) not in "\\'" else f"\\x{byte:02x}" for byte in os.fsencode(path)
    )
    if os.path.basename(shell) == "fish":  # fish takes \xHH outside quotes; quote the rest of its specials
        return "".join(ch if ch.isalnum() or ch in "/._-\\" else "\\" + ch for ch in escaped)
    return f"$'{escaped}'"


def fitted(text: str, width: int, program: str | None = None) -> str:
    """`text` with each line that passes `width` columns broken between words (never inside one), its
    continuation indented under the line's own text: after its first wide gap (a table's second column, as
    in `help` and the hint) when that is in the first half, else under its first word, two further in for an
    indented line (an item of a list, as `moves`': its rest is not read as the next item). Colour sequences
    take no width; a command to copy (`program play --resume FILE`, `program` as `program_name` says it) is
    never broken, but moved whole to the next line; a line that fits is left exactly as it is."""
    command = re.compile(rf"(?<!\S){re.escape(program or program_name())} [^;\n]*?(?=;| {{2,}}|\)|$)")
    lines = []
    for line in text.split("\n"):
        if len(_ESCAPES.sub("", line)) <= width:
            lines.append(line)
            continue
        gap = _SECOND_COLUMN.search(line)
        longest = max(len(word) for word in _ESCAPES.sub("", line).split())
        column = gap.end(1) if gap is not None else width
        indent = len(line) - len(line.lstrip(" "))
        if column > width // 2 or column + longest > width:  # no table's column: under the line's own text, and
            column = indent + 2 if indent and indent + 2 + longest <= width else indent  # an item's, further in
        hang = column
        kept = command.sub(lambda found: found.group(0).replace(" ", _KEPT_SPACE), line)
        broken = textwrap.fill(
            kept, width, subsequent_indent=" " * hang, break_long_words=False, break_on_hyphens=False
        )
        lines.append(broken.replace(_KEPT_SPACE, " "))
    return "\n".join(lines)
