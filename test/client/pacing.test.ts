import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RateLimiter, limiterSettingsFor } from "../../src/client/limiter";
import { DEFAULT_RETRY, backoffDelay, mayRetryNetwork, mayRetryStatus, rateLimitWait } from "../../src/client/retry";

describe("client-side pacing", () => {
  /** Sends requests arriving after `gaps` through the limiter on a fake clock, first come first served; returns the send times. */
  function simulate(limiter: RateLimiter, clock: { now: number }, gaps: number[], stalls: number[] = []): number[] {
    const sends: number[] = [];
    let arrival = 0;
    gaps.forEach((gap, i) => {
      arrival += gap;
      clock.now = Math.max(clock.now, arrival);
      // A stalled event loop sends late; the slot is only taken at the real send time.
      clock.now += stalls[i] ?? 0;
      for (let wait = limiter.tryTake(); wait > 0; wait = limiter.tryTake()) clock.now += wait;
      sends.push(clock.now);
    });
    return sends;
  }

  function maxInAnyWindow(sends: number[]): number {
    let most = 0;
    for (let i = 0; i < sends.length; i++) {
      let j = i;
      while (j < sends.length && sends[j] < sends[i] + 1000) j++;
      most = Math.max(most, j - i);
    }
    return most;
  }

  it("never lets more than the announced limit through in any one-second window, even when sends are delayed", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 300 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 300 }),
        (limit, gaps, stalls) => {
          const clock = { now: 0 };
          const limiter = new RateLimiter(limiterSettingsFor(limit), () => clock.now);
          return maxInAnyWindow(simulate(limiter, clock, gaps, stalls)) <= limit;
        },
      ),
    );
  });

  it("lets a burst of 2 through at once and paces the rest at 28 per second under an announced 30", () => {
    expect(limiterSettingsFor(30)).toEqual({ rate: 28, burst: 2 });
    const clock = { now: 0 };
    const limiter = new RateLimiter(limiterSettingsFor(30), () => clock.now);
    const sends = simulate(
      limiter,
      clock,
      Array.from({ length: 60 }, () => 0),
    );
    expect(sends.filter((t) => t === 0).length).toBe(2);
    // 58 paced requests at 28 per second: late timers (the simulated clock moves in whole
    // milliseconds) are made up by the burst's slack, so the 60th goes at 58 intervals.
    expect(sends[59]).toBeGreaterThan(1000);
    expect(sends[59]).toBeLessThanOrEqual(Math.ceil((58 * 1000) / 28) + 1);
  });

  it("serves concurrent waiters in order with real timers", async () => {
    const limiter = new RateLimiter({ rate: 50, burst: 1 });
    const order: number[] = [];
    const started = Date.now();
    await Promise.all(Array.from({ length: 10 }, (_, i) => limiter.acquire().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Nine intervals of 20 ms after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(170);
  });

  it("holds requests back after a 429 until the reset", () => {
    const now = 1_000;
    const limiter = new RateLimiter(limiterSettingsFor(30), () => now);
    limiter.pauseUntil(1_700);
    expect(limiter.tryTake()).toBe(700);
  });
});

describe("retry policy", () => {
  it("repeats 429 for every request, 5xx only for idempotent ones, 503 on unlock within its window", () => {
    expect(mayRetryStatus("once", 429, 0, DEFAULT_RETRY)).toBe(true);
    expect(mayRetryStatus("once", 503, 0, DEFAULT_RETRY)).toBe(false);
    expect(mayRetryStatus("once", 500, 0, DEFAULT_RETRY)).toBe(false);
    expect(mayRetryStatus("idempotent", 502, 0, DEFAULT_RETRY)).toBe(true);
    expect(mayRetryStatus("idempotent", 501, 0, DEFAULT_RETRY)).toBe(false);
    expect(mayRetryStatus("idempotent", 404, 0, DEFAULT_RETRY)).toBe(false);
    expect(mayRetryStatus("unlock", 503, 1_000, DEFAULT_RETRY)).toBe(true);
    expect(mayRetryStatus("unlock", 503, DEFAULT_RETRY.unlockRetryMs + 1, DEFAULT_RETRY)).toBe(false);
    expect(mayRetryStatus("unlock", 500, 0, DEFAULT_RETRY)).toBe(false);
  });

  it("repeats a create after a refused connection but not after a dropped one", () => {
    expect(mayRetryNetwork("once", "ECONNREFUSED")).toBe(true);
    expect(mayRetryNetwork("once", "ECONNRESET")).toBe(false);
    expect(mayRetryNetwork("once", "ETIMEDOUT")).toBe(false);
    expect(mayRetryNetwork("idempotent", "ECONNRESET")).toBe(true);
  });

  it("reads X-RateLimit-Reset before Retry-After", () => {
    expect(rateLimitWait({ "x-ratelimit-reset": "0.412", "retry-after": "5" })).toEqual({
      ms: 412,
      source: "X-RateLimit-Reset",
    });
    expect(rateLimitWait({ "retry-after": "2" })).toEqual({ ms: 2000, source: "Retry-After" });
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(rateLimitWait({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }, now)).toEqual({
      ms: 3000,
      source: "Retry-After",
    });
    expect(rateLimitWait({ "x-ratelimit-reset": String(now / 1000 + 2) }, now)).toEqual({
      ms: 2000,
      source: "X-RateLimit-Reset",
    });
    expect(rateLimitWait({})).toBeUndefined();
  });

  it("backs off exponentially with jitter, capped", () => {
    const opts = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, opts, () => 1)).toBe(100);
    expect(backoffDelay(3, opts, () => 1)).toBe(400);
    expect(backoffDelay(10, opts, () => 1)).toBe(1000);
    expect(backoffDelay(10, opts, () => 0)).toBe(50);
  });
});
