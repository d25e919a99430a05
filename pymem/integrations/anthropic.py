"""Claude's memory tool in pymem: ``PymemMemoryTool``, a ``BetaAbstractMemoryTool`` of the Anthropic SDK (tool type
``memory_20250818``): the ``/memories`` directory the model reads and edits, kept in pymem under row-level security
instead of on a local disk.

    with PymemMemoryTool.from_conn_string("postgresql://pymem_app@localhost/pymem", tenant="alice") as memory:
        runner = client.beta.messages.tool_runner(..., tools=[memory])

Each file is kept as its chunks (consecutive pieces of at most 1,000 characters, cut at paragraph breaks, whose
concatenation is the file): items (pymem.item_client, sql/functions/270-items.sql) of the namespace
``("memories",)`` (or the one given), keyed by the path (chunk 0) and ``<path>#chunk=<n>``, each a fact whose content
is its text. So ``memory_search`` finds the passage of a long file that answers, an edit supersedes the chunks it
changed (history and ``as_of`` work), and a deleted file is retracted. A directory is an item too (key
``<path>/``), so an empty one stays, as on a disk. The commands (view, create, str_replace, insert, delete,
rename) answer and refuse exactly as the SDK's local-filesystem tool does; a file holds at most 1,000,000
characters. Everything one command does is one transaction of the tenant.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from anthropic.lib.tools import BetaAbstractMemoryTool, ToolError
from anthropic.types.beta import (
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)
from psycopg_pool import ConnectionPool

from pymem.embeddings import MODEL_ID, Embedder
from pymem.item_client import ItemClient, ListedItem
from pymem.tenancy import tenant_transaction

ROOT = "/memories"
MAX_LINES = 999_999
LINE_NUMBER_WIDTH = len(str(MAX_LINES))
DIRECTORY_SIZE = "4.0K"  # what a directory shows in a listing (a disk's directory block)
FIELDS = ["text"]  # a file item's indexed field: its text
CHUNK_MARK = "#chunk="  # the key of a file's chunk n > 0: <path>#chunk=<n> (chunk 0's key is the path)
CHUNK_CHARS = 1000  # a chunk's length: about what MiniLM-L6 embeds of a text (256 word pieces)
MAX_CHUNKS = 1000  # a file holds at most this many chunks (1,000,000 characters)


def _chunks(text: str) -> list[str]:
    """text cut into consecutive pieces of at most CHUNK_CHARS characters, at a paragraph break where one falls,
    else at a line break, else anywhere: their concatenation is text, exactly."""
    pieces: list[str] = []
    rest = text
    while len(rest) > CHUNK_CHARS:
        window = rest[:CHUNK_CHARS]
        cut = window.rfind("\n\n") + 2
        if cut < 2:
            cut = window.rfind("\n") + 1
        if cut < 1:
            cut = CHUNK_CHARS
        pieces.append(rest[:cut])
        rest = rest[cut:]
    pieces.append(rest)
    return pieces


def _chunk_key(path: str, n: int) -> str:
    return path if n == 0 else f"{path}{CHUNK_MARK}{n}"


def _format_size(size: int) -> str:
    """A size as the SDK's listing writes it (0B, 512B, 1.5K, 2M)."""
    if size == 0:
        return "0B"
    units = ["B", "K", "M", "G"]
    i = min((size.bit_length() - 1) // 10, len(units) - 1)
    scaled = size / (1024**i)
    return f"{int(scaled)}{units[i]}" if scaled == int(scaled) else f"{scaled:.1f}{units[i]}"


def _numbered(lines: Sequence[str], start: int) -> str:
    return "\n".join(f"{str(n + start).rjust(LINE_NUMBER_WIDTH)}\t{line}" for n, line in enumerate(lines))


class _Tree:
    """The files and directories of the namespace as one command found them."""

    def __init__(self, items: list[ListedItem]) -> None:
        self.chunks: dict[str, list[str]] = {}
        parts: dict[str, dict[int, str]] = {}
        for item in items:
            if item.key.endswith("/"):
                continue
            path, mark, n = item.key.partition(CHUNK_MARK)
            parts.setdefault(path, {})[int(n) if mark else 0] = str(item.value.get("text", ""))
        for path, numbered in parts.items():
            self.chunks[path] = [numbered[n] for n in sorted(numbered)]
        self.files = {path: "".join(chunks) for path, chunks in self.chunks.items()}
        self.directories = {i.key.rstrip("/") for i in items if i.key.endswith("/")} | {ROOT}

    def is_directory(self, path: str) -> bool:
        return path in self.directories or any(k.startswith(path + "/") for k in (*self.files, *self.directories))

    def exists(self, path: str) -> bool:
        return path in self.files or self.is_directory(path)

    def children(self, path: str) -> list[tuple[str, bool]]:
        """(name, is a directory) of the entries directly in path, by name."""
        names: dict[str, bool] = {}
        for key in (*self.files, *self.directories):
            if key.startswith(path + "/"):
                rest = key[len(path) + 1 :]
                name, _, deeper = rest.partition("/")
                names[name] = names.get(name, False) or bool(deeper) or key in self.directories
        return sorted(names.items())

    def under(self, path: str) -> list[str]:
        """The keys of the files and directories in path, at any depth."""
        return sorted(
            [k for k in self.files if k.startswith(path + "/")]
            + [k + "/" for k in self.directories if k.startswith(path + "/")]
        )


class PymemMemoryTool(BetaAbstractMemoryTool):
    """Claude's memory tool whose /memories is pymem memory of one tenant (see the module docstring)."""

    def __init__(
        self,
        conn: psycopg.Connection[Any] | ConnectionPool,
        *,
        tenant: str | None = None,
        namespace: Sequence[str] = ("memories",),
        embedder: Embedder | None = None,
    ) -> None:
        """conn: a psycopg connection (autocommit) or a pool; tenant: for the application role (a login bound to a
        tenant needs none); namespace: the items' namespace; embedder: pymem's MiniLM-L6 (default: loaded at the
        first write)."""
        super().__init__()
        self._conn = conn
        self._tenant = tenant
        self._namespace = tuple(namespace)
        self._embedder = embedder

    @classmethod
    @contextmanager
    def from_conn_string(
        cls, conn_string: str, *, tenant: str | None = None, namespace: Sequence[str] = ("memories",)
    ) -> Iterator[PymemMemoryTool]:
        with psycopg.connect(conn_string, autocommit=True) as conn:
            yield cls(conn, tenant=tenant, namespace=namespace)

    # the transaction and the tree --------------------------------------------------------------------

    @contextmanager
    def _client(self) -> Iterator[ItemClient]:
        if isinstance(self._conn, ConnectionPool):
            with self._conn.connection() as conn, self._bound(conn):
                yield ItemClient(conn)
        else:
            with self._bound(self._conn):
                yield ItemClient(self._conn)

    @contextmanager
    def _bound(self, conn: psycopg.Connection[Any]) -> Iterator[None]:
        if self._tenant is None:
            with conn.transaction():
                yield
        else:
            with tenant_transaction(conn, self._tenant, actor="memory tool"):
                yield

    def _tree(self, client: ItemClient) -> _Tree:
        return _Tree(client.item_list(namespace=self._namespace, key_prefix=ROOT))

    def _write(self, client: ItemClient, tree: _Tree, path: str, text: str) -> None:
        """The file as its chunks: those that changed are put (each a new version of its fact), those past the new
        end are retracted; an unchanged chunk writes nothing."""
        new = _chunks(text)
        if len(new) > MAX_CHUNKS:
            raise ToolError(
                f"File {path} would hold {len(text)} characters; a pymem memory file holds at most"
                f" {MAX_CHUNKS * CHUNK_CHARS}"
            )
        old = tree.chunks.get(path, [])
        changed = [n for n, chunk in enumerate(new) if n >= len(old) or old[n] != chunk]
        values = [{"path": path, "chunk": n, "text": new[n]} for n in changed]
        texts = [client.item_text(value=value, fields=FIELDS) for value in values]
        indexed = [t for t in texts if t is not None]
        if indexed and self._embedder is None:
            self._embedder = Embedder()
        vectors = iter(self._embedder.embed_many(indexed) if indexed and self._embedder is not None else [])
        for n, value, indexed_text in zip(changed, values, texts, strict=True):
            vector = next(vectors) if indexed_text is not None else None
            client.item_put(
                namespace=self._namespace,
                key=_chunk_key(path, n),
                value=value,
                fields=FIELDS,
                embedding=vector,
                embedding_model=MODEL_ID if vector is not None else None,
            )
        for n in range(len(new), len(old)):
            self._remove(client, _chunk_key(path, n))
        tree.chunks[path] = new
        tree.files[path] = text

    def _remove_file(self, client: ItemClient, tree: _Tree, path: str) -> None:
        for n in range(len(tree.chunks.get(path, [""]))):
            self._remove(client, _chunk_key(path, n))
        tree.chunks.pop(path, None)
        tree.files.pop(path, None)

    def _mkdirs(self, client: ItemClient, tree: _Tree, directory: str) -> None:
        """directory and its parents, as directory items, where they are not yet directories."""
        missing = []
        while directory != ROOT and directory.startswith(ROOT + "/") and directory not in tree.directories:
            missing.append(directory)
            directory = posixpath.dirname(directory)
        for path in reversed(missing):
            client.item_put(namespace=self._namespace, key=path + "/", value={"directory": True}, indexed=False)
            tree.directories.add(path)

    def _remove(self, client: ItemClient, key: str) -> None:
        client.item_put(namespace=self._namespace, key=key, value=None)

    @staticmethod
    def _resolve(path: str) -> str:
        """The path as a key under /memories (the SDK's checks: it starts with /memories and stays inside)."""
        if not path.startswith(ROOT):
            raise ToolError(f"Path must start with /memories, got: {path}")
        relative = path[len(ROOT) :].lstrip("/")
        resolved = posixpath.normpath(posixpath.join(ROOT, relative)) if relative else ROOT
        if resolved != ROOT and not resolved.startswith(ROOT + "/"):
            raise ToolError(f"Path {path} would escape /memories directory")
        if CHUNK_MARK in resolved:
            raise ToolError(f"Path {path} holds '{CHUNK_MARK}', which names a file's chunks in pymem")
        return resolved

    # the commands ------------------------------------------------------------------------------------

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        path = self._resolve(command.path)
        with self._client() as client:
            tree = self._tree(client)
        if path in tree.files:
            lines = tree.files[path].split("\n")
            if len(lines) > MAX_LINES:
                raise ToolError(f"File {command.path} exceeds maximum line limit of 999,999 lines.")
            shown, start = lines, 1
            if command.view_range and len(command.view_range) == 2:
                first = max(1, command.view_range[0]) - 1
                last = len(lines) if command.view_range[1] == -1 else command.view_range[1]
                shown, start = lines[first:last], first + 1
            return f"Here's the content of {command.path} with line numbers:\n" + _numbered(shown, start)
        if not tree.is_directory(path):
            raise ToolError(f"The path {command.path} does not exist. Please provide a valid path.")
        entries: list[str] = []

        def collect(directory: str, relative: str, depth: int) -> None:
            for name, is_directory in tree.children(directory):
                if name.startswith("."):
                    continue
                shown = f"{relative}/{name}" if relative else name
                full = f"{directory}/{name}"
                if is_directory:
                    entries.append(f"{DIRECTORY_SIZE}\t{command.path}/{shown}/")
                    if depth < 2:
                        collect(full, shown, depth + 1)
                else:
                    entries.append(f"{_format_size(len(tree.files[full].encode()))}\t{command.path}/{shown}")

        collect(path, "", 1)
        header = f"Here're the files and directories up to 2 levels deep in {command.path}, excluding hidden items:"
        return header + "\n" + "\n".join([f"{DIRECTORY_SIZE}\t{command.path}", *entries])

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        path = self._resolve(command.path)
        with self._client() as client:
            tree = self._tree(client)
            self._mkdirs(client, tree, posixpath.dirname(path))
            if tree.exists(path):
                raise ToolError(f"File {command.path} already exists")
            self._write(client, tree, path, command.file_text)
        return f"File created successfully at: {command.path}"

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        path = self._resolve(command.path)
        with self._client() as client:
            tree = self._tree(client)
            if not tree.exists(path):
                raise ToolError(f"The path {command.path} does not exist. Please provide a valid path.")
            if path not in tree.files:
                raise ToolError(f"The path {command.path} is not a file.")
            content = tree.files[path]
            count = content.count(command.old_str)
            if count == 0:
                raise ToolError(
                    f"No replacement was performed, old_str `{command.old_str}` did not appear verbatim in"
                    f" {command.path}."
                )
            if count > 1:
                found, at = [], content.find(command.old_str)
                while at != -1:
                    found.append(content[:at].count("\n") + 1)
                    at = content.find(command.old_str, at + 1)
                raise ToolError(
                    f"No replacement was performed. Multiple occurrences of old_str `{command.old_str}` in lines:"
                    f" {', '.join(map(str, found))}. Please ensure it is unique"
                )
            changed = content[: content.find(command.old_str)].count("\n")
            new_content = content.replace(command.old_str, command.new_str)
            self._write(client, tree, path, new_content)
        lines = new_content.split("\n")
        first, last = max(0, changed - 2), min(len(lines), changed + 3)
        return (
            "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
            + _numbered(lines[first:last], first + 1)
        )

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        path = self._resolve(command.path)
        with self._client() as client:
            tree = self._tree(client)
            if not tree.exists(path):
                raise ToolError(f"The path {command.path} does not exist. Please provide a valid path.")
            if path not in tree.files:
                raise ToolError(f"The path {command.path} is not a file.")
            lines = tree.files[path].split("\n")
            if lines[-1] == "":
                lines.pop()
            if command.insert_line < 0 or command.insert_line > len(lines):
                raise ToolError(
                    f"Invalid `insert_line` parameter: {command.insert_line}. "
                    f"It should be within the range [0, {len(lines)}]."
                )
            lines.insert(command.insert_line, command.insert_text.rstrip("\n"))
            new_content = "\n".join(lines)
            self._write(client, tree, path, new_content if new_content.endswith("\n") else new_content + "\n")
        return f"The file {command.path} has been edited."

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        path = self._resolve(command.path)
        if path == ROOT:
            raise ToolError("Cannot delete the /memories directory itself")
        with self._client() as client:
            tree = self._tree(client)
            if path in tree.files:
                self._remove_file(client, tree, path)
            elif tree.is_directory(path):
                for key in [*tree.under(path), path + "/"]:
                    if key.endswith("/"):
                        self._remove(client, key)
                    else:
                        self._remove_file(client, tree, key)
            else:
                raise ToolError(f"The path {command.path} does not exist")
        return f"Successfully deleted {command.path}"

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        old, new = self._resolve(command.old_path), self._resolve(command.new_path)
        if old == ROOT:
            raise ToolError("Cannot rename the /memories directory itself")
        with self._client() as client:
            tree = self._tree(client)
            if tree.exists(new):
                raise ToolError(f"The destination {command.new_path} already exists")
            self._mkdirs(client, tree, posixpath.dirname(new))
            if old in tree.files:
                self._write(client, tree, new, tree.files[old])
                self._remove_file(client, tree, old)
            elif tree.is_directory(old):
                self._mkdirs(client, tree, new)
                for key in tree.under(old):
                    moved = new + key[len(old) :]
                    if key.endswith("/"):
                        client.item_put(namespace=self._namespace, key=moved, value={"directory": True}, indexed=False)
                        self._remove(client, key)
                    else:
                        self._write(client, tree, moved, tree.files[key])
                        self._remove_file(client, tree, key)
                self._remove(client, old + "/")
            else:
                raise ToolError(f"The path {command.old_path} does not exist")
        return f"Successfully renamed {command.old_path} to {command.new_path}"

    def clear_all_memory(self) -> str:
        with self._client() as client:
            for item in client.item_list(namespace=self._namespace, key_prefix=ROOT):
                self._remove(client, item.key)
        return "All memory cleared"
