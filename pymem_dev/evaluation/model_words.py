"""Write sql/functions/114-model-words.sql: the whole words of the embedding model's vocabulary.

pymem_private.unreadable_passage reads pymem_private.model_words to tell a sentence the guards can read (its
words are mostly words MiniLM-L6 knows) from one they cannot (Swahili, Polish, Tagalog: mostly unknown words).
The words are the model's own: every entry of the bundled WordPiece vocab.txt that is not a word piece ('##'),
a special token ('[CLS]') or a single character, and is letters only. Nothing is chosen by hand.

Run: python -m pymem_dev.evaluation.model_words [--out sql/functions/114-model-words.sql]
"""

from __future__ import annotations

import argparse
import re
import textwrap
from pathlib import Path

from pymem.embeddings import MODEL_ID
from pymem.onnx_model import source_path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "sql" / "functions" / "114-model-words.sql"
WORD = re.compile(r"^[^\W\d_]{2,100}$")


def model_words(vocab: Path) -> list[str]:
    """The vocabulary's whole words (letters only, two or more, lower case), sorted."""
    lines = vocab.read_text(encoding="utf-8").splitlines()
    return sorted({w for w in lines if WORD.match(w) and w.isalpha() and w == w.lower()})


def words_sql(words: list[str], embedding_model: str) -> str:
    body = "\n".join(textwrap.wrap(" ".join(words), width=110, break_long_words=False))
    model = embedding_model.replace("'", "''")
    return f"""-- noqa: disable=all
-- The words an embedding model knows (pymem_private.model_words, read by pymem_private.unreadable_passage):
-- the {len(words)} whole words of the WordPiece vocabulary of {embedding_model}
-- (letters only, two or more; no '##' pieces). Written by `python -m pymem_dev.evaluation.model_words` from the
-- bundled vocab.txt, not by hand. A migrate that changes nothing here changes no row; another model's words are
-- kept.
with shipped (word) as (
    select w
    from pg_catalog.regexp_split_to_table($words$
{body}
$words$, '\\s+') as w
    where w <> ''
),

gone as (
    delete from pymem_private.model_words as m
    where m.embedding_model = '{model}'
      and not exists (select from shipped as s where s.word = m.word)
)

insert into pymem_private.model_words (embedding_model, word)
select '{model}', s.word from shipped as s
on conflict do nothing;
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    words = model_words(source_path() / "vocab.txt")
    args.out.write_text(words_sql(words, MODEL_ID), encoding="utf-8")
    print(f"{len(words)} words -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
