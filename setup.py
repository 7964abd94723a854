"""The one thing pyproject.toml cannot say: the greedy playout's C version, optional.

Without a C compiler the install still succeeds, and the playouts run in Python
(`foursquare_cli.rules.playout.ACCELERATED` is then False; docs/figures.md).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("foursquare_cli.rules._playout", ["foursquare_cli/rules/_playout.c"], optional=True),
    ]
)
