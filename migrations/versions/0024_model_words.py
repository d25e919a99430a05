"""The words the embedding model knows: ``pymem_private.model_words``.

The guards of consolidation read English: the patterns of pymem_private.guard_patterns are English phrases, and
the guard model (pymem_private.guard_models) scores an embedding of MiniLM-L6, whose vocabulary is English. An
instruction written in Swahili, Polish or Korean passes both unread. This revision holds the whole words of an
embedding model's vocabulary (for MiniLM-L6, the 21,722 entries of its WordPiece vocabulary of two letters or more
that are not word pieces), so that SQL can tell text the checks can read from text they cannot
(pymem_private.unreadable_passage): what consolidation draws from an episode with a sentence of another script,
of mostly unknown words, or of another language's function words waits for a reviewer.

The shipped rows are written by sql/functions/114-model-words.sql (generated from the model package's vocab.txt
by ``python -m pymem_dev.evaluation.model_words``; a migrate that changes nothing changes no row); an operator can
add a model's words as pymem_owner. No tenant data: RLS is enabled and forced, only the owner has policies, and
every role's checks read it through a SECURITY DEFINER function, like guard_models.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

create table pymem_private.model_words (
    embedding_model text not null,
    word text not null,
    constraint model_words_pkey primary key (embedding_model, word),
    constraint model_words_embedding_model_check check (pg_catalog.length(embedding_model) between 1 and 200),
    constraint model_words_word_check check (word ~ '^[[:alpha:]]{2,100}$' and word = pg_catalog.lower(word))
);

comment on table pymem_private.model_words is
'The whole words (lower case, two letters or more) of an embedding model''s vocabulary: a sentence whose words '
'are mostly not here is text the guards cannot read (pymem_private.unreadable_passage).';

alter table pymem_private.model_words enable row level security;
alter table pymem_private.model_words force row level security;
create policy model_words_owner_select on pymem_private.model_words
for select to pymem_owner using (true);
create policy model_words_owner_insert on pymem_private.model_words
for insert to pymem_owner with check (true);
create policy model_words_owner_delete on pymem_private.model_words
for delete to pymem_owner using (true);
comment on policy model_words_owner_select on pymem_private.model_words is
'The owner (so: pymem_private.unreadable_passage, SECURITY DEFINER) reads the words.';
comment on policy model_words_owner_insert on pymem_private.model_words is
'The owner (the migrator applying sql/functions/114-model-words.sql, or an operator as pymem_owner) adds words.';
comment on policy model_words_owner_delete on pymem_private.model_words is
'The owner (the migrator replacing the shipped words) removes words.';

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
