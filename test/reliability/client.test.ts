/**
 * The client against a hostile service: a fake HTTP service on loopback whose every
 * answer fast-check generates (when and how it arrives, its size, its status and
 * rate-limit headers, pages that contradict each other, long lists of distinct pages up
 * to a million, each page slow), with a caller's signal that may abort at any time. A
 * list is one call: its deadline covers all its pages. The property: every call ends within its deadline (or soon after
 * its abort) plus a small margin, and either succeeds or fails with one of the client's
 * typed errors, whose message never carries the token.
 */
import type * as http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DeadlineExceededError,
  NetworkError,
  ServiceUnavailableError,
  WaitTimeoutError,
  WorkspacesError,
  type WorkspacesClient,
} from "../../src/client";
import {
  JSONAPI,
  TOKEN,
  fakeClient,
  organizationDoc,
  pageAsked,
  reply,
  startFakeService,
  tagPage,
  trickle,
  type FakeService,
} from "../client/fake-service";
import { recordFigures } from "./figures";

/**
 * How late after the limit that ends it (`limitMs`) a call may end: a fixed slack for the
 * last step after the limit fires (one trickle gap of at most 150 ms being read, the
 * abort's error built; measured at 9 to 15 ms on an idle machine) and a loaded machine's
 * late timers, plus half the limit for the timers the call schedules within it (pacing,
 * the pauses between retries, a 429's reset), each of which load delays in proportion.
 * Below what a broken limit lets through: a request left running past the deadline, a
 * pause that outlasts it. (How late calls really end is a figure this file prints.)
 */
const SLACK_MS = 500;
const lateBy = (limitMs: number) => limitMs / 2 + SLACK_MS;

/**
 * How much sooner than its nominal order a limit counted from the call's start may fire
 * on a loaded machine: the others (the retry budget, the unlock window) count from a
 * later moment (the first request, the first refusal), which load can only delay.
 */
const LOAD_MS = 2_000;

type Timing =
  | { kind: "prompt" }
  | { kind: "delay"; ms: number }
  | { kind: "trickle"; everyMs: number; chunk: number }
  | { kind: "stall-before-headers" }
  | { kind: "stall-after-headers" }
  | { kind: "reset" }
  | { kind: "cut-mid-body" };

type Body =
  | { kind: "organization" }
  | { kind: "errors"; detailLength: number }
  | { kind: "garbage"; length: number }
  | { kind: "empty" };

interface PageShape {
  items: string[];
  /** undefined: answer for the page asked. */
  current: number | undefined;
  /** "asked+1": the next page, else a literal. */
  next: "asked+1" | number | null;
  totalPages: number;
  /** Items of their own on every page (`a` on page 7 is `a7`), so a long list never repeats a page. */
  distinct: boolean;
  /** Each page of the list arrives after this long (a slow list), in place of the answer's timing. */
  delayMs?: number;
}

interface Answer {
  status: number;
  timing: Timing;
  body: Body;
  /** What a list request gets instead of `body` (a page of flat tags). */
  page: PageShape;
  headers: Record<string, string>;
}

const headerValue = fc.oneof(
  fc.constantFrom(
    "0",
    "-1",
    "1",
    "30",
    "0.001",
    "0.412",
    "86400",
    "1e300",
    "NaN",
    "Infinity",
    "",
    "abc",
    "Thu, 01 Jan 2099 00:00:00 GMT",
  ),
  fc.integer({ min: -10, max: 10_000_000_000_000 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
);

const timing: fc.Arbitrary<Timing> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Timing>({ kind: "prompt" }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 1_500 }).map<Timing>((ms) => ({ kind: "delay", ms })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ everyMs: fc.integer({ min: 5, max: 150 }), chunk: fc.integer({ min: 1, max: 64 }) })
      .map<Timing>((t) => ({ kind: "trickle", ...t })),
  },
  { weight: 1, arbitrary: fc.constant<Timing>({ kind: "stall-before-headers" }) },
  { weight: 1, arbitrary: fc.constant<Timing>({ kind: "stall-after-headers" }) },
  { weight: 1, arbitrary: fc.constant<Timing>({ kind: "reset" }) },
  { weight: 1, arbitrary: fc.constant<Timing>({ kind: "cut-mid-body" }) },
);

