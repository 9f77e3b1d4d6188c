import type { SqliteStore } from '@monorag/store';

/** A store (by default a {@link SqliteStore}) whose every call goes to the store it currently points at. */
export interface SwitchableStore<S extends object = SqliteStore> {
  /** The stable handle to give to retrievers and tools. */
  readonly store: S;
  /** The store calls go to now. */
  current(): S;
  /** Points every later call at `next` (the caller closes the previous store). */
  switchTo(next: S): void;
}

/**
 * Wraps `initial` so the index file behind a long-lived handle can be replaced (a rebuild swapped in
 * by this or another process) without the holders of the handle (the MCP server's retriever)
 * keeping the old file open. Methods are bound to the current store at call time.
 */
export function createSwitchableStore<S extends object = SqliteStore>(initial: S): SwitchableStore<S> {
  let target = initial;
  const store = new Proxy({} as S, {
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
