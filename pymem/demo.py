"""`make demo`: start the embedded database, migrate it, remember a few things for the
tenant "demo" through the SQL memory API, and recall them with composite scoring."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

import psycopg
from pgvector.psycopg import register_vector

from pymem.database import open_database
from pymem.embeddings import Embedder
from pymem.tenancy import tenant_transaction

TENANT = "demo"
EPISODES = [
    ("health", "User said they felt bloated after a latte this morning."),
    ("health", "User asked for a dinner recipe without cheese."),
    ("travel", "User is planning a trip to Lisbon in May."),
]
FACTS = [
    ("user", "favorite_color", "The user's favourite colour is green.", "standard"),
    ("user", "diet", "The user is lactose intolerant and avoids dairy.", "stable"),
    ("user", "home_city", "The user lives in Berlin.", "stable"),
    ("user", "favorite_color", "The user's favourite colour is now blue.", "standard"),
]
RULES = [("Suggest plant-based milk when the user asks for coffee or recipes.", "health")]
TOPIC = "Can the user drink milk or eat dairy?"
SEARCH = "Lisbon trip"

STORE_EPISODE = """
select pymem.memory_store_episode(content => %(content)s, butler => %(butler)s,
    embedding => %(embedding)s, embedding_model => %(model)s, token_count => %(tokens)s)"""
STORE_FACT = """
select pymem.memory_store_fact(subject => %(subject)s, predicate => %(predicate)s, content => %(content)s,
    permanence => %(permanence)s, embedding => %(embedding)s, embedding_model => %(model)s,
    token_count => %(tokens)s)"""
STORE_RULE = """
select pymem.memory_store_rule(content => %(content)s, scope => %(scope)s,
    embedding => %(embedding)s, embedding_model => %(model)s, token_count => %(tokens)s)"""
RECALL = """
select memory_type, score, relevance, importance, recency, effective_confidence, content
  from pymem.memory_recall(topic => %s, query_embedding => %s, "limit" => 5)"""
SEARCH_SQL = """
select memory_type, score, semantic_rank, keyword_rank, content
  from pymem.memory_search(query => %s, query_embedding => %s, mode => 'hybrid', "limit" => 3)"""
STATS = """
select facts_active, facts_superseded, rules_candidate, episodes_unconsolidated, unembedded
  from pymem.memory_stats()"""


def _embedded(embedder: Embedder, content: str, **arguments: Any) -> dict[str, Any]:
    """The named arguments of a store call: content, its MiniLM vector, model id and token count."""
    return {
        "content": content,
        "embedding": embedder.embed(content),
        "model": embedder.model_id,
        "tokens": embedder.count_tokens(content),
        **arguments,
    }


def run(out: TextIO = sys.stdout) -> None:
    started = time.perf_counter()
    print("Starting the database and migrating it ...", file=out)
    db = open_database()
    embedder = Embedder()
    print(f"Embedding with {embedder.model_id} ...", file=out)
    with psycopg.connect(db.app_dsn) as conn:
        register_vector(conn)
        with tenant_transaction(conn, TENANT, actor="pymem-demo"):
            conn.execute("delete from pymem.facts")
            conn.execute("delete from pymem.rules")
            conn.execute("delete from pymem.episodes")
        # one transaction per call, as an agent's would be (and distinct created_at, the first tie-break)
        for butler, content in EPISODES:
            with tenant_transaction(conn, TENANT, actor="pymem-demo"):
                conn.execute(STORE_EPISODE, _embedded(embedder, content, butler=butler))
        for subject, predicate, content, permanence in FACTS:
            with tenant_transaction(conn, TENANT, actor="pymem-demo"):
                arguments = _embedded(embedder, content, subject=subject, predicate=predicate, permanence=permanence)
                conn.execute(STORE_FACT, arguments)
        for content, scope in RULES:
            with tenant_transaction(conn, TENANT, actor="pymem-demo"):
                conn.execute(STORE_RULE, _embedded(embedder, content, scope=scope))
        with tenant_transaction(conn, TENANT):
            print(f"\nFacts of tenant {TENANT!r} (storing the colour twice superseded the first):", file=out)
            for row in conn.execute(
                "select subject, predicate, validity, permanence, decay_rate, content from pymem.facts"
                " order by predicate, created_at"
            ):
                print(f"  {row[0]}.{row[1]:<15} {row[2]:<10} {row[3]:<9} lambda={row[4]:<6} {row[5]}", file=out)
            print(
                f"\nRecall preview for {TOPIC!r} (memory_recall;"
                " score = 0.4 relevance + 0.3 importance + 0.2 recency + 0.1 confidence):",
                file=out,
            )
            for kind, score, relevance, importance, recency, confidence, content in conn.execute(
                RECALL, (TOPIC, embedder.embed(TOPIC))
            ):
                components = f"0.4*{relevance:.3f} + 0.3*{importance:.3f} + 0.2*{recency:.3f} + 0.1*{confidence:.3f}"
                print(f"  {score:.3f} = {components}  {kind:<4} {content}", file=out)
            print(f"\nSearch for {SEARCH!r} (memory_search, hybrid RRF over episodes, facts and rules):", file=out)
            for kind, score, semantic_rank, keyword_rank, content in conn.execute(
                SEARCH_SQL, (SEARCH, embedder.embed(SEARCH))
            ):
                ranks = f"semantic #{semantic_rank or '-'}, keyword #{keyword_rank or '-'}"
                print(f"  {score:.4f}  {kind:<7} ({ranks}) {content}", file=out)
            stats = conn.execute(STATS).fetchone()
            if stats is not None:
                print(
                    f"\nmemory_stats: facts {stats[0]} active, {stats[1]} superseded; rules {stats[2]} candidate;"
                    f" episodes {stats[3]} unconsolidated; {stats[4]} without an embedding.",
                    file=out,
                )
            events = conn.execute("select count(*) from pymem.memory_events").fetchone()
            print(f"Audit trail: {events[0] if events else 0} events in pymem.memory_events.", file=out)
    print(
        f"\nDone in {time.perf_counter() - started:.1f}s. Explore it in SQL, bound to the tenant:\n"
        f'  psql "$(.venv/bin/pymem db url --tenant {TENANT})" -c "select memory_type, score, content'
        " from memory_recall(topic => 'diet')\"",
        file=out,
    )
