"""`pymem stress`: a bounded load on the real HTTP MCP server (`make stress` writes stress/results.json and
stress/results.md).

1. a scratch database (pymem_dev.scratch: dropped, re-created, migrated; pymem_stress by default) on the
   configured server, and a bearer token for each tenant (stress-00, stress-01, ...);
2. `pymem serve --transport http` as a subprocess on a free port of a loopback address (any other host is
   refused: the tokens and the load never leave the machine), its RSS sampled every second;
3. per tenant, `sessions` concurrent MCP client sessions (the SDK's client over streamable HTTP, each with
   its tenant's token) calling the memory tools in MIX (30% writes) until the time is up; the first
   `warmup` seconds are not measured, and the RSS at their end is the baseline of the flatness check;
4. the report: calls/s overall and per tool, p50/p95/p99 latency and errors per tool (a tool error is
   counted, never fatal), tenant isolation, the server's RSS (start, after warm-up, peak, end).

Failures (exit status 1): an id returned to a tenant that the tenant did not store (every id a call
returns is checked against the ids its own store calls returned; an id seen before the store call that
made it has answered is checked again at the end; a fact or rule the server's consolidation worker drew from one
of the tenant's own episodes, read from the database at the end, is the tenant's), a `tenant_id` in a result that
is not the caller's,
and an end RSS above `rss_limit` (1.5) times the RSS after warm-up. All tenants store the same texts, so
a leak across tenants would find matching memories to return.
"""

from __future__ import annotations

import ipaddress
import math
import os
import random
import re
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Set
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import psycopg

from pymem import bearer_tokens
from pymem.config import Settings
from pymem.errors import InvalidArgumentError
from pymem_dev import reports
from pymem_dev.bench import corpus
from pymem_dev.bench.measure import pymem_command, stats
from pymem_dev.bench.run import Clock
from pymem_dev.scratch import ScratchDatabase, drop, recreate, scratch_database

# tool -> weight (percent of calls): 30% writes, 70% reads
MIX: dict[str, int] = {
    "memory_store_fact": 10,
    "memory_store_episode": 8,
    "memory_store_rule": 4,
    "memory_mark_helpful": 4,
    "memory_forget": 4,
    "memory_search": 20,
    "memory_recall": 20,
    "memory_context": 10,
    "memory_get": 12,
    "memory_stats": 8,
}
WRITES = frozenset(
    {"memory_store_fact", "memory_store_episode", "memory_store_rule", "memory_mark_helpful", "memory_forget"}
)
STORE_TYPES = {"memory_store_fact": "fact", "memory_store_episode": "episode", "memory_store_rule": "rule"}
# keys of a result that hold the id of a memory (recursively, also inside memory_get's record)
ID_KEYS = frozenset({"memory_id", "supersedes_id", "source_episode_id"})
PREDICATES = ["diet", "travel_plan", "work_deadline", "health", "budget", "family", "hobby", "home", "devices", "notes"]
RULE_ACTIONS = [
    "confirm the date and time",
    "summarise the plan in three bullet points",
    "ask which calendar to use",
    "check the budget",
    "suggest a vegetarian option",
    "mention the travel time",
    "list the open questions",
]
RULE_TRIGGERS = [
    "booking a trip",
    "scheduling a meeting",
    "ordering groceries",
    "paying a bill",
    "planning a party",
    "answering a work email",
    "recommending a restaurant",
]
ERROR_SAMPLES = 3  # distinct error messages kept per tool


@dataclass
class StressOptions:
    seconds: float = 150.0  # the whole load, warm-up included
    tenants: int = 4
    sessions: int = 2  # concurrent client sessions per tenant
    warmup: float | None = None  # default: min(15 s, a quarter of seconds)
    host: str = "127.0.0.1"
    database: str = "pymem_stress"
    rss_limit: float = 1.5  # end RSS at most this times the RSS after warm-up
    seed: int = 17
    json_path: Path | None = None
    markdown_path: Path | None = None
    keep: bool = False
    command: str = "pymem stress"
    started: float | None = None  # time.perf_counter() when the command started (default: now)

    @property
    def warmup_s(self) -> float:
        return self.warmup if self.warmup is not None else min(15.0, self.seconds / 4)


