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
  /**
   * When a failing request fails: `before` (default) refuses it before any handler runs,
   * so it changes nothing; `after` lets the handler run and commit, then loses the answer
   * (a 503 in its place, or a dropped connection). `after` is how a client proves it
   * never repeats a request whose outcome it cannot know, such as a create.
   */
  failureStage?: "before" | "after";
  /** Only requests with these methods fail (all methods when absent); latency still applies to all. */
  methods?: ReadonlyArray<string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies the configured faults to one request. Returns true when the request was
 * failed here and must not be processed further. Faults strike before authentication
 * and before any handler, so a failed request never has a side effect: a client that
 * retries sees exactly what it would have seen the first time.
 */
export async function injectFault(
  faults: FaultOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  random = Math.random,
): Promise<boolean> {
  const latency = (faults.latencyMs ?? 0) + (faults.latencyJitterMs ? random() * faults.latencyJitterMs : 0);
  if (latency > 0) await sleep(latency);
  const rate = faults.failureRate ?? 0;
  if (rate <= 0 || random() >= rate) return false;
  if (faults.methods && !faults.methods.includes(request.method)) return false;
  const mode = faults.failureMode === "mixed" ? (random() < 0.5 ? "503" : "drop") : (faults.failureMode ?? "503");
  if (faults.failureStage === "after") {
    loseAnswer(request, reply, mode);
    return false;
  }
  if (mode === "drop") {
    request.raw.socket.destroy();
    reply.hijack();
    return true;
  }
  reply
    .code(503)
    .header("content-type", "application/vnd.api+json")
    .send(
      JSON.stringify({
        errors: [
          {
            status: "503",
            title: "service unavailable",
            detail: "Injected fault: the service is temporarily unavailable.",
          },
        ],
      }),
    );
  return true;
}

/** Lets the request be handled, then replaces whatever it answers with a 503 or a dropped connection. */
function loseAnswer(request: FastifyRequest, reply: FastifyReply, mode: "503" | "drop"): void {
  const raw = reply.raw;
  const body = JSON.stringify({
    errors: [
      {
        status: "503",
        title: "service unavailable",
        detail: "Injected fault: the answer was lost after the request was processed.",
      },
    ],
  });
  const originalEnd = raw.end.bind(raw);
  const originalWriteHead = raw.writeHead.bind(raw);
  // The handler's own status and headers are swallowed; only the fault's answer goes out.
  raw.writeHead = (..._args: unknown[]) => raw;
  raw.end = ((..._args: unknown[]) => {
    if (mode === "drop") {
      request.raw.socket.destroy();
      return raw;
    }
    originalWriteHead(503, { "content-type": "application/vnd.api+json", "content-length": Buffer.byteLength(body) });
    return originalEnd(body);
  }) as typeof raw.end;
}
