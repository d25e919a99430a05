"""pymem: long-term memory for AI agents, inside PostgreSQL."""

__version__ = "0.1.0"
