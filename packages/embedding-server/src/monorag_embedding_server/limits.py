"""Request limits shared by POST /embed and POST /v1/embeddings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .settings import Settings


@dataclass
class LimitError(Exception):
    """A request over a limit: `status` is 413 (too large) or 422 (unprocessable), `param` the field."""

    status: int
    message: str
    param: str


def check_texts(texts: Sequence[str], settings: Settings, field: str = "texts") -> None:
    """Raises LimitError for no texts (422), more than `max_texts` texts (413) or a text over
    `max_chars` characters (422). `field` names the request field in the message."""
    if not texts:
        raise LimitError(422, f'{field} is empty; send at least one string in {{"{field}": [...]}}.', field)
    if len(texts) > settings.max_texts:
        raise LimitError(
            413,
            f"Too many texts: {len(texts)} in one request, the limit is {settings.max_texts} "
            "(EMBEDDING_MAX_TEXTS); send smaller batches.",
            field,
        )
    for i, text in enumerate(texts):
        if len(text) > settings.max_chars:
            raise LimitError(
                422,
                f"{field}[{i}] has {len(text)} characters, over the limit of {settings.max_chars} "
                "characters per text (EMBEDDING_MAX_CHARS); split or truncate it.",
                f"{field}[{i}]",
            )
