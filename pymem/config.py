"""Configuration from the environment.

PYMEM_DSN        migrator DSN of any PostgreSQL >= 15 with pgvector >= 0.8 (a role that can
                 create roles and extensions); unset: the embedded server is used
PYMEM_APP_DSN    DSN the application uses (default: PYMEM_DSN with user pymem_app)
PYMEM_APP_PASSWORD  password of pymem_app when PYMEM_APP_DSN is not given
PYMEM_DATA_DIR   where the embedded server keeps its data (default: per-user data dir)
PYMEM_DATABASE   database name on the embedded server (default: pymem)
PYMEM_TENANT     default tenant of the command line (default: default)
PYMEM_VECTOR_INDEX  hnsw (default) or ivfflat, chosen when the schema is first migrated
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


@dataclass(frozen=True)
class Settings:
    dsn: str | None = None
    app_dsn: str | None = None
    app_password: str | None = None
    data_dir: Path = field(default_factory=lambda: Path(platformdirs.user_data_dir("pymem")))
    database: str = "pymem"
    tenant: str = "default"

    @classmethod
    def from_env(cls) -> Settings:
        data_dir = _env("PYMEM_DATA_DIR")
        return cls(
            dsn=_env("PYMEM_DSN"),
            app_dsn=_env("PYMEM_APP_DSN"),
            app_password=_env("PYMEM_APP_PASSWORD"),
            data_dir=Path(data_dir).expanduser() if data_dir else Path(platformdirs.user_data_dir("pymem")),
            database=_env("PYMEM_DATABASE") or "pymem",
            tenant=_env("PYMEM_TENANT") or "default",
        )
