"""Adapters of agent frameworks onto pymem: each a thin layer over the same SQL functions and the same RLS.

- ``pymem.integrations.langgraph``: ``PymemStore``, LangGraph's long-term memory store (extra ``langgraph``).
- ``pymem.integrations.anthropic``: ``PymemMemoryTool``, Claude's memory tool over /memories (extra ``anthropic``).
"""
