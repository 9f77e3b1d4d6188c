// Public surface of @monorag/indexer: named exports only.
