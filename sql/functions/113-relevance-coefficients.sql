-- The shipped relevance model 'pymem' (sql/functions/112-relevance.sql), one row per variant.
-- Written by `pymem eval --fit-relevance` (pymem/evaluation/calibration.py); do not edit by hand.
-- Coefficients: the intercept, then the features of pymem.memory_relevance_feature_names():
--   semantic_score, semantic_found, semantic_gap, semantic_log_rank, keyword_score
--   keyword_found, keyword_share, keyword_log_rank, fuzzy_score, lexical_overlap

select pymem_private.save_relevance_model(
    'pymem',
    'hybrid',
    array[-7.799807, 4.959307, 0.243677, 0.0, 0.0, 0.891157, -0.86894, 0.0, 0.0, 10.068709, 5.820176]::double precision[],
    0.01,
    '{
        "features": [
            "semantic_score",
            "semantic_found",
            "keyword_score",
            "keyword_found",
            "fuzzy_score",
            "lexical_overlap"
        ],
        "fitted_at": "2026-11-25",
        "floor": "0.01: below it a memory is deemed less than 1% likely to be about the topic",
        "floor_questions": 91,
        "l2": 0.001,
        "sets": {
            "golden train": {
                "queries": 91,
                "rows": 2644
            },
            "scifact train": {
                "queries": 809,
                "rows": 24270
            }
        },
        "weights": "each set weighs the same in total"
    }'::jsonb
);

select pymem_private.save_relevance_model(
    'pymem',
    'semantic',
    array[-8.615742, 7.541637, -0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.075815]::double precision[],
    0.01,
    '{
        "features": [
            "semantic_score",
            "semantic_found",
            "keyword_score",
            "keyword_found",
            "fuzzy_score",
            "lexical_overlap"
        ],
        "fitted_at": "2026-11-25",
        "floor": "0.01: below it a memory is deemed less than 1% likely to be about the topic",
        "floor_questions": 91,
        "l2": 0.001,
        "sets": {
            "golden train": {
                "queries": 91,
                "rows": 2644
            },
            "scifact train": {
                "queries": 809,
                "rows": 24270
            }
        },
        "weights": "each set weighs the same in total"
    }'::jsonb
);

select pymem_private.save_relevance_model(
    'pymem',
    'keyword',
    array[-7.822338, 0.0, 0.0, 0.0, 0.0, -0.24154, -0.201976, 0.0, 0.0, 19.460619, 10.528798]::double precision[],
    0.01,
    '{
        "features": [
            "semantic_score",
            "semantic_found",
            "keyword_score",
            "keyword_found",
            "fuzzy_score",
            "lexical_overlap"
        ],
        "fitted_at": "2026-11-25",
        "floor": "0.01: below it a memory is deemed less than 1% likely to be about the topic",
        "floor_questions": 91,
        "l2": 0.001,
        "sets": {
            "golden train": {
                "queries": 81,
                "rows": 627
            },
            "scifact train": {
                "queries": 809,
                "rows": 24267
            }
        },
        "weights": "each set weighs the same in total"
    }'::jsonb
);
