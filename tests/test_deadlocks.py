"""Concurrent reads of one tenant bump the reference counts of the rows they return. They once did it row by
row in ranking order, so two searches returning the same memories in different orders deadlocked (40P01: 4 of
11,616 calls in `make stress`, and 190 of 240 calls here). They now bump in one order, (type, id), and
memory_touch_references locks in that order too. As pymem_app, threads with their own connections."""

from __future__ import annotations

import random
import threading
from typing import Any

import psycopg

from pymem.tenancy import tenant_transaction
from tests.conftest import AppConnect, Tenant
from tests.sqlapi import store_episode, store_fact, store_rule

WORDS = ["apple", "birch", "cedar", "daisy", "elder", "fern", "ginger", "hazel", "iris", "juniper", "kale", "lily"]
THREADS = 6
ROUNDS = 20


def test_concurrent_searches_and_recalls_of_the_same_rows_never_deadlock(
    as_tenant: Tenant, connect_app: AppConnect
) -> None:
    with as_tenant("acme") as conn:
        ids: list[tuple[str, Any]] = []
        for i, word in enumerate(WORDS):
            others = " ".join(WORDS[: i % 4 + 1])
            ids.append(("fact", store_fact(conn, "garden", f"plant {i}", f"The garden has {word} and {others}")))
            if i % 3 == 0:
                ids.append(("rule", store_rule(conn, f"Water the garden's {word} with {others}")))
                ids.append(("episode", store_episode(conn, f"Planted {word} in the garden near {others}", "home")))
    connections = [connect_app() for _ in range(THREADS)]
    deadlocks: list[str] = []
    calls = [0]
    lock = threading.Lock()

    def reader(seed: int) -> None:
        rng = random.Random(seed)
        conn = connections[seed]
        for _ in range(ROUNDS):
            query = "garden " + " ".join(rng.sample(WORDS, 3))
            try:
                with tenant_transaction(conn, "acme"):
                    kind = rng.choice(["search", "recall", "touch"])
                    if kind == "search":
                        conn.execute(
                            "select * from pymem.memory_search(%s, mode => 'keyword', min_confidence => 0,"
                            " min_relevance => 0)",
                            (query,),
                        ).fetchall()
                    elif kind == "recall":
                        conn.execute(
                            'select * from pymem.memory_recall(%s, "limit" => 20, min_relevance => 0)', (query,)
                        ).fetchall()
                    else:  # a replica's forwarded bumps, in a random order
                        sample = rng.sample(ids, 8)
                        conn.execute(
                            "select pymem.memory_touch_references(%s, %s)",
                            ([k for k, _ in sample], [i for _, i in sample]),
                        )
            except psycopg.errors.DeadlockDetected as exc:
                with lock:
                    deadlocks.append(str(exc).splitlines()[0])
            with lock:
                calls[0] += 1

    threads = [threading.Thread(target=reader, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert calls[0] == THREADS * ROUNDS
    assert deadlocks == []
    with as_tenant("acme") as conn:
        bumped = conn.execute("select sum(reference_count) from pymem.facts").fetchone()
    assert bumped is not None and bumped[0] > 0
