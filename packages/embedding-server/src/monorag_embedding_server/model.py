"""The embedding model behind the server: a small abstract interface and its implementations."""

from __future__ import annotations

import hashlib
import logging
import re
import time
from abc import ABC, abstractmethod
from typing import Sequence

import numpy as np

from .offline import force_offline
from .settings import Settings

force_offline()

log = logging.getLogger("monorag_embedding_server.model")


class EmbeddingModel(ABC):
    """Turns texts into L2-normalised float32 vectors.

    Attributes: `model_id` (reported to clients), `dim` (vector length), `max_seq_length`
    (word pieces seen per text; the rest is truncated).
    """

    model_id: str
    dim: int
    max_seq_length: int
    device: str = "cpu"

    @abstractmethod
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Returns a float32 array of shape (len(texts), dim), one unit-norm row per text, in order."""

    @abstractmethod
    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Word pieces per text, special tokens included and without truncation. A count over
        `max_seq_length` means the model saw only the first `max_seq_length` of them."""

    def vocabulary(self) -> list[str] | None:
        """The tokenizer's vocabulary in id order when it is an uncased BERT WordPiece tokenizer (what
        clients can reproduce to count word pieces exactly, e.g. all-MiniLM-L6-v2's 30,522 tokens), else None."""
        return None

    def close(self) -> None:
        """Releases the model's memory; the default does nothing."""


class SentenceTransformerModel(EmbeddingModel):
    """A sentence-transformers model loaded from a local directory (never from the network)."""

    def __init__(self, settings: Settings) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        if settings.torch_threads > 0:
            torch.set_num_threads(settings.torch_threads)
        device = settings.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = device
        path = settings.resolved_model_path()
        if not path.is_dir():
            raise RuntimeError(
                f"Model directory {path} does not exist; set EMBEDDING_MODEL_PATH to a "
                "sentence-transformers model directory or run `bash scripts/setup.sh`."
            )
        started = time.perf_counter()
        self._model = SentenceTransformer(str(path), device=device, local_files_only=True)
        self._batch_size = settings.batch_size
        self.model_id = settings.model_id
        dim_of = getattr(self._model, "get_embedding_dimension", None) or getattr(
            self._model, "get_sentence_embedding_dimension"
        )
        self.dim = int(dim_of())
        self.max_seq_length = int(self._model.max_seq_length)
        log.info(
            "loaded %s from %s on %s in %.1f s (dim %d, max_seq_length %d, torch threads %d)",
            self.model_id,
            path,
            device,
            time.perf_counter() - started,
            self.dim,
            self.max_seq_length,
            torch.get_num_threads(),
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self._model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        encoded = self._model.tokenizer(list(texts), add_special_tokens=True, truncation=False, verbose=False)
        return [len(ids) for ids in encoded["input_ids"]]

    def vocabulary(self) -> list[str] | None:
        return wordpiece_vocabulary(self._model.tokenizer)

    def close(self) -> None:
        del self._model


def wordpiece_vocabulary(tokenizer: object) -> list[str] | None:
    """The vocabulary of a Hugging Face BERT tokenizer that lower-cases (WordPiece, `##` continuations),
    as a list indexed by token id; None for any other tokenizer (its counts would differ)."""
    if type(tokenizer).__name__ not in ("BertTokenizer", "BertTokenizerFast") or not getattr(tokenizer, "do_lower_case", False):
        return None
    by_id = getattr(tokenizer, "vocab", None)
    if not isinstance(by_id, dict) or not by_id:
        return None
    tokens = [""] * len(by_id)
    for token, index in by_id.items():
        if not 0 <= index < len(tokens) or tokens[index]:
            return None  # ids are not 0..n-1 exactly once: not a plain vocab.txt
        tokens[index] = token
    return tokens


_TOKEN = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for word in _TOKEN.findall(text):
        parts = [p for p in _CAMEL.split(word) if p]
        out.extend(p.lower() for p in parts)
        if len(parts) > 1:
            out.append(word.lower())
    return out


class FakeModel(EmbeddingModel):
    """Deterministic bag-of-words hash vectors: texts sharing words are closer. For tests only.

    Tokens are the words of `_tokens` (camelCase split) plus 2 special tokens per text. `delay_ms` makes each
    `embed` call sleep that long, so tests can see requests share a forward call or finish during
    shutdown. `calls` records the size of each `embed` call.
    """

    def __init__(
        self, dim: int = 384, model_id: str = "fake-hash-embedder-py", max_seq_length: int = 256, delay_ms: float = 0.0
    ) -> None:
        self.model_id = model_id
        self.dim = dim
        self.max_seq_length = max_seq_length
        self.delay_ms = delay_ms
        self.calls: list[int] = []

    def _bucket(self, token: str) -> int:
        digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
        return int.from_bytes(digest, "little") % self.dim

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return [len(_tokens(text)) + 2 for text in texts]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(len(texts))
        if self.delay_ms > 0:
            time.sleep(self.delay_ms / 1000)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in _tokens(text) or [""]:
                out[row, self._bucket(token)] += 1.0
            out[row] /= np.linalg.norm(out[row])
        return out


def load_model(settings: Settings) -> EmbeddingModel:
    """Builds the model named by `settings.model_impl`.

    Raises RuntimeError when the model files or packages are missing (the message says what to do).
    """
    if settings.model_impl == "fake":
        return FakeModel(dim=settings.fake_dim, delay_ms=settings.fake_delay_ms)
    return SentenceTransformerModel(settings)
