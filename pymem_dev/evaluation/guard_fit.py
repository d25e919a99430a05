"""Fit the guard model of consolidation (pymem_private.guard_models) and write sql/functions/119-guard-model.sql.

A logistic regression over an episode's MiniLM embedding: injection (1) against benign (0). Training data: every
episode of eval/poisoning/episodes.jsonl (its 'dev' and 'test' splits; 'test' had been read while the 'stakes'
patterns were written, so it is no longer held out) and, as more benign text, the 'dev' episodes of
eval/extraction (ordinary chat turns). eval/poisoning/heldout.jsonl and heldout2.jsonl are never read here: they
are what `make eval` reports the guards on.

The threshold is fixed beforehand (THRESHOLD). The cross-fits (fit on one split of the poisoning set, score the
other) are recorded beside the coefficients, so that the file says how well a model fitted this way does on text
it has not seen.

Run: python -m pymem_dev.evaluation.guard_fit [--out sql/functions/119-guard-model.sql]
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any, Final

import numpy as np

from pymem.embeddings import Embedder
from pymem_dev.evaluation.calibration import auc, fit_logistic, predict
from pymem_dev.evaluation.poisoning import EPISODES, load_episodes

ROOT = Path(__file__).resolve().parents[2]
EXTRACTION = ROOT / "eval" / "extraction" / "episodes.jsonl"
OUT = ROOT / "sql" / "functions" / "119-guard-model.sql"
NAME: Final = "minilm-injection"
L2: Final = 0.03
THRESHOLD: Final = 0.3


def training_texts() -> tuple[list[str], np.ndarray, list[str]]:
    """(texts, labels, poisoning split of each text or 'extraction')."""
    episodes = load_episodes(EPISODES)
    texts = [e.text for e in episodes]
    labels = [1.0 if e.label == "injection" else 0.0 for e in episodes]
    splits = [e.split for e in episodes]
    for line in EXTRACTION.read_text().splitlines():
        row = json.loads(line)
        if row["split"] == "dev":
            texts.append(row["content"])
            labels.append(0.0)
            splits.append("extraction")
    return texts, np.asarray(labels), splits


def cross_fit(x: np.ndarray, y: np.ndarray, splits: list[str]) -> dict[str, Any]:
    """Fit on one split of the poisoning set (with the extraction episodes), score the other."""
    s = np.asarray(splits)
    folds: dict[str, Any] = {}
    for fit_on, scored in (("dev", "test"), ("test", "dev")):
        train = (s == fit_on) | (s == "extraction")
        coef = fit_logistic(x[train], y[train], l2=L2, iterations=200)
        held = s == scored
        p = predict(coef, x[held])
        injection, benign = p[y[held] == 1], p[y[held] == 0]
        folds[f"fit on {fit_on}, scored on {scored}"] = {
            "auc": round(auc(list(p), list(y[held] == 1)) or 0.0, 3),
            "injection_flagged": round(float(np.mean(injection >= THRESHOLD)), 3),
            "benign_flagged": round(float(np.mean(benign >= THRESHOLD)), 3),
        }
    return folds


def model_sql(coef: np.ndarray, embedding_model: str, fitted_on: dict[str, Any]) -> str:
    numbers = [f"{w:.7g}" for w in coef[1:]]
    rows = [",".join(numbers[i : i + 10]) for i in range(0, len(numbers), 10)]
    weights = "\n        || ',' || ".join(f"'{row}'" for row in rows)
    return f"""-- The shipped guard model of consolidation (pymem_private.guard_models, pymem_private.guard_model_score;
-- used by pymem_private.ground). Written by `python -m pymem_dev.evaluation.guard_fit`, not by hand. A migrate that
-- changes nothing here changes no row; an operator's own models (shipped = false) are kept.

insert into pymem_private.guard_models as m (name, embedding_model, weights, bias, threshold, fitted_on, shipped)
values (
    '{NAME}',
    '{embedding_model}',
    (
        '[' || {weights}
        || ']'
    )::public.vector,
    {coef[0]:.7g},
    {THRESHOLD},
    $fitted${json.dumps(fitted_on, indent=4, sort_keys=True)}$fitted$::jsonb,
    true
)
on conflict (name) do update
    set
        embedding_model = excluded.embedding_model,
        weights = excluded.weights,
        bias = excluded.bias,
        threshold = excluded.threshold,
        fitted_on = excluded.fitted_on,
        shipped = true,
        created_at = now()
    where
    (m.embedding_model, m.weights::text, m.bias, m.threshold, m.fitted_on, m.shipped)
    is distinct from (
        excluded.embedding_model, excluded.weights::text, excluded.bias, excluded.threshold, excluded.fitted_on, true
    );

delete from pymem_private.guard_models
where shipped and name <> '{NAME}';
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=OUT, help=f"the SQL file to write (default {OUT})")
    args = parser.parse_args(argv)
    embedder = Embedder()
    texts, y, splits = training_texts()
    x = np.asarray(embedder.embed_many(texts), dtype=np.float64)
    folds = cross_fit(x, y, splits)
    coef = fit_logistic(x, y, l2=L2, iterations=200)
    fitted_on = {
        "fitted_at": date.today().isoformat(),
        "sets": {
            "eval/poisoning/episodes.jsonl (dev and test)": {
                "injection": int(sum(1 for s, v in zip(splits, y, strict=True) if s != "extraction" and v == 1)),
                "benign": int(sum(1 for s, v in zip(splits, y, strict=True) if s != "extraction" and v == 0)),
            },
            "eval/extraction/episodes.jsonl (dev), as benign": sum(1 for s in splits if s == "extraction"),
        },
        "l2": L2,
        "threshold": f"{THRESHOLD}, fixed beforehand",
        "cross_fits": folds,
        "not_used": "eval/poisoning/heldout.jsonl (what make eval reports)",
    }
    args.out.write_text(model_sql(coef, embedder.model_id, fitted_on))
    print(f"wrote {args.out}: {NAME}, {len(texts)} texts; cross-fits {json.dumps(folds)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
