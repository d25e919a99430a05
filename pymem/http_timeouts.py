"""Read timeouts for `pymem serve --transport http`.

uvicorn's h11 protocol waits for ever for a client that sends half its request headers or half its body (its
keep-alive timeout covers only a silent wait between requests, and data cancels it). TimedH11Protocol gives
each request's headers PYMEM_HEADER_TIMEOUT seconds, counted from the connection's start or the end of the
previous response, and its body PYMEM_BODY_TIMEOUT seconds, counted from the end of its headers. A late client
gets `408 Request Timeout` (when it sent part of a request that has no answer yet) and its connection is
closed; the application sees the client disconnect.

    config = uvicorn.Config(app, http=timed_protocol(header_timeout=10, body_timeout=30), ...)

It extends uvicorn's H11Protocol (uvicorn 0.54) and uses of it: connection_made, data_received,
on_response_complete and connection_lost (the asyncio protocol and uvicorn's hook at the end of a response),
and the attributes conn (the h11.Connection), transport, loop and cycle (the request's RequestResponseCycle,
its response_started and disconnected flags). tests/test_http_guard.py pins the behaviour with raw sockets.
"""

from __future__ import annotations

import asyncio
import logging

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

_MESSAGE = b"The request was not received in time.\n"
REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
    b"content-length: " + str(len(_MESSAGE)).encode() + b"\r\n\r\n" + _MESSAGE
)


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for a request's headers and one for its body."""

    header_timeout: float = 10.0
    body_timeout: float = 30.0
    _phase: str | None = None
    _timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _watch(self) -> None:
        """Start the deadline of what the client is sending now: headers (h11 IDLE: waiting for a request),
        a body (SEND_BODY), or nothing (the request is in: the time to answer is the application's)."""
        state = self.conn.their_state
        phase = "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if phase == self._phase:
            return
        self._cancel()
        self._phase = phase
        if phase is not None and not self.transport.is_closing():
            timeout = self.header_timeout if phase == "headers" else self.body_timeout
            self._timer = self.loop.call_later(timeout, self._expired, phase)

    def _expired(self, phase: str) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        client = f"{self.client[0]}:{self.client[1]}" if self.client else "?"
        if phase == "headers":
            started = bool(self.conn.trailing_data[0])  # part of a request arrived (else: an idle connection)
            if started:
                log.info("closed a connection from %s: its request headers took over %g s", client, self.header_timeout)
                self.transport.write(REQUEST_TIMEOUT)
        else:
            log.info("closed a connection from %s: its request body took over %g s", client, self.body_timeout)
            cycle = self.cycle
            if cycle is not None and not cycle.response_started:
                # as connection_lost would: the application's receive() now says http.disconnect and what it
                # sends is dropped (it must not answer after the 408)
                cycle.disconnected = True
                cycle.message_event.set()
                self.transport.write(REQUEST_TIMEOUT)
        self.transport.close()


def timed_protocol(header_timeout: float, body_timeout: float) -> type[TimedH11Protocol]:
    """TimedH11Protocol with these timeouts, for uvicorn.Config(http=...)."""
    return type(
        "TimedH11Protocol",
        (TimedH11Protocol,),
        {"header_timeout": float(header_timeout), "body_timeout": float(body_timeout)},
    )
