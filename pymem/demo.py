"""`make demo`: start the embedded database, migrate it, remember a few things for the
tenant "demo" and recall by meaning. Grows with the project (memory_recall: issue 3)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

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
RULES = ["Suggest plant-based milk when the user asks for coffee or recipes."]
TOPIC = "what can the user eat and drink?"


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
            for butler, content in EPISODES:
                conn.execute(
                    "insert into pymem.episodes (butler, content, embedding, embedding_model, token_count)"
                    " values (%s, %s, %s, %s, %s)",
                    (butler, content, embedder.embed(content), embedder.model_id, embedder.count_tokens(content)),
                )
            for subject, predicate, content, permanence in FACTS:
                conn.execute(
                    "insert into pymem.facts (subject, predicate, content, permanence, scope,"
                    " embedding, embedding_model, token_count) values (%s, %s, %s, %s, 'global', %s, %s, %s)",
                    (
                        subject,
                        predicate,
                        content,
                        permanence,
                        embedder.embed(content),
                        embedder.model_id,
                        embedder.count_tokens(content),
                    ),
                )
            for content in RULES:
                conn.execute(
                    "insert into pymem.rules (content, scope, embedding, embedding_model, token_count)"
                    " values (%s, 'health', %s, %s, %s)",
                    (content, embedder.embed(content), embedder.model_id, embedder.count_tokens(content)),
                )
        with tenant_transaction(conn, TENANT):
            print(f"\nFacts of tenant {TENANT!r} (storing the colour twice superseded the first):", file=out)
            for row in conn.execute(
                "select subject, predicate, validity, permanence, decay_rate, content from pymem.facts"
                " order by predicate, created_at"
            ):
                print(f"  {row[0]}.{row[1]:<15} {row[2]:<10} {row[3]:<9} lambda={row[4]:<6} {row[5]}", file=out)
            print(f"\nRecall preview for {TOPIC!r} (cosine similarity; composite recall comes next):", file=out)
            query = embedder.embed(TOPIC)
            for kind, content, similarity in conn.execute(
                """
                select kind, content, 1 - distance from (
                    select 'fact' as kind, content, embedding <=> %(q)s as distance
                      from pymem.facts where validity = 'active'
                    union all
                    select 'rule', content, embedding <=> %(q)s from pymem.rules where forgotten_at is null
                    union all
                    select 'episode', content, embedding <=> %(q)s from pymem.episodes where forgotten_at is null
                ) as m order by distance limit 5
                """,
                {"q": query},
            ):
                print(f"  {similarity:5.3f}  {kind:<7} {content}", file=out)
            events = conn.execute("select count(*) from pymem.memory_events").fetchone()
            print(f"\nAudit trail: {events[0] if events else 0} events in pymem.memory_events.", file=out)
    print(
        f"\nDone in {time.perf_counter() - started:.1f}s. Explore it in SQL, bound to the tenant:\n"
        f'  psql "$(.venv/bin/pymem db url --tenant {TENANT})" -c "select subject, predicate, content'
        ' from pymem.facts"',
        file=out,
    )
