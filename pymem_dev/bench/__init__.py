"""`pymem bench`: ingest, latency, recall and maintenance figures on a scratch database.

pymem_dev.bench.run runs it (phase by phase), pymem_dev.bench.loader bulk-loads the scale data through the
tables' triggers, pymem_dev.bench.measure times the calls, pymem_dev.bench.tables writes the markdown; the
scratch database is pymem_dev.scratch's, the shared report parts pymem_dev.reports'.
"""
