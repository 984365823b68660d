"""A small client for any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, llama.cpp).

``openai`` is imported lazily. Settings come from flags, then the
environment (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``ZORKTUI_MODEL``), then
defaults. The key is never logged, recorded or shown: :meth:`LlmConfig.public`
is what may be written down.

One client serves every caller of a session (the agent, the critic's model
stage, the sub-agents, the planner's prior), so it keeps the session's budget
of calls a turn: the agent's or the prior's call is always made; the others
only when the budget has room (:meth:`LlmClient.can_spare`).
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from zorktui.agent import llm_endpoint
from zorktui.agent.llm_endpoint import SHAPES, TEXT, EndpointBook
from zorktui.core.errors import ZorkTuiError, one_line

DEFAULT_MODEL = "gpt-4o-mini"
#: Model calls a turn the session may make on average (the agent's own, plus room for the rest).
CALLS_PER_TURN = 1.2
#: Reply modes a setting may name ("auto" finds out).
REPLY_MODES = ("auto", *SHAPES, TEXT)


class LlmUnavailable(ZorkTuiError):
    """The model cannot be reached or used; the message is one line for people."""


class LlmRefused(LlmUnavailable):
    """The endpoint refused the request itself (HTTP 400 or 422): another shape of request may do."""


class PromptTooLong(LlmRefused):
    """The prompt did not fit the model's context window.

    Attributes:
        limit: The window the endpoint named (None when it named none).
    """

    def __init__(self, message: str, limit: int | None) -> None:
        super().__init__(message)
        self.limit = limit


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
        calls_per_turn: The session's budget of model calls a turn (0: no budget).
        context: The model's context window in tokens (0: ask the server).
        replies: "auto" (find out once per endpoint), "text", or one of the structured shapes.
    """

    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 60.0
    max_retries: int = 2
    price_in: float = 0.0
    price_out: float = 0.0
    calls_per_turn: float = CALLS_PER_TURN
    context: int = 0
    replies: str = "auto"

    @classmethod
    def from_env(cls, model: str | None = None, base_url: str | None = None, **overrides: Any) -> LlmConfig:
        """Settings from flags, then the environment, then the ``[llm]`` table of the config file.

        The config file may set ``model``, ``base_url``, ``timeout``, ``max_retries``,
        ``price_in``, ``price_out``, ``calls_per_turn``, ``context`` and ``replies``;
        never the key (environment only).
        """
        # deferred: tomllib and the config file load only when a client is configured
        from zorktui.settings import load_section

        table, _ = load_section("llm")
        for key in ("timeout", "max_retries", "price_in", "price_out", "calls_per_turn", "context"):
            value = table.get(key)
            if key not in overrides and isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
                overrides[key] = type(getattr(cls, key))(value)
        if "replies" not in overrides and table.get("replies") in REPLY_MODES:
            overrides["replies"] = table["replies"]
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
                "max_retries": self.max_retries, "key_set": bool(self.api_key),
                "calls_per_turn": self.calls_per_turn}


@dataclass(frozen=True)
class Completion:
    """One model reply and what it cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    ms: float
    cost: float
    structured: bool = False


@dataclass
class Usage:
    """Running totals for a session."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    failures: int = 0
    ms: float = 0.0
    replies: str = ""
    turns: int = 0
    probes: int = 0

    def per_turn(self) -> str:
        """Calls, tokens and model seconds a turn, for people ("" before the first turn)."""
        if not self.turns:
            return ""
        n = self.turns
        return (f"{self.calls / n:.2f} calls, {(self.prompt_tokens + self.completion_tokens) / n:,.0f} tokens, "
                f"{self.ms / n / 1000:.1f} s a turn")


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
    if name in ("BadRequestError", "UnprocessableEntityError"):
        return f"the endpoint refused the request (HTTP {status}): {_message(exc)}"
    if status:
        return f"the endpoint answered HTTP {status}"
    return one_line(exc, 200)


