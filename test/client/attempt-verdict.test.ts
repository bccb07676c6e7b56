import { describe, expect, it } from "vitest";
import { type ClassifyInput, type Outcome, type Retry, classify, decideRetry } from "../../src/client/attempt-verdict";
import { DEFAULT_DEADLINE_MS, DEFAULT_RETRY } from "../../src/client";
import { callBounds } from "../../src/client/call-scope";

const NOW = Date.parse("2026-01-01T00:00:00Z");
const retry = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };

/** The decision inputs of a first attempt of an idempotent request; `random` fixed at its midpoint. */
function input(overrides: Partial<ClassifyInput> = {}): ClassifyInput {
  return {
    repeat: "idempotent",
    goneMeansDone: false,
    attempt: 1,
    elapsedMs: 0,
    outcomeUnknown: false,
    retry,
    now: NOW,
    random: () => 0.5,
    ...overrides,
  };
}

function answer(status: number, headers: Record<string, unknown> = {}, detail?: string): Outcome {
  return { answer: { status, headers, errors: detail ? [{ status: String(status), detail }] : [] } };
}

describe("classify", () => {
  it("takes any 2xx as success", () => {
    expect(classify(answer(200), input())).toEqual({ kind: "success", alreadyDone: false });
    expect(classify(answer(204), input({ repeat: "once" }))).toEqual({ kind: "success", alreadyDone: false });
  });

  it("takes a 404 after an attempt with no answer as a deletion already done, only when asked to", () => {
    const gone = input({ goneMeansDone: true, outcomeUnknown: true, attempt: 2 });
    expect(classify(answer(404), gone)).toEqual({ kind: "success", alreadyDone: true });
    expect(classify(answer(404), { ...gone, outcomeUnknown: false })).toEqual({ kind: "fail", gaveUp: undefined });
    expect(classify(answer(404), { ...gone, goneMeansDone: false })).toEqual({ kind: "fail", gaveUp: undefined });
  });

  it("reports a redirect and a client error at once", () => {
    expect(classify(answer(302), input())).toEqual({ kind: "fail", gaveUp: undefined });
    expect(classify(answer(422), input())).toEqual({ kind: "fail", gaveUp: undefined });
  });

  it("waits as long as a 429 asks, plus jitter, and says until when", () => {
    const v = classify(answer(429, { "x-ratelimit-reset": "0.5" }), input({ repeat: "once" }));
    expect(v).toEqual({
      kind: "retry",
      wait: 525,
      why: "X-RateLimit-Reset",
      retryAt: new Date(NOW + 500),
      settling: false,
    });
  });

  it("backs off after a 429 that names no wait", () => {
    expect(classify(answer(429), input({ attempt: 3 }))).toEqual({
      kind: "retry",
      wait: 225,
      why: "backoff",
      settling: false,
    });
  });

  it("does not wait on a 429 that throttles an invalid token", () => {
    const v = classify(answer(429, { "retry-after": "1" }, "Invalid token"), input());
    expect(v).toMatchObject({ kind: "fail", refusedToken: true, gaveUp: expect.stringMatching(/^not waited on/) });
  });

  it("retries a 5xx only for a request whose repetition changes nothing", () => {
    expect(classify(answer(502), input())).toMatchObject({ kind: "retry", why: "backoff" });
    expect(classify(answer(502), input({ repeat: "once" }))).toEqual({
      kind: "fail",
      gaveUp: "not repeated: the request may already have taken effect",
    });
    expect(classify(answer(501), input())).toEqual({ kind: "fail", gaveUp: undefined });
  });

  it("follows a 503's Retry-After up to the longest backoff wait", () => {
    expect(classify(answer(503, { "retry-after": "0.2" }), input())).toMatchObject({ wait: 200, why: "Retry-After" });
    expect(classify(answer(503, { "retry-after": "60" }), input())).toMatchObject({ wait: 1_000, why: "Retry-After" });
  });

  it("retries an unlock's 503 within the unlock window only, and marks it settling", () => {
    const unlock = input({ repeat: "unlock", attempt: 20 });
    expect(classify(answer(503), unlock)).toEqual({ kind: "retry", wait: 525, why: "backoff", settling: true });
    expect(classify(answer(503), { ...unlock, elapsedMs: retry.unlockRetryMs - 500 })).toEqual({
      kind: "fail",
      gaveUp: `gave up: the state was still not finalized at the end of the ${retry.unlockRetryMs}ms unlock window`,
    });
  });

  it("retries a dropped connection only when repeating it is harmless or it was never sent", () => {
    expect(classify({ networkCode: "ECONNRESET" }, input())).toMatchObject({ kind: "retry", why: "backoff" });
    expect(classify({ networkCode: "ECONNRESET" }, input({ repeat: "once" }))).toEqual({
      kind: "fail",
      gaveUp: "not repeated: the request may already have taken effect",
    });
    expect(classify({ networkCode: "ECONNREFUSED" }, input({ repeat: "once" }))).toMatchObject({ kind: "retry" });
  });
});

