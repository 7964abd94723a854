"""The C playouts built under AddressSanitizer, for the `playout` harness: `python -m fuzz.build_asan`.

Compiles foursquare_cli/rules/_playout.c (with the `_tables.h` the install wrote beside it) with
`-fsanitize=address` into fuzz/.build/, and says how the harness loads it: with the compiler's `libasan`
preloaded (`LD_PRELOAD`: Python itself is not built with it) and `FOURSQUARE_FUZZ_PLAYOUT` naming the module.
gcc instruments for AddressSanitizer but not for libFuzzer's coverage (`-fsanitize=fuzzer-no-link` is
clang's), and the preloaded libasan answers libFuzzer's coverage calls itself (atheris warns of it), so under
ASan the harness runs blind: `fuzz.run` gives it the inputs the guided `playout` harness found.
`asan_environment()` says why not where there is no compiler, no libasan, or no `_tables.h` (a tree never
installed).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "foursquare_cli" / "rules" / "_playout.c"
BUILD = Path(__file__).resolve().parent / ".build"
ASAN_OPTIONS = "detect_leaks=0:abort_on_error=1:symbolize=1:allocator_may_return_null=1"


def _library(compiler: str, name: str) -> str | None:
    """The path of the compiler's library `name` (`gcc -print-file-name`), or None."""
    try:
        found = subprocess.run(
            [compiler, f"-print-file-name={name}"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return os.path.realpath(found) if os.path.isabs(found) and os.path.exists(found) else None


def build() -> tuple[Path, str] | str:
    """(the module built, the libraries to preload), or why it could not be built. libasan first (it must come
    first), then libstdc++: atheris ends a run by throwing a C++ exception, and libasan's hook for `__cxa_throw`
    finds no real one to call unless libstdc++ was loaded before it looked."""
    compiler = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")
    if compiler is None:
        return "no C compiler"
    if not (SOURCE.parent / "_tables.h").exists():
        return "no _tables.h beside _playout.c (install the package first: pip install -e .)"
    libasan, libstdcxx = _library(compiler, "libasan.so"), _library(compiler, "libstdc++.so.6")
    if libasan is None or libstdcxx is None:
        return f"{compiler} has no libasan.so (or libstdc++.so.6)"
    BUILD.mkdir(exist_ok=True)
    target = BUILD / f"_playout{sysconfig.get_config_var('EXT_SUFFIX')}"
    command = [
        compiler,
        "-shared",
        "-fPIC",
        "-O1",
        "-g",
        "-fsanitize=address",
        "-fno-omit-frame-pointer",
        f"-I{sysconfig.get_paths()['include']}",
        f"-I{SOURCE.parent}",
        str(SOURCE),
        "-o",
        str(target),
    ]
    if not target.exists() or target.stat().st_mtime < SOURCE.stat().st_mtime:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            return f"the build failed: {done.stderr.strip()[:500]}"
    return target, f"{libasan} {libstdcxx}"


def asan_environment() -> dict[str, str] | str:
    """The environment variables that make the `playout` harness fuzz the ASan build; or why there is none."""
    built = build()
    if isinstance(built, str):
        return built
    target, preload = built
    return {"LD_PRELOAD": preload, "ASAN_OPTIONS": ASAN_OPTIONS, "FOURSQUARE_FUZZ_PLAYOUT": str(target)}


if __name__ == "__main__":
    found = asan_environment()
    if isinstance(found, str):
        sys.exit(f"no ASan build: {found}")
    print(" ".join(f"{key}={value}" for key, value in found.items()))
