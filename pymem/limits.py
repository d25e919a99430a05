"""The size limits of the memory API's arguments, copied for the MCP server to check before any model runs, and the
tenant id's, which the wrapper checks before it sets the transaction's tenant (no SQL function runs there).

SQL is the authority: every function checks its own arguments and raises PM002 naming the argument
(pymem_private.require_text, tags_jsonb and require_metadata in sql/functions/105-validation.sql, called by
the store, search, recall, context and feedback functions). These are copies, so that the MCP server refuses a
too-long argument before it embeds or tokenises it (pydantic ``max_length`` on each tool argument); they are
not a second rule. tests/test_limits.py calls each SQL function at each limit and one past it (TENANT: the
tenant_id CHECK of the tables and pymem.memory_bind_role), so a change on one side fails there until the other
follows; nothing else in pymem writes these numbers. Lengths are characters (code points), as PostgreSQL's length().
"""

from __future__ import annotations

CONTENT = 100_000  # content of memory_store_episode / _fact / _rule (and memory_episode_text)
QUERY = 10_000  # memory_search(query)
TOPIC = 10_000  # memory_recall(topic)
TRIGGER_PROMPT = 10_000  # memory_context_candidates(trigger_prompt)
SUBJECT = 500  # memory_store_fact(subject)
PREDICATE = 500  # memory_store_fact(predicate)
BUTLER = 200  # memory_store_episode(butler), memory_context_*(butler), memory_consolidate(butler)
BUTLER_NAME = 100  # a configured butler's name, also a file name (memory_butler_configure; pymem.butlers)
SCOPE = 200  # scope of the stores, memory_search, memory_recall, memory_stats
CITATION = 2_000  # citation of memory_store_fact / _rule
REASON = 2_000  # memory_mark_harmful(reason)
TAGS = 100  # tags of one fact or rule
TAG = 200  # characters of one tag
METADATA_BYTES = 65_536  # metadata of a memory, as JSON text (bytes)
METADATA_DEPTH = 32  # nesting of metadata's objects and arrays (the top-level object is 1)
TENANT = 128  # a tenant id (as_tenant; every table's tenant_id CHECK, pymem.memory_bind_role)
