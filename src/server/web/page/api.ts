/**
 * How the page reads the service: the same JSON:API the clients use, under `/api/v2` of
 * the page's own origin, signed in by the view's session cookie (never a token the page
 * holds). The view is read-only, so every call here is a GET.
 */

/** The API's base path on the page's origin. */
const API = "/api/v2";

/** A failed read: the service's status and its JSON:API error detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Longest wait for a 429, whatever `retry-after` says, so that the page never looks frozen. */
const MAX_WAIT_MS = 10_000;
/** A read given up after this many 429s in a row. */
const MAX_RATE_LIMITED = 20;

/** The message of a failed response: its JSON:API errors' details (or titles), else its status. */
export function errorMessage(status: number, body: unknown): string {
  const errors = (body as { errors?: { detail?: unknown; title?: unknown }[] } | null)?.errors;
  const texts = (Array.isArray(errors) ? errors : [])
    .map((e) => (typeof e?.detail === "string" && e.detail ? e.detail : typeof e?.title === "string" ? e.title : ""))
    .filter((t) => t);
  return texts.length ? texts.join("; ") : `the service answered HTTP ${status}`;
}

/** How long a 429 asks to wait, in milliseconds: `retry-after` seconds, else one second. */
export function retryDelay(retryAfter: string | null): number {
  const seconds = Number(retryAfter);
  return Math.min(MAX_WAIT_MS, Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000);
}

/**
 * `GET /api/v2<path>` as JSON. A 429 is waited out (its `retry-after`); any other failure
 * throws an {@link ApiError} with the service's detail.
 */
export async function getJson(path: string): Promise<any> {
  const url = `${API}${path.startsWith("/") ? path : `/${path}`}`;
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, { credentials: "same-origin", headers: { accept: "application/vnd.api+json" } });
    if (res.status === 429 && attempt < MAX_RATE_LIMITED) {
      await new Promise((resolve) => setTimeout(resolve, retryDelay(res.headers.get("retry-after"))));
      continue;
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: the status says it
    }
    if (!res.ok) throw new ApiError(res.status, errorMessage(res.status, body));
    return body;
  }
}

/** `path` with `name=value` added to its query. */
export function withQuery(path: string, name: string, value: string | number): string {
  return `${path}${path.includes("?") ? "&" : "?"}${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
}

/** Every item of a list: each page (`page[size]=100`) in turn, their `data` concatenated. */
export async function listAll(path: string): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const doc = await getJson(withQuery(withQuery(path, "page[size]", 100), "page[number]", page));
    const data: unknown = doc?.data;
    if (Array.isArray(data)) items.push(...data);
    const next: unknown = doc?.meta?.pagination?.["next-page"];
    if (typeof next !== "number" || next <= page || !Array.isArray(data) || data.length === 0) return items;
  }
}

/** `fn` over every item, at most `limit` at a time, the results in the items' order. */
export async function inParallel<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
