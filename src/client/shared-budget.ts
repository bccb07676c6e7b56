/**
 * The part of a token's rate limit that other processes spend too. Every answer of the
 * service says how much of the current window's budget is left (`X-RateLimit-Remaining`)
 * and when the window resets (`X-RateLimit-Reset`); several processes with one token (a
 * CI matrix, an Automation API driver running stacks side by side) all draw from that one
 * budget, while each paces itself only against the announced limit (limiter.ts).
 *
 * The rule: a process takes its share of what is left, spread evenly over what is left of
 * the window, and when its share is less than one request it waits for the reset instead
 * of sending into a 429.
 *
 * - Its share is `remaining / spenders`, where `spenders` is how many requests the whole
 *   token spends for each one this process sends: what the window has spent (`Limit` less
 *   `Remaining`) over what this process sent in it (1 for a process alone, about N for N
 *   processes at the same pace). The estimate of the previous window is the prior of the
 *   next, so a new window does not start from "alone".
 * - From {@link GAP_SPENDERS} spenders on, a process has one or two requests in a window,
 *   too early in it to see what the others send after them (the window's count then says
 *   about half of them). There the estimate comes from the gaps between its requests
 *   instead: the others' requests a window counted between two of this process's (its
 *   count in between, less one) over the server time between them (the difference of
 *   their `Reset`), wherever in the window they fall, against this process's own rate.
 * - Its own requests still in flight are not in the latest `Remaining` yet: each counts
 *   for `spenders` requests spent (the others send at the same pace meanwhile).
 * - The requests of its share go at even intervals that end before the reset. A process
 *   alone at its own pace (28 per second under 30) is never held back by this rule: its
 *   share is always more than its pace needs, so a single process keeps its throughput.
 * - A process whose part of a window is only a few requests (fewer than
 *   {@link SPREAD_BELOW_REQUESTS}) waits for a reset until a random point of its own
 *   interval after it: dozens of processes that waited for one reset would otherwise spend
 *   the new window at its first moment. In a window expected after a reset, one that
 *   counts more spenders than the window holds still sends one request with the odds of
 *   its share, so that it hears of the window at all.
 * - A 429 means the estimate was short: it grows by one before the next window, and the
 *   reset itself is waited for by the pause of the 429 (limiter.ts).
 *
 * The service's windows are told apart by their reset time: an answer whose reset lies
 * more than {@link SAME_WINDOW_MS} from the current window's belongs to another window.
 */

/** What one answer says of the token's budget. */
export interface BudgetReport {
  /** Requests left in the current window (`X-RateLimit-Remaining`). */
  remaining: number;
  /** Milliseconds until the window resets (`X-RateLimit-Reset`), from when the answer arrived. */
  resetMs: number;
  /** Requests the window holds (`X-RateLimit-Limit`), when the answer says. */
  limit?: number;
}

/**
 * Two answers whose reset times differ by less than this belong to the same window. The
 * hosted service's windows last a second, so the reset of the next window is at least a
 * second later; the estimates of one window differ only by the time answers take to
 * arrive.
 */
const SAME_WINDOW_MS = 250;

/**
 * Longest window whose budget is spread over it and expected to follow it. A longer one
 * (an hourly budget) only holds requests back once this process's share of it is spent:
 * spreading thousands of requests over an hour would slow a process for nothing.
 */
const MAX_WINDOW_MS = 10_000;

/** Weight of the previous window's estimate, in requests of this process, against what the current window shows. */
const PRIOR_WEIGHT = 2;

/** Largest random delay after a reset, so that processes that waited for it do not all send in the same millisecond. */
const RESET_JITTER_MS = 20;

/** From this many spenders on, the estimate comes from the gaps between this process's requests. */
const GAP_SPENDERS = 4;

/** How far back the gaps and this process's requests count. */
const GAP_HORIZON_MS = 3_000;

/** Server time the gaps must span before their estimate is taken. */
const MIN_GAP_MS = 300;

/** A part of a window of fewer requests than this is spread after the reset. */
const SPREAD_BELOW_REQUESTS = 5;

