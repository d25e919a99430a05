"""`pymem model prepare | info`: the embedding model's ONNX files (made once, from the bundled
safetensors, with torch) and which model this configuration embeds with."""

from __future__ import annotations

import argparse
import sys

from pymem import onnx_model
from pymem.config import Settings
from pymem.errors import PymemError


def _prepare(args: argparse.Namespace, settings: Settings) -> int:
    variants = onnx_model.VARIANTS if args.variant == "all" else (args.variant,)
    for variant in variants:
        print(f"pymem: preparing the {variant} ONNX model in {settings.model_dir} ...", file=sys.stderr, flush=True)
        try:
            done = onnx_model.prepare(variant, settings.model_dir, force=args.force)
        except Exception as exc:  # the exporter's failures are many and varied: say which and stop
            raise PymemError(f"could not prepare the {variant} ONNX model: {type(exc).__name__}: {exc}") from exc
        for item in done:
            size = item.path.stat().st_size / 1e6
            how = f"made in {item.seconds:.1f} s" if item.created else "already there (--force makes it again)"
            print(f"{item.variant}: {item.path} ({size:.0f} MB, {how})")
    return 0


def _info(args: argparse.Namespace, settings: Settings) -> int:
    from pymem.embeddings import make_embedder

    embedder = make_embedder(settings)
    path = embedder.onnx_file()
    if path is None:
        file = "- (sentence-transformers on torch)"
    elif path.is_file():
        file = f"{path} ({path.stat().st_size / 1e6:.0f} MB)"
    else:
        file = f"{path} (missing: made on first use, or now by `pymem model prepare`)"
    rows = [
        ("model", f"{embedder.choice.name} (PYMEM_EMBEDDING_MODEL)"),
        ("model id", embedder.model_id),
        ("backend", "onnxruntime" if embedder.backend == "onnx" else "sentence-transformers (torch)"),
        ("variant", embedder.variant),
        ("dimensions", str(embedder.dimensions)),
        ("file", file),
        ("model dir", str(settings.model_dir)),
        ("threads", str(settings.embedding_threads or "onnxruntime default")),
        ("embeddings", "on" if settings.embeddings else "off (PYMEM_EMBEDDINGS=off: keyword search only)"),
    ]
    for key, value in rows:
        print(f"{key + ':':<12}{value}")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem model ...` to the subcommands of the `pymem` parser."""
    model = sub.add_parser(
        "model",
        help="the embedding model (prepare its ONNX files, show which is used)",
        description="pymem embeds with MiniLM-L6 on ONNX Runtime. The ONNX files are exported once from the"
        " bundled weights (this needs torch) into $PYMEM_MODEL_DIR; serving loads them without torch.",
    ).add_subparsers(dest="model_command", required=True)

    prepare = model.add_parser("prepare", help="export the ONNX file(s) now (`make install` does it)")
    prepare.add_argument(
        "--variant", choices=[*onnx_model.VARIANTS, "all"], default="fp32", help="which file(s) (default: fp32)"
    )
    prepare.add_argument("--force", action="store_true", help="make the file(s) again even when they exist")
    prepare.set_defaults(func=_prepare)

    model.add_parser("info", help="the configured model: id, backend, variant, file").set_defaults(func=_info)

    embed = sub.add_parser(
        "embed",
        help="print the embedding of a text as a pgvector literal (for query_embedding => in psql)",
        description="The configured model's embedding of TEXT as a pgvector literal, e.g. for hybrid recall in psql:"
        " \\set q `pymem embed 'what does the user eat'` then memory_recall(topic => '...', query_embedding => :'q').",
    )
    embed.add_argument("text", help="the text to embed (a query or a memory)")
    embed.set_defaults(func=_embed)


def _embed(args: argparse.Namespace, settings: Settings) -> int:
    from pymem.embeddings import make_embedder

    embedder = make_embedder(settings)
    vector = embedder.embed(args.text)
    print("[" + ",".join(f"{float(v):.8g}" for v in vector) + "]")
    return 0