def check_options(options: StressOptions) -> None:
    """Refuse what would not be a bounded, loopback-only load."""
    loopback_host(options.host)
    if not 1 <= options.seconds <= 3600:
        raise InvalidArgumentError(f"--seconds must be between 1 and 3600, not {options.seconds:g}")
    if not 1 <= options.tenants <= 50:
        raise InvalidArgumentError(f"--tenants must be between 1 and 50, not {options.tenants}")
    if not 1 <= options.sessions <= 32:
        raise InvalidArgumentError(f"--sessions must be between 1 and 32 per tenant, not {options.sessions}")
    if not 0 <= options.warmup_s < options.seconds:
        raise InvalidArgumentError(f"--warmup must be at least 0 and below --seconds ({options.seconds:g})")
    if options.rss_limit <= 1:
        raise InvalidArgumentError(f"--rss-limit must be above 1, not {options.rss_limit:g}")


def loopback_host(host: str) -> str:
    """host when it is a loopback address (127.0.0.0/8, ::1); InvalidArgumentError otherwise."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        raise InvalidArgumentError(f"--host {host!r} is not an IP address; the load runs on loopback only") from None
    if not address.is_loopback:
        raise InvalidArgumentError(f"--host {host} is not a loopback address: the load runs on 127.0.0.1 or ::1 only")
    return host


# ---------------------------------------------------------------------------------------------------------------
# Tenant isolation: what each tenant stored, and the ids every call returned to it


def returned_ids(value: Any) -> list[str]:
    """Every memory id in a tool result (the ID_KEYS, at any depth: search hits, recall hits, context
    items, memory_get's record, a store's supersedes_id)."""
    found: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in ID_KEYS and isinstance(item, str):
                found.append(item)
            else:
                found.extend(returned_ids(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(returned_ids(item))
    return found


def returned_tenants(value: Any) -> set[str]:
    """Every `tenant_id` in a tool result, at any depth."""
    found: set[str] = set()
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == "tenant_id" and isinstance(item, str):
                found.add(item)
            else:
                found |= returned_tenants(item)
    elif isinstance(value, list):
        for item in value:
            found |= returned_tenants(item)
    return found


def foreign_ids(ids: Iterable[str], owned: Set[str]) -> list[str]:
    """The ids (sorted, once each) that are not among the ids the tenant stored: the checker."""
    return sorted({i for i in ids if i not in owned})


def whose(memory_id: str, ledgers: Mapping[str, TenantLedger]) -> str:
    """Who stored memory_id in this run: a tenant's name, or 'no tenant of this run'."""
    owners = [tenant for tenant, ledger in ledgers.items() if memory_id in ledger.owned]
    return ", ".join(sorted(owners)) or "no tenant of this run"


@dataclass
class TenantLedger:
    """A tenant's side of the load: its token, the ids it stored, the ones still live (to get, forget and
    mark), the ids returned to it that it had not (yet) stored, and its counts."""

    tenant: str
    token: str
    owned: set[str] = field(default_factory=set)
    live: dict[str, list[str]] = field(default_factory=lambda: {"fact": [], "episode": [], "rule": []})
    unresolved: list[tuple[str, str]] = field(default_factory=list)  # (tool, id): checked again at the end
    calls: int = 0
    ids_checked: int = 0
    review: Counter[str] = field(default_factory=Counter)  # review_state of stored facts and rules
    failures: list[str] = field(default_factory=list)
    consolidated: set[str] = field(default_factory=set)  # ids the consolidation worker drew from its episodes

    def stored(self, memory_type: str, result: Mapping[str, Any]) -> None:
        memory_id = str(result["memory_id"])
        self.owned.add(memory_id)
        self.live[memory_type].append(memory_id)
        if memory_type != "episode":
            self.review[str(result.get("review_state", "approved"))] += 1

    def forgotten(self, memory_type: str, memory_id: str) -> None:
        if memory_id in self.live[memory_type]:
            self.live[memory_type].remove(memory_id)

    def check(self, tool: str, result: Mapping[str, Any]) -> None:
        """Check a result: its tenant_ids are the caller's, its ids the caller's (or checked again at the end)."""
        for tenant in sorted(returned_tenants(result) - {self.tenant}):
            self.failures.append(f"{tool} returned tenant_id {tenant!r} to tenant {self.tenant!r}")
        ids = returned_ids(result)
        self.ids_checked += len(ids)
        self.unresolved.extend((tool, i) for i in foreign_ids(ids, self.owned))

    def resolve(
        self, ledgers: Mapping[str, TenantLedger], derived: Mapping[str, tuple[str, str | None]] | None = None
    ) -> list[dict[str, str]]:
        """At the end, when every store call has answered: the ids returned to this tenant that it never
        stored (an id seen by a search before the store that made it had answered is resolved here). A fact or
        rule the server's consolidation worker drew from one of the tenant's own episodes is the tenant's:
        derived maps such an id to (its tenant, its source episode), read from the database."""
        foreign = []
        for tool, memory_id in self.unresolved:
            tenant, episode = (derived or {}).get(memory_id, ("", None))
            if tenant == self.tenant and episode in self.owned:
                self.consolidated.add(memory_id)
                continue
            if foreign_ids([memory_id], self.owned):
                foreign.append(
                    {"tenant": self.tenant, "tool": tool, "id": memory_id, "stored_by": whose(memory_id, ledgers)}
                )
        return foreign