/** One window of the service as this process has seen it. */
interface Window {
  /**
   * When it resets (epoch ms), at the latest: the earliest of its answers' arrival plus
   * their `Reset` (each is late by the time its answer took to arrive).
   */
  resetAt: number;
  /**
   * When it resets, at the earliest: the latest of its answered requests' sending plus
   * their `Reset`. The share of the window is spread until then, so that the time answers
   * take to arrive does not make a process alone any slower.
   */
  resetFrom: number;
  /** Requests it holds: the announced limit, else the first `Remaining` seen plus the request it answered. */
  capacity: number;
  /** Send number of the first answer seen in it. */
  firstSeq: number;
  /** The lowest `Remaining` seen in it (the freshest state of the budget) and the send number it answered. */
  remaining: number;
  seq: number;
  /** This process's random delay after its reset. */
  jitter: number;
  /**
   * No answer has come from it yet: it is the window expected to follow the last one seen,
   * as long and as full, so that processes that waited for a reset do not all spend the
   * new window before the first of them hears of it.
   */
  expected: boolean;
  /** This process's random point (0 to 1) of its own interval after the reset. */
  phase: number;
  /** Expected, with more spenders than it holds: whether this process sends one request in it anyway. */
  lucky: boolean;
}

/** Others' requests a window counted between two of this process's, and the server time between them. */
interface Gap {
  at: number;
  others: number;
  ms: number;
}

/** What this process has learnt of the budget it shares, and the earliest moment its next request may go. */
export class SharedBudget {
  #window: Window | undefined;
  /** Requests the token spends per request of this process, as the last window showed (1: alone). */
  #spenders = 1;
  /** How long a window lasts, as far as the answers show: the longest `Reset` seen (0: none seen yet). */
  #windowMs = 0;
  /** When the latest answer arrived. */
  #lastAnswerAt = 0;
  /** This process's recent answers: what their window had counted, its `Reset`, and which window it was. */
  #marks: { counted: number; resetMs: number; window: number }[] = [];
  #gaps: Gap[] = [];
  /** When this process's recent requests went. */
  #sends: number[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  /** Notes that one of this process's requests went at `at` (epoch ms). */
  sent(at: number): void {
    this.#sends.push(at);
    while (this.#sends[0] < at - GAP_HORIZON_MS) this.#sends.shift();
  }

  /**
   * Takes in the budget an answer reports. `seq` is the send number of the request it
   * answers (the count of this process's sends when it went), `sentAt` when that request
   * went and `now` when the answer arrived (epoch ms).
   */
  observe(report: BudgetReport, seq: number, sentAt: number, now: number): void {
    const resetAt = now + report.resetMs;
    const resetFrom = Math.min(resetAt, sentAt + report.resetMs);
    if (report.resetMs <= MAX_WINDOW_MS) this.#windowMs = Math.max(this.#windowMs, report.resetMs);
    const w = this.#window;
    if (report.resetMs <= MAX_WINDOW_MS) this.noteGap(report, report.limit ?? w?.capacity ?? report.remaining + 1, now);
    if (w && resetAt < w.resetAt - SAME_WINDOW_MS) return; // an answer of an earlier window, arriving late
    if (!w || w.expected || resetAt > w.resetAt + SAME_WINDOW_MS) {
      // An expected window's own sends count from when it was expected to begin.
      if (w && !w.expected) this.#spenders = this.estimate(w, now);
      this.#window = {
        resetAt,
        resetFrom,
        capacity: report.limit ?? report.remaining + 1,
        firstSeq: w?.expected ? Math.min(seq, w.firstSeq) : seq,
        remaining: report.remaining,
        seq,
        jitter: Math.round(this.random() * RESET_JITTER_MS),
        expected: false,
        phase: this.random(),
        lucky: false,
      };
      return;
    }
    w.resetAt = Math.min(w.resetAt, resetAt);
    w.resetFrom = Math.min(w.resetAt, Math.max(w.resetFrom, resetFrom));
    if (report.remaining < w.remaining || (report.remaining === w.remaining && seq > w.seq)) {
      w.remaining = report.remaining;
      w.seq = seq;
    }
  }

  /** A 429 met: more is spent by others than the estimate says. */
  rateLimited(): void {
    const w = this.#window;
    this.#spenders = (w && !w.expected ? this.estimate(w, this.#lastAnswerAt) : this.#spenders) + 1;
    if (w) w.remaining = 0;
  }

