"""A cross-encoder reranker in ONNX, loaded from a local folder (PYMEM_RERANKER): the model of the second
stage of retrieval when one is configured. It only scores (query, memory) pairs; the order is decided in
SQL (pymem.memory_rerank), from the scores it is given.

The folder holds ``model.onnx`` (inputs ``input_ids`` and ``attention_mask``, and ``token_type_ids`` when
the graph has it; one output of shape (batch, 1) or (batch,): the relevance logit) and the tokenizer's
``tokenizer.json``. No registry package ships reranker weights: export one yourself (a BERT-style
sequence-classification cross-encoder, as sentence-transformers' CrossEncoder models are) and point
PYMEM_RERANKER at the folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

MAX_LENGTH = 512


class RerankerError(Exception):
    """The reranker folder is missing, incomplete or not a cross-encoder this module can run."""


class CrossEncoder:
    """Scores (query, text) pairs with an ONNX cross-encoder: higher is more relevant."""

    def __init__(self, folder: Path, *, max_length: int = MAX_LENGTH) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        folder = Path(folder).expanduser()
        model, tokenizer = folder / "model.onnx", folder / "tokenizer.json"
        for needed in (model, tokenizer):
            if not needed.is_file():
                raise RerankerError(f"reranker {folder}: {needed.name} is missing")
        self.folder = folder
        self._tokenizer = Tokenizer.from_file(str(tokenizer))
        self._tokenizer.enable_truncation(max_length=max_length)
        self._tokenizer.enable_padding()
        self._session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= self._inputs:
            raise RerankerError(f"reranker {folder}: model.onnx needs inputs input_ids and attention_mask")

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        """One logit per text, for the pair (query, text)."""
        if not texts:
            return []
        encoded = self._tokenizer.encode_batch([(query, text) for text in texts])
        feeds = {
            "input_ids": np.asarray([e.ids for e in encoded], dtype=np.int64),
            "attention_mask": np.asarray([e.attention_mask for e in encoded], dtype=np.int64),
        }
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.asarray([e.type_ids for e in encoded], dtype=np.int64)
        logits = np.asarray(self._session.run(None, feeds)[0], dtype=np.float64)
        if logits.ndim == 2:
            logits = logits[:, 0]
        if logits.shape != (len(texts),):
            raise RerankerError(f"reranker {self.folder}: expected one score per pair, got shape {logits.shape}")
        return [float(x) for x in logits]
