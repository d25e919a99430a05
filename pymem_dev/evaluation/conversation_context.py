"""Does the context block reach an older turn of a long chat? For each question of eval/conversations/chats.jsonl,
the conversation is stored turn by turn as episodes of one butler ("Maya: ...", with its MiniLM embedding, one
session id per session) and the question is asked two ways: memory_search over episodes (top 5) and memory_context
with a 600-token budget (pymem.context.build_context: SQL ranks and chooses, the model's tokenizer counts). A
question is reached when one of its evidence turns is among the results; nothing is consolidated, so what reaches
the agent is what the episodes hold. The target: the block reaches at least the share memory_search's top 5
reaches, minus 0.10. Rolled back per conversation; 'dev' is for development, 'test' is reported.
"""

from __future__ import annotations

from typing import Any, Final

import psycopg

from pymem import context
from pymem.client import MemoryClient
from pymem_dev.evaluation.conversations import (
    BUTLER,
    CHATS,
    SPLITS,
    Conversation,
    load_conversations,
    store_turns,
    turn_text,
)
from pymem_dev.evaluation.embedcache import EmbedderLike

TENANT: Final = "pymem-eval-chat-context"
BUDGET: Final = 600
TOP: Final = 5


def reach(conn: psycopg.Connection[Any], conversation: Conversation, embedder: EmbedderLike) -> dict[str, int]:
    """How many of the conversation's questions memory_search (top 5) and the context block reach."""
    vectors = embedder.embed_many([turn_text(turn) for turn in conversation.turns])
    questions = [q["question"] for q in conversation.questions]
    question_vectors = embedder.embed_many(questions)
    found = {"questions": len(questions), "search": 0, "block": 0}
    with conn.transaction(force_rollback=True):
        conn.execute("select set_config('pymem.tenant_id', %s, true)", (TENANT,))
        episode_of = store_turns(conn, conversation, vectors, embedder.model_id)
        client = MemoryClient(conn)
        for question, vector in zip(conversation.questions, question_vectors, strict=True):
            evidence = {episode_of[t] for t in question["evidence"]}
            hits = client.search(
                query=question["question"],
                query_embedding=vector,
                types=["episode"],
                limit=TOP,
                bump_references=False,
            )
            found["search"] += bool(evidence & {h.memory_id for h in hits})
            block = context.build_context(
                client,
                trigger_prompt=question["question"],
                butler=BUTLER,
                token_budget=BUDGET,
                query_embedding=vector,
            )
            found["block"] += bool(evidence & {item.candidate.memory_id for item in block.items})
    return found


def run_context_reach(conn: psycopg.Connection[Any], embedder: EmbedderLike, path: Any = CHATS) -> dict[str, Any]:
    """Per split: questions, and the share whose evidence memory_search's top 5 and the 600-token block reach."""
    result: dict[str, Any] = {"path": str(path), "budget": BUDGET, "top": TOP}
    conversations = load_conversations(path)
    for split in SPLITS:
        counts = [reach(conn, c, embedder) for c in conversations if c.split == split]
        if not counts:
            continue
        total = {k: sum(c[k] for c in counts) for k in ("questions", "search", "block")}
        result[split] = {
            **total,
            "search_share": round(total["search"] / total["questions"], 3),
            "block_share": round(total["block"] / total["questions"], 3),
        }
        result[split]["met"] = result[split]["block_share"] >= result[split]["search_share"] - 0.10
    return result
