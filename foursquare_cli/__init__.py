"""foursquare: a command-line tool for the one-player card game Foursquare."""

__version__ = "0.1.0"