const bodyLength = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 2_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 64 * 1024, max: 4 * 1024 * 1024 }) },
);

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Body>({ kind: "organization" }) },
  bodyLength.map<Body>((detailLength) => ({ kind: "errors", detailLength })),
  bodyLength.map<Body>((length) => ({ kind: "garbage", length })),
  fc.constant<Body>({ kind: "empty" }),
);

const contradictingPage: fc.Arbitrary<PageShape> = fc.record({
  items: fc.array(fc.constantFrom("a", "b", "c", "d", "e"), { maxLength: 3 }),
  current: fc.option(fc.integer({ min: -2, max: 1_000_000 }), { nil: undefined, freq: 6 }),
  next: fc.oneof(
    { weight: 3, arbitrary: fc.constant<"asked+1">("asked+1") },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.integer({ min: -2, max: 1_000_000 }) },
  ),
  totalPages: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 6 }) },
    { weight: 1, arbitrary: fc.integer({ min: -1, max: 1_000_000 }) },
  ),
  distinct: fc.constant(false),
});

/** A consistent list of many pages (up to a million), each of its own items, each arriving after 0 to 300 ms. */
const longListPage: fc.Arbitrary<PageShape> = fc.record({
  items: fc.array(fc.constantFrom("a", "b", "c", "d", "e"), { minLength: 1, maxLength: 3 }),
  current: fc.constant(undefined),
  next: fc.constant<"asked+1">("asked+1"),
  totalPages: fc.oneof(fc.integer({ min: 2, max: 50 }), fc.constant(1_000_000)),
  distinct: fc.constant(true),
  delayMs: fc.integer({ min: 0, max: 300 }),
});

const page: fc.Arbitrary<PageShape> = fc.oneof(
  { weight: 3, arbitrary: contradictingPage },
  { weight: 1, arbitrary: longListPage },
);

const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.oneof(
    { weight: 12, arbitrary: fc.constant(200) },
    {
      weight: 6,
      arbitrary: fc.constantFrom(201, 204, 301, 400, 401, 403, 404, 409, 422, 429, 429, 500, 502, 503, 504),
    },
  ),
  timing,
  body,
  page,
  headers: fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.record(
        { "X-RateLimit-Limit": headerValue, "X-RateLimit-Reset": headerValue, "Retry-After": headerValue },
        { requiredKeys: [] },
      ),
    },
  ),
});

type CallKind = "read" | "add-tags" | "create" | "list" | "ping";
const CALLS: Record<CallKind, (c: WorkspacesClient) => Promise<unknown>> = {
  read: (c) => c.organizations.read("acme"),
  "add-tags": (c) => c.tags.add("ws-1", ["a"]),
  create: (c) => c.workspaces.create("acme", { name: "web" }),
  list: (c) => c.tags.listOrganization("acme").all(),
  ping: (c) => c.ping(),
};

const scenario = fc.record({
  answers: fc.array(answer, { minLength: 1, maxLength: 6 }),
  calls: fc.array(fc.constantFrom<CallKind>("read", "add-tags", "create", "list", "list", "ping"), {
    minLength: 1,
    maxLength: 4,
  }),
  deadlineMs: fc.integer({ min: 100, max: 800 }),
  /** In half the scenarios every list request is answered by one long slow list (status 200), not by the rotating answers. */
  longList: fc.option(longListPage, { nil: undefined, freq: 2 }),
  /** When the caller's signal aborts, if it does. */
  abortAfterMs: fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 800 }) },
  ),
});

function bodyText(b: Body, status: number): string {
  switch (b.kind) {
    case "organization":
      return JSON.stringify(organizationDoc());
    case "errors":
      return JSON.stringify({
        errors: [{ status: String(status), title: "refused", detail: "d".repeat(b.detailLength) }],
      });
    case "garbage":
      return "\u00ff{".repeat(Math.ceil(b.length / 2)).slice(0, b.length);
    case "empty":
      return "";
  }
}

function pageText(p: PageShape, asked: number): string {
  let next = p.next === "asked+1" ? asked + 1 : p.next;
  // A consistent long list ends at its last page.
  if (p.distinct && next !== null && next > p.totalPages) next = null;
  const items = p.distinct ? p.items.map((i) => `${i}${asked}`) : p.items;
  return JSON.stringify(tagPage(items, { current: p.current ?? asked, next, totalPages: p.totalPages }));
}

