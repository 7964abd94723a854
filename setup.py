"""The one thing pyproject.toml cannot say: the greedy playout's C version, optional.

Without a C compiler the install still succeeds, and the playouts run in Python
(`foursquare_cli.rules.playout.ACCELERATED` is then False; docs/figures.md).
"""

import pathlib
import runpy

from setuptools import Extension, setup

# The C playout reads the grid's tables from the same Python module as the engine: written here, at build time.
_rules = pathlib.Path(__file__).resolve().parent / "foursquare_cli" / "rules"
_header = runpy.run_path(str(_rules / "tables.py"))["c_header"]()
if not (_rules / "_tables.h").exists() or (_rules / "_tables.h").read_text() != _header:
    (_rules / "_tables.h").write_text(_header)

setup(
    ext_modules=[
        Extension("foursquare_cli.rules._playout", ["foursquare_cli/rules/_playout.c"], optional=True),
    ]
)
