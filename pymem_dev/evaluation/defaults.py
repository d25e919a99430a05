"""The defaults of `pymem eval` that its command line shows, in a module that imports nothing heavy: the
`pymem` parser is built on every command (`pymem serve` too), and importing golden, run and calibration for
these five values cost about 40 ms of every start."""

from __future__ import annotations

from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]
# where `pymem eval --fit-relevance` writes the fitted relevance model (pymem_dev.evaluation.calibration)
COEFFICIENTS_FILE = _CHECKOUT / "sql" / "functions" / "113-relevance-coefficients.sql"
DEFAULT_CACHE = _CHECKOUT / "eval" / ".cache"  # the embedding cache (pymem_dev.evaluation.run)
DEFAULT_DATABASE = "pymem_eval"  # the scratch database (pymem_dev.scratch), dropped and re-created per run
# The "nothing found" thresholds of the hallucination check (pymem_dev.evaluation.golden): a result counts as an
# answer when its semantic score (cosine similarity) reaches MIN_SEMANTIC -- in every mode that has a query
# embedding, since RRF scores are ranks and say nothing about relevance -- or, in keyword mode, when its keyword
# score reaches MIN_KEYWORD.
MIN_SEMANTIC = 0.35
MIN_KEYWORD = 0.5
