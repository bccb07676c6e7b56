/**
 * The scope of one client call: when it started, its deadline and its abort signal.
 * A method of an API area may send several requests (a read by name then a delete, a
 * read then a replace); they share the scope the call opened, so the deadline bounds
 * the whole call. A paged list is one call too: its deadline and signal cover every page
 * it fetches, from the first page to the last (pagination.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Options of one call, or of every call made through {@link WorkspacesClient.with}. */
export interface CallOptions {
  /**
   * Overall deadline of the call in milliseconds: pacing waits, every attempt (until the
   * last byte of the answer) and every wait between retries included. Defaults to the
   * client's `deadlineMs`.
   */
  deadlineMs?: number;
  /** Ends the call when aborted: a wait stops at once, a request in flight is cancelled. */
  signal?: AbortSignal;
}

/** A call in progress: when it started and the options it was made with. */
export interface CallScope {
  startedAt: number;
  options: CallOptions;
}

/** Default overall deadline of a call. */
export const DEFAULT_DEADLINE_MS = 300_000;

/** A call's deadline and signal, resolved: what every step of its requests is bounded by. */
export interface CallBounds {
  startedAt: number;
  deadlineMs: number;
  deadlineAt: number;
  /** The call's signal and the client's, combined; undefined when neither was given. */
  signal: AbortSignal | undefined;
}

/**
 * The bounds of the call `scope` (or, outside any call, of one starting at `now`): its
 * own deadline and signal, else the client's (`client`), else {@link DEFAULT_DEADLINE_MS}.
 */
export function callBounds(scope: CallScope | undefined, client: CallOptions, now: number): CallBounds {
  const startedAt = scope?.startedAt ?? now;
  const deadlineMs = scope?.options.deadlineMs ?? client.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const signals = [client.signal, scope?.options.signal].filter((s): s is AbortSignal => s !== undefined);
  return {
    startedAt,
    deadlineMs,
    deadlineAt: startedAt + deadlineMs,
    signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
  };
}

const scopes = new AsyncLocalStorage<CallScope>();

/** Runs `fn` as one call with `options`. */
export function runInCall<T>(options: CallOptions, fn: () => T): T {
  return scopes.run({ startedAt: Date.now(), options }, fn);
}

/** Runs `fn` within a call already opened: its requests share that call's start, deadline and signal. */
export function runInScope<T>(scope: CallScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The scope of the call being made, if a call opened one. */
export function currentCall(): CallScope | undefined {
  return scopes.getStore();
}

/**
 * `area` with every method run as one call with `options`, and so the areas it holds
 * (such as `noCode.upgrade`). The methods run on the area itself, so calls between
 * areas inside one method stay within its scope.
 */
export function withinCalls<T extends object>(area: T, options: CallOptions): T {
  const nested = new Map<PropertyKey, object>();
  return new Proxy(area, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value === "object" && value !== null) {
        let view = nested.get(prop);
        if (!view) nested.set(prop, (view = withinCalls(value, options)));
        return view;
      }
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        runInCall(options, () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}
