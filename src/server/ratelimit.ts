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

  constructor(
    private readonly limit: number,
    private readonly clock: () => number = Date.now,
    private readonly windowMs = 1000,
  ) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  get perSecond(): number {
    return this.limit;
  }

  take(key: string): RateDecision {
    const t = this.clock();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 10_000) this.prune(t);
    }
    const allowed = w.count < this.limit;
    if (allowed) w.count++;
    return this.decision(allowed, w, t);
  }

  /** The key's standing without spending from its budget: `allowed` is false once the budget is spent. */
  peek(key: string): RateDecision {
    const t = this.clock();
    const w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs)
      return { allowed: true, limit: this.limit, remaining: this.limit, reset: "0.000" };
    return this.decision(w.count < this.limit, w, t);
  }

  private decision(allowed: boolean, w: { start: number; count: number }, t: number): RateDecision {
    const resetMs = Math.max(0, w.start + this.windowMs - t);
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - w.count),
      reset: (resetMs / 1000).toFixed(3),
    };
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
  }
}

/**
 * Failed authentications per client address: a request whose `Authorization` header
 * names no valid token spends from its address's budget, and once the budget is spent
 * every request from that address with an invalid token is refused with 429 until the
 * window ends. A valid generated token neither spends from the budget nor is refused by
 * it (only its user's own rate limit applies), so one misconfigured client behind a
 * shared NAT or CI egress address locks out nobody else. A token of another shape (one
 * a person chose, which may be guessable) is refused past the bound before it is looked
 * at: guessing such a token is bounded to this many tries per window per address.
 */
export const FAILED_AUTH_LIMIT = 20;
export const FAILED_AUTH_WINDOW_MS = 60_000;

/** The hosted service's 429 body. */
export const RATE_LIMITED_BODY = {
  errors: [{ status: "429", title: "Too many requests", detail: "You have exceeded the API's rate limit." }],
};
