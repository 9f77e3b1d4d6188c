// Public surface of @monorag/mcp: named exports only.
