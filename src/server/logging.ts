/**
 * Per-request logging through Fastify's own logger (pino): one JSON line per request
 * with its id, method, route pattern, path, status and time. Nothing else of the request
 * is logged: no header (the token is in `Authorization`), no query string, no body.
 */
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/** Where log lines go: anything with `write(line)`; default the process's stderr. */
export interface LogDestination {
  write(line: string): void;
}

export interface LogSettings {
  level: LogLevel;
  destination?: LogDestination;
}

/** Fastify's request lines replaced by one line when the response is sent. */
class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: "requestId" });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? null,
      path: request.url.split("?")[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error || reply.statusCode >= 500) reply.log.error(line, "request failed");
    else reply.log.info(line, "request");
  }
}

/** The Fastify options that turn logging on at `settings.level`, or off when silent. */
export function loggerOptions(
  settings: LogSettings | undefined,
): Pick<FastifyServerOptions, "logger" | "logController"> {
  if (!settings || settings.level === "silent") return { logger: false };
  return {
    logger: {
      level: settings.level,
      stream: settings.destination ?? process.stderr,
      // Belt and braces: no serializer of Fastify's own lines may carry the token (nor the web view's cookie).
      redact: {
        paths: [
          "req.headers.authorization",
          "headers.authorization",
          "authorization",
          "req.headers.cookie",
          "headers.cookie",
        ],
        censor: "[redacted]",
      },
    },
    logController: new RequestLog(),
  };
}
