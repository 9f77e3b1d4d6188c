// Public surface of @monorag/cli: named exports only.
