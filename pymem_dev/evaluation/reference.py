"""Client-side reference rankings over what memory_search stores: BM25 over the facts' own
search_vector lexemes (PostgreSQL's English stemming), exact cosine over their stored embeddings,
and RRF of the two. Not pymem's retrieval: a yardstick that says how far the SQL keyword ranking
(BM25 with distinct-lexeme lengths, 130-candidates.sql) is from textbook BM25 on the same lexemes, and
what hybrid could reach.

    pymem eval --beir DIR --reference
"""

from __future__ import annotations

import math
import re
import uuid
from collections import defaultdict
from typing import Any

import numpy as np
import psycopg

from pymem.tenancy import tenant_transaction
from pymem_dev.evaluation import beir

_LEXEME = re.compile(r"'((?:[^']|'')+)'(?::([0-9A-D,]+))?")


def tsvector_terms(text: str) -> dict[str, int]:
    """lexeme -> number of positions, from a tsvector's text form ('run':1,4 'smith':2)."""
    return {
        m.group(1).replace("''", "'"): len(m.group(2).split(",")) if m.group(2) else 1 for m in _LEXEME.finditer(text)
    }


class Bm25:
    def __init__(self, docs: dict[str, dict[str, int]], k1: float = 0.9, b: float = 0.4) -> None:
        self.k1, self.b = k1, b
        self.length = {d: sum(t.values()) for d, t in docs.items()}
        self.avgdl = sum(self.length.values()) / max(len(docs), 1)
        self.postings: dict[str, list[tuple[str, int]]] = defaultdict(list)
        for doc, terms in docs.items():
            for lexeme, tf in terms.items():
                self.postings[lexeme].append((doc, tf))
        self.n = len(docs)

    def rank(self, lexemes: list[str], depth: int) -> list[str]:
        scores: dict[str, float] = defaultdict(float)
        for lexeme in set(lexemes):
            posting = self.postings.get(lexeme, [])
            if not posting:
                continue
            idf = math.log(1 + (self.n - len(posting) + 0.5) / (len(posting) + 0.5))
            for doc, tf in posting:
                norm = 1 - self.b + self.b * self.length[doc] / self.avgdl
                scores[doc] += idf * tf * (self.k1 + 1) / (tf + self.k1 * norm)
        return [doc for doc, _ in sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:depth]]


def rrf(first: list[str], second: list[str], k: int, depth: int) -> list[str]:
    """Reciprocal rank fusion as memory_search does it (a missing rank counts as depth + 1)."""
    a, b = first[:depth], second[:depth]
    ra = {d: r for r, d in enumerate(a, 1)}
    rb = {d: r for r, d in enumerate(b, 1)}
    scores = {d: 1 / (k + ra.get(d, depth + 1)) + 1 / (k + rb.get(d, depth + 1)) for d in set(a) | set(b)}
    return [d for d, _ in sorted(scores.items(), key=lambda item: (-item[1], item[0]))]


def reference_figures(
    conn: psycopg.Connection[Any],
    tenant: str,
    data: beir.BeirData,
    query_vectors: dict[str, np.ndarray],
    ids: dict[uuid.UUID, str],
    *,
    split: str = "test",
    depth: int = 100,
    rrf_k: int = 60,
) -> dict[str, Any]:
    with tenant_transaction(conn, tenant, actor="pymem-eval"):
        rows = conn.execute("select id, search_vector::text, embedding from pymem.facts").fetchall()
        queries = list(data.qrels[split])
        lexemes = {
            q: [
                r[0]
                for r in conn.execute(
                    "select unnest(tsvector_to_array(to_tsvector('english'::regconfig, %s)))", (data.queries[q],)
                ).fetchall()
            ]
            for q in queries
        }
    docs = {ids[r[0]]: tsvector_terms(r[1]) for r in rows if r[0] in ids}
    order = [ids[r[0]] for r in rows if r[0] in ids]
    matrix = np.vstack([np.asarray(r[2].to_numpy(), dtype=np.float32) for r in rows if r[0] in ids])
    bm25 = Bm25(docs)
    keyword = {q: bm25.rank(lexemes[q], depth) for q in queries}
    semantic = {}
    for q in queries:
        top = np.argsort(-(matrix @ query_vectors[q]), kind="stable")[:depth]
        semantic[q] = [order[i] for i in top]
    fused = {q: rrf(semantic[q], keyword[q], rrf_k, depth) for q in queries}
    qrels = data.qrels[split]
    return {
        "note": "client-side yardsticks over the stored lexemes and embeddings, not memory_search",
        "bm25": {**beir.score(keyword, qrels), "k1": bm25.k1, "b": bm25.b},
        "semantic_exact": beir.score(semantic, qrels),
        "rrf_bm25_semantic": {**beir.score(fused, qrels), "rrf_k": rrf_k, "depth": depth},
    }
