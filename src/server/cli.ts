#!/usr/bin/env node
/**
 * `workspaces-server [--host 127.0.0.1] [--port 8080] [--db FILE|:memory:] [--token TOKEN]
 *  [--organization NAME] [--rate-limit N] [--run-speed FACTOR] [--self-managed] [--public-url URL]
 *  [--log-level info]`
 *
 * One log line per request goes to stderr (JSON, see ./logging.ts); stdout carries only
 * the line that says where the server listens.
 */
import { parseArgs } from "node:util";
import { startServer } from "./index";
import { isLogLevel, LOG_LEVELS } from "./logging";

const USAGE = `usage: workspaces-server [--host 127.0.0.1] [--port 8080] [--db FILE|:memory:] [--token TOKEN] [--organization NAME] [--rate-limit N] [--run-speed FACTOR] [--self-managed] [--public-url URL] [--log-level ${LOG_LEVELS.join("|")}]`;

function number(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) {
    process.stderr.write(`workspaces-server: --${name} must be a number >= ${min}\n${USAGE}\n`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: "string" },
        port: { type: "string" },
        db: { type: "string" },
        token: { type: "string" },
        organization: { type: "string" },
        "rate-limit": { type: "string" },
        "run-speed": { type: "string" },
        "self-managed": { type: "boolean" },
        "public-url": { type: "string" },
        "log-level": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`workspaces-server: ${(err as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const logLevel = values["log-level"] ?? "info";
  if (!isLogLevel(logLevel)) {
    process.stderr.write(`workspaces-server: --log-level must be one of ${LOG_LEVELS.join(", ")}\n${USAGE}\n`);
    process.exit(2);
  }
  const tokenGiven = values.token !== undefined;
  const server = await startServer({
    host: values.host,
    port: number("port", values.port, 0),
    db: values.db,
    token: values.token,
    organization: values.organization,
    rateLimit: number("rate-limit", values["rate-limit"], 0),
    runSpeed: number("run-speed", values["run-speed"], 0.001),
    selfManaged: values["self-managed"] ?? false,
    publicUrl: values["public-url"],
    logLevel,
  });
  // The generated token is shown once so the user can copy it; a token the user chose is never echoed.
  if (!tokenGiven) process.stderr.write(`workspaces-server: organization ${server.organization}, owners token ${server.token}\n`);
  process.stdout.write(`workspaces-server listening on ${server.url}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((err) => {
  process.stderr.write(`workspaces-server: ${(err as Error).message}\n`);
  process.exit(1);
});