# ---------------------------------------------------------------------------------------------------------------
# The server process and its RSS


def free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def server_env(scratch: ScratchDatabase, workdir: Path) -> dict[str, str]:
    """The server's environment: the scratch database, no config file, no butler folder, no replica;
    the embedding settings (model, threads, model folder, keyword-only) as the caller has them."""
    keep = {"PYMEM_EMBEDDINGS", "PYMEM_EMBEDDING_MODEL", "PYMEM_EMBEDDING_THREADS", "PYMEM_MODEL_DIR"}
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYMEM_") or k in keep}
    config = workdir / "config.toml"
    config.write_text("")
    (workdir / "butlers").mkdir(exist_ok=True)
    env.update(
        PYMEM_DSN=scratch.migrator_dsn,
        PYMEM_APP_DSN=scratch.app_dsn,
        PYMEM_CONFIG=str(config),
        PYMEM_BUTLERS_DIR=str(workdir / "butlers"),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
    )
    return env


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    url: str
    command: list[str]
    log: Path


@contextmanager
def spawn_http_server(
    env: Mapping[str, str], workdir: Path, host: str = "127.0.0.1", timeout: float = 120.0
) -> Iterator[Server]:
    """`pymem serve --transport http` with env on a free port of the loopback address host, its output in
    workdir/server.log; yielded once it listens, stopped at the end (also what the tests serve with). host may
    also be a wildcard address (0.0.0.0, ::): the server then binds every address and is reached on loopback."""
    wildcard = {"0.0.0.0": "127.0.0.1", "::": "::1"}
    connect = wildcard.get(host) or loopback_host(host)
    port = free_port(host)
    command = [*pymem_command(), "serve", "--transport", "http", "--host", host, "--port", str(port)]
    log = workdir / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, env=dict(env), stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"pymem serve exited with {process.returncode}:\n{_tail(log)}")
            try:
                socket.create_connection((connect, port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"pymem serve did not listen within {timeout:.0f} s:\n{_tail(log)}") from None
                time.sleep(0.1)
        name = f"[{connect}]" if ":" in connect else connect
        yield Server(process=process, url=f"http://{name}:{port}/mcp", command=command, log=log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)


@contextmanager
def http_server(scratch: ScratchDatabase, host: str, workdir: Path, timeout: float = 120.0) -> Iterator[Server]:
    """`pymem serve --transport http` on the scratch database (spawn_http_server)."""
    with spawn_http_server(server_env(scratch, workdir), workdir, host, timeout) as server:
        yield server


def log_problems(text: str) -> list[dict[str, Any]]:
    """The server's warnings and errors in its log, each once with its count: a `pymem: ...` line (or
    uvicorn's `ERROR: ...`) with the exception that ends its traceback and that exception's CONTEXT line."""
    lines = text.splitlines()
    found: Counter[str] = Counter()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not (line.startswith("pymem: ") or line.startswith("ERROR:")) or line.startswith("pymem: serving"):
            continue
        entry = line
        if i < len(lines) and lines[i].startswith("Traceback"):
            while i + 1 < len(lines) and (lines[i + 1].startswith(" ") or lines[i + 1].startswith("Traceback")):
                i += 1
            i += 1
            if i < len(lines):
                entry += " -> " + lines[i]
                context = next((c for c in lines[i + 1 : i + 8] if c.startswith("CONTEXT:")), None)
                if context is not None:  # without the tuple's address, so that one cause is counted once
                    where = re.sub(r"tuple \(\d+,\d+\)", "a tuple", context.removeprefix("CONTEXT:").strip())
                    entry += f" ({where})"
        found[entry[:400]] += 1
    return [{"message": message, "count": count} for message, count in found.most_common(20)]


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def rss_reader(pid: int) -> tuple[str, Any]:
    """(source, read) where read() is the RSS of process pid in bytes: psutil when installed, else
    /proc/<pid>/status (VmRSS)."""
    try:
        import psutil
    except ImportError:
        status = Path(f"/proc/{pid}/status")

        def from_proc() -> int:
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
            raise OSError(f"no VmRSS in {status}")

        return "/proc/<pid>/status VmRSS", from_proc
    process = psutil.Process(pid)
    return "psutil", lambda: int(process.memory_info().rss)


class RssSampler:
    """Samples a process's RSS every `interval` seconds in a thread: (seconds since start, bytes)."""

    def __init__(self, pid: int, interval: float = 1.0) -> None:
        self.source, self._read = rss_reader(pid)
        self.interval = interval
        self.samples: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pymem-stress-rss", daemon=True)
        self.started = time.monotonic()

    def _run(self) -> None:
        while True:
            try:
                self.samples.append((time.monotonic() - self.started, self._read()))
            except Exception:  # OSError, psutil.NoSuchProcess: the process is gone
                return
            if self._stop.wait(self.interval):
                return

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def at(self, seconds: float) -> int | None:
        """The first sample taken at or after `seconds` since the start (else the last one)."""
        later = [rss for t, rss in self.samples if t >= seconds]
        return later[0] if later else (self.samples[-1][1] if self.samples else None)


def rss_report(sampler: RssSampler, warmup_at: float, limit: float) -> dict[str, Any]:
    """Start, after warm-up, peak and end RSS in MB, and whether the end stayed within limit x the
    RSS after warm-up."""
    if not sampler.samples:
        return {"source": sampler.source, "samples": 0, "flat": None, "note": "no RSS sample could be read"}
    mb = [rss / 2**20 for _, rss in sampler.samples]
    after = (sampler.at(warmup_at) or sampler.samples[0][1]) / 2**20
    ratio = mb[-1] / after if after else math.nan
    return {
        "source": sampler.source,
        "interval_s": sampler.interval,
        "samples": len(mb),
        "start_mb": round(mb[0], 1),
        "after_warmup_mb": round(after, 1),
        "peak_mb": round(max(mb), 1),
        "end_mb": round(mb[-1], 1),
        "end_over_warmup": round(ratio, 3),
        "limit": limit,
        "flat": bool(ratio <= limit),
        "series_mb": [[round(t, 1), round(m, 1)] for (t, _), m in zip(sampler.samples, mb, strict=True)],
    }


# ---------------------------------------------------------------------------------------------------------------
# The load


@dataclass
class ToolTally:
    calls: int = 0  # measured (after warm-up)
    errors: int = 0  # measured tool errors and failed calls
    warmup_calls: int = 0
    warmup_errors: int = 0
    latencies: list[float] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)


