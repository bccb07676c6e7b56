/**
 * Which limiter paces a client's requests (limiter.ts): one shared per base URL that
 * follows the limit the service announces (learned by one unpaced `GET /ping`), one
 * private to the client at a fixed limit, or none.
 */
import type { AxiosInstance, AxiosResponse } from "axios";
import { transportCode } from "./attempt-verdict";
import { type Announcement, type RateLimiter, limiterFor } from "./limiter";
import type { TransportOptions } from "./request-spec";
import { type HeaderBag, announcedLimit, budgetReport } from "./retry";

/** Longest wait for the rate-limit announcement (`GET /ping`) that every first call waits for. */
const ANNOUNCE_TIMEOUT_MS = 10_000;

/** How the announcement is sent and reported. */
export interface Announcer {
  http: AxiosInstance;
  headers: () => Record<string, string>;
  log: (line: string) => void;
  /** Counts the announcement among the client's requests. */
  sent: () => void;
}

/** The limiter of one client, found on first use. */
export class Pacing {
  readonly #baseUrl: string;
  readonly #setting: NonNullable<TransportOptions["rateLimit"]>;
  readonly #announcer: Announcer;
  #limiter: RateLimiter | undefined;
  #localLimiter: Promise<RateLimiter> | undefined;

  constructor(baseUrl: string, setting: TransportOptions["rateLimit"], announcer: Announcer) {
    this.#baseUrl = baseUrl;
    this.#setting = setting ?? true;
    this.#announcer = announcer;
  }

  /**
   * What an answer tells the limiter that sent it (slot `slot`): the budget left in the
   * window, which other processes with the token spend too, and the announced limit,
   * unless the caller fixed the limit (announcements in answers are then ignored).
   */
  follow(limiter: RateLimiter, slot: number, headers: HeaderBag): void {
    if (typeof this.#setting !== "object") limiter.follow(announcedLimit(headers));
    const budget = budgetReport(headers);
    if (budget) limiter.observe(budget, slot);
  }

  /** The limiter when it is known without waiting, or pacing is off; else undefined. */
  get settled(): { limiter: RateLimiter | undefined } | undefined {
    if (this.#limiter || this.#setting === false) return { limiter: this.#limiter };
    return undefined;
  }

  /** The limiter, waiting for the announcement on first use; undefined when pacing is off. */
  async limiter(): Promise<RateLimiter | undefined> {
    const setting = this.#setting;
    if (setting === false) return undefined;
    if (this.#limiter) return this.#limiter;
    if (typeof setting === "object") {
      // A fixed limit: private to this client, no announcement needed.
      this.#localLimiter ??= limiterFor(`${this.#baseUrl}#fixed:${setting.requestsPerSecond}`, () =>
        Promise.resolve({ limit: setting.requestsPerSecond }),
      );
      this.#limiter = await this.#localLimiter;
      return this.#limiter;
    }
    this.#limiter = await limiterFor(this.#baseUrl, () => this.announce());
    return this.#limiter;
  }

  /** One unpaced `GET /ping` to learn the announced limit (and how much of the window is left). */
  private async announce(): Promise<Announcement> {
    const { http, headers, log, sent } = this.#announcer;
    sent();
    let res: AxiosResponse;
    try {
      res = await http.request({
        method: "GET",
        url: this.#baseUrl + "/ping",
        headers: headers(),
        signal: AbortSignal.timeout(ANNOUNCE_TIMEOUT_MS),
      });
    } catch (err) {
      log(`GET /ping -> no response (${transportCode(err)}); no pacing until an answer announces a limit`);
      return { limit: undefined };
    }
    const limit = announcedLimit(res.headers);
    log(`GET /ping -> ${res.status} (rate limit announcement: ${limit ?? "none"})`);
    return { limit, budget: budgetReport(res.headers) };
  }
}
