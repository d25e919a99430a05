"""Relevance evidence: semantic_lift, how far a row's cosine stands above the tenant's background.

A cosine similarity of 0.5 means little in a corpus of one topic (SciFact: thousands of abstracts, all
close to any scientific claim) and much in an agent's tenant of a few hundred unrelated memories. The
calibrated relevance (sql/functions/112-relevance.sql) learnt one meaning for both, so in small tenants a
paraphrase's answer, found by its meaning and by none of its words, got a relevance under the floor.
The new feature ``semantic_lift`` is the row's cosine minus the cosine of the query's 30th nearest
candidate memory (0 when there are fewer: the missing ones count as unrelated): the semantic leg now
reads at least 30 rows deep.

``pymem.memory_relevance_features`` takes that background as a ninth argument and returns eleven
features: the eight-argument function is dropped here and the new one created by the sql/ files. The
shipped model 'pymem' is written again, with a coefficient for the new feature, by
sql/functions/113-relevance-coefficients.sql. A model of an operator's own that was fitted on the ten
features of before fails with PM002 until it is fitted again (`pymem eval --fit-relevance` shows how).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

drop function if exists pymem.memory_relevance_features(
    double precision, integer, double precision, integer, text, double precision, double precision, double precision
);

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