/** Whether a page, read alone, contradicts itself or the page asked for. */
function contradictory(p: PageShape, asked: number): boolean {
  if (p.distinct) return false;
  const next = p.next === "asked+1" ? asked + 1 : p.next;
  return (
    (p.current !== undefined && p.current !== asked) ||
    (next !== null && (next <= asked || next > p.totalPages || p.items.length === 0))
  );
}

function serve(a: Answer, req: http.IncomingMessage, res: http.ServerResponse): void {
  const isList = (req.url ?? "").includes("/tags");
  const text = isList ? pageText(a.page, pageAsked(req)) : bodyText(a.body, a.status);
  const head = () => {
    if (res.destroyed) return false;
    res.writeHead(a.status, { "content-type": JSONAPI, ...a.headers });
    return true;
  };
  const t: Timing = isList && a.page.delayMs !== undefined ? { kind: "delay", ms: a.page.delayMs } : a.timing;
  switch (t.kind) {
    case "prompt":
      if (head()) res.end(text);
      return;
    case "delay":
      setTimeout(() => head() && res.end(text), t.ms);
      return;
    case "trickle": {
      if (!head()) return;
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        const chunk = text.slice(at, at + t.chunk);
        at += t.chunk;
        if (at >= text.length) {
          clearInterval(timer);
          res.end(chunk);
        } else res.write(chunk);
      }, t.everyMs);
      res.on("close", () => clearInterval(timer));
      return;
    }
    case "stall-before-headers":
      return;
    case "stall-after-headers":
      if (head()) res.write(text.slice(0, Math.floor(text.length / 2)));
      return;
    case "reset":
      req.socket.destroy();
      return;
    case "cut-mid-body":
      if (head()) res.write(text.slice(0, Math.floor(text.length / 2)), () => req.socket.destroy());
      return;
  }
}

const counts = {
  scenarios: 0,
  aborted: 0,
  calls: 0,
  succeeded: 0,
  failedTyped: 0,
  untyped: 0,
  late: 0,
  worstOvershootMs: 0,
  answers: 0,
  benign: 0,
  hostileTiming: 0,
  hostileSize: 0,
  hostileRateLimit: 0,
  hostileStatus: 0,
  contradictoryPages: 0,
  longListPages: 0,
  laterPages: 0,
  listCalls: 0,
  listCallsLate: 0,
};
const errorClasses = new Map<string, number>();

let service: FakeService;
let current: Answer[] = [];
let currentList: PageShape | undefined;
let served = 0;

beforeAll(async () => {
  service = await startFakeService((req, res) => {
    const isList = (req.url ?? "").includes("/tags");
    const rotating = current[served++ % current.length];
    const a: Answer =
      isList && currentList
        ? { status: 200, timing: { kind: "prompt" }, body: { kind: "empty" }, page: currentList, headers: {} }
        : rotating;
    const slowPage = isList && a.page.delayMs !== undefined;
    if (isList && pageAsked(req) > 1) counts.laterPages++;
    const hostile = {
      timing: slowPage ? a.page.delayMs! > 0 : a.timing.kind !== "prompt",
      size: !isList && bodyText(a.body, a.status).length >= 64 * 1024,
      rateLimit: a.status === 429 || Object.keys(a.headers).length > 0,
      status: a.status >= 300 && a.status !== 429,
      page: isList && contradictory(a.page, pageAsked(req)),
      longList: isList && a.page.distinct,
    };
    counts.answers++;
    if (hostile.timing) counts.hostileTiming++;
    if (hostile.size) counts.hostileSize++;
    if (hostile.rateLimit) counts.hostileRateLimit++;
    if (hostile.status) counts.hostileStatus++;
    if (hostile.page) counts.contradictoryPages++;
    if (hostile.longList) counts.longListPages++;
    if (!Object.values(hostile).some(Boolean)) counts.benign++;
    serve(a, req, res);
  });
});

