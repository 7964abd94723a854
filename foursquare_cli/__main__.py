"""`python -m foursquare_cli` runs the same CLI as the `foursquare` command."""

from .cli import main

if __name__ == "__main__":
    main()
