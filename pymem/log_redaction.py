"""No credential in a log line: bearer tokens, pymem tokens and the query parameters that carry credentials are
redacted from every log record, whichever logger writes it (uvicorn's access and error logs, the MCP SDK's,
psycopg's, pymem's own), before any handler formats it.

    restore = install()   # at the start of `pymem serve`; restore() puts the previous record factory back
    redact("GET /mcp?access_token=pmt_abc HTTP/1.1")   # 'GET /mcp?access_token=[redacted] HTTP/1.1'

A token sent in the URL is refused (only the Authorization header authenticates), but uvicorn's access log
writes the URL as it came; a record factory, unlike a filter on some loggers or handlers, sees every record of
every logger, including loggers and handlers set up after it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from typing import Any

from pymem.bearer_tokens import TOKEN_PATTERN

REDACTED = "[redacted]"

# query (or form) parameters whose value is a credential: the name, not a longer name ending in it (monkey=)
SECRET_PARAMETERS = (
    "access_token",
    "refresh_token",
    "id_token",
    "token",
    "api_key",
    "apikey",
    "key",
    "auth",
    "authorization",
    "password",
    "passwd",
    "secret",
    "client_secret",
)
# the value runs to the next separator; a value that is a %-format placeholder (%s, %r, %(name)s) of a log
# message is left alone so that its arguments still format (they are redacted themselves)
_PARAMETER = re.compile(r"(?<![\w.-])(" + "|".join(SECRET_PARAMETERS) + r")=(?!%[sr(])[^&\s\"'#<>]+", re.IGNORECASE)
_BEARER = re.compile(r"\b(bearer)\s+[A-Za-z0-9._~+/-]{16,}=*", re.IGNORECASE)


def redact(text: str) -> str:
    """text with every credential-carrying query parameter's value, every Bearer credential and every
    pymem token (pymem.bearer_tokens.TOKEN_PATTERN) replaced by REDACTED."""
    text = _PARAMETER.sub(lambda m: f"{m.group(1)}={REDACTED}", text)
    text = _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    return TOKEN_PATTERN.sub(lambda m: f"{m.group(0)[:4]}{REDACTED}", text)


def _argument(value: Any) -> Any:
    """A log argument with credentials redacted: strings redacted; another object replaced by its redacted
    str() only when its str() or repr() holds one (so that %d and %r of harmless values format as before)."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return redact(value)
    text = str(value)
    if redact(text) != text or redact(repr(value)) != repr(value):
        return redact(text)
    return value


_TRACEBACKS = logging.Formatter()


def redact_record(record: logging.LogRecord) -> logging.LogRecord:
    """The record with its message, arguments, traceback and stack redacted (in place)."""
    if isinstance(record.msg, str):
        record.msg = redact(record.msg)
    if isinstance(record.args, tuple):
        record.args = tuple(_argument(a) for a in record.args)
    elif isinstance(record.args, Mapping):
        record.args = {k: _argument(v) for k, v in record.args.items()}
    if record.exc_info and not record.exc_text:
        # formatted once here; handlers' formatters use exc_text when it is set
        record.exc_text = redact(_TRACEBACKS.formatException(record.exc_info))
    if record.stack_info:
        record.stack_info = redact(record.stack_info)
    return record


def install() -> Callable[[], None]:
    """Redact every log record from now on (logging's record factory); returns the undo."""
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return redact_record(previous(*args, **kwargs))

    logging.setLogRecordFactory(factory)
    return lambda: logging.setLogRecordFactory(previous)
