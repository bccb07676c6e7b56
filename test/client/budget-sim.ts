/**
 * Several processes' limiters against the local server's own per-token window
 * (src/server/ratelimit.ts), on one simulated clock: each process sends its requests as
 * fast as its limiter lets it, each answer arrives `latency` ms later with the headers
 * the server would send, and a 429 is retried after the reset it names, as the transport
 * does. Deterministic: the processes act in the same millisecond, in a fixed order.
 */
import { RateLimiter, limiterSettingsFor } from "../../src/client/limiter";
import { RateLimiter as ServerWindow } from "../../src/server/ratelimit";

export interface SimulationOptions {
  processes: number;
  /** Requests each process sends (429s not counted). */
  requests: number;
  limit: number;
  /** Time each answer takes to arrive, in ms. */
  latency: number;
  /** Whether the limiters follow `X-RateLimit-Remaining` (false: as before they did). */
  followBudget: boolean;
  /**
   * Whether each process first sends the unpaced announcement (`GET /ping`, as the
   * transport does) and waits for its answer, whose budget its limiter takes in.
   */
  announce?: boolean;
}

export interface SimulationResult {
  /** 429s answered. */
  rateLimited: number;
  /** From the first send to the last answer, in ms. */
  wallMs: number;
  /** Send times of each process, in ms from the start. */
  sends: number[][];
}

export function simulate(opts: SimulationOptions): SimulationResult {
  const clock = { now: 1_000_000 };
  const start = clock.now;
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const server = new ServerWindow(opts.limit, () => clock.now);
  const procs = Array.from({ length: opts.processes }, () => ({
    limiter: new RateLimiter(limiterSettingsFor(opts.limit), () => clock.now, random),
    toSend: opts.requests,
    done: 0,
    sends: [] as number[],
    /** When the announcement's answer arrives (the process sends nothing before). */
    readyAt: start,
  }));
  const answers: {
    at: number;
    p: number;
    slot: number;
    allowed: boolean;
    remaining: number;
    reset: string;
    ping?: boolean;
  }[] = [];
  if (opts.announce)
    procs.forEach((p, i) => {
      p.readyAt = Infinity;
      answers.push({ at: start + opts.latency, p: i, slot: 0, ping: true, ...server.take("token") });
    });
  let rateLimited = 0;
  let lastAnswer = start;
  while (procs.some((p) => p.done < opts.requests)) {
    if (clock.now - start > 3_600_000) throw new Error("a process never finished its requests");
    answers.sort((a, b) => a.at - b.at);
    while (answers.length > 0 && answers[0].at <= clock.now) {
      const a = answers.shift()!;
      const p = procs[a.p];
      lastAnswer = clock.now;
      const resetMs = Number(a.reset) * 1000;
      if (opts.followBudget) p.limiter.observe({ remaining: a.remaining, resetMs, limit: opts.limit }, a.slot);
      if (a.ping) {
        p.readyAt = clock.now;
        continue;
      }
      if (a.allowed) {
        p.done++;
        continue;
      }
      rateLimited++;
      p.toSend++;
      p.limiter.rateLimited();
      p.limiter.pauseUntil(clock.now + resetMs);
    }
    let next = Infinity;
    procs.forEach((p, i) => {
      while (p.toSend > 0 && clock.now >= p.readyAt) {
        const wait = p.limiter.tryTake();
        if (wait > 0) {
          next = Math.min(next, clock.now + wait);
          break;
        }
        p.toSend--;
        p.sends.push(clock.now - start);
        const d = server.take("token");
        answers.push({ at: clock.now + opts.latency, p: i, slot: p.sends.length, ...d });
      }
    });
    for (const a of answers) next = Math.min(next, a.at);
    clock.now = Math.max(clock.now + 1, next);
  }
  return { rateLimited, wallMs: lastAnswer - start, sends: procs.map((p) => p.sends) };
}
