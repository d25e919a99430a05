"""`pymem import PATH`: a folder (or one file) of markdown memory files, stored as facts.

Each file is cut into chunks at headings and blank lines (small paragraphs merged, every
chunk at most MAX_CHUNK_TOKENS MiniLM tokens, the model truncating at 256), and chunk n
becomes the fact (subject = the file's path relative to the imported folder, predicate =
"chunk n"). A file named YYYY-MM-DD.md keeps its date in metadata.source_date, so that
memory_search multiplies its score by exp(-ln 2 * age / half_life) (30 days by default);
other files (MEMORY.md) do not decay. The facts are 'permanent': dated files age through
their date, not through confidence.

Only regular files inside the folder are read: a link whose target is outside the folder is skipped (unless
follow_links_outside, `pymem import --follow-links-outside`), so is a link to a folder (never followed), and a
special file (a FIFO, a socket, a device) is never opened; scan_markdown says which files were skipped and why.

Importing again is idempotent: an unchanged chunk is left alone, a changed one supersedes
its fact, and the chunks a file no longer has are retracted. That decision is SQL's
(sql/functions/250-import.sql): pymem.memory_import_plan says which chunks need an embedding,
this module embeds them, and pymem.memory_import_file writes. Each file is imported in one
transaction of the tenant, so a failure leaves no half-imported file.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

from pymem.client import MemoryClient
from pymem.embeddings import Embedder
from pymem.errors import InvalidArgumentError, translate
from pymem.tenancy import tenant_transaction

MAX_CHUNK_TOKENS = 200
ACTOR = "pymem-import"

_DATED_NAME = re.compile(r"(\d{4}-\d{2}-\d{2})\.md", re.IGNORECASE)
_HEADING = re.compile(r"#{1,6}(?:\s|$)")
_FENCE = re.compile(r"\s{0,3}(```|~~~)")
# ever finer places to cut a block that is too long: lines, sentences, words
_CUTS = ((re.compile(r"\n"), "\n"), (re.compile(r"(?<=[.!?;:])\s+"), " "), (re.compile(r"\s+"), " "))


@dataclass(frozen=True)
class MarkdownFile:
    path: Path
    subject: str  # the path relative to the imported folder, posix style (a single file: its name)


@dataclass(frozen=True)
class MarkdownScan:
    """What scan_markdown found: the files to import, and (subject, why) for each file it skipped."""

    files: list[MarkdownFile]
    skipped: list[tuple[str, str]] = field(default_factory=list)


_SPECIAL = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def _not_regular(mode: int) -> str | None:
    """Why a file of this st_mode is not read (never opened), or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _SPECIAL if test(mode)), "not a file")
    return f"not a regular file ({kind}): never opened"


def _skip_reason(file: Path, root: Path, *, follow_links_outside: bool) -> str | None:
    """Why file (under root, resolved) is not imported, or None: a link out of root (unless allowed), a link that
    leads nowhere, anything but a regular file."""
    try:
        mode = file.stat().st_mode  # the link's target
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if file.is_symlink():
        target = Path(os.path.realpath(file))
        if not target.is_relative_to(root) and not follow_links_outside:
            return f"a link out of the folder (to {target}); --follow-links-outside imports it"
    return _not_regular(mode)


@dataclass(frozen=True)
class FileImport:
    """What importing one file did."""

    subject: str
    chunks: int
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    retracted: int = 0

    @property
    def stored(self) -> int:
        return self.new + self.updated


@dataclass
class ImportSummary:
    files: list[FileImport] = field(default_factory=list)

    @property
    def chunks(self) -> int:
        return sum(f.chunks for f in self.files)

    @property
    def stored(self) -> int:
        return sum(f.stored for f in self.files)

    @property
    def unchanged(self) -> int:
        return sum(f.unchanged for f in self.files)

    @property
    def retracted(self) -> int:
        return sum(f.retracted for f in self.files)


def source_date(name: str) -> str | None:
    """The date of a file named exactly YYYY-MM-DD.md (a valid date), else None."""
    match = _DATED_NAME.fullmatch(name)
    if match is None:
        return None
    try:
        return dt.date.fromisoformat(match[1]).isoformat()
    except ValueError:
        return None


