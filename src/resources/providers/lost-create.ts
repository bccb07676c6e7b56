/** Recovery of a create whose answer was lost. */
import { NetworkError, ServerError, ServiceUnavailableError } from "../../client/errors";

/** How far the service's clock may lag ours when judging whether a record is the one our create made. */
const CREATE_CLOCK_SKEW_MS = 120_000;

/**
 * A create whose answer was lost (dropped connection, timeout, 5xx) may still have
 * happened, and the client never repeats it. Left alone, the record would be orphaned:
 * outside the state, and blocking every later create of its unique name. So look the
 * name up: a record created since the request started (allowing for clock skew) is
 * the one this create made, and is adopted. Anything else keeps the original error.
 */
export async function recoverLostCreate<T extends { createdAt: string }>(
  err: unknown,
  lookup: () => Promise<T>,
  startedMs: number,
): Promise<T> {
  const outcomeUnknown =
    (err instanceof NetworkError && err.code !== "ECONNREFUSED") ||
    err instanceof ServiceUnavailableError ||
    err instanceof ServerError;
  if (!outcomeUnknown) throw err;
  let found: T;
  try {
    found = await lookup();
  } catch {
    throw err;
  }
  const created = Date.parse(found.createdAt);
  if (Number.isFinite(created) && created >= startedMs - CREATE_CLOCK_SKEW_MS) return found;
  throw err;
}
