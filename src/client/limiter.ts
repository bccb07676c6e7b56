/**
 * Client-side pacing so that one process stays under the rate limit the service
 * announces, instead of stampeding into 429s when a `pulumi up` touches hundreds of
 * resources at once. One limiter per base URL per process: every client object of the
 * process talking to the same service shares it, and the announcement (the
 * `X-RateLimit-Limit` header of `GET /ping`) is fetched once and cached.
 *
 * The pacing is a GCRA token bucket: a burst of `burst` requests, then one every
 * `1 / rate` seconds. With `rate + burst <= limit`, no one-second window (fixed or
 * sliding) on the service side ever sees more than `limit` requests from this process.
 */

export interface LimiterSettings {
  /** Requests per second allowed on average. */
  rate: number;
  /** Requests that may go at once before pacing starts. */
  burst: number;
}

/** Requests per second assumed when the service announces no limit. */
export const DEFAULT_RATE_LIMIT = 30;

/**
 * Splits an announced per-second limit into a small burst (a tenth) and a sustained
 * rate (the rest, less 5%, so that requests bunched up by the network on their way
 * still arrive under the limit). A large burst buys nothing in a long run of calls;
 * the sustained rate is what sets the wall time of a large update.
 */
export function limiterSettingsFor(limitPerSecond: number): LimiterSettings {
  const limit = Math.max(1, limitPerSecond);
  const burst = Math.max(1, Math.floor(limit * 0.1));
  const rate = Math.max(0.5, (limit - burst) * 0.95);
  return { rate, burst };
}

export class RateLimiter {
  private interval: number;
  private tolerance: number;
  /** Theoretical arrival time of the next request (GCRA). */
  private tat = 0;
  private pausedUntil = 0;
  /** Callers waiting for a slot, first come first served. */
  private queue: (() => void)[] = [];
  /** The per-second limit the service last announced, if any. */
  announced: number | undefined;

  constructor(settings: LimiterSettings, private readonly now: () => number = Date.now) {
    this.interval = 1000 / settings.rate;
    this.tolerance = (settings.burst - 1) * this.interval;
  }

  configure(settings: LimiterSettings): void {
    this.interval = 1000 / settings.rate;
    this.tolerance = (settings.burst - 1) * this.interval;
  }

  /**
   * Follows the limit the service announces on any answer (`X-RateLimit-Limit`), so a
   * missed `/ping` or a limit changed while running is corrected by the next response.
   */
  follow(limitPerSecond: number | undefined): void {
    if (limitPerSecond === undefined || limitPerSecond === this.announced) return;
    this.announced = limitPerSecond;
    this.configure(limiterSettingsFor(limitPerSecond));
  }

  get settings(): LimiterSettings {
    return { rate: 1000 / this.interval, burst: Math.round(this.tolerance / this.interval) + 1 };
  }

  /**
   * Takes a slot now if one is free and returns 0, or returns how many milliseconds
   * until the next one frees up (taking nothing). Slots are taken at the moment of
   * sending, never booked ahead, so a stalled event loop that sends late cannot bunch
   * requests into one of the service's windows.
   */
  tryTake(): number {
    const t = this.now();
    const tat = Math.max(this.tat, t);
    const allowedAt = Math.max(this.pausedUntil, tat - this.tolerance);
    if (allowedAt > t) return Math.ceil(allowedAt - t);
    this.tat = tat + this.interval;
    return 0;
  }

  /** Waits for a slot; waiters are served first come, first served. */
  acquire(): Promise<void> {
    if (this.queue.length === 0 && this.tryTake() === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.queue.push(resolve);
      if (this.queue.length === 1) void this.pump();
    });
  }

  /** Serves the queue with one timer at a time, however many callers wait. */
  private async pump(): Promise<void> {
    while (this.queue.length > 0) {
      const wait = this.tryTake();
      if (wait === 0) this.queue.shift()!();
      else await sleep(wait);
    }
  }

  /** Holds every request back until `untilMs` (epoch ms), after the service said 429 with a reset time. */
  pauseUntil(untilMs: number): void {
    if (untilMs > this.pausedUntil) this.pausedUntil = untilMs;
  }
}

/** Limiters and their pending announcement, keyed by base URL. */
const registry = new Map<string, { limiter: RateLimiter; ready: Promise<void> | undefined }>();

/**
 * Returns the process-wide limiter of `baseUrl`. `announce` is called at most once per
 * base URL (the first time a limiter is needed) and resolves to the announced limit,
 * or undefined when the service announces none.
 */
export async function limiterFor(baseUrl: string, announce: () => Promise<number | undefined>): Promise<RateLimiter> {
  let entry = registry.get(baseUrl);
  if (!entry) {
    const created: { limiter: RateLimiter; ready: Promise<void> | undefined } = {
      limiter: new RateLimiter(limiterSettingsFor(DEFAULT_RATE_LIMIT)),
      ready: undefined,
    };
    created.ready = announce()
      .then((limit) => {
        if (limit && limit > 0) created.limiter.follow(limit);
      })
      // The announcement is an optimisation: without it the default pacing applies.
      .catch(() => undefined);
    registry.set(baseUrl, created);
    entry = created;
  }
  await entry.ready;
  return entry.limiter;
}

/** Forgets every cached limiter (tests that start several servers on reused ports). */
export function resetLimiters(): void {
  registry.clear();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
