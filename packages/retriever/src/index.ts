// Public surface of @monorag/retriever: named exports only.
