-- The shipped relevance model 'pymem' (sql/functions/112-relevance.sql), one row per variant.
-- Written by `pymem eval --fit-relevance` (pymem_dev/evaluation/calibration.py); do not edit by hand.
-- Coefficients: the intercept, then the features of pymem.memory_relevance_feature_names():
--   semantic_score, semantic_found, semantic_gap, semantic_log_rank, keyword_score
--   keyword_found, keyword_share, keyword_log_rank, fuzzy_score, lexical_overlap
--   semantic_lift

select pymem_private.save_relevance_model(
    'pymem',
    'hybrid',
    array[-7.522432, 2.193078, 0.292237, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 10.41414, 5.177422, 7.379455]::double precision[],
    0.02,
    '{
        "features": [
            "semantic_score",
            "semantic_found",
            "fuzzy_score",
            "lexical_overlap",
            "semantic_lift"
        ],
        "fitted_at": "2026-11-25",
        "floor": "0.02: the lowest floor (at most 0.1) for which recall returns nothing for at least 90% of the no-answer golden train questions (floor_curve)",
        "floor_questions": 103,
        "l2": 0.001,
        "sets": {
            "golden train": {
                "queries": 103,
                "rows": 3004
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
    array[-7.616926, 3.71257, -0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.16879, 8.037922]::double precision[],
    0.01,
    '{
        "features": [
            "semantic_score",
            "semantic_found",
            "fuzzy_score",
            "lexical_overlap",
            "semantic_lift"
        ],
        "fitted_at": "2026-11-25",
        "floor": "0.01: the lowest floor (at most 0.1) for which recall returns nothing for at least 90% of the no-answer golden train questions (floor_curve)",
        "floor_questions": 103,
        "l2": 0.001,
        "sets": {
            "golden train": {
                "queries": 103,
                "rows": 3004
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
    array[-8.810869, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 21.726263, 11.417619, 0.0]::double precision[],
    0.04,
    '{
        "features": [
            "semantic_score",
            "semantic_found",
            "fuzzy_score",
            "lexical_overlap",
            "semantic_lift"
        ],
        "fitted_at": "2026-11-25",
        "floor": "0.04: the lowest floor (at most 0.1) for which recall returns nothing for at least 90% of the no-answer golden train questions (floor_curve)",
        "floor_questions": 103,
        "l2": 0.001,
        "sets": {
            "golden train": {
                "queries": 87,
                "rows": 707
            },
            "scifact train": {
                "queries": 809,
                "rows": 24267
            }
        },
        "weights": "each set weighs the same in total"
    }'::jsonb
);
