"""`python -m fuzz`: the fuzzing campaign (`fuzz.run`)."""

import sys

from .run import main

sys.exit(main())
