/**
 * Client-side pacing so that one process stays under the rate limit the service
 * announces, instead of stampeding into 429s when a `pulumi up` touches hundreds of
 * resources at once. One limiter per base URL per process: every client object of the
 * process talking to the same service shares it, and the announcement (the
 * `X-RateLimit-Limit` header of `GET /ping`) is fetched once and cached.
 *
 * Pacing follows the announcement only: a service that announces no limit (the local
 * server with its limit off, a proxy that strips the header) is not paced at all, and
 * its 429s, if any, are still retried after the reset they name. The hosted service
 * announces 30 per second, and the client paces just under that.
 *
 * The pacing is a GCRA token bucket: a burst of `burst` requests, then one every
 * `1 / rate` seconds. With `rate + burst <= limit`, no one-second window (fixed or
 * sliding) on the service side ever sees more than `limit` requests from this process.
 *
 * Other processes with the same token spend from the same budget: every answer's
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset` are followed as well (shared-budget.ts),
 * so that the process slows down when the window's budget is nearly spent and waits for
 * the reset rather than sending into a 429.
 */
import { forgetRefusals } from "./refused-tokens";
import { type BudgetReport, SharedBudget } from "./shared-budget";

/** Pacing of one limiter: a sustained rate and a burst. */
export interface LimiterSettings {
  /** Requests per second allowed on average. */
  rate: number;
  /** Requests that may go at once before pacing starts. */
  burst: number;
}

/**
 * Paces just under an announced per-second limit: a burst of 2, then 95% of the limit
 * (so that requests bunched up by the network on their way still arrive under it) and
 * never more than `limit - burst` per second, so that no one-second window sees more
 * than `limit` (`rate + burst <= limit`). The burst of 2 is one interval of slack: a
 * timer that fires late is made up by the next request instead of lowering the rate.
 * A larger burst buys nothing in a long run of calls and costs sustained rate one for
 * one; the sustained rate is what sets the wall time of a large update or refresh (28
 * per second under the hosted 30, where a burst of 3 left 25.7).
 */
export function limiterSettingsFor(limitPerSecond: number): LimiterSettings {
  const limit = Math.max(1, limitPerSecond);
  const burst = Math.min(2, Math.floor(limit));
  const rate = Math.max(0.5, Math.min(limit * 0.95, limit - burst));
  return { rate, burst };
}

/**
 * A wait the limiter refuses because it would outlast the caller's deadline: the
 * service asked for a pause until `retryAt`, or the caller's turn did not come in time.
 */
export class PacingRefused extends Error {
  constructor(
    readonly reason: "paused" | "deadline" | "aborted",
    readonly retryAt?: number,
  ) {
    super(
      reason === "paused"
        ? `paused by the service until ${new Date(retryAt!).toISOString()}`
        : `no pacing slot (${reason})`,
    );
  }
}

/** Sending times remembered for the answers to come: more than the requests a process has in flight at once. */
const SENT_TIMES = 1024;

interface Waiter {
  resolve: (slot: number) => void;
  reject: (err: PacingRefused) => void;
  deadlineAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * The pacing of one process towards one service: a GCRA token bucket, a pause the
 * service asked for with a 429, and a first-come-first-served queue of callers, each
 * waiting no longer than its own deadline.
 */
export class RateLimiter {
  /** Milliseconds between requests; 0 when nothing is paced (no limit announced). */
  private interval = 0;
  private tolerance = 0;
  /** Theoretical arrival time of the next request (GCRA). */
  private tat = 0;
  private pausedUntil = 0;
  /** Callers waiting for a slot, first come first served. */
  private queue: Waiter[] = [];
  /** The one timer that serves the queue, when callers wait. */
  private pumpTimer: ReturnType<typeof setTimeout> | undefined;
  /** The per-second limit the service last announced, if any. */
  announced: number | undefined;
  /** The pacing last configured, as given. */
  private current: LimiterSettings | undefined;
  /** The budget this process shares with every other user of the token, as the answers report it. */
  private readonly budget: SharedBudget;
  /** Slots taken so far: the send number of the latest request. */
  private sent = 0;
  /** When the latest slot was taken (epoch ms). */
  private lastSentAt = 0;
  /** When each of the latest {@link SENT_TIMES} slots was taken, by send number modulo their count. */
  private readonly sentTimes: number[] = [];

  /** `settings` undefined: no pacing until a limit is announced (429 pauses and the shared budget still apply). */
  constructor(
    settings: LimiterSettings | undefined,
    private readonly now: () => number = Date.now,
    random: () => number = Math.random,
  ) {
    if (settings) this.configure(settings);
    this.budget = new SharedBudget(random);
  }