  /** Requests the token spends per request of this process, as far as is known now. */
  get spenders(): number {
    const w = this.#window;
    return w && !w.expected ? this.estimate(w, this.#lastAnswerAt) : this.#spenders;
  }

  /**
   * The earliest moment (epoch ms) the next request of this process may go, given `sent`
   * (its sends so far) and `lastSentAt` (when the latest went); 0 when the budget holds
   * nothing back (no answer reported one, or its window has reset).
   */
  nextAt(now: number, sent: number, lastSentAt: number): number {
    const w = this.current(now, sent);
    if (!w) return 0;
    const spenders = w.expected ? this.#spenders : this.estimate(w, now);
    const inFlight = Math.max(0, sent - w.seq);
    const share = (w.remaining - spenders * inFlight) / spenders;
    if (share < 1 && !(w.lucky && inFlight === 0)) {
      // Sent halfway between the earliest and the latest reset, a request arrives after the
      // reset when its way there takes no less than half the way back and forth.
      const part = w.capacity / spenders;
      const after = part < SPREAD_BELOW_REQUESTS ? w.phase * Math.min(this.#windowMs, this.#windowMs / part) : w.jitter;
      return (w.resetFrom + w.resetAt) / 2 + after;
    }
    // `share` requests at even intervals from the latest send, the last one before the reset.
    const from = Math.min(lastSentAt, now);
    const rest = Math.max(0, w.resetFrom - from);
    return rest > MAX_WINDOW_MS ? 0 : from + rest / (share + 1);
  }

  /**
   * The window `now` falls in: the last one seen, or once it has reset, the one expected
   * to follow it (beginning at its reset, or now when that is more than a window ago).
   */
  private current(now: number, sent: number): Window | undefined {
    const w = this.#window;
    if (!w || now < w.resetAt) return w;
    if (this.#windowMs === 0) return undefined;
    if (!w.expected) this.#spenders = this.estimate(w, now);
    const start = now - w.resetAt < this.#windowMs ? w.resetAt : now;
    const next: Window = {
      resetAt: start + this.#windowMs,
      resetFrom: start + this.#windowMs - (w.resetAt - w.resetFrom),
      capacity: w.capacity,
      firstSeq: sent + 1,
      remaining: w.capacity,
      seq: sent,
      jitter: Math.round(this.random() * RESET_JITTER_MS),
      expected: true,
      phase: this.random(),
      lucky: this.#spenders > w.capacity && this.random() * this.#spenders < w.capacity,
    };
    this.#window = next;
    return next;
  }

  /**
   * Requests spent per request of this process in window `w`: from its count, the previous
   * estimate weighing as {@link PRIOR_WEIGHT} requests, or from the gaps once that count
   * says {@link GAP_SPENDERS} or more and the gaps span enough time.
   */
  private estimate(w: Window, now: number): number {
    const all = Math.max(0, w.capacity - w.remaining);
    const own = Math.max(0, w.seq - w.firstSeq) + 1;
    const counted = Math.max(1, (all + this.#spenders * PRIOR_WEIGHT) / (own + PRIOR_WEIGHT));
    return counted < GAP_SPENDERS ? counted : (this.gapSpenders(now) ?? counted);
  }

  /** Takes in the gap between this answer's request and the one of this process its window counted just before. */
  private noteGap(report: BudgetReport, capacity: number, now: number): void {
    this.#lastAnswerAt = now;
    const counted = capacity - report.remaining;
    const window = Math.round((now + report.resetMs) / SAME_WINDOW_MS);
    this.#marks = this.#marks.filter((m) => Math.abs(m.window - window) <= 1);
    let before: { counted: number; resetMs: number } | undefined;
    for (const m of this.#marks) if (m.counted < counted && (!before || m.counted > before.counted)) before = m;
    if (before && before.resetMs > report.resetMs)
      this.#gaps.push({ at: now, others: counted - before.counted - 1, ms: before.resetMs - report.resetMs });
    this.#marks.push({ counted, resetMs: report.resetMs, window });
    while (this.#gaps.length > 0 && this.#gaps[0].at < now - GAP_HORIZON_MS) this.#gaps.shift();
  }

  /** Requests spent per request of this process: the gaps' others per ms over its own; undefined until they span {@link MIN_GAP_MS}. */
  private gapSpenders(now: number): number | undefined {
    let others = 0;
    let ms = 0;
    for (const g of this.#gaps) {
      others += g.others;
      ms += g.ms;
    }
    const sends = this.#sends.filter((t) => t >= now - GAP_HORIZON_MS);
    if (ms < MIN_GAP_MS || sends.length === 0) return undefined;
    const span = Math.min(GAP_HORIZON_MS, Math.max(this.#windowMs, now - sends[0]));
    return 1 + ((others / ms) * span) / sends.length;
  }
}
