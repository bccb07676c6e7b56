/**
 * Per-user request budget in fixed one-second windows, as the hosted service applies it
 * (30 requests per second by default). Windows are per key, so one busy user never
 * slows another.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets, as a decimal string like the hosted service sends. */
  reset: string;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly limit: number, private readonly clock: () => number = Date.now) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  get perSecond(): number {
    return this.limit;
  }

  take(key: string): RateDecision {
    const t = this.clock();
    let w = this.windows.get(key);
    if (!w || t - w.start >= 1000) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 10_000) this.prune(t);
    }
    const allowed = w.count < this.limit;
    if (allowed) w.count++;
    const resetMs = Math.max(0, w.start + 1000 - t);
    return { allowed, limit: this.limit, remaining: Math.max(0, this.limit - w.count), reset: (resetMs / 1000).toFixed(3) };
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= 1000) this.windows.delete(k);
  }
}

/** The hosted service's 429 body. */
export const RATE_LIMITED_BODY = {
  errors: [{ status: "429", title: "Too many requests", detail: "You have exceeded the API's rate limit." }],
};