  configure(settings: LimiterSettings): void {
    this.current = { ...settings };
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

  /** Current pacing, or undefined when requests are not paced. */
  get settings(): LimiterSettings | undefined {
    return this.interval === 0 || !this.current ? undefined : { ...this.current };
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
    const allowedAt = Math.max(
      this.pausedUntil,
      tat - this.tolerance,
      this.budget.nextAt(t, this.sent, this.lastSentAt),
    );
    if (allowedAt > t) return Math.ceil(allowedAt - t);
    this.tat = tat + this.interval;
    this.sent++;
    this.lastSentAt = t;
    this.sentTimes[this.sent % SENT_TIMES] = t;
    this.budget.sent(t);
    return 0;
  }

  /**
   * Follows the budget an answer reports (`X-RateLimit-Remaining`, `X-RateLimit-Reset`),
   * which other processes with the same token spend too; `slot` is the send number of the
   * request answered (what {@link acquire} resolved with).
   */
  observe(report: BudgetReport, slot: number): void {
    const now = this.now();
    // A slot too old to be remembered went at the latest when the oldest remembered did.
    const sentAt = this.sent - slot < SENT_TIMES ? this.sentTimes[slot % SENT_TIMES] : undefined;
    this.budget.observe(report, slot, sentAt ?? now, now);
    // The next slot may now come sooner or later than the timer that serves the queue says.
    if (this.queue.length > 0) this.pump();
  }

  /** A 429 met: more of the budget is spent by others than this process counted on. */
  rateLimited(): void {
    this.budget.rateLimited();
  }

  /** Requests the token spends for each one this process sends, as the answers show it (1: alone). */
  get spenders(): number {
    return this.budget.spenders;
  }

  /**
   * Waits for a slot, first come first served, until `deadlineAt` (epoch ms) at the
   * latest, and resolves with its send number (for {@link observe}). Rejects with {@link PacingRefused}: at once when the service's pause lasts
   * past the deadline (saying when it ends), at the deadline when the turn has not come,
   * or when `signal` aborts.
   */
  acquire(deadlineAt: number = Infinity, signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) return Promise.reject(new PacingRefused("aborted"));
    if (this.pausedUntil > deadlineAt) return Promise.reject(new PacingRefused("paused", this.pausedUntil));
    if (this.queue.length === 0 && this.tryTake() === 0) return Promise.resolve(this.sent);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        deadlineAt,
        signal,
        timer: undefined,
        onAbort: () => this.leave(waiter, new PacingRefused("aborted")),
      };
      if (Number.isFinite(deadlineAt)) {
        waiter.timer = setTimeout(
          () => this.leave(waiter, new PacingRefused("deadline")),
          Math.max(0, deadlineAt - this.now()),
        );
      }
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.queue.push(waiter);
      if (this.queue.length === 1) this.pump();
    });
  }

  /** Serves the queue with one timer at a time, however many callers wait; no timer is left once nobody waits. */
  private pump(): void {
    if (this.pumpTimer) {
      clearTimeout(this.pumpTimer);
      this.pumpTimer = undefined;
    }
    while (this.queue.length > 0) {
      const wait = this.tryTake();
      if (wait > 0) {
        this.pumpTimer = setTimeout(() => {
          this.pumpTimer = undefined;
          this.pump();
        }, wait);
        return;
      }
      const waiter = this.queue.shift()!;
      this.settle(waiter);
      waiter.resolve(this.sent);
    }
  }

  private leave(waiter: Waiter, err: PacingRefused): void {
    const i = this.queue.indexOf(waiter);
    if (i < 0) return;
    this.queue.splice(i, 1);
    this.settle(waiter);
    waiter.reject(err);
    if (this.queue.length === 0 && this.pumpTimer) {
      clearTimeout(this.pumpTimer);
      this.pumpTimer = undefined;
    }
  }

  private settle(waiter: Waiter): void {
    if (waiter.timer) clearTimeout(waiter.timer);
    waiter.signal?.removeEventListener("abort", waiter.onAbort);
  }

  /**
   * Holds every request back until `untilMs` (epoch ms), after the service said 429 with
   * a reset time. Waiters whose deadline comes before then are refused at once, with the
   * time the pause ends.
   */
  pauseUntil(untilMs: number): void {
    if (untilMs <= this.pausedUntil) return;
    this.pausedUntil = untilMs;
    for (const waiter of this.queue.filter((w) => w.deadlineAt < untilMs))
      this.leave(waiter, new PacingRefused("paused", untilMs));
  }

  /** Epoch ms until which the service asked for a pause (0 when none). */
  get pausedUntilMs(): number {
    return this.pausedUntil;
  }
}

/** Limiters and their pending announcement, keyed by base URL. */
const registry = new Map<string, { limiter: RateLimiter; ready: Promise<void> | undefined }>();

/** What an announcement says: the limit, and the budget its answer reports (the window it was counted in). */
export interface Announcement {
  limit: number | undefined;
  budget?: BudgetReport;
}

/**
 * Returns the process-wide limiter of `baseUrl`. `announce` is called at most once per
 * base URL (the first time a limiter is needed) and resolves to the announced limit,
 * or undefined when the service announces none, with the budget its answer reports,
 * which the limiter takes in before its first request (many processes that start
 * together know from it how full the window already is); it must end in bounded time,
 * since every caller waits for it.
 */
export async function limiterFor(baseUrl: string, announce: () => Promise<Announcement>): Promise<RateLimiter> {
  let entry = registry.get(baseUrl);
  if (!entry) {
    const created: { limiter: RateLimiter; ready: Promise<void> | undefined } = {
      limiter: new RateLimiter(undefined),
      ready: undefined,
    };
    created.ready = announce()
      .then(({ limit, budget }) => {
        if (limit && limit > 0) created.limiter.follow(limit);
        if (budget) created.limiter.observe(budget, 0);
      })
      // Without an announcement nothing is paced until an answer announces a limit.
      .catch(() => undefined);
    registry.set(baseUrl, created);
    entry = created;
  }
  await entry.ready;
  return entry.limiter;
}

/** Forgets every cached limiter and every token refusal remembered (tests that start several servers on reused ports). */
export function resetLimiters(): void {
  registry.clear();
  forgetRefusals();
}

/** Waits `ms`; resolves false at once when `signal` aborts first (or already has). */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
