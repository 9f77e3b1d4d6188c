import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpenApiValidator, RequestCheck } from './openapi-validator.js';

/** A request the fake server received, with its check against the OpenAPI description. */
export interface CapturedRequest extends RequestCheck {
  url: string;
  body: unknown;
}

/** A running {@link startFakeQdrant} server. */
export interface FakeQdrant {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Every request received so far, in order. */
  readonly requests: CapturedRequest[];
  /** The requests whose check found errors. */
  invalid(): CapturedRequest[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
type Sparse = { indices: number[]; values: number[] };
interface Point {
  id: string | number;
  vector: Record<string, number[] | Sparse>;
  payload: Json;
}
interface Collection {
  config: Json;
  points: Map<string, Point>;
}

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * An in-memory stand-in for the Qdrant REST API, for tests where no Qdrant server can run. Every
 * request is recorded and checked by `validator` before it is served. It implements what the Qdrant
 * store uses, with Qdrant's semantics: collections with named dense (Cosine, Dot) and sparse vectors
 * (`modifier: idf`, idf = ln(1 + (N - n + 0.5) / (n + 0.5)) as Qdrant documents), aliases, payload
 * indexes (recorded only), upsert, delete by ids or filter, set payload (under a nested `key` too),
 * update vectors, batch updates applied in order, scroll, count, retrieve, and the Query API with
 * nearest (dense or sparse), filters, prefetch and RRF fusion (score sum of 1 / (k + rank), rank from 1).
 * Filters: must / must_not / should of `match.value`, `match.any`, `range` and `has_id`, on top-level or
 * dotted nested keys (`file.contentHash`). Not a full Qdrant: exact search only, no shards, no persistence.
 */
export async function startFakeQdrant(validator: OpenApiValidator): Promise<FakeQdrant> {
  const collections = new Map<string, Collection>();
  const aliases = new Map<string, string>();
  const requests: CapturedRequest[] = [];

  const collectionOf = (name: string): Collection => {
    const found = collections.get(aliases.get(name) ?? name);
    if (found === undefined) throw new HttpError(404, `Not found: Collection \`${name}\` doesn't exist!`);
    return found;
  };

  const handle = (method: string, pathname: string, body: Json): unknown => {
    const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (method === 'GET' && pathname === '/aliases') {
      return { aliases: [...aliases].map(([alias_name, collection_name]) => ({ alias_name, collection_name })) };
    }
    if (method === 'POST' && pathname === '/collections/aliases') {
      for (const action of body.actions as Json[]) {
        const create = action.create_alias as Json | undefined;
        const remove = action.delete_alias as Json | undefined;
        if (create) {
          collectionOf(String(create.collection_name));
          aliases.set(String(create.alias_name), String(create.collection_name));
        } else if (remove) {
          aliases.delete(String(remove.alias_name));
        } else {
          throw new HttpError(400, 'fake Qdrant: unsupported alias action');
        }
      }
      return true;
    }
    if (parts[0] !== 'collections' || parts[1] === undefined) throw new HttpError(404, `fake Qdrant: no route ${method} ${pathname}`);
    const name = parts[1];
    const rest = parts.slice(2).join('/');
    if (rest === '' && method === 'PUT') {
      if (collections.has(name)) throw new HttpError(409, `Wrong input: Collection \`${name}\` already exists!`);
      collections.set(name, { config: body, points: new Map() });
      return true;
    }
    if (rest === '' && method === 'DELETE') {
      const existed = collections.delete(name);
      for (const [alias, target] of aliases) if (target === name) aliases.delete(alias);
      return existed;
    }
    if (rest === 'exists' && method === 'GET') return { exists: collections.has(name) };
    const collection = collectionOf(name);
    if (rest === '' && method === 'GET') {
      return {
        status: 'green',
        optimizer_status: 'ok',
        points_count: collection.points.size,
        segments_count: 1,
        payload_schema: {},
        config: { params: { vectors: collection.config.vectors, sparse_vectors: collection.config.sparse_vectors } },
      };
    }
    if (rest === 'index' && method === 'PUT') return { operation_id: 0, status: 'completed' };
    if (rest === 'points' && method === 'PUT') return update(collection, { upsert: body });
    if (rest === 'points/delete' && method === 'POST') return update(collection, { delete: body });
    if (rest === 'points/payload' && method === 'POST') return update(collection, { set_payload: body });
    if (rest === 'points/vectors' && method === 'PUT') return update(collection, { update_vectors: body });
    if (rest === 'points/batch' && method === 'POST') return (body.operations as Json[]).map((op) => update(collection, op));
    if (rest === 'points' && method === 'POST') {
      return (body.ids as (string | number)[])
        .map((id) => collection.points.get(String(id)))
        .filter((p): p is Point => p !== undefined)
        .map((p) => render(p, body));
    }
    if (rest === 'points/scroll' && method === 'POST') {
      const matching = [...collection.points.values()].filter((p) => matches(p, body.filter as Json | undefined));
      matching.sort((a, b) => compareIds(a.id, b.id));
      const start = body.offset === undefined || body.offset === null ? 0 : matching.findIndex((p) => compareIds(p.id, body.offset as string) >= 0);
      const limit = Number(body.limit ?? 10);
      const page = start < 0 ? [] : matching.slice(start, start + limit);
      const next = start < 0 ? undefined : matching[start + limit];
      return { points: page.map((p) => render(p, body)), next_page_offset: next?.id ?? null };
    }
    if (rest === 'points/count' && method === 'POST') {
      return { count: [...collection.points.values()].filter((p) => matches(p, body.filter as Json | undefined)).length };
    }
    if (rest === 'points/query' && method === 'POST') {
      return { points: query(collection, body).map(({ point, score }) => ({ ...render(point, body), score, version: 0 })) };
    }
    throw new HttpError(404, `fake Qdrant: no route ${method} ${pathname}`);
  };

  const update = (collection: Collection, op: Json): Json => {
    if (op.upsert) {
      for (const p of (op.upsert as Json).points as Point[]) {
        const vector = Array.isArray(p.vector) ? { '': p.vector as unknown as number[] } : (p.vector ?? {});
        collection.points.set(String(p.id), { id: p.id, vector, payload: p.payload ?? {} });
      }
    } else if (op.delete) {
      const selector = op.delete as Json;
      if (Array.isArray(selector.points)) for (const id of selector.points) collection.points.delete(String(id));
      else for (const p of [...collection.points.values()]) if (matches(p, selector.filter as Json)) collection.points.delete(String(p.id));
    } else if (op.update_vectors) {
      for (const p of (op.update_vectors as Json).points as Point[]) {
        const target = collection.points.get(String(p.id));
        if (target) Object.assign(target.vector, p.vector);
      }
    } else if (op.set_payload) {
      const selector = op.set_payload as Json;
      const targets = Array.isArray(selector.points)
        ? (selector.points as (string | number)[]).map((id) => collection.points.get(String(id))).filter((p): p is Point => p !== undefined)
        : [...collection.points.values()].filter((p) => matches(p, selector.filter as Json));
      for (const p of targets) Object.assign(nestedObject(p.payload, selector.key), selector.payload as Json);
    } else {
      throw new HttpError(400, `fake Qdrant: unsupported update operation ${Object.keys(op).join(',')}`);
    }
    return { operation_id: 0, status: 'completed' };
  };

  const query = (collection: Collection, body: Json): { point: Point; score: number }[] => {
    const limit = Number(body.limit ?? 10);
    const q = body.query as unknown;
    let scored: { point: Point; score: number }[];
    if (body.prefetch !== undefined) {
      const lists = (Array.isArray(body.prefetch) ? body.prefetch : [body.prefetch]).map((pre: Json) => query(collection, pre));
      const fusion = q as Json;
      const k = Number((fusion.rrf as Json | undefined)?.k ?? 2);
      if (fusion.fusion !== 'rrf' && fusion.rrf === undefined) throw new HttpError(400, 'fake Qdrant: only rrf fusion over prefetch');
      const sums = new Map<string, { point: Point; score: number }>();
      for (const list of lists) {
        list.forEach(({ point }, rank) => {
          const entry = sums.get(String(point.id)) ?? { point, score: 0 };
          entry.score += 1 / (k + rank + 1);
          sums.set(String(point.id), entry);
        });
      }
      scored = [...sums.values()].filter(({ point }) => matches(point, body.filter as Json | undefined));
    } else {
      const using = String(body.using ?? '');
      const candidates = [...collection.points.values()].filter((p) => p.vector[using] !== undefined && matches(p, body.filter as Json | undefined));
      if (Array.isArray(q)) {
        const distance = ((collection.config.vectors as Json)[using] as Json).distance;
        scored = candidates.map((point) => ({ point, score: dense(q as number[], point.vector[using] as number[], distance === 'Cosine') }));
      } else {
        const sparseQuery = q as Sparse;
        const params = ((collection.config.sparse_vectors as Json | undefined)?.[using] ?? {}) as Json;
        const all = [...collection.points.values()].filter((p) => p.vector[using] !== undefined);
        const idf = (index: number): number => {
          if (params.modifier !== 'idf') return 1;
          const n = all.filter((p) => (p.vector[using] as Sparse).indices.includes(index)).length;
          return Math.log(1 + (all.length - n + 0.5) / (n + 0.5));
        };
        scored = candidates.flatMap((point) => {
          const doc = point.vector[using] as Sparse;
          let score = 0;
          let overlap = false;
          sparseQuery.indices.forEach((index, i) => {
            const at = doc.indices.indexOf(index);
            if (at >= 0) {
              overlap = true;
              score += (sparseQuery.values[i] ?? 0) * (doc.values[at] ?? 0) * idf(index);
            }
          });
          return overlap ? [{ point, score }] : [];
        });
      }
    }
    return scored.sort((a, b) => b.score - a.score || compareIds(a.point.id, b.point.id)).slice(0, limit);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: kept as text, which the validator then reports as a body of the wrong type.
        body = text;
      }
      requests.push({ ...validator.check(method, url, body), url, body });
      const started = Date.now();
      let status = 200;
      let payload: Json;
      try {
        const result = handle(method, new URL(url, 'http://x').pathname, (body ?? {}) as Json);
        payload = { result, status: 'ok', time: (Date.now() - started) / 1000 };
      } catch (error) {
        status = error instanceof HttpError ? error.status : 500;
        payload = { status: { error: (error as Error).message }, time: 0 };
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    invalid: () => requests.filter((r) => r.errors.length > 0),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function render(point: Point, body: Json): Json {
  const out: Json = { id: point.id };
  if (body.with_payload !== false && body.with_payload !== undefined) out.payload = point.payload;
  if (body.with_vector === true) out.vector = point.vector;
  // A list of names selects those named vectors.
  if (Array.isArray(body.with_vector)) {
    out.vector = Object.fromEntries(Object.entries(point.vector).filter(([name]) => (body.with_vector as string[]).includes(name)));
  }
  return out;
}

function compareIds(a: string | number, b: string | number): number {
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function dense(q: number[], d: number[], cosine: boolean): number {
  let dot = 0;
  let nq = 0;
  let nd = 0;
  q.forEach((x, i) => {
    const y = d[i] ?? 0;
    dot += x * y;
    nq += x * x;
    nd += y * y;
  });
  return cosine ? dot / Math.sqrt(nq * nd) : dot;
}

function matches(point: Point, filter: Json | undefined): boolean {
  if (filter === undefined || filter === null) return true;
  const must = (filter.must as Json[] | undefined) ?? [];
  const mustNot = (filter.must_not as Json[] | undefined) ?? [];
  const should = filter.should as Json[] | undefined;
  return (
    must.every((c) => condition(point, c)) &&
    !mustNot.some((c) => condition(point, c)) &&
    (should === undefined || should.length === 0 || should.some((c) => condition(point, c)))
  );
}

function condition(point: Point, c: Json): boolean {
  if (Array.isArray(c.has_id)) return (c.has_id as (string | number)[]).map(String).includes(String(point.id));
  if (c.must !== undefined || c.must_not !== undefined || c.should !== undefined) return matches(point, c);
  const values = valuesAt(point.payload, String(c.key));
  const match = c.match as Json | undefined;
  if (match && 'value' in match) return values.includes(match.value);
  if (match && Array.isArray(match.any)) return values.some((v) => (match.any as unknown[]).includes(v));
  const range = c.range as Json | undefined;
  if (range) {
    const bound = (v: unknown, op: string, limit: unknown): boolean =>
      limit === undefined || limit === null ||
      (op === 'lt' ? Number(v) < Number(limit) : op === 'lte' ? Number(v) <= Number(limit) : op === 'gt' ? Number(v) > Number(limit) : Number(v) >= Number(limit));
    return values.some((v) => typeof v === 'number' && ['lt', 'lte', 'gt', 'gte'].every((op) => bound(v, op, range[op])));
  }
  throw new HttpError(400, `fake Qdrant: unsupported condition ${JSON.stringify(c)}`);
}

/**
 * The values at `key` of a payload, as a condition sees them: a dotted key (`file.contentHash`) goes
 * into nested objects, arrays on the way and at the end are flattened.
 */
function valuesAt(payload: Json, key: string): unknown[] {
  let values: unknown[] = [payload];
  for (const part of key.split('.')) {
    values = values.flatMap((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? [(v as Json)[part]] : []));
    values = values.flatMap((v) => (Array.isArray(v) ? v : v === undefined ? [] : [v]));
  }
  return values;
}

/** The object a set payload writes into: the payload itself, or the object at its dotted `key` (created when missing). */
function nestedObject(payload: Json, key: unknown): Json {
  if (key === undefined || key === null) return payload;
  let target = payload;
  for (const part of String(key).split('.')) {
    const next = target[part];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) target[part] = {};
    target = target[part] as Json;
  }
  return target;
}
