"""What an endpoint can do, found out once and remembered: structured replies and its context window.

Structured replies come in several request shapes, each documented by its
server (none is tried blind on a turn):

* ``json_schema``: ``response_format: {"type": "json_schema", "json_schema": {...}}``:
  OpenAI, vLLM, Ollama's OpenAI-compatible API, llama.cpp's ``llama-server``;
* ``json_object``: ``response_format: {"type": "json_object", "schema": {...}}``:
  llama-cpp-python's server and ``llama-server``;
* ``guided_json``: ``extra_body: {"guided_json": {...}}``: vLLM's guided decoding;
* ``format``: ``extra_body: {"format": {...}}``: Ollama's own name for it.

The first shape whose probe comes back as the one JSON object the schema
allows (a value no model would write unasked) is the endpoint's; an endpoint
that refuses or ignores them all gets plain text lines. The finding is kept
per endpoint and model in ``CACHE/llm-endpoints.json``.

The context window is the ``[llm] context`` setting, else what the server
says (llama.cpp's ``/props``, vLLM's ``/v1/models``, Ollama's ``/api/show``),
else what a refusal for length names, else a cautious guess.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
import urllib.request
from pathlib import Path
from typing import Any

#: Request shapes for structured replies, in the order they are tried.
SHAPES = ("json_schema", "json_object", "guided_json", "format")
#: The mode of an endpoint that takes none of them.
TEXT = "text"
#: How each mode is named in the Agent panel.
LABELS = {
    "json_schema": "JSON schema (response_format json_schema)",
    "json_object": "JSON schema (response_format json_object with a schema)",
    "guided_json": "JSON schema (vLLM guided_json)",
    "format": "JSON schema (Ollama format)",
    TEXT: "plain text lines (the endpoint takes no JSON schema)",
}

#: The probe's schema: the only reply it allows is {"probe": "qz7"}, which no model writes unasked.
PROBE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"probe": {"type": "string", "enum": ["qz7"]}},
    "required": ["probe"],
    "additionalProperties": False,
}
PROBE_MESSAGES = [{"role": "user", "content": "Say hello."}]

#: Context windows assumed when nothing says: OpenAI's own models are large; a local server
#: is often started with llama.cpp's default of 2048 tokens.
GUESS_OPENAI = 128_000
GUESS_LOCAL = 2048

_LIMIT = re.compile(
    r"(?:context window of|maximum context length is|context length of|n_ctx[\"']?\s*[:=]\s*"
    r"|context size(?: is| of)?)\s*(\d{3,7})",
    re.I,
)


def request_shape(mode: str, schema: dict[str, Any], name: str = "reply") -> dict[str, Any]:
    """Keyword arguments for ``chat.completions.create`` asking for one object of ``schema``.

    Args:
        mode: One of :data:`SHAPES` (``text`` gives no arguments).
        schema: The JSON schema of the reply.
        name: The schema's name (OpenAI asks for one).
    """
    if mode == "json_schema":
        return {"response_format": {"type": "json_schema",
                                    "json_schema": {"name": name, "schema": schema, "strict": True}}}
    if mode == "json_object":
        return {"response_format": {"type": "json_object", "schema": schema}}
    if mode == "guided_json":
        return {"extra_body": {"guided_json": schema}}
    if mode == "format":
        return {"extra_body": {"format": schema}}
    return {}


def probe_answered(text: str) -> bool:
    """Whether a probe's reply is the one object its schema allows (the shape was honoured)."""
    try:
        data = json.loads(text.strip().strip("`").removeprefix("json").strip())
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("probe") == "qz7"


def limit_named(message: str) -> int | None:
    """The context window a refusal for length names ("exceed context window of 2048"), or None."""
    m = _LIMIT.search(message)
    return int(m.group(1)) if m else None


def endpoint_key(base_url: str | None, model: str) -> str:
    """The key an endpoint's findings are kept under (the model's name is part of it)."""
    return f"{(base_url or 'https://api.openai.com/v1').rstrip('/')} {model}"


class EndpointBook:
    """What was found out about endpoints, in a small JSON file (a broken or unwritable one is ignored).

    Args:
        path: The file (None: kept in memory only).
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any]:
        """The findings for one endpoint ({} when none)."""
        entry = self._read().get(key)
        return dict(entry) if isinstance(entry, dict) else {}

    def put(self, key: str, **found: Any) -> None:
        """Add findings for one endpoint (written atomically; a failed write loses only the finding)."""
        if self.path is None:
            return
        with self._lock:
            data = self._read()
            entry = data.get(key)
            data[key] = {**(entry if isinstance(entry, dict) else {}), **found}
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".llm-endpoints.")
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    json.dump(data, out, indent=1, sort_keys=True)
                os.replace(tmp, self.path)
            except OSError:
                pass  # only a cache: found out again next time

    def _read(self) -> dict[str, Any]:
        if self.path is None or not self.path.is_file():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}


def default_book() -> EndpointBook:
    """The book in the user's cache folder."""
    # deferred: platformdirs loads only when a model is configured
    from zorktui.locations import cache_dir

    return EndpointBook(cache_dir() / "llm-endpoints.json")


def _get_json(url: str, body: dict[str, Any] | None = None, timeout: float = 3.0) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(request, timeout=timeout) as reply:  # the user's own endpoint
        return json.loads(reply.read(1_000_000))


def _positive(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None


def ask_context_window(base_url: str | None, model: str, timeout: float = 3.0) -> int | None:
    """The context window the server reports for ``model``, or None when it says nothing.

    Tries llama.cpp's ``GET /props``, vLLM's ``GET /v1/models`` (``max_model_len``)
    and Ollama's ``POST /api/show`` (``num_ctx``, else 2048, Ollama's default, capped
    by the model's own length). Any failure is silence.
    """
    if not base_url:
        return None
    base = base_url.rstrip("/")
    root = base[:-3] if base.endswith("/v1") else base
    try:
        props = _get_json(f"{root}/props", timeout=timeout)
        settings = props.get("default_generation_settings", {}) if isinstance(props, dict) else {}
        found = _positive(settings.get("n_ctx")) or _positive(props.get("n_ctx") if isinstance(props, dict) else None)
        if found:
            return found
    except Exception:  # noqa: BLE001 - a server without the route answers in many ways
        pass
    try:
        models = _get_json(f"{base}/models", timeout=timeout)
        for entry in models.get("data", []) if isinstance(models, dict) else []:
            if isinstance(entry, dict) and entry.get("id") == model and _positive(entry.get("max_model_len")):
                return int(entry["max_model_len"])
    except Exception:  # noqa: BLE001
        pass
    try:
        shown = _get_json(f"{root}/api/show", {"model": model}, timeout=timeout)
    except Exception:  # noqa: BLE001
        return None
    if not isinstance(shown, dict) or not ("model_info" in shown or "parameters" in shown):
        return None  # not Ollama's answer
    own = next((_positive(v) for k, v in (shown.get("model_info") or {}).items() if k.endswith(".context_length")), None)
    set_here = re.search(r"num_ctx\s+(\d+)", str(shown.get("parameters") or ""))
    window = int(set_here.group(1)) if set_here else 2048
    return min(window, own) if own else window
