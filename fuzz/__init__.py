"""Coverage-guided fuzzing of the tool's readers with atheris (libFuzzer's engine for Python): docs/development.md,
"Fuzzing". `python -m fuzz` runs the campaign; `fuzz.harnesses` holds one harness a reader."""