def scan_markdown(path: Path, *, follow_links_outside: bool = False) -> MarkdownScan:
    """The .md files under path (hidden files and folders skipped), sorted, and the ones skipped with the reason: a
    link out of the folder (unless follow_links_outside), a link to a folder (not followed), a special file (never
    opened). A single file: itself (named explicitly, a link is followed; a special file is refused)."""
    if not path.exists():
        raise InvalidArgumentError(f"{path}: no such file or directory")
    if not path.is_dir():
        if path.suffix.lower() != ".md":
            raise InvalidArgumentError(f"{path} is not a markdown file (.md)")
        reason = _not_regular(path.stat().st_mode)
        if reason is not None:
            raise InvalidArgumentError(f"{path}: {reason}")
        return MarkdownScan([MarkdownFile(path, path.name)])
    root = Path(os.path.realpath(path))
    found: list[MarkdownFile] = []
    skipped: list[tuple[str, str]] = []
    for folder, dirnames, filenames in os.walk(path):  # links to folders are listed, not followed
        for name in sorted(dirnames):
            if not name.startswith(".") and Path(folder, name).is_symlink():
                subject = Path(folder, name).relative_to(path).as_posix()
                skipped.append(
                    (subject, f"a link to a folder (to {os.path.realpath(Path(folder, name))}): not followed")
                )
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            file = Path(folder, name)
            if name.startswith(".") or file.suffix.lower() != ".md":
                continue
            subject = file.relative_to(path).as_posix()
            reason = _skip_reason(file, root, follow_links_outside=follow_links_outside)
            if reason is None:
                found.append(MarkdownFile(file, subject))
            else:
                skipped.append((subject, reason))
    if not found:
        why = "".join(f"; skipped {subject}: {reason}" for subject, reason in sorted(skipped))
        raise InvalidArgumentError(f"{path}: no .md files in this folder{why}")
    return MarkdownScan(sorted(found, key=lambda f: f.subject), sorted(skipped))


def markdown_files(path: Path, *, follow_links_outside: bool = False) -> list[MarkdownFile]:
    """The files scan_markdown would import (the skipped ones left out)."""
    return scan_markdown(path, follow_links_outside=follow_links_outside).files


def _blocks(text: str) -> list[tuple[str, bool]]:
    """Headings and blank-line separated paragraphs (a fenced code block stays whole): (text, is_heading)."""
    blocks: list[tuple[str, bool]] = []
    lines: list[str] = []
    fence: str | None = None

    def flush() -> None:
        if lines:
            blocks.append(("\n".join(lines).strip("\n"), False))
            lines.clear()

    for line in text.splitlines():
        line = line.rstrip()
        opening = _FENCE.match(line)
        if fence is not None:
            lines.append(line)
            if opening and opening[1] == fence:
                fence = None
        elif opening:
            fence = opening[1]
            lines.append(line)
        elif not line.strip():
            flush()
        elif _HEADING.match(line):
            flush()
            blocks.append((line, True))
        else:
            lines.append(line)
    flush()
    return blocks


def _fit(text: str, count_tokens: Callable[[str], int], max_tokens: int, level: int = 0) -> list[str]:
    """text cut into pieces of at most max_tokens, at lines, then sentences, then words, then characters."""
    if count_tokens(text) <= max_tokens:
        return [text]
    if level == len(_CUTS):
        return _cut_characters(text, count_tokens, max_tokens)
    pattern, joiner = _CUTS[level]
    parts = [p for p in pattern.split(text) if p.strip()]
    if len(parts) <= 1:
        return _fit(text, count_tokens, max_tokens, level + 1)
    pieces = (piece for part in parts for piece in _fit(part, count_tokens, max_tokens, level + 1))
    return _merge(pieces, joiner, count_tokens, max_tokens)


def _cut_characters(text: str, count_tokens: Callable[[str], int], max_tokens: int) -> list[str]:
    """Longest prefixes that fit (a word of hundreds of tokens: a hash, base64, a URL)."""
    pieces: list[str] = []
    while text:
        low, high = 1, len(text)
        while low < high:
            middle = (low + high + 1) // 2
            if count_tokens(text[:middle]) <= max_tokens:
                low = middle
            else:
                high = middle - 1
        pieces.append(text[:low])
        text = text[low:]
    return pieces


def _merge(pieces: Iterable[str], joiner: str, count_tokens: Callable[[str], int], max_tokens: int) -> list[str]:
    """Consecutive pieces joined while the result fits."""
    merged: list[str] = []
    current = ""
    for piece in pieces:
        candidate = f"{current}{joiner}{piece}" if current else piece
        if current and count_tokens(candidate) > max_tokens:
            merged.append(current)
            current = piece
        else:
            current = candidate
    if current:
        merged.append(current)
    return merged


