"""The one thing pyproject.toml cannot say: the greedy playout's C version, optional.

Without a C compiler the install still succeeds, and the playouts run in Python
(`foursquare_cli.rules.playout.ACCELERATED` is then False; docs/figures.md).
`FOURSQUARE_REQUIRE_C=1` makes a failed C build an error instead: the binary wheels
are built so (pyproject.toml, `[tool.cibuildwheel]`), so none ships without it.
"""

import os
import pathlib
import runpy

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The C playout reads the grid's tables from the same Python module as the engine: written here, at build time.
_rules = pathlib.Path(__file__).resolve().parent / "foursquare_cli" / "rules"
_header = runpy.run_path(str(_rules / "tables.py"))["c_header"]()
if not (_rules / "_tables.h").exists() or (_rules / "_tables.h").read_text() != _header:
    (_rules / "_tables.h").write_text(_header)


class BuildPlayouts(build_ext):
    """Build the C playouts, or leave none: a module an earlier build left in `build/` (or in the tree) never
    stands in for this one, so a wheel built without a compiler says "playouts in Python", truly."""

    def run(self) -> None:
        for extension in self.extensions:
            stale = self.get_ext_fullpath(extension.name)
            if os.path.exists(stale):
                os.remove(stale)
        super().run()


setup(
    ext_modules=[
        Extension(
            "foursquare_cli.rules._playout",
            ["foursquare_cli/rules/_playout.c"],
            optional=os.environ.get("FOURSQUARE_REQUIRE_C") != "1",
        ),
    ],
    cmdclass={"build_ext": BuildPlayouts},
)
