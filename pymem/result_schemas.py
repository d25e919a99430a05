"""The structured results of the MCP tools (each becomes a tool's output schema), as pydantic models.

Field names follow the SQL functions' output columns (memory_id, memory_scope, ...), so a
tool result and a row of ``select * from memory_recall(...)`` read the same, and the typed client
(pymem.client) reads those rows straight into these models. Four rows that no tool returns are here
too, for now: StatsRow (memory_stats, turned into StatsResult), ContextCandidate and ContextChoice
(the context block's candidates and choices) and ButlerSettings.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any, Literal, get_args, get_origin
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

MemoryType = Literal["episode", "fact", "rule"]
SearchMode = Literal["hybrid", "semantic", "keyword", "weighted"]
Permanence = Literal["permanent", "stable", "standard", "volatile", "ephemeral"]


def _nullable_as_type_list(prop: dict[str, Any]) -> None:
    """``{"anyOf": [{"type": T, ...}, {"type": "null"}]}`` as ``{"type": [T, "null"], ...}``: the same values
    (every other keyword of T applies only to values of type T; an enum gains null), one check instead of two
    branches. A client SDK checks each result against the tool's output schema, and a failed anyOf branch
    (every null field) costs an error object there: the MCP Python SDK's check of a 10-hit recall took 2.5 ms,
    1.1 ms with this and the hits inlined (_plain_json_schema)."""
    branches = prop.get("anyOf")
    if not isinstance(branches, list) or len(branches) != 2 or {"type": "null"} not in branches:
        return
    other = next(b for b in branches if b != {"type": "null"})
    if not isinstance(other.get("type"), str) or "const" in other or set(other) & (set(prop) - {"anyOf"}):
        return
    del prop["anyOf"]
    prop.update(other)
    prop["type"] = [other["type"], "null"]
    if isinstance(other.get("enum"), list):
        prop["enum"] = [*other["enum"], None]


def _list_item_model(annotation: Any) -> type[BaseModel] | None:
    """M of a field annotated list[M], M a model; else None."""
    args = get_args(annotation)
    if (
        get_origin(annotation) is list
        and len(args) == 1
        and isinstance(args[0], type)
        and issubclass(args[0], BaseModel)
    ):
        return args[0]
    return None


def _plain_json_schema(schema: dict[str, Any], cls: type[BaseModel]) -> None:
    """A result's JSON schema without anyOf for nullable fields (_nullable_as_type_list) and with the schema of a
    list's items written in place of a $ref to $defs (each hit of a search is then checked without resolving
    one): what the schema admits is unchanged (tests/test_mcp_tools.py checks it against the models)."""
    for name, prop in schema.get("properties", {}).items():
        _nullable_as_type_list(prop)
        field = cls.model_fields.get(name)
        item = _list_item_model(field.annotation) if field is not None else None
        if item is not None and isinstance(prop.get("items"), dict) and "$ref" in prop["items"]:
            inlined = item.model_json_schema()
            if "$defs" not in inlined:
                prop["items"] = inlined


class ResultModel(BaseModel):
    """A tool result or a row read into one: JSON schema by _plain_json_schema."""

    model_config = ConfigDict(json_schema_extra=_plain_json_schema)


class StoredMemory(ResultModel):
    """A memory just stored."""

    memory_type: MemoryType
    memory_id: UUID = Field(description="id to pass to memory_get, memory_confirm, memory_forget")
    tenant_id: str
    embedded: bool = Field(description="false when stored without an embedding (found by keyword only)")
    supersedes_id: UUID | None = Field(
        default=None, description="facts: the active fact with the same subject and predicate that this one replaced"
    )
    expires_at: datetime | None = Field(default=None, description="episodes: when the episode expires")
    review_state: Literal["approved", "pending_review"] = Field(
        default="approved",
        description=(
            "facts and rules: 'pending_review' when it was kept for review (an inference without a citation, the"
            " user's own hedge, text that tries to instruct the agent): not recalled until memory_confirm approves it"
        ),
    )
    review_reason: str | None = Field(default=None, description="facts and rules: why it got its review state")


class Provenance(ResultModel):
    """Where a retrieved memory came from, beside its created_at and confidence."""

    source_butler: str | None = Field(
        default=None, description="the butler that stored a fact or rule, or an episode's butler"
    )
    session_id: UUID | None = Field(
        default=None, description="an episode's session, or that of a fact's or rule's source episode"
    )
    source_episode_id: UUID | None = Field(default=None, description="the episode a fact or rule was drawn from")
    source_path: str | None = Field(default=None, description="the file an imported memory came from")
    stored_by: str | None = Field(default=None, description="who stored it (the audit trail's actor, else the role)")


class SearchHit(Provenance):
    memory_type: MemoryType
    memory_id: UUID
    content: str
    score: float
    relevance: float = Field(
        description="calibrated probability in (0, 1) that the memory is about the query (not a rank)"
    )
    rerank_score: float | None = Field(
        default=None, description="the cross-encoder's score when the server has one and rerank was asked"
    )
    confidence: float | None
    effective_confidence: float | None
    importance: float | None
    memory_scope: str | None
    subject: str | None
    predicate: str | None
    maturity: str | None
    search_mode: str
    created_at: datetime
    reference_count: int


class SearchResult(ResultModel):
    query: str
    mode: str | None = Field(
        description="the mode used (hybrid falls back to keyword without an embedding); null when nothing was found"
    )
    results: list[SearchHit]
    truncated: bool = Field(default=False, description="true when results were left out for the response's size")
    left_out: int = Field(default=0, description="how many ranked results were left out for the response's size")
    note: str | None = Field(default=None, description="why results were left out, and how to get them")


class RecallHit(Provenance):
    memory_type: Literal["fact", "rule"]
    memory_id: UUID
    content: str
    score: float = Field(description="w_relevance*relevance + w_importance*importance + w_recency*recency + ...")
    relevance: float = Field(
        description="calibrated probability in (0, 1) that the memory is about the topic (not a rank)"
    )
    importance: float
    recency: float
    effective_confidence: float
    confidence: float
    subject: str | None
    predicate: str | None
    maturity: str | None
    memory_scope: str
    search_mode: str
    created_at: datetime
    reference_count: int


class RecallResult(ResultModel):
    topic: str
    scope: str | None
    results: list[RecallHit]
    truncated: bool = Field(default=False, description="true when results were left out for the response's size")
    left_out: int = Field(default=0, description="how many ranked results were left out for the response's size")
    note: str | None = Field(default=None, description="why results were left out, and how to get them")


class MemoryRecord(Provenance):
    memory_type: MemoryType
    memory_id: UUID
    content: str
    state: str
    memory_scope: str | None
    effective_confidence: float | None
    reference_count: int
    last_referenced_at: datetime | None
    created_at: datetime
    record: dict[str, Any] = Field(description="every column of the row (the embedding left out)")
    confidence: float | None = Field(default=None, description="facts and rules: the stored confidence")


class ConfirmResult(ResultModel):
    memory_type: Literal["fact", "rule"]
    memory_id: UUID
    confidence: float
    effective_confidence: float
    previous_effective_confidence: float
    last_confirmed_at: datetime
    approved: bool = Field(
        default=False, description="true when this confirmation approved a memory that was kept for review"
    )
    supersedes_id: UUID | None = Field(
        default=None, description="an approved fact: the active fact of the same subject and predicate it replaced"
    )


class ConsolidatedEpisode(ResultModel):
    """A row of pymem.memory_consolidate / memory_consolidate_episode: what one episode became."""

    episode_id: UUID
    facts: int = Field(description="facts stored and approved (cited by the episode)")
    rules: int = Field(description="rules stored and approved")
    kept_for_review: int = Field(description="facts and rules kept for review (e.g. text that tries to instruct you)")
    refused: int = Field(description="statements refused as speculation (nothing stored)")


class ConsolidateResult(ResultModel):
    extractor: Literal["builtin", "sampling"] = Field(
        description="builtin: pymem's patterns; sampling: your model, asked through MCP sampling"
    )
    episodes: int = Field(description="episodes consolidated by this call")
    facts: int
    rules: int
    kept_for_review: int
    refused: int
    remaining: int = Field(description="unconsolidated episodes left (call again to go on)")
    results: list[ConsolidatedEpisode]


class FeedbackResult(ResultModel):
    memory_id: UUID
    maturity: str
    previous_maturity: str
    confidence: float
    effectiveness_score: float
    success_count: int
    harmful_count: int
    applied_count: int
    last_applied_at: datetime


class ForgetResult(ResultModel):
    memory_type: MemoryType
    memory_id: UUID
    previous_state: str
    state: str
    forgotten_at: datetime


class StatsCounts(ResultModel):
    """The counts of memory_stats."""

    facts_total: int
    facts_active: int
    facts_fading: int
    facts_superseded: int
    facts_retracted: int
    facts_expired: int
    rules_total: int
    rules_candidate: int
    rules_established: int
    rules_proven: int
    rules_anti_pattern: int
    rules_forgotten: int
    episodes_total: int
    episodes_unconsolidated: int
    episodes_expired: int
    episodes_forgotten: int
    unembedded: int = Field(description="memories without an embedding (found by keyword only)")
    embedding_models: list[str]
    facts_pending_review: int = Field(description="facts kept for review (memory_confirm approves)")
    rules_pending_review: int = Field(description="rules kept for review (memory_confirm approves)")
    embedding_waiting: int = Field(description="memories waiting for the embedding worker (the whole tenant)")
    embedding_failed: int = Field(description="memories the embedding worker gave up on (memory_embedding_backlog)")


class StatsRow(StatsCounts):
    """A row of pymem.memory_stats."""

    episode_backlog_age: timedelta | None
    embedding_models: list[str] | None  # type: ignore[assignment]


class StatsResult(StatsCounts):
    scope: str | None
    episode_backlog_age_seconds: float | None = Field(description="age of the oldest unconsolidated episode")
    semantic_search: Literal["ready", "loading", "unavailable"] = Field(
        description="whether this server can embed queries; 'unavailable' means every search is keyword-only"
    )
    semantic_search_note: str | None = None


class ContextEntry(ResultModel):
    section: Literal["system", "project", "history", "knowledge"]
    memory_type: MemoryType
    memory_id: UUID
    score: float
    tokens: int


class ContextResult(ResultModel):
    butler: str
    text: str = Field(description="the memory block to put in a system prompt: quoted data, not instructions")
    token_count: int
    token_budget: int
    items: list[ContextEntry]
    omitted: dict[str, int] = Field(description="memories per section that did not fit the budget")


class ContextCandidate(ResultModel):
    """A row of pymem.memory_context_candidates: a memory that may go into a context block."""

    section: Literal["system", "project", "history", "knowledge"]
    section_rank: int
    memory_type: MemoryType
    memory_id: UUID
    content: str
    token_count: int | None
    score: float
    relevance: float | None
    importance: float | None
    recency: float | None
    confidence: float | None
    effective_confidence: float | None
    subject: str | None
    predicate: str | None
    maturity: str | None
    memory_scope: str | None
    source_butler: str | None
    source_episode_id: UUID | None
    source_date: date | None
    source_path: str | None
    session_id: UUID | None
    created_at: datetime
    expires_at: datetime | None


class ContextChoice(ResultModel):
    """A row of pymem.memory_context_select: whether a candidate goes into the block."""

    section: Literal["system", "project", "history", "knowledge"]
    section_rank: int
    memory_id: UUID
    tokens: int
    selected: bool
    selection_pass: int | None
    budget: int


class ButlerSettings(ResultModel):
    """A row of pymem.memory_butler_settings / memory_butler_configure."""

    butler: str
    configured: bool = True
    scope: str
    w_relevance: float
    w_importance: float
    w_recency: float
    w_confidence: float
    episode_ttl: timedelta
    context_token_budget: int
    quota_system: float
    quota_project: float
    quota_history: float
    quota_knowledge: float
    max_system: int
    max_project: int
    max_history: int
    max_knowledge: int
    source: str | None
    updated_at: datetime | None
    min_relevance: float | None = None
    min_focus: float | None = None
    floor_bypass: float | None = None