describe("decideRetry", () => {
  const wait: Retry = { kind: "retry", wait: 500, why: "backoff", settling: false };
  const room = { attempt: 1, budgetLeftMs: 10_000, deadlineLeftMs: 10_000, deadlineMs: 60_000, retry };

  it("lets a retry go ahead while attempts, budget and deadline allow it", () => {
    expect(decideRetry(wait, room)).toBe(wait);
  });

  it("gives up after the last attempt, unless an unlock is settling", () => {
    const last = { ...room, attempt: retry.maxAttempts };
    expect(decideRetry(wait, last)).toEqual({
      kind: "fail",
      gaveUp: `gave up after the maximum of ${retry.maxAttempts} attempts`,
      retryAt: undefined,
    });
    expect(decideRetry({ ...wait, settling: true }, last)).toMatchObject({ kind: "retry" });
  });

  it("gives up when the wait would exceed the budget, then when it would pass the deadline", () => {
    expect(decideRetry(wait, { ...room, budgetLeftMs: 499, deadlineLeftMs: 1 })).toMatchObject({
      gaveUp: `gave up: waiting 500ms more would exceed the ${retry.maxElapsedMs}ms budget`,
    });
    expect(decideRetry(wait, { ...room, deadlineLeftMs: 499 })).toMatchObject({
      gaveUp: "gave up: waiting 500ms more would pass this call's deadline of 60000ms",
    });
  });

  it("names when a 429 said the service takes requests again", () => {
    const asked = { ...wait, retryAt: new Date(NOW + 500) };
    expect(decideRetry(asked, { ...room, deadlineLeftMs: 100 })).toEqual({
      kind: "fail",
      gaveUp:
        "gave up: waiting 500ms more would pass this call's deadline of 60000ms; retry after 2026-01-01T00:00:00.500Z",
      retryAt: asked.retryAt,
    });
  });
});

describe("callBounds", () => {
  it("takes the call's deadline over the client's, and the default without either", () => {
    const scope = { startedAt: NOW - 1_000, options: { deadlineMs: 5_000 } };
    expect(callBounds(scope, { deadlineMs: 60_000 }, NOW)).toMatchObject({
      startedAt: NOW - 1_000,
      deadlineMs: 5_000,
      deadlineAt: NOW + 4_000,
    });
    expect(callBounds(undefined, { deadlineMs: 60_000 }, NOW)).toMatchObject({ deadlineAt: NOW + 60_000 });
    expect(callBounds(undefined, {}, NOW)).toMatchObject({ deadlineMs: DEFAULT_DEADLINE_MS });
  });

  it("ends the call when either the client's or the call's signal aborts", () => {
    const client = new AbortController();
    const call = new AbortController();
    const scope = { startedAt: NOW, options: { signal: call.signal } };
    expect(callBounds(undefined, {}, NOW).signal).toBeUndefined();
    expect(callBounds(scope, {}, NOW).signal).toBe(call.signal);
    const both = callBounds(scope, { signal: client.signal }, NOW).signal!;
    expect(both.aborted).toBe(false);
    client.abort();
    expect(both.aborted).toBe(true);
  });
});