@dataclass
class Load:
    """The shared state of one run (one event loop, so no locks)."""

    ledgers: dict[str, TenantLedger]
    queries: list[str]
    texts: list[str]
    measure_from: float  # time.monotonic() at which warm-up ends
    deadline: float  # time.monotonic() after which no call starts
    tallies: dict[str, ToolTally] = field(default_factory=lambda: {tool: ToolTally() for tool in MIX})
    session_errors: list[str] = field(default_factory=list)
    measured_until: float = 0.0
    server_exit: int | None = None  # the server's exit status, had it stopped before the end

    def record(self, tool: str, started: float, seconds: float, error: str | None) -> None:
        tally = self.tallies[tool]
        if started < self.measure_from:
            tally.warmup_calls += 1
            tally.warmup_errors += error is not None
        else:
            tally.calls += 1
            tally.latencies.append(seconds)
            self.measured_until = max(self.measured_until, started + seconds)
            if error is not None:
                tally.errors += 1
        if error is not None and len(tally.messages) < ERROR_SAMPLES and error not in tally.messages:
            tally.messages.append(error[:300])


class Session:
    """One client session of one tenant: picks tools by MIX and checks every result."""

    def __init__(self, load: Load, ledger: TenantLedger, rng: random.Random) -> None:
        self.load = load
        self.ledger = ledger
        self.rng = rng
        self.session_id = str(uuid.uuid4())
        self.butler = rng.choice(corpus.BUTLERS)
        self._tools = list(MIX)
        self._weights = list(MIX.values())

    def pick(self) -> str:
        return self.rng.choices(self._tools, self._weights)[0]

    def _live(self, *types: str) -> tuple[str, str] | None:
        candidates = [(t, i) for t in types for i in self.ledger.live[t]]
        return self.rng.choice(candidates) if candidates else None

    def arguments(self, tool: str) -> tuple[str, dict[str, Any]]:
        """(tool, arguments); a tool that needs a memory the tenant does not have yet becomes a store."""
        rng, load = self.rng, self.load
        if tool == "memory_get":
            chosen = self._live("fact", "episode", "rule")
            if chosen is None:
                return self.arguments("memory_store_fact")
            return tool, {"type": chosen[0], "id": chosen[1]}
        if tool == "memory_forget":
            chosen = self._live("fact", "episode")
            if chosen is None:
                return self.arguments("memory_store_episode")
            return tool, {"type": chosen[0], "id": chosen[1]}
        if tool == "memory_mark_helpful":
            chosen = self._live("rule")
            if chosen is None:
                return self.arguments("memory_store_rule")
            return tool, {"rule_id": chosen[1]}
        if tool == "memory_store_fact":
            return tool, {
                "subject": rng.choice(corpus.PEOPLE),
                "predicate": rng.choice(PREDICATES),
                "content": rng.choice(load.texts),
                "source": "user_statement",
            }
        if tool == "memory_store_episode":
            return tool, {"content": rng.choice(load.texts), "butler": self.butler, "session_id": self.session_id}
        if tool == "memory_store_rule":
            return tool, {
                "content": f"Always {rng.choice(RULE_ACTIONS)} when {rng.choice(RULE_TRIGGERS)}",
                "source": "user_statement",
            }
        if tool == "memory_search":
            return tool, {"query": rng.choice(load.queries), "limit": 10}
        if tool == "memory_recall":
            return tool, {"topic": rng.choice(load.queries), "limit": 10}
        if tool == "memory_context":
            return tool, {"trigger_prompt": rng.choice(load.queries), "butler": self.butler, "token_budget": 600}
        return tool, {}  # memory_stats

    async def call(self, client: Any, tool: str, arguments: dict[str, Any]) -> None:
        from mcp.shared.exceptions import MCPError

        ledger = self.ledger
        started = time.monotonic()
        content: dict[str, Any] | None = None
        try:
            result = await client.call_tool(tool, arguments, read_timeout_seconds=60)
        except MCPError as exc:  # a protocol-level refusal: counted like a tool error
            error: str | None = f"MCP error {exc}"
        else:
            content = None if result.is_error else result.structured_content
            if result.is_error:
                error = " ".join(getattr(part, "text", "") for part in result.content) or "tool error"
            else:
                error = None if content is not None else "no structured content"
        ledger.calls += 1
        self.load.record(tool, started, time.monotonic() - started, error)
        if content is None:
            return
        if tool in STORE_TYPES:
            ledger.stored(STORE_TYPES[tool], content)
        elif tool == "memory_forget":
            ledger.forgotten(arguments["type"], arguments["id"])
        ledger.check(tool, content)

    async def run(self, url: str) -> None:
        """Calls until the deadline; a broken session (transport error) is counted and opened again."""
        while time.monotonic() < self.load.deadline:
            try:
                async with http_client(url, self.ledger.token) as client:
                    while time.monotonic() < self.load.deadline:
                        await self.call(client, *self.arguments(self.pick()))
            except Exception as exc:
                self.load.session_errors.append(f"{self.ledger.tenant}: {type(exc).__name__}: {exc}"[:300])
                await anyio.sleep(0.5)


