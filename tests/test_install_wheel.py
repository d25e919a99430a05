"""Install without a checkout: the wheel of this checkout, `pip install`ed with its dependencies (from the package
index) into a fresh virtualenv (no system site-packages, nothing of the checkout on its path), serves MCP over stdio
with that virtualenv's own `pymem` command, as an agent's configuration would start it after `pipx install pymem-pg`.

The server migrates an empty database from the migrations in the wheel and, with an empty model directory, makes the
ONNX model on first use, as on a new user's machine (that once needs torch, which the install brings). The test is
slow for a test (about 80 s on 2 cores, most of it pip installing torch); it is skipped, saying why, only when the
package index cannot be reached.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

import anyio
import psycopg
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from psycopg import sql

from pymem import embedded, migrate
from tests.conftest import base_env
from tests.mcpclient import call

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "pymem-pg"
INSTALL_TIMEOUT = 900  # seconds for pip: the wheel's dependencies are about 1.7 GB installed (torch the most)
ROUND_TRIP_TIMEOUT = 300  # seconds for the MCP session: migrating, and making the ONNX model once, come first
# pip's words when it cannot reach the index (as opposed to a dependency that does not resolve)
NO_INDEX = (
    "Could not fetch URL",
    "NewConnectionError",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Name or service not known",
    "Network is unreachable",
    "ConnectTimeoutError",
    "ProxyError",
    "Read timed out",
)


def _clean_env(**extra: str) -> dict[str, str]:
    """base_env (no PYMEM_ settings, offline models) without anything that would put this checkout or this
    virtualenv on the fresh one's path."""
    return {k: v for k, v in base_env(**extra).items() if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}}


def _torch_constraint(folder: Path) -> list[str]:
    """torch pinned to the release of this environment, as `make install` pins it: pip then takes the CPU build from
    this machine's wheels, where left free it takes the newest torch, on Linux the CUDA build with gigabytes of
    nvidia wheels. The local label (+cpu) is dropped, so the pin resolves wherever that release exists."""
    try:
        version = metadata.version("torch").split("+", 1)[0]
    except metadata.PackageNotFoundError:
        return []
    constraints = folder / "constraints.txt"
    constraints.write_text(f"torch=={version}\n")
    return ["--constraint", str(constraints)]


def _tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def _install(tmp: Path) -> Path:
    """Build the wheel into tmp, make a virtualenv there and pip install the wheel into it; its bin/."""
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(tmp)]
    subprocess.run([*build, str(ROOT)], check=True, capture_output=True, text=True)
    (wheel,) = tmp.glob("pymem_pg-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, text=True)
    python = venv / "bin" / "python"
    command = [str(python), "-m", "pip", "install", "--quiet", *_torch_constraint(tmp), str(wheel)]
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            env=_clean_env(),
            cwd=tmp,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as exc:
        parts = (exc.stdout, exc.stderr)  # bytes: what pip wrote before it was stopped
        output = "".join(part.decode() if isinstance(part, bytes) else part for part in parts if part)
        _skip_without_index(output)
        pytest.fail(f"pip install {wheel.name} took over {INSTALL_TIMEOUT} s:\n{_tail(output)}")
    if done.returncode != 0:
        output = done.stdout + done.stderr
        _skip_without_index(output)
        pytest.fail(f"pip install {wheel.name} failed ({done.returncode}):\n{_tail(output)}")
    return venv / "bin"


def _skip_without_index(pip_output: str) -> None:
    """Skip when pip's output of a failed install says that it could not reach the index (pip retries, and warns
    each time, unless told not to)."""
    lines = [line for line in pip_output.splitlines() if any(marker in line for marker in NO_INDEX)]
    if lines:
        pytest.skip(f"the package index cannot be reached to install the wheel's dependencies: {lines[-1].strip()}")


@pytest.fixture(scope="module")
def fresh_bin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The bin/ of a fresh virtualenv where pip installed this checkout's wheel with its dependencies; removed after
    the module (it holds about 1.7 GB)."""
    tmp = tmp_path_factory.mktemp("install-wheel")
    try:
        yield _install(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def empty_database(server: embedded.EmbeddedServer, name: str) -> Iterator[str]:
    """A database of its own on the session's server, not migrated (the installed server migrates it); its
    superuser DSN, and it is dropped afterwards."""
    admin = server.conninfo()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    try:
        yield server.conninfo(dbname=name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))


def test_the_fresh_install_is_the_product_alone(fresh_bin: Path) -> None:
    """pymem-pg is installed from the wheel, pymem imports from the fresh site-packages, the development tooling
    is not there, and pip finds every dependency satisfied."""
    script = (
        "import importlib.metadata as m, importlib.util as u, pymem;"
        f"print(m.version({DISTRIBUTION!r})); print(pymem.__file__); print(u.find_spec('pymem_dev'))"
    )
    done = subprocess.run(
        [str(fresh_bin / "python"), "-c", script], capture_output=True, text=True, env=_clean_env(), cwd=fresh_bin
    )
    assert done.returncode == 0, done.stderr
    version, module, tooling = done.stdout.split()
    assert version == "0.1.0"
    assert Path(module).is_relative_to(fresh_bin.parent / "lib")
    assert tooling == "None"
    check = subprocess.run(
        [str(fresh_bin / "python"), "-m", "pip", "check"], capture_output=True, text=True, env=_clean_env()
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert (fresh_bin / "pymem").is_file()


@pytest.mark.anyio
async def test_the_installed_pymem_serves_mcp_over_stdio(
    fresh_bin: Path, pg_server: embedded.EmbeddedServer, tmp_path: Path
) -> None:
    """One agent session with the installed command on an empty database and an empty model directory: the
    server migrates the database from the wheel's migrations and makes the ONNX model; a fact stored is recalled
    by hybrid (semantic and keyword) search, and the stats say semantic search is ready."""
    models = tmp_path / "models"
    with empty_database(pg_server, "pymem_wheel") as dsn:
        env = _clean_env(
            PYMEM_DSN=dsn,
            PYMEM_TENANT="wheel",
            PYMEM_MODEL_DIR=str(models),
            PYMEM_BUTLERS_DIR=str(tmp_path / "butlers"),
            XDG_CONFIG_HOME=str(tmp_path),  # no config file: only the environment configures the server
        )
        params = StdioServerParameters(command=str(fresh_bin / "pymem"), args=["serve"], env=env, cwd=str(tmp_path))
        with anyio.fail_after(ROUND_TRIP_TIMEOUT):
            async with Client(params) as client:
                assert "memory_recall" in {tool.name for tool in (await client.list_tools()).tools}
                stored = await call(
                    client, "memory_store_fact", subject="user", predicate="home", content="The user lives in Lisbon"
                )
                assert stored["tenant_id"] == "wheel"
                recalled = await call(client, "memory_recall", topic="Which city does the user live in?")
                assert [hit["memory_id"] for hit in recalled["results"]] == [stored["memory_id"]]
                assert recalled["results"][0]["search_mode"] == "hybrid"
                stats = await call(client, "memory_stats")
                assert (stats["facts_active"], stats["unembedded"], stats["semantic_search"]) == (1, 0, "ready")
        assert migrate.current(dsn) == migrate.head()
    assert (models / "all-MiniLM-L6-v2-fp32.onnx").is_file()
