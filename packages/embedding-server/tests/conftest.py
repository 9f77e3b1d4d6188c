"""Shared fixtures: the app with the fake model."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from monorag_embedding_server import Settings, create_app


@pytest.fixture
def fake_settings() -> Settings:
    return Settings(model_impl="fake", max_texts=4, max_chars=50)


@pytest.fixture
def fake_client(fake_settings: Settings):
    with TestClient(create_app(fake_settings)) as client:
        yield client
