"""Harnesses under atheris (libFuzzer's engine): `python -m fuzz.atheris_main HARNESS[,HARNESS...] [--work DIR]
[libFuzzer flags]`.

The modules a harness reads with (`Harness.reads`) are instrumented as they are imported, and no others. Its
corpus is WORK/corpus/HARNESS (where libFuzzer keeps the inputs it finds) then its seed corpus,
fuzz/corpus/HARNESS, read only (`playout-asan` also reads the inputs `playout` found); its crashes go to
WORK/crashes/HARNESS/. `-max_len` is the harness's bound unless given; the other flags are libFuzzer's
(`-atheris_runs=N`, `-seed=N`, `-timeout=S`). Several harnesses, comma-separated, are run one after another,
each in a process forked after the instrumentation (paid once): how the tests run them all quickly. `fuzz.run`
runs the campaign with this.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path

from .table import HARNESSES

HERE = Path(__file__).resolve().parent


def _module_names(package: str) -> list[str]:
    """Every module of `package` (itself included), found on disk: nothing is imported to find them."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return []
    if not spec.submodule_search_locations:
        return [package]
    names = [package]
    for folder in spec.submodule_search_locations:
        for path in sorted(Path(folder).rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            if parts and "__main__" not in parts:
                names.append(".".join((package, *parts)))
    return names


def _wanted(module: str, reads: set[str]) -> bool:
    return any(module == name or module.startswith(f"{name}.") for name in reads)


def instrument(reads: set[str]) -> None:
    """The modules of `reads` imported now, instrumented; every other module of their packages left alone."""
    import atheris

    packages = {name.split(".")[0] for name in reads}
    every = [module for package in sorted(packages) for module in _module_names(package)]
    left_out = [module for module in every if not _wanted(module, reads)]
    with atheris.instrument_imports(include=sorted(packages), exclude=left_out):
        for module in every:
            if _wanted(module, reads):
                try:
                    importlib.import_module(module)
                except ImportError:  # an optional extra's module (cluster, gym)
                    pass


def _run(name: str, argv: list[str], work: Path) -> None:
    import atheris

    harness = HARNESSES[name]
    corpus = work / "corpus" / name
    crashes = work / "crashes" / name
    corpus.mkdir(parents=True, exist_ok=True)
    crashes.mkdir(parents=True, exist_ok=True)
    flags = [arg for arg in argv if arg.startswith("-")]
    if not any(flag.startswith("-max_len=") for flag in flags):
        flags.insert(0, f"-max_len={harness.max_len}")
    if not any(flag.startswith("-artifact_prefix=") for flag in flags):
        flags.append(f"-artifact_prefix={crashes}{os.sep}")
    folders = [corpus] + ([work / "corpus" / "playout"] if harness.asan else []) + [HERE / "corpus" / harness.function]
    atheris.Setup([sys.argv[0], *flags, *(str(folder) for folder in folders if folder.is_dir())], harness.load())
    atheris.Fuzz()


def main(argv: list[str]) -> int:
    names = argv[1].split(",") if len(argv) > 1 else []
    if not names or any(name not in HARNESSES for name in names):
        sys.exit(
            f"usage: python -m fuzz.atheris_main HARNESS[,HARNESS...] [--work DIR] [libFuzzer flags]; "
            f"harnesses: {', '.join(HARNESSES)}"
        )
    rest = argv[2:]
    work = HERE / "work"
    if "--work" in rest:
        at = rest.index("--work")
        work = Path(rest[at + 1])
        del rest[at : at + 2]
    instrument({module for name in names for module in HARNESSES[name].reads})
    if len(names) == 1:
        _run(names[0], rest, work)
        return 0
    failed = 0
    for name in names:  # each in a process of its own: libFuzzer runs once a process
        sys.stdout.flush()
        sys.stderr.flush()
        child = os.fork()
        if child == 0:
            code = 70
            try:
                _run(name, rest, work)
            except SystemExit as done:  # atheris ends its run so (-atheris_runs): 0, or a crash's code
                code = done.code if isinstance(done.code, int) else 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        _, status = os.waitpid(child, 0)
        code = os.waitstatus_to_exitcode(status)
        print(f"fuzz: harness {name} exited {code}", file=sys.stderr, flush=True)
        failed += code != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
