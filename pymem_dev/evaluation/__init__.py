"""The evaluation harness: retrieval metrics, the golden dataset, BEIR (SciFact) runs.

    pymem eval [--json FILE] [--beir DIR] [--tune] [--k K] [--modes ...]

Everything runs in a scratch database (``pymem_eval`` on the configured server), never in the
user's memories; see pymem_dev.evaluation.run, pymem_dev.scratch and pymem_dev.cli.evaluate.
"""