def _message(exc: BaseException) -> str:
    """The endpoint's own words about an error, on one line."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        text = inner.get("message") if isinstance(inner, dict) else inner
        if text:
            return " ".join(str(text).split())[:200]
    return " ".join(str(getattr(exc, "message", None) or exc).split())[:200]


def require_endpoint(config: LlmConfig) -> None:
    """Check that a model can be asked at all (a key, or a local endpoint that needs none).

    Raises:
        LlmUnavailable: Neither a key nor a base URL is set.
    """
    if not config.api_key and not config.base_url:
        raise LlmUnavailable("no LLM configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for a local server)")


class LlmClient:
    """Chat completions with timeouts, retries, token and cost accounting, structured replies and a budget.

    Args:
        config: Endpoint, model and limits.
        book: Where findings about endpoints are kept (default: the user's cache folder).

    Raises:
        LlmUnavailable: No key is set for OpenAI's own endpoint.
    """

    def __init__(self, config: LlmConfig, book: EndpointBook | None = None) -> None:
        require_endpoint(config)
        import openai  # deferred: about 0.6 s to import; only a session that asks a model pays for it

        self.config = config
        self.usage = Usage()
        self.book = book if book is not None else llm_endpoint.default_book()
        self.key = llm_endpoint.endpoint_key(config.base_url, config.model)
        self._lock = threading.Lock()
        self._finding = threading.Lock()
        self._mode: str | None = config.replies if config.replies != "auto" else None
        self._context: int | None = config.context or None
        self._first_turn: int | None = None
        self._last_turn: int | None = None
        self._client = openai.OpenAI(
            api_key=config.api_key or "not-needed",
            base_url=config.base_url,
            timeout=config.timeout,
            max_retries=config.max_retries,
        )

    # ------------------------------------------------------------ what the endpoint takes
    def reply_mode(self) -> str:
        """How replies are asked for: one of :data:`~zorktui.agent.llm_endpoint.SHAPES`, or "text".

        Found out on first use (a probe per request shape, a few tokens each) and
        remembered per endpoint and model.

        Raises:
            LlmUnavailable: The endpoint could not be reached to find out.
        """
        with self._finding:
            if self._mode is None:
                known = self.book.get(self.key).get("replies")
                self._mode = known if known in (*SHAPES, TEXT) else self._probe()
                if known != self._mode:
                    self.book.put(self.key, replies=self._mode)
            self.usage.replies = self._mode
            return self._mode

    def _probe(self) -> str:
        for shape in SHAPES:
            try:
                done = self._create(llm_endpoint.PROBE_MESSAGES, 16, 0.0,
                                    llm_endpoint.request_shape(shape, llm_endpoint.PROBE_SCHEMA, "probe"), probe=True)
            except LlmRefused:
                continue
            with self._lock:
                self.usage.probes += 1
            if llm_endpoint.probe_answered(done.text):
                return shape
        return TEXT

    def context_window(self) -> int:
        """The model's context window in tokens: the setting, a finding, the server's word, or a cautious guess."""
        with self._finding:
            if self._context is None:
                known = self.book.get(self.key).get("context")
                if isinstance(known, int) and known > 0:
                    self._context = known
                else:
                    asked = llm_endpoint.ask_context_window(self.config.base_url, self.config.model)
                    if asked:
                        self.book.put(self.key, context=asked)
                    self._context = asked or (llm_endpoint.GUESS_LOCAL if self.config.base_url
                                              else llm_endpoint.GUESS_OPENAI)
            return self._context

    def _learned_limit(self, limit: int | None) -> None:
        """A refusal for length named the window (or did not: then assume three quarters of the guess)."""
        with self._finding:
            current = self._context or llm_endpoint.GUESS_LOCAL
            self._context = limit if limit and limit < current else max(512, current * 3 // 4)
            if limit:
                self.book.put(self.key, context=limit)

    # ------------------------------------------------------------ budget
    def note_turn(self, turn: int) -> None:
        """The turn the agent (or the prior) is asking about: the budget counts turns from the first noted."""
        with self._lock:
            if self._first_turn is None or turn < self._first_turn:
                self._first_turn = turn
            if turn != self._last_turn:
                self._last_turn = turn
                self.usage.turns += 1

    def can_spare(self, turn: int, pending: int = 1, reserve: int = 1) -> bool:
        """Whether one more call fits the budget at ``turn``.

        The budget counts every call made so far, this one, the ``pending`` calls
        still to come this turn (the agent's own, for a sub-agent asking before it)
        and ``reserve`` calls kept back for the agent's asking again after the
        critic refused its command, against ``calls_per_turn`` for each turn since
        the first one noted. The probes of what the endpoint takes count too.

        Args:
            turn: The turn the call is for.
            pending: Calls still to come this turn besides this one.
            reserve: Calls to keep back (the agent itself passes 0).
        """
        if self.config.calls_per_turn <= 0:
            return True
        self.note_turn(turn)
        with self._lock:
            turns = turn - (self._first_turn or 0) + 1
            return self.usage.calls + 1 + pending + reserve <= self.config.calls_per_turn * turns

    # ------------------------------------------------------------ calls
    def complete(self, messages: list[dict[str, str]], max_tokens: int = 400, temperature: float = 0.2,
                 schema: dict[str, Any] | None = None, name: str = "reply") -> Completion:
        """Ask the model for one reply; with ``schema``, as one JSON object where the endpoint allows.

        A structured request the endpoint refuses turns the session's replies to text
        (the caller sees ``Completion.structured`` false on later calls).

        Raises:
            PromptTooLong: The prompt did not fit; :meth:`context_window` has learned the limit.
            LlmRefused: The endpoint refused the request.
            LlmUnavailable: The endpoint failed after retries, or replied with no text.
        """
        mode = self.reply_mode() if schema is not None else TEXT
        shape = llm_endpoint.request_shape(mode, schema) if schema is not None and mode != TEXT else {}
        try:
            done = self._create(messages, max_tokens, temperature, shape, name=name)
        except PromptTooLong as exc:
            self._learned_limit(exc.limit)
            raise
        except LlmRefused:
            if not shape:
                raise
            with self._finding:
                self._mode = self.usage.replies = TEXT  # this session goes on in text; the finding is kept
            raise
        if not done.text.strip():
            raise LlmUnavailable("the model sent an empty reply")
        return Completion(done.text, done.prompt_tokens, done.completion_tokens, done.ms, done.cost, bool(shape))

    def _create(self, messages: list[dict[str, str]], max_tokens: int, temperature: float,
                shape: dict[str, Any], name: str = "reply", probe: bool = False) -> Completion:
        """One request. A probe is not retried, and any HTTP error refuses its shape: servers that
        do not know a field answer 400, 422, or (llama-cpp-python's) 500."""
        start = time.perf_counter()
        client = self._client.with_options(max_retries=0) if probe else self._client
        try:
            reply = client.chat.completions.create(
                model=self.config.model, messages=messages, max_tokens=max_tokens, temperature=temperature,  # type: ignore[arg-type]
                **shape,
            )
        except Exception as exc:  # noqa: BLE001 - the openai package raises many types; all become one line
            with self._lock:
                self.usage.failures += 1
            reason = _reason(exc)
            if probe and getattr(exc, "status_code", None):
                raise LlmRefused(reason) from None
            if type(exc).__name__ in ("BadRequestError", "UnprocessableEntityError"):
                limit = llm_endpoint.limit_named(_message(exc))
                if limit is not None or ("context" in reason.lower() and ("exceed" in reason or "too long" in reason)):
                    raise PromptTooLong(reason, limit) from None
                raise LlmRefused(reason) from None
            raise LlmUnavailable(reason) from None
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
            self.usage.ms += ms
        return Completion(text if isinstance(text, str) else "", p_tokens, c_tokens, ms, cost)