afterAll(async () => {
  await service?.close();
  recordFigures("client", {
    "generated scenarios (answers, calls and a deadline of 100 to 800 ms)": counts.scenarios,
    "of which the caller's signal aborts at a random time": counts.aborted,
    "generated answers (requests served)": counts.answers,
    "of no hostile class": share(counts.benign, counts.answers),
    "hostile: timing (delay, trickle, stall, reset, cut mid-body)": share(counts.hostileTiming, counts.answers),
    "hostile: body of 64 KB to 4 MB": share(counts.hostileSize, counts.answers),
    "hostile: any rate-limit header value, or 429": share(counts.hostileRateLimit, counts.answers),
    "hostile: other error status": share(counts.hostileStatus, counts.answers),
    "hostile: contradictory page": share(counts.contradictoryPages, counts.answers),
    "hostile: page of a long list (2 to 50 or a million distinct pages, 0 to 300 ms each)": share(
      counts.longListPages,
      counts.answers,
    ),
    "list pages asked for after the first": counts.laterPages,
    "client calls": counts.calls,
    "of which lists (all(), one deadline for every page)": counts.listCalls,
    [`lists that did not end within their deadline or by their abort (+ half of it and ${SLACK_MS} ms)`]:
      counts.listCallsLate,
    "calls succeeded / failed with a typed error": `${counts.succeeded} / ${counts.failedTyped}`,
    "typed errors by class": [...errorClasses]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k}: ${v}`)
      .join(", "),
    "calls failed with an untyped error": counts.untyped,
    [`calls that did not end within their deadline or by their abort (+ half of it and ${SLACK_MS} ms)`]: counts.late,
    "latest end after the deadline or abort": `${Math.max(0, counts.worstOvershootMs)} ms`,
    "trickle scenarios (a byte to 64 bytes every 5 to 150 ms; deadline, retry budget, wait and unlock window of 100 to 2,000 ms)":
      trickles.scenarios,
    "trickled calls: single read / paged list / upgrade wait / unlock after 0 to 2 503s": `${trickles.byKind.read} / ${trickles.byKind.list} / ${trickles.byKind.wait} / ${trickles.byKind.unlock}`,
    "trickled calls whose answer outlasted their earliest limit (cut off)": trickles.cutOff,
    "cut off by: deadline / retry budget / upgrade wait / unlock window / two limits within 150 ms": `${trickles.by.deadline} / ${trickles.by.budget} / ${trickles.by.wait} / ${trickles.by.window} / ${trickles.by.tie}`,
    [`trickled calls that did not end by their earliest limit (+ half of it and ${SLACK_MS} ms)`]: trickles.late,
    "latest end of a trickled call after its earliest limit": `${Math.max(0, trickles.worstOvershootMs)} ms`,
  });
});

function share(n: number, of: number): string {
  return `${n} (${of ? Math.round((n / of) * 100) : 0}%)`;
}

describe("the client against a hostile service", () => {
  it("ends every call within its deadline, with a result or a typed error", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ answers, calls, deadlineMs, longList, abortAfterMs }) => {
        current = answers;
        currentList = longList;
        served = 0;
        counts.scenarios++;
        // A fresh client and limiter per scenario: a day-long pause from one scenario would refuse the next.
        const controller = new AbortController();
        const aborting = abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), abortAfterMs);
        if (abortAfterMs !== undefined) counts.aborted++;
        const client = fakeClient(service, { deadlineMs }).with({ signal: controller.signal });
        const endBy = Math.min(deadlineMs, abortAfterMs ?? Infinity);
        const outcomes = await Promise.all(
          calls.map(async (kind) => {
            const started = Date.now();
            try {
              await CALLS[kind](client);
              return { kind, ok: true as const, took: Date.now() - started };
            } catch (err) {
              return { kind, ok: false as const, err, took: Date.now() - started };
            }
          }),
        );
        clearTimeout(aborting);
        for (const o of outcomes) {
          counts.calls++;
          counts.worstOvershootMs = Math.max(counts.worstOvershootMs, o.took - endBy);
          if (o.took > endBy + lateBy(endBy)) counts.late++;
          if (o.kind === "list") counts.listCalls++;
          if (o.kind === "list" && o.took > endBy + lateBy(endBy)) counts.listCallsLate++;
          if (o.ok) counts.succeeded++;
          else if (o.err instanceof WorkspacesError) {
            counts.failedTyped++;
            errorClasses.set(o.err.constructor.name, (errorClasses.get(o.err.constructor.name) ?? 0) + 1);
          } else counts.untyped++;
          expect(o.took).toBeLessThanOrEqual(endBy + lateBy(endBy));
          if (!o.ok) {
            expect(o.err).toBeInstanceOf(WorkspacesError);
            expect((o.err as Error).message).not.toContain(TOKEN);
            expect((o.err as Error).message.length).toBeLessThan(2_000);
          }
        }
      }),
      { numRuns: Number(process.env.CLIENT_HOSTILE_RUNS ?? 150) },
    );
  }, 300_000);
});

// ---------------------------------------------------------------------------
// Answers that trickle: every limit a caller sets bounds the exchange, body included.

type TrickledCall = "read" | "list" | "wait" | "unlock";
type Limit = "deadline" | "budget" | "wait" | "window";

const trickleScenario = fc.record({
  everyMs: fc.integer({ min: 5, max: 150 }),
  chunk: fc.integer({ min: 1, max: 64 }),
  /** Whitespace before the document: the answer takes `(padding + document) / chunk * everyMs` to arrive. */
  padding: fc.integer({ min: 0, max: 20_000 }),
  deadlineMs: fc.integer({ min: 100, max: 2_000 }),
  /** `retry.maxElapsedMs`; left out, the default of two minutes. */
  budgetMs: fc.option(fc.integer({ min: 100, max: 2_000 }), { nil: undefined }),
  /** Idle timeout: a value a trickle (a chunk every 150 ms at most) never reaches, however loaded the machine. */
  idleMs: fc.integer({ min: 3_000, max: 5_000 }),
  waitMs: fc.integer({ min: 100, max: 2_000 }),
  unlockWindowMs: fc.integer({ min: 100, max: 2_000 }),
  /** 503s (state not yet finalized) an unlock meets before its answer trickles. */
  unlock503s: fc.integer({ min: 0, max: 2 }),
  pages: fc.integer({ min: 1, max: 4 }),
});
type TrickleScenario = typeof trickleScenario extends fc.Arbitrary<infer T> ? T : never;

const trickles = {
  scenarios: 0,
  byKind: { read: 0, list: 0, wait: 0, unlock: 0 } as Record<TrickledCall, number>,
  cutOff: 0,
  by: { deadline: 0, budget: 0, wait: 0, window: 0, tie: 0 },
  late: 0,
  worstOvershootMs: 0,
};

/** The documents the four calls parse, before their padding. */
const UPGRADE_DOC = JSON.stringify({
  data: { id: "run-1", type: "workspace-upgrade", attributes: { status: "planning" } },
});
const ORGANIZATION_DOC = JSON.stringify(organizationDoc());

/** The errors that name each limit. */
function namesLimit(err: unknown, limit: Limit): boolean {
  switch (limit) {
    case "deadline":
      return err instanceof DeadlineExceededError;
    case "budget":
      return (
        err instanceof NetworkError &&
        !(err instanceof DeadlineExceededError) &&
        err.code === "ETIMEDOUT" &&
        /retry budget \(retry\.maxElapsedMs\)/.test(err.message)
      );
    case "wait":
      return err instanceof WaitTimeoutError;
    case "window":
      // Whether the window ends on the wait before the next attempt or on an attempt in flight,
      // the user reads the last answer: the state still settling. attempt reports the last answer, the state still settling.
      return err instanceof ServiceUnavailableError && /unlock window/.test(err.message);
  }
}

describe("the client against answers that trickle", () => {
  let trickling: FakeService;
  let scenarioAt: TrickleScenario;
  let scenarioNumber = 0;
  const unlocksAnswered = new Map<string, number>();

  beforeAll(async () => {
    trickling = await startFakeService((req, res) => {
      const t = scenarioAt;
      const url = req.url ?? "";
      const pad = " ".repeat(t.padding);
      if (url === "/api/v2/ping") return reply(res, 204, undefined);
      if (url.includes("/actions/unlock")) {
        const n = unlocksAnswered.get(url) ?? 0;
        unlocksAnswered.set(url, n + 1);
        if (n < t.unlock503s)
          return reply(res, 503, { errors: [{ status: "503", title: "state version not yet finalized" }] });
        // A workspace document is not what arrives: once whole, the answer fails to parse (a typed error too).
        return trickle(res, 200, pad + ORGANIZATION_DOC, t.everyMs, t.chunk);
      }
      if (url.includes("/tags")) {
        const n = pageAsked(req);
        return trickle(
          res,
          200,
          pad +
            JSON.stringify(tagPage([`t${n}`], { current: n, next: n < t.pages ? n + 1 : null, totalPages: t.pages })),
          t.everyMs,
          t.chunk,
        );
      }
      if (url.includes("/upgrade/")) return trickle(res, 200, pad + UPGRADE_DOC, t.everyMs, t.chunk);
      trickle(res, 200, pad + ORGANIZATION_DOC, t.everyMs, t.chunk);
    });
  });
  afterAll(async () => trickling?.close());

  it("ends every call by the earliest of its deadline, its retry budget, its wait and its unlock window", async () => {
    await fc.assert(
      fc.asyncProperty(trickleScenario, async (t) => {
        scenarioAt = t;
        trickles.scenarios++;
        const ws = `ws-${++scenarioNumber}`;
        const client = fakeClient(trickling, {
          deadlineMs: t.deadlineMs,
          timeoutMs: t.idleMs,
          retry: {
            ...(t.budgetMs === undefined ? {} : { maxElapsedMs: t.budgetMs }),
            baseDelayMs: 10,
            maxDelayMs: 20,
            unlockRetryMs: t.unlockWindowMs,
          },
        });
        const budget = t.budgetMs ?? 120_000;
        // How long one answer takes to arrive whole, and the limits of each call (ms from its start).
        const arrival = Math.ceil((t.padding + ORGANIZATION_DOC.length) / t.chunk) * t.everyMs;
        const calls: Record<TrickledCall, { run: () => Promise<unknown>; limits: Partial<Record<Limit, number>> }> = {
          read: { run: () => client.organizations.read("acme"), limits: { deadline: t.deadlineMs, budget } },
          list: { run: () => client.tags.listOrganization("acme").all(), limits: { deadline: t.deadlineMs, budget } },
          wait: {
            run: () =>
              client.noCode.upgrade.waitFor("nocode-1", ws, "run-1", ["planned"], {
                timeoutMs: t.waitMs,
                intervalMs: 20,
              }),
            limits: { deadline: t.deadlineMs, budget, wait: t.waitMs },
          },
          unlock: {
            run: () => client.workspaces.unlock(ws),
            limits: { deadline: t.deadlineMs, budget, ...(t.unlock503s > 0 ? { window: t.unlockWindowMs } : {}) },
          },
        };
        const outcomes = await Promise.all(
          (Object.keys(calls) as TrickledCall[]).map(async (kind) => {
            const started = Date.now();
            try {
              await calls[kind].run();
              return { kind, ok: true as const, took: Date.now() - started };
            } catch (err) {
              return { kind, ok: false as const, err, took: Date.now() - started };
            }
          }),
        );
        for (const o of outcomes) {
          trickles.byKind[o.kind]++;
          const limits = Object.entries(calls[o.kind].limits) as [Limit, number][];
          const earliest = Math.min(...limits.map(([, ms]) => ms));
          // A list's pages each have a retry budget of their own; only its deadline covers them all.
          const endBy = o.kind === "list" ? t.deadlineMs : o.kind === "wait" ? t.waitMs : earliest;
          trickles.worstOvershootMs = Math.max(trickles.worstOvershootMs, o.took - endBy);
          if (o.took > endBy + lateBy(endBy)) trickles.late++;
          expect(o.took).toBeLessThanOrEqual(endBy + lateBy(endBy));
          if (!o.ok) {
            expect(o.err).toBeInstanceOf(WorkspacesError);
            expect((o.err as Error).message).not.toContain(TOKEN);
          }
          // An answer that outlasts the earliest limit clearly is cut off, by the error that names that limit.
          if (arrival > earliest + 300) {
            trickles.cutOff++;
            expect(o.ok).toBe(false);
            const fromStart = o.kind === "wait" ? "wait" : "deadline";
            const binding = limits
              .filter(([limit, ms]) => ms <= earliest + 150 || (limit === fromStart && ms <= earliest + LOAD_MS))
              .map(([limit]) => limit);
            if (binding.length > 1) trickles.by.tie++;
            else trickles.by[binding[0]]++;
            expect(
              binding.some((limit) => namesLimit(o.ok ? undefined : o.err, limit)),
              `${o.kind}: ${String(o.ok ? "" : o.err)} for ${binding.join(" or ")}`,
            ).toBe(true);
          }
        }
      }),
      { numRuns: Number(process.env.CLIENT_TRICKLE_RUNS ?? 40) },
    );
  }, 300_000);
});
