import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RateLimiter, limiterSettingsFor } from "../../src/client/limiter";
import { DEFAULT_RETRY, backoffDelay, mayRetryNetwork, mayRetryStatus, rateLimitWait } from "../../src/client/retry";

describe("client-side pacing", () => {
  it("never lets more than the announced limit through in any one-second window", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 300 }), (limit, gaps) => {
        let now = 0;
        const limiter = new RateLimiter(limiterSettingsFor(limit), () => now);
        const sendTimes: number[] = [];
        for (const gap of gaps) {
          now += gap;
          sendTimes.push(now + limiter.reserve());
        }
        // Every request is sent at or after the previous one, and no window of 1000 ms holds more than `limit`.
        for (let i = 0; i < sendTimes.length; i++) {
          let j = i;
          while (j < sendTimes.length && sendTimes[j] < sendTimes[i] + 1000) j++;
          if (j - i > limit) return false;
        }
        return true;
      }),
    );
  });

  it("lets a burst through at once and paces the rest", () => {
    let now = 0;
    const limiter = new RateLimiter(limiterSettingsFor(30), () => now);
    const waits = Array.from({ length: 60 }, () => limiter.reserve());
    const immediate = waits.filter((w) => w === 0).length;
    expect(immediate).toBe(limiterSettingsFor(30).burst);
    // 60 requests at a sustained rate under 30/s take more than one second, and not absurdly longer.
    expect(Math.max(...waits)).toBeGreaterThan(1000);
    expect(Math.max(...waits)).toBeLessThan(3000);
  });

  it("holds requests back after a 429 until the reset", () => {
    let now = 1_000;
    const limiter = new RateLimiter(limiterSettingsFor(30), () => now);
    limiter.pauseUntil(1_700);
    expect(limiter.reserve()).toBe(700);
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
    expect(rateLimitWait({ "x-ratelimit-reset": "0.412", "retry-after": "5" })).toEqual({ ms: 412, source: "X-RateLimit-Reset" });
    expect(rateLimitWait({ "retry-after": "2" })).toEqual({ ms: 2000, source: "Retry-After" });
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(rateLimitWait({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }, now)).toEqual({ ms: 3000, source: "Retry-After" });
    expect(rateLimitWait({ "x-ratelimit-reset": String(now / 1000 + 2) }, now)).toEqual({ ms: 2000, source: "X-RateLimit-Reset" });
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
