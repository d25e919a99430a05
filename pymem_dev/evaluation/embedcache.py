"""Embeddings of a list of texts, cached on disk by model id + a hash of the texts.

Embedding the 5183 SciFact abstracts takes minutes on two cores; the second run reads
``<cache_dir>/<model>-<hash>.npy`` instead. Only the public Embedder API is used
(``embed_many``, ``model_id``), so any embedder with those works.
"""

from __future__ import annotations

import hashlib
import re
import sys
import time
from pathlib import Path
from typing import Protocol

import numpy as np


class EmbedderLike(Protocol):
    model_id: str

    def embed_many(self, texts: list[str]) -> list[np.ndarray]: ...


def texts_hash(model_id: str, texts: list[str]) -> str:
    digest = hashlib.sha256(model_id.encode())
    for text in texts:
        digest.update(b"\x00")
        digest.update(text.encode())
    return digest.hexdigest()[:20]


def cache_path(cache_dir: Path, model_id: str, texts: list[str]) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", model_id)[-60:]
    return cache_dir / f"{slug}-{texts_hash(model_id, texts)}.npy"


def embed_cached(
    embedder: EmbedderLike,
    texts: list[str],
    *,
    cache_dir: Path | None,
    label: str = "texts",
    batch: int = 64,
    progress: bool = True,
) -> np.ndarray:
    """An (n, d) float32 array of the embeddings of texts, read from or written to cache_dir."""
    path = cache_path(cache_dir, embedder.model_id, texts) if cache_dir is not None else None
    if path is not None and path.is_file():
        cached = np.load(path)
        if cached.shape[0] == len(texts):
            if progress:
                print(f"pymem eval: {label}: {len(texts)} embeddings from {path}", file=sys.stderr, flush=True)
            return np.asarray(cached, dtype=np.float32)
    started = time.monotonic()
    parts: list[np.ndarray] = []
    for start in range(0, len(texts), batch):
        parts.extend(embedder.embed_many(texts[start : start + batch]))
        if progress:
            done = min(start + batch, len(texts))
            elapsed = time.monotonic() - started
            print(
                f"\rpymem eval: embedding {label}: {done}/{len(texts)} ({elapsed:.0f} s)",
                end="",
                file=sys.stderr,
                flush=True,
            )
    if progress and texts:
        print(file=sys.stderr, flush=True)
    vectors = np.vstack(parts).astype(np.float32) if parts else np.zeros((0, 384), dtype=np.float32)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npy")
        np.save(tmp, vectors)
        tmp.replace(path)
    return vectors
