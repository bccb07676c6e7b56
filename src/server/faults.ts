import type { FastifyReply, FastifyRequest } from "fastify";

export interface FaultOptions {
  /** Fraction (0..1) of requests that fail before reaching a handler, so they change nothing. */
  failureRate?: number;
  /** How a failing request fails: a 503 JSON:API error, a dropped connection, or either at random. */
  failureMode?: "503" | "drop" | "mixed";
  /** Milliseconds added before every request is handled. */
  latencyMs?: number;
  /** Random extra latency up to this many milliseconds. */
  latencyJitterMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies the configured faults to one request. Returns true when the request was
 * failed here and must not be processed further. Faults strike before authentication
 * and before any handler, so a failed request never has a side effect: a client that
 * retries sees exactly what it would have seen the first time.
 */
export async function injectFault(faults: FaultOptions, request: FastifyRequest, reply: FastifyReply, random = Math.random): Promise<boolean> {
  const latency = (faults.latencyMs ?? 0) + (faults.latencyJitterMs ? random() * faults.latencyJitterMs : 0);
  if (latency > 0) await sleep(latency);
  const rate = faults.failureRate ?? 0;
  if (rate <= 0 || random() >= rate) return false;
  const mode = faults.failureMode === "mixed" ? (random() < 0.5 ? "503" : "drop") : (faults.failureMode ?? "503");
  if (mode === "drop") {
    request.raw.socket.destroy();
    reply.hijack();
    return true;
  }
  reply
    .code(503)
    .header("content-type", "application/vnd.api+json")
    .send(JSON.stringify({ errors: [{ status: "503", title: "service unavailable", detail: "Injected fault: the service is temporarily unavailable." }] }));
  return true;
}
