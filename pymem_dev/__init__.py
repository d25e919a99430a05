"""pymem's development tooling: the benchmark (`pymem bench`), the quality evaluation (`pymem eval`) and
the load test (`pymem stress`), with their scratch databases and report helpers.

It lives beside the `pymem` package in the repository and is not in the wheel: a checkout's
`make install` (``pip install -e '.[dev]'``) puts it on the path, and the `pymem` command then offers
the three commands (pymem_dev.cli). Without it they say how to get it.
"""
