"""The built-in extractor's patterns as rows: ``pymem_private.extraction_patterns``.

memory_extract (sql/functions/255-extraction.sql) held some sixty regular expressions inside one function;
they are rows of this table now, so that adding a pattern is an INSERT. One row per pattern: its kind (what a
match means, and so which capture groups it has), a name, its position (patterns run in position order), the
pattern (matched case-insensitively; '(?c)' at its start makes it case-sensitive), for a pattern that states a
fact about the user its family, value check, template and how its value is read, its needles (lower-case
strings one of which every match holds, so that a pattern runs only on a sentence that may match: the extractor
reads every sentence of every episode consolidation takes), and an example it catches.

The shipped rows are written by the idempotent sql/functions/254-extraction-patterns.sql (shipped = true:
replaced on every migrate, created_at kept for a row that comes back unchanged); an operator's own rows
(shipped = false) are kept. No tenant data: RLS is enabled and forced and only the owner has policies, like
guard_patterns; every role's extractor reads the patterns through pymem_private.extraction_pattern_rows
(SECURITY DEFINER).

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

DDL = """
set local role pymem_owner;

create table pymem_private.extraction_patterns (
    name text not null,
    kind text not null,
    position integer not null default 1000,
    pattern text not null,
    family text,
    value_check text not null default '.',
    value_is_name boolean not null default false,
    value_is_verb_phrase boolean not null default false,
    user_only boolean not null default false,
    multi_valued boolean not null default false,
    template text,
    needles text[] not null,
    example text not null,
    shipped boolean not null default false,
    created_at timestamptz not null default now(),
    constraint extraction_patterns_pkey primary key (name),
    constraint extraction_patterns_name_check check (name ~ '^[a-z][a-z0-9 ,''()/-]{2,99}$'),
    constraint extraction_patterns_kind_check check (
        kind in (
            'standing_request', 'one_off_request', 'hedge', 'about_others', 'favourite', 'fact', 'negation', 'relation'
        )
    ),
    -- a pattern (or value check) that does not compile is refused here (2201B), not when an extraction runs it
    constraint extraction_patterns_pattern_check
        check (pg_catalog.length(pattern) between 1 and 4000 and pg_catalog.regexp_count('', pattern) >= 0),
    constraint extraction_patterns_value_check_check
        check (pg_catalog.length(value_check) between 1 and 4000 and pg_catalog.regexp_count('', value_check) >= 0),
    -- a pattern that finds a statement about the user names its family and the statement's template
    constraint extraction_patterns_statement_check check (
        (kind in ('favourite', 'fact', 'negation'))
        = (family is not null and template is not null)
    ),
    constraint extraction_patterns_family_check check (family ~ '^[a-z][a-z_]{1,39}$'),
    constraint extraction_patterns_template_check check (pg_catalog.length(template) between 1 and 200),
    -- strings (lower case) one of which every match of pattern holds: the cheap filter before the expression
    constraint extraction_patterns_needles_check check (
        pg_catalog.cardinality(needles) between 1 and 200
        and pg_catalog.array_position(needles, null) is null
        and pg_catalog.array_position(needles, '') is null
        and needles::text = pg_catalog.lower(needles::text)
    ),
    constraint extraction_patterns_example_check check (pg_catalog.length(example) between 1 and 1000)
);

comment on table pymem_private.extraction_patterns is
'The regular expressions of the built-in extractor (pymem.memory_extract): one row per pattern.';
comment on column pymem_private.extraction_patterns.kind is
$$What a match means: standing_request (the episode is a rule; whole text), one_off_request (it is not, though a
standing_request matched), hedge (the sentence asserts nothing), about_others (the sentence is about someone
else), fact (group 1 is the value), favourite (group 1 the thing, group 2 the value), negation (group 1 a verb
or empty, group 2 the value), relation (group 1 the relation, 2 a name, 3 a job, 4 and 5 a place, 6 an
employer, 7 an allergen, 8 news).$$;
comment on column pymem_private.extraction_patterns.value_check is
'A regular expression (case-sensitive) the value must match, else the match is dropped.';
comment on column pymem_private.extraction_patterns.value_is_name is
'The value is a name: it ends at its first word in lower case ("St. Mary''s hospital" is St. Mary''s).';
comment on column pymem_private.extraction_patterns.value_is_verb_phrase is
'The value is a verb phrase ("learn to drive"): cut at a conjunction only, not where a clause goes on.';
comment on column pymem_private.extraction_patterns.user_only is
'Said of the user only: skipped in a sentence about someone else ("my son has a nut allergy").';
comment on column pymem_private.extraction_patterns.multi_valued is
'The user can have several (likes:garlic): the predicate carries the value, so that one does not supersede another.';

-- Like guard_patterns: no tenant data, only the owner has policies; every role's extractor reads the patterns
-- through pymem_private.extraction_pattern_rows (SECURITY DEFINER), so that no tenant role can change or see them.
alter table pymem_private.extraction_patterns enable row level security;
alter table pymem_private.extraction_patterns force row level security;
create policy extraction_patterns_owner_select on pymem_private.extraction_patterns
for select to pymem_owner using (true);
create policy extraction_patterns_owner_insert on pymem_private.extraction_patterns
for insert to pymem_owner with check (true);
create policy extraction_patterns_owner_update on pymem_private.extraction_patterns
for update to pymem_owner using (true) with check (true);
create policy extraction_patterns_owner_delete on pymem_private.extraction_patterns
for delete to pymem_owner using (true);
comment on policy extraction_patterns_owner_select on pymem_private.extraction_patterns is
'The owner (so: pymem_private.extraction_pattern_rows, SECURITY DEFINER) reads the patterns.';
comment on policy extraction_patterns_owner_insert on pymem_private.extraction_patterns is
'The owner (the migrator applying sql/functions/254-extraction-patterns.sql, or an operator as pymem_owner) adds one.';
comment on policy extraction_patterns_owner_update on pymem_private.extraction_patterns is
'The owner (an operator acting as pymem_owner) changes a pattern.';
comment on policy extraction_patterns_owner_delete on pymem_private.extraction_patterns is
'The owner (the migrator replacing the shipped patterns, or an operator acting as pymem_owner) removes a pattern.';

reset role;
"""


def upgrade() -> None:
    op.execute(DDL)


def downgrade() -> None:
    raise NotImplementedError("pymem migrations are forward-only")
