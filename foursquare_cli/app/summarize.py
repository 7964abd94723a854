"""`summarize`: what one run over the union of results files prints (shards, machines or runs of one plan)."""

from __future__ import annotations

from ..runs.compare import Comparison
from ..runs.results import merged
from ..runs.run import merged_summary
from ..runs.stats import Summary


def summarized(files: list[str]) -> Summary | Comparison:
    return merged_summary(merged(files))
