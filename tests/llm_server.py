"""A real OpenAI-compatible HTTP server on 127.0.0.1 that replies from a script (for tests).

Each POST to ``/v1/chat/completions`` takes the next scripted step:
a string (the reply text), an int (an HTTP error status), a ``("sleep", s, text)``
tuple (a slow reply), ``("raw", body)`` (a malformed body), ``("status", code, body)``
(an error with the endpoint's own words), or a callable that
gets the request body and returns one of those. When the script runs out, the
``default`` step is used (it may be a callable too). Requests are kept for the
test to inspect. No model is involved.

Structured requests (a ``response_format`` other than text, or vLLM's
``guided_json`` or Ollama's ``format``) are refused with HTTP 400, as a
server that does not know them does, unless ``structured`` names the shape
the server takes (``"json_schema"``, ``"json_object"``, ``"guided_json"`` or
``"format"``): then the client's probe is answered as such a server would,
and the scripted steps answer the rest. Refused and probe requests take no
step; they are kept in ``refused`` and ``probes``.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ScriptedLLM:
    """Start with ``with ScriptedLLM([...]) as llm:``; ``llm.base_url`` is the endpoint."""

    def __init__(self, steps: list[Any] | None = None, default: Any = "", structured: str | None = None) -> None:
        self.steps = list(steps or [])
        self.default = default
        self.structured = structured
        self.requests: list[dict[str, Any]] = []
        self.refused: list[dict[str, Any]] = []
        self.probes: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.endswith("/chat/completions"):
                    self._send(404, {"detail": "Not Found"})  # as llama.cpp's Python server answers
                    return
                shape = shape_of(body)
                if shape is not None and shape[0] != server.structured:
                    with server._lock:
                        server.refused.append(body)
                    self._send(400, {"error": {"message": f"unsupported: {shape[0]}", "type": "invalid_request_error"}})
                    return
                if shape is not None and "probe" in (shape[1].get("properties") or {}):
                    with server._lock:
                        server.probes.append(body)
                    self._reply(body, json.dumps({"probe": "qz7"}))
                    return
                with server._lock:
                    server.requests.append(body)
                    server.headers.append(dict(self.headers))
                    step = server.steps.pop(0) if server.steps else server.default
                if callable(step):
                    step = step(body)
                if isinstance(step, int):
                    self._send(step, {"error": {"message": f"scripted {step}", "type": "server_error"}})
                    return
                if isinstance(step, tuple) and step[0] == "status":
                    self._send_bytes(step[1], step[2].encode())
                    return
                if isinstance(step, tuple) and step[0] == "raw":
                    self._send_bytes(200, step[1].encode())
                    return
                if isinstance(step, tuple) and step[0] == "sleep":
                    time.sleep(step[1])
                    step = step[2]
                self._reply(body, str(step))

            def _reply(self, body: dict[str, Any], text: str) -> None:
                self._send(200, {
                    "id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 10 + len(json.dumps(body)) // 4, "completion_tokens": 1 + len(text) // 4,
                              "total_tokens": 11 + len(json.dumps(body)) // 4 + len(text) // 4},
                })

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                self._send_bytes(status, json.dumps(payload).encode())

            def _send_bytes(self, status: int, data: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (a timeout test)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def push(self, *steps: Any) -> None:
        """Add steps to the script."""
        with self._lock:
            self.steps.extend(steps)

    def __enter__(self) -> ScriptedLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def shape_of(body: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The structured shape a request asks for and its schema, or None for a plain request."""
    fmt = body.get("response_format")
    if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        return "json_schema", (fmt.get("json_schema") or {}).get("schema") or {}
    if isinstance(fmt, dict) and fmt.get("type") == "json_object":
        return "json_object", fmt.get("schema") or {}
    for key in ("guided_json", "format"):
        if isinstance(body.get(key), dict):
            return key, body[key]
    return None