def chunk_markdown(text: str, count_tokens: Callable[[str], int], max_tokens: int = MAX_CHUNK_TOKENS) -> list[str]:
    """Chunks of a markdown text: a heading starts a new chunk (and stays with what follows it),
    paragraphs are merged while the chunk fits in max_tokens, a longer paragraph is cut."""
    chunks: list[list[str]] = []
    current: list[str] = []
    headings_only = True  # current holds nothing but headings
    for block, is_heading in _blocks(text):
        if is_heading and current and not headings_only:
            chunks.append(current)
            current, headings_only = [], True
        # a long section is cut to leave room for its heading, which then stays with it
        budget = max_tokens - count_tokens("\n\n".join([*current, ""])) if current and headings_only else max_tokens
        for piece in _fit(block, count_tokens, max(budget, 1)):
            if current and count_tokens("\n\n".join([*current, piece])) > max_tokens:
                chunks.append(current)
                current, headings_only = [], True
            current.append(piece)
        headings_only = headings_only and is_heading
    if current:
        chunks.append(current)
    return ["\n\n".join(chunk) for chunk in chunks]


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, opened without waiting (O_NONBLOCK) and read only when it is a regular file: a file swapped
    for a FIFO or a device after the scan is refused, not waited on."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        reason = _not_regular(os.fstat(handle.fileno()).st_mode)
        if reason is not None:
            raise InvalidArgumentError(f"{path}: {reason}")
        return handle.read()


def _read(file: MarkdownFile) -> str:
    try:
        # universal newlines, as text mode reads them (chunks are compared with what an earlier import stored)
        text = _read_bytes(file.path).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        raise InvalidArgumentError(f"{file.subject}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    if "\x00" in text:
        raise InvalidArgumentError(f"{file.subject}: not a text file (it contains NUL characters)")
    return text


def import_file(
    conn: psycopg.Connection[Any],
    tenant: str,
    file: MarkdownFile,
    *,
    embedder: Embedder,
    scope: str = "global",
    butler: str | None = None,
    max_tokens: int = MAX_CHUNK_TOKENS,
) -> FileImport:
    """Import one file in one transaction of tenant; see the module's docstring.

    SQL decides what changes (pymem.memory_import_plan, then pymem.memory_import_file); this
    function only cuts the file into chunks and embeds the chunks the plan says need it."""
    chunks = chunk_markdown(_read(file), embedder.count_tokens, max_tokens)
    date = source_date(file.path.name)
    dated = None if date is None else dt.date.fromisoformat(date)
    client = MemoryClient(conn)
    try:
        with tenant_transaction(conn, tenant, actor=ACTOR):
            plan = client.import_plan(subject=file.subject, chunks=chunks, scope=scope, source_date=dated)
            # a chunk to embed is new or updated, so it has its position (a retracted fact's chunk is NULL)
            positions = [step.chunk for step in plan if step.needs_embedding and step.chunk is not None]
            embeddings: list[np.ndarray | None] = [None] * len(chunks)
            token_counts: list[int | None] = [None] * len(chunks)
            for n, vector in zip(positions, embedder.embed_many([chunks[n - 1] for n in positions]), strict=True):
                embeddings[n - 1] = vector
                token_counts[n - 1] = embedder.count_tokens(chunks[n - 1])
            done = client.import_file(
                subject=file.subject,
                chunks=chunks,
                scope=scope,
                source_date=dated,
                embeddings=embeddings if positions else None,
                token_counts=token_counts if positions else None,
                embedding_model=embedder.model_id,
                butler=butler,
            )
    except psycopg.Error as exc:
        error = translate(exc)
        if error is None:
            raise
        raise type(error)(f"{file.subject}: {error.args[0]}", hint=error.hint) from exc
    return FileImport(
        subject=file.subject,
        chunks=done.chunk_count,
        new=done.new_count,
        updated=done.updated_count,
        unchanged=done.unchanged_count,
        retracted=done.retracted_count,
    )


def import_files(
    conn: psycopg.Connection[Any],
    tenant: str,
    files: Iterable[MarkdownFile],
    *,
    embedder: Embedder,
    scope: str = "global",
    butler: str | None = None,
    max_tokens: int = MAX_CHUNK_TOKENS,
    progress: Callable[[FileImport], object] | None = None,
) -> ImportSummary:
    """Import files one after the other (one transaction each), calling progress after each."""
    register_vector(conn)
    summary = ImportSummary()
    for file in files:
        result = import_file(conn, tenant, file, embedder=embedder, scope=scope, butler=butler, max_tokens=max_tokens)
        summary.files.append(result)
        if progress is not None:
            progress(result)
    return summary


def import_path(
    conn: psycopg.Connection[Any],
    tenant: str,
    path: Path,
    *,
    embedder: Embedder,
    scope: str = "global",
    butler: str | None = None,
    max_tokens: int = MAX_CHUNK_TOKENS,
    progress: Callable[[FileImport], object] | None = None,
    follow_links_outside: bool = False,
) -> ImportSummary:
    """Import the markdown files of a folder (or one file) into tenant; see the module's docstring."""
    return import_files(
        conn,
        tenant,
        markdown_files(path, follow_links_outside=follow_links_outside),
        embedder=embedder,
        scope=scope,
        butler=butler,
        max_tokens=max_tokens,
        progress=progress,
    )
