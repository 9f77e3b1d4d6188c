import type { SqliteStore } from '@monorag/store';

/** A {@link SqliteStore} whose every call goes to the store it currently points at. */
export interface SwitchableStore {
  /** The stable handle to give to retrievers and tools. */
  readonly store: SqliteStore;
  /** The store calls go to now. */
  current(): SqliteStore;
  /** Points every later call at `next` (the caller closes the previous store). */
  switchTo(next: SqliteStore): void;
}

/**
 * Wraps `initial` so the index file behind a long-lived handle can be replaced (a rebuild swapped in
 * by this or another process) without the holders of the handle (the MCP server's retriever)
 * keeping the old file open. Methods are bound to the current store at call time.
 */
export function createSwitchableStore(initial: SqliteStore): SwitchableStore {
  let target = initial;
  const store = new Proxy({} as SqliteStore, {
    get(_unused, property) {
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    store,
    current: () => target,
    switchTo(next) {
      target = next;
    },
  };
}
