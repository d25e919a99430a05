"""No planner statistics on what tenants wrote (issue 25, finding 10).

The planner's statistics of a column (its most common values, most common elements and histogram) are
taken over every tenant's rows. pg_stats hides them from a role that row-level security filters, but
EXPLAIN does not: a bound analyst of tenant A saw, in a plan's row estimate, how often a subject, a word
of the search vector or a tag is used in all tenants together. This revision sets the statistics target
of every column that holds what a tenant wrote (content, subjects and predicates, search vectors,
embeddings, tags, metadata, citations, scopes, butler names, lexemes, event details) to 0, so ANALYZE
no longer samples them, and deletes what ANALYZE kept of them. The planner then uses its default
selectivities for those columns (equality 0.5 %, full-text match 0.5 %), which is the plan the tenant's
indexes want anyway; tenant_id and the system-defined state columns keep their statistics (see
docs/reliability.md for what that still shows). Deleting from pg_statistic needs a superuser: a migrator
that is not one gets a WARNING, and the old statistics stay until a superuser deletes them.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

# (table, columns): what a tenant writes. tests/test_planner_statistics.py checks that every text, jsonb,
# tsvector, array or vector column of these tables is either here or a system-defined state column.
CONTENT_COLUMNS: dict[str, tuple[str, ...]] = {
    "episodes": ("butler", "content", "embedding", "metadata", "retrieval_context", "search_vector"),
    "facts": (
        "subject",
        "predicate",
        "content",
        "embedding",
        "search_vector",
        "source_butler",
        "scope",
        "tags",
        "metadata",
        "citation",
        "review_reason",
    ),
    "rules": (
        "content",
        "embedding",
        "search_vector",
        "scope",
        "source_butler",
        "tags",
        "metadata",
        "citation",
        "review_reason",
    ),
    "keyword_lexemes": ("lexeme",),
    "memory_events": ("actor", "details"),
    "butler_settings": ("butler", "scope"),
}


def _ddl() -> str:
    alters = "\n".join(
        f"alter table pymem.{table} alter column {column} set statistics 0;"
        for table, columns in CONTENT_COLUMNS.items()
        for column in columns
    )
    pairs = ", ".join(
        f"('pymem.{table}', '{column}')" for table, columns in CONTENT_COLUMNS.items() for column in columns
    )
    return f"""
set local role pymem_owner;
{alters}
reset role;

do $$
begin
    if not (select rolsuper from pg_catalog.pg_roles where rolname = current_user) then
        raise warning 'pymem 0020: % is not a superuser and cannot delete the kept statistics of content columns',
            current_user
            using hint = 'As a superuser, delete from pg_catalog.pg_statistic the rows of the pymem columns whose '
                         'statistics target is 0; until then EXPLAIN estimates may reflect other tenants'' values.';
        return;
    end if;
    delete from pg_catalog.pg_statistic as s
    using (values {pairs}) as c (table_name, column_name)
    join pg_catalog.pg_attribute as a
        on a.attrelid = c.table_name::regclass and a.attname = c.column_name
    where s.starelid = a.attrelid and s.staattnum = a.attnum;
end;
$$;
"""


def upgrade() -> None:
    op.execute(_ddl())


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