@asynccontextmanager
async def http_client(url: str, token: str) -> AsyncIterator[Any]:
    """A real MCP client session over streamable HTTP, with the bearer token."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client


async def prime(url: str, ledger: TenantLedger, load: Load, rng: random.Random) -> None:
    """Before the clock: a fact for each tenant and a recall (the server loads its model then)."""
    session = Session(load, ledger, rng)
    async with http_client(url, ledger.token) as client:
        await session.call(client, *session.arguments("memory_store_fact"))
        await session.call(client, *session.arguments("memory_recall"))


async def drive(url: str, options: StressOptions, load: Load, rss_started: float) -> float:
    """Prime every tenant, then run every session until the deadline; returns when the measured window
    began, in seconds since the RSS sampler started."""
    rng = random.Random(options.seed)
    for ledger in load.ledgers.values():
        await prime(url, ledger, load, random.Random(rng.random()))
    for tally in load.tallies.values():  # priming is not part of the load
        tally.warmup_calls = tally.warmup_errors = 0
    begin = time.monotonic()
    load.measure_from = begin + options.warmup_s
    load.deadline = begin + options.seconds
    load.measured_until = load.measure_from
    with anyio.fail_after(options.seconds + 180):
        async with anyio.create_task_group() as group:
            for ledger in load.ledgers.values():
                for _ in range(options.sessions):
                    group.start_soon(Session(load, ledger, random.Random(rng.random())).run, url)
    return load.measure_from - rss_started


# ---------------------------------------------------------------------------------------------------------------
# The run and its report


def run(options: StressOptions, settings: Settings | None = None) -> dict[str, Any]:
    """The whole load; returns the results (also written to options.json_path / markdown_path).
    results['ok'] is False when a failure was seen (results['failures'] says which)."""
    settings = settings or Settings.from_env()
    check_options(options)
    clock = Clock(options.started)
    log = clock.log
    scratch = scratch_database(settings, options.database)
    log(f"scratch database {scratch.name}: dropping, creating, migrating")
    recreate(scratch)
    try:
        results = _run(options, settings, scratch, log)
    finally:
        if options.keep:
            log(f"kept the scratch database {scratch.name}")
        else:
            drop(scratch)
    results["wall_s"] = round(time.perf_counter() - clock.started, 1)
    if options.json_path is not None:
        reports.write_json(results, options.json_path)
        log(f"wrote {options.json_path}")
    if options.markdown_path is not None:
        options.markdown_path.parent.mkdir(parents=True, exist_ok=True)
        options.markdown_path.write_text(markdown(results))
        log(f"wrote {options.markdown_path}")
    return results


def _run(options: StressOptions, settings: Settings, scratch: ScratchDatabase, log: Any) -> dict[str, Any]:
    from pymem.embeddings import model_choice

    tenants = [f"stress-{i:02d}" for i in range(options.tenants)]
    ledgers = {
        t: TenantLedger(t, bearer_tokens.create_token(scratch.migrator_dsn, t, label="pymem stress").token)
        for t in tenants
    }
    model = model_choice(settings.embedding_model) if settings.embeddings else None
    environment = reports.environment(scratch.migrator_dsn, model)
    load = Load(
        ledgers=ledgers,
        queries=corpus.query_texts(300, seed=options.seed),
        texts=corpus.unique_texts(2000, seed=options.seed),
        measure_from=math.inf,
        deadline=math.inf,
    )
    with tempfile.TemporaryDirectory(prefix="pymem-stress-") as tmp:
        log(f"starting pymem serve over HTTP on {options.host} (tokens for {len(tenants)} tenants)")
        with http_server(scratch, options.host, Path(tmp)) as server, RssSampler(server.process.pid) as sampler:
            log(
                f"serving at {server.url} (pid {server.process.pid}); {len(tenants)} tenants x {options.sessions}"
                f" sessions for {options.seconds:g} s, the first {options.warmup_s:g} s warm-up"
            )
            warmup_at = anyio.run(drive, server.url, options, load, sampler.started)
            time.sleep(min(1.0, sampler.interval))  # one more sample after the last call
            load.server_exit = server.process.poll()  # None: it was still serving
            command = server.command
        log(f"server stopped; {sum(ledger.calls for ledger in ledgers.values())} calls made")
        problems = log_problems(server.log.read_text(errors="replace"))
    derived = derived_memories(scratch, [i for ledger in ledgers.values() for _, i in ledger.unresolved])
    results = report(options, load, rss_report(sampler, warmup_at, options.rss_limit), environment, command, derived)
    results["server_log"] = problems
    return results


def derived_memories(scratch: ScratchDatabase, ids: list[str]) -> dict[str, tuple[str, str | None]]:
    """For ids no tenant of the run stored: the tenant and source episode of each that is a fact or rule in the
    database (what the server's consolidation worker drew from an episode), read as the migrator."""
    if not ids:
        return {}
    with psycopg.connect(scratch.migrator_dsn) as conn:
        rows = conn.execute(
            "select id::text, tenant_id, source_episode_id::text from pymem.facts where id::text = any(%(ids)s)"
            " union all"
            " select id::text, tenant_id, source_episode_id::text from pymem.rules where id::text = any(%(ids)s)",
            {"ids": sorted(set(ids))},
        ).fetchall()
    return {memory_id: (tenant, episode) for memory_id, tenant, episode in rows}


def report(
    options: StressOptions,
    load: Load,
    rss: dict[str, Any],
    environment: dict[str, Any],
    command: list[str],
    derived: Mapping[str, tuple[str, str | None]] | None = None,
) -> dict[str, Any]:
    window = max(load.measured_until - load.measure_from, 1e-9)
    tools = _tool_figures(load, window)
    calls = sum(t["calls"] for t in tools)
    all_latencies = [s for tally in load.tallies.values() for s in tally.latencies]
    foreign = [f for ledger in load.ledgers.values() for f in ledger.resolve(load.ledgers, derived)]
    shared = _shared_ids(load.ledgers)
    failures = _failures(load, rss, foreign, shared, calls)
    return {
        "command": options.command,
        "machine": environment,
        "config": _config(options, command),
        "totals": {
            "calls": calls,
            "errors": sum(t["errors"] for t in tools),
            "calls_per_s": round(calls / window, 2),
            "measured_s": round(window, 1),
            "warmup_calls": sum(t["warmup_calls"] for t in tools),
            **{k: stats(all_latencies).get(k) for k in ("p50_ms", "p95_ms", "p99_ms", "max_ms")},
            "session_errors": len(load.session_errors),
        },
        "tools": tools,
        "tenants": _tenant_figures(load, foreign),
        "isolation": {
            "ids_checked": sum(ledger.ids_checked for ledger in load.ledgers.values()),
            "foreign": foreign,
            "ok": not foreign and not shared and not any(ledger.failures for ledger in load.ledgers.values()),
        },
        "session_errors": load.session_errors[:20],
        "rss": rss,
        "failures": failures,
        "ok": not failures,
    }


def _tool_figures(load: Load, window: float) -> list[dict[str, Any]]:
    """Calls, errors, calls/s and latency percentiles of each tool over the measured window."""
    tools: list[dict[str, Any]] = []
    for tool, tally in load.tallies.items():
        st = stats(tally.latencies)
        tools.append(
            {
                "tool": tool,
                "kind": "write" if tool in WRITES else "read",
                "calls": tally.calls,
                "errors": tally.errors,
                "calls_per_s": round(tally.calls / window, 2),
                **{k: st.get(k) for k in ("p50_ms", "p95_ms", "p99_ms", "max_ms")},
                "warmup_calls": tally.warmup_calls,
                "warmup_errors": tally.warmup_errors,
                "error_samples": tally.messages,
            }
        )
    return tools


def _failures(
    load: Load, rss: dict[str, Any], foreign: list[dict[str, str]], shared: list[str], calls: int
) -> list[str]:
    """What makes the run fail: a foreign or shared id, a ledger's own failure, a growing RSS, a server that
    exited, no call measured."""
    failures = [f"{f['tool']} returned {f['id']} to {f['tenant']}; stored by {f['stored_by']}" for f in foreign]
    failures += [f for ledger in load.ledgers.values() for f in ledger.failures]
    failures += [f"id {i} was stored by more than one tenant" for i in shared]
    if rss.get("flat") is False:
        failures.append(
            f"server RSS grew from {rss['after_warmup_mb']} MB after warm-up to {rss['end_mb']} MB at the end"
            f" ({rss['end_over_warmup']}x > {rss['limit']}x)"
        )
    if load.server_exit is not None:
        failures.append(f"the server exited with status {load.server_exit} during the load")
    if calls == 0:
        failures.append("no call was measured")
    return failures


def _config(options: StressOptions, command: list[str]) -> dict[str, Any]:
    return {
        "tenants": options.tenants,
        "sessions_per_tenant": options.sessions,
        "concurrent_sessions": options.tenants * options.sessions,
        "seconds": options.seconds,
        "warmup_s": options.warmup_s,
        "mix_percent": MIX,
        "write_percent": sum(MIX[t] for t in WRITES) * 100 // sum(MIX.values()),
        "host": options.host,
        "database": options.database,
        "server_command": " ".join(command),
        "transport": "streamable HTTP, a bearer token per tenant, the MCP SDK's client",
    }


def _tenant_figures(load: Load, foreign: list[dict[str, str]]) -> list[dict[str, Any]]:
    return [
        {
            "tenant": ledger.tenant,
            "calls": ledger.calls,
            "stored": len(ledger.owned),
            "review_states": dict(ledger.review),
            "ids_checked": ledger.ids_checked,
            "seen_before_their_store_answered": sum(
                1 for _, i in ledger.unresolved if not foreign_ids([i], ledger.owned)
            ),
            "consolidated_from_its_episodes": len(ledger.consolidated),
            "foreign": sum(1 for f in foreign if f["tenant"] == ledger.tenant),
        }
        for ledger in load.ledgers.values()
    ]


def _shared_ids(ledgers: Mapping[str, TenantLedger]) -> list[str]:
    seen: Counter[str] = Counter(i for ledger in ledgers.values() for i in ledger.owned)
    return sorted(i for i, n in seen.items() if n > 1)


def _ms(value: Any) -> str:
    return reports.fmt(value, 1)


def tool_rows(results: dict[str, Any]) -> list[list[str]]:
    rows = [
        [
            t["tool"],
            t["kind"],
            str(t["calls"]),
            f"{t['calls_per_s']:.2f}",
            _ms(t["p50_ms"]),
            _ms(t["p95_ms"]),
            _ms(t["p99_ms"]),
            str(t["errors"]),
        ]
        for t in results["tools"]
    ]
    totals = results["totals"]
    rows.append(
        [
            "all",
            f"{results['config']['write_percent']}% writes",
            str(totals["calls"]),
            f"{totals['calls_per_s']:.2f}",
            _ms(totals["p50_ms"]),
            _ms(totals["p95_ms"]),
            _ms(totals["p99_ms"]),
            str(totals["errors"]),
        ]
    )
    return rows


TOOL_HEADER = ["tool", "kind", "calls", "calls/s", "p50 ms", "p95 ms", "p99 ms", "errors"]


def summary_lines(results: dict[str, Any]) -> list[str]:
    """Isolation, RSS and the verdict, one line each."""
    iso, rss, cfg, totals = results["isolation"], results["rss"], results["config"], results["totals"]
    lines = [
        f"{cfg['tenants']} tenants x {cfg['sessions_per_tenant']} sessions, {totals['measured_s']} s measured"
        f" after {cfg['warmup_s']:g} s warm-up ({totals['warmup_calls']} calls not measured)",
        f"isolation: {iso['ids_checked']} returned ids checked, {len(iso['foreign'])} foreign"
        + ("" if iso["ok"] else " FAILED"),
    ]
    if rss.get("samples"):
        lines.append(
            f"server RSS ({rss['source']}, every {rss['interval_s']:g} s): start {rss['start_mb']} MB, after warm-up"
            f" {rss['after_warmup_mb']} MB, peak {rss['peak_mb']} MB, end {rss['end_mb']} MB"
            f" ({rss['end_over_warmup']}x; {'flat' if rss['flat'] else 'GREW'}, limit {rss['limit']}x)"
        )
    else:
        lines.append("server RSS: not sampled")
    if totals["session_errors"]:
        lines.append(
            f"{totals['session_errors']} client session(s) broke and were opened again: {results['session_errors'][0]}"
        )
    for problem in results.get("server_log", [])[:5]:
        lines.append(f"server log: {problem['count']} x {problem['message']}")
    lines.append("ok" if results["ok"] else "FAILED: " + "; ".join(results["failures"][:5]))
    return lines


def markdown(results: dict[str, Any]) -> str:
    """The report as markdown (stress/results.md)."""
    m, cfg = results["machine"], results["config"]
    machine = reports.table(["machine", ""], reports.environment_rows(m))
    tenants = reports.table(
        [
            "tenant",
            "calls",
            "stored",
            "ids checked",
            "seen before their store answered",
            "consolidated from its episodes",
            "foreign",
        ],
        [
            [
                t["tenant"],
                str(t["calls"]),
                str(t["stored"]),
                str(t["ids_checked"]),
                str(t["seen_before_their_store_answered"]),
                str(t.get("consolidated_from_its_episodes", 0)),
                str(t["foreign"]),
            ]
            for t in results["tenants"]
        ],
    )
    problems = [f"- {p['count']} x `{p['message']}`" for p in results.get("server_log", [])]
    mix = ", ".join(f"{tool.removeprefix('memory_')} {weight}%" for tool, weight in cfg["mix_percent"].items())
    errors = [
        f"- `{t['tool']}`: {t['errors']} error(s), e.g. {t['error_samples'][0]!r}"
        for t in results["tools"]
        if t["errors"] and t["error_samples"]
    ]
    parts = [
        "# pymem load (`make stress`)",
        "",
        f"Run {m['date']} in {results.get('wall_s', '-')} s (`{results['command']}`).",
        "",
        machine,
        "",
        f"`{cfg['server_command']}` on a scratch database ({cfg['database']}); {cfg['tenants']} tenants x"
        f" {cfg['sessions_per_tenant']} concurrent sessions ({cfg['transport']}) for {cfg['seconds']:g} s, the first"
        f" {cfg['warmup_s']:g} s warm-up (not measured). Mix: {mix} ({cfg['write_percent']}% writes).",
        "",
        "## Throughput and latency per tool (client side, MCP round trip, embedding included)",
        "",
        reports.table(TOOL_HEADER, tool_rows(results)),
        "",
        *(["Errors (counted, not fatal):", "", *errors, ""] if errors else []),
        *(["The server's log:", "", *problems, ""] if problems else []),
        "## Tenant isolation",
        "",
        "Every memory id a call returned (search and recall hits, context items, memory_get, store results) is"
        " checked against the ids the caller's own store calls returned; an id seen before its store call answered"
        " is checked again at the end.",
        "",
        tenants,
        "",
        "## Server memory",
        "",
        summary_lines(results)[2],
        "",
        "## Verdict",
        "",
        "ok" if results["ok"] else "FAILED:\n\n" + "\n".join(f"- {f}" for f in results["failures"]),
        "",
    ]
    return "\n".join(parts)
