"""`pymem bench`: ingest, latency, recall and maintenance figures on a scratch database.

pymem.bench.run runs it (phase by phase), pymem.bench.loader bulk-loads the scale data through the
tables' triggers, pymem.bench.measure times the calls, pymem.bench.tables writes the markdown; the
scratch database is pymem.scratch's, the shared report parts pymem.reports'.
"""
