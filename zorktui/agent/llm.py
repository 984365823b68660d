"""A small client for any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, llama.cpp).

``openai`` is imported lazily. Settings come from flags, then the
environment (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``ZORKTUI_MODEL``), then
defaults. The key is never logged, recorded or shown: :meth:`LlmConfig.public`
is what may be written down.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from zorktui.engine.errors import ZorkTuiError, one_line

DEFAULT_MODEL = "gpt-4o-mini"


class LlmUnavailable(ZorkTuiError):
    """The model cannot be reached or used; the message is one line for people."""


@dataclass(frozen=True)
class LlmConfig:
    """Where and how to call the model.

    Attributes:
        model: Model name.
        base_url: Endpoint (None: OpenAI's).
        api_key: Secret key (local servers accept any non-empty string).
        timeout: Seconds per request.
        max_retries: Retries on 429, 5xx and connection errors (with backoff).
        price_in, price_out: Dollars per million prompt / completion tokens (0: not costed).
    """

    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 60.0
    max_retries: int = 2
    price_in: float = 0.0
    price_out: float = 0.0

    @classmethod
    def from_env(cls, model: str | None = None, base_url: str | None = None, **overrides: Any) -> "LlmConfig":
        """Settings from flags, then the environment, then the ``[llm]`` table of the config file.

        The config file may set ``model``, ``base_url``, ``timeout``, ``max_retries``,
        ``price_in`` and ``price_out``; never the key (environment only).
        """
        # deferred: tomllib and the config file load only when a client is configured
        from zorktui.settings import load_section

        table, _ = load_section("llm")
        for key in ("timeout", "max_retries", "price_in", "price_out"):
            value = table.get(key)
            if key not in overrides and isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
                overrides[key] = type(getattr(cls, key))(value)
        configured = {k: v for k, v in table.items() if k in ("model", "base_url") and isinstance(v, str) and v.strip()}
        return cls(
            model=model or os.environ.get("ZORKTUI_MODEL") or configured.get("model") or DEFAULT_MODEL,
            base_url=base_url or os.environ.get("OPENAI_BASE_URL") or configured.get("base_url") or None,
            api_key=os.environ.get("OPENAI_API_KEY") or None,
            **overrides,
        )

    def public(self) -> dict[str, Any]:
        """Settings safe to record (no key)."""
        return {"model": self.model, "base_url": self.base_url, "timeout": self.timeout,
                "max_retries": self.max_retries, "key_set": bool(self.api_key)}


@dataclass(frozen=True)
class Completion:
    """One model reply and what it cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    ms: float
    cost: float


@dataclass
class Usage:
    """Running totals for a session."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    failures: int = 0


def _reason(exc: BaseException) -> str:
    name = type(exc).__name__
    status = getattr(exc, "status_code", None)
    if name in ("APIConnectionError", "APITimeoutError"):
        return "the model endpoint cannot be reached" if name == "APIConnectionError" else "the model did not answer in time"
    if name == "AuthenticationError":
        return "the endpoint refused the API key"
    if name == "NotFoundError":
        return "the endpoint does not know that model"
    if name == "RateLimitError":
        return "the endpoint is rate-limiting (429) after retries"
    if status:
        return f"the endpoint answered HTTP {status}"
    return one_line(exc, 200)


def require_endpoint(config: LlmConfig) -> None:
    """Check that a model can be asked at all (a key, or a local endpoint that needs none).

    Raises:
        LlmUnavailable: Neither a key nor a base URL is set.
    """
    if not config.api_key and not config.base_url:
        raise LlmUnavailable("no LLM configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for a local server)")


class LlmClient:
    """Chat completions with timeouts, retries, token and cost accounting.

    Args:
        config: Endpoint, model and limits.

    Raises:
        LlmUnavailable: No key is set for OpenAI's own endpoint.
    """

    def __init__(self, config: LlmConfig) -> None:
        require_endpoint(config)
        import openai  # deferred: about 0.6 s to import; only a session that asks a model pays for it

        self.config = config
        self.usage = Usage()
        self._lock = threading.Lock()
        self._client = openai.OpenAI(
            api_key=config.api_key or "not-needed",
            base_url=config.base_url,
            timeout=config.timeout,
            max_retries=config.max_retries,
        )

    def complete(self, messages: list[dict[str, str]], max_tokens: int = 400, temperature: float = 0.2) -> Completion:
        """Ask the model for one reply.

        Raises:
            LlmUnavailable: The endpoint failed after retries, or replied with no text.
        """
        start = time.perf_counter()
        try:
            reply = self._client.chat.completions.create(
                model=self.config.model, messages=messages, max_tokens=max_tokens, temperature=temperature,  # type: ignore[arg-type]
            )
        except Exception as exc:  # the openai package raises many types; all become one line
            with self._lock:
                self.usage.failures += 1
            raise LlmUnavailable(_reason(exc)) from None
        ms = (time.perf_counter() - start) * 1000
        choices = getattr(reply, "choices", None) or []
        text = (choices[0].message.content if choices and choices[0].message else None) or ""
        usage = getattr(reply, "usage", None)
        p_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        c_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        cost = (p_tokens * self.config.price_in + c_tokens * self.config.price_out) / 1_000_000
        with self._lock:
            self.usage.calls += 1
            self.usage.prompt_tokens += p_tokens
            self.usage.completion_tokens += c_tokens
            self.usage.cost += cost
        if not isinstance(text, str) or not text.strip():
            raise LlmUnavailable("the model sent an empty reply")
        return Completion(text, p_tokens, c_tokens, ms, cost)
