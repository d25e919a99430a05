"""The evaluation harness: retrieval metrics, the golden dataset, BEIR (SciFact) runs.

    pymem eval [--json FILE] [--beir DIR] [--tune] [--k K] [--modes ...]

Everything runs in a scratch database (``pymem_eval`` on the configured server), never in the
user's memories; see pymem.evaluation.run, pymem.scratch and pymem.cli.evaluate.
"""
