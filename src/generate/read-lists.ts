/**
 * How the generator's reads go: a few at a time, with progress, and one kind of record that a
 * server does not serve costing one request, not one per workspace.
 */
import { BadRequestError, FeatureUnavailableError, NotFoundError } from "../client";

/** Runs `fn` over `items` with at most `limit` in flight, keeping the order of results. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** Reports `done of total` at most every `everyMs` and at the end. */
export function ticker(progress: ((line: string) => void) | undefined, what: string, total: number, everyMs = 1000) {
  let last = 0;
  let done = 0;
  return () => {
    done++;
    const now = Date.now();
    if (progress && (done === total || now - last >= everyMs)) {
      last = now;
      progress(`${what}: ${done} of ${total}`);
    }
  };
}

/**
 * A server without the feature (OTF has no key-value tags nor consumers) has none of its
 * records to carry over; with `orNotFound`, a 404 says the same (of a record just listed).
 */
export async function noneIfUnavailable<T>(list: Promise<T[]>, orNotFound = false): Promise<T[]> {
  try {
    return await list;
  } catch (err) {
    if (err instanceof FeatureUnavailableError || (orNotFound && err instanceof NotFoundError)) return [];
    throw err;
  }
}

/**
 * One kind of record listed per workspace (or project) that a server may not serve: the
 * first answer that says so (unavailable, or a 404 for a record just listed) stops the
 * lists of that kind, so a server without it costs a request, not one per workspace.
 */
export function perRecordList<T>(
  what: string,
  list: (id: string) => Promise<T[]>,
  progress: ((line: string) => void) | undefined,
): (id: string) => Promise<T[]> {
  let served = true;
  return async (id) => {
    if (!served) return [];
    try {
      return await list(id);
    } catch (err) {
      if (err instanceof FeatureUnavailableError || err instanceof NotFoundError || err instanceof BadRequestError) {
        if (served) progress?.(`${what}: not served to this token (${err.message}); the program declares none`);
        served = false;
        return [];
      }
      throw err;
    }
  };
}
