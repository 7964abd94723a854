"""`python -m foursquare_cli` runs the same CLI as the `foursquare` command (whose entry point is `run`).

The CLI is imported only when this module runs as the program, never when it is imported: a worker process
started with `spawn` imports the program's main module again (as `__mp_main__`), and so pays only for what
its games need, not for typer and every command.
"""


def run() -> None:
    """The `foursquare` command."""
    from .cli import main  # start-up of a worker: see the module's docstring

    main()


if __name__ == "__main__":
    run()
