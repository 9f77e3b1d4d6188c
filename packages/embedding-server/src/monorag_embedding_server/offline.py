"""Forces the Hugging Face libraries offline: the server never downloads anything at run time."""

import os

OFFLINE_VARIABLES = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")


def force_offline() -> None:
    """Sets HF_HUB_OFFLINE=1 and TRANSFORMERS_OFFLINE=1 in os.environ.

    Must run before `huggingface_hub`, `transformers` or `sentence_transformers` is imported, since
    they read these variables at import time.
    """
    for name in OFFLINE_VARIABLES:
        os.environ[name] = "1"
