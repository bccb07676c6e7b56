#!/usr/bin/env node
/**
 * `workspaces-server [--host 127.0.0.1] [--port 8080] [--db FILE|:memory:]
 *  [--token-file FILE | --token TOKEN] [--encryption-key-file FILE] [--organization NAME]
 *  [--rate-limit N] [--run-speed FACTOR] [--self-managed] [--store-remote-notifications]
 *  [--public-url URL] [--web-view] [--log-level info]`
 *
 * The owners token may also come from WORKSPACES_SERVER_TOKEN and the encryption key
 * from WORKSPACES_SERVER_ENCRYPTION_KEY (a flag wins over the environment), so neither
 * has to appear on a command line, where `ps` shows it to every user of the machine.
 * WORKSPACES_SERVER_STORE_REMOTE_NOTIFICATIONS=1 is the same as --store-remote-notifications,
 * WORKSPACES_WEB_VIEW=1 as --web-view (which prints the view's one-time sign-in address on stderr).
 *
 * One log line per request goes to stderr (JSON, see ./logging.ts); stdout carries only
 * the line that says where the server listens.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startServer } from "./index";
import { isLogLevel, LOG_LEVELS } from "./logging";

const USAGE = `usage: workspaces-server [--host 127.0.0.1] [--port 8080] [--db FILE|:memory:] [--token-file FILE | --token TOKEN] [--encryption-key-file FILE] [--organization NAME] [--rate-limit N] [--run-speed FACTOR] [--self-managed] [--store-remote-notifications] [--public-url URL] [--web-view] [--log-level ${LOG_LEVELS.join("|")}]`;

function fail(message: string): never {
  process.stderr.write(`workspaces-server: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** The owners token: `--token`, else the first line of `--token-file`, else WORKSPACES_SERVER_TOKEN; undefined to generate one. */
function ownersToken(flag: string | undefined, file: string | undefined): string | undefined {
  if (flag !== undefined && file !== undefined) fail("give --token or --token-file, not both");
  let token = flag;
  if (file !== undefined) {
    try {
      token = readFileSync(file, "utf8").split(/\r?\n/)[0];
    } catch (err) {
      fail(`--token-file: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  token ??= process.env.WORKSPACES_SERVER_TOKEN || undefined;
  if (token !== undefined && !/^\S+$/.test(token))
    fail("the owners token must be one word without spaces (from --token, --token-file or WORKSPACES_SERVER_TOKEN)");
  return token;
}

function number(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) fail(`--${name} must be a number >= ${min}`);
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
        "token-file": { type: "string" },
        "encryption-key-file": { type: "string" },
        organization: { type: "string" },
        "rate-limit": { type: "string" },
        "run-speed": { type: "string" },
        "self-managed": { type: "boolean" },
        "store-remote-notifications": { type: "boolean" },
        "public-url": { type: "string" },
        "web-view": { type: "boolean" },
        "log-level": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const logLevel = values["log-level"] ?? "info";
  if (!isLogLevel(logLevel)) fail(`--log-level must be one of ${LOG_LEVELS.join(", ")}`);
  const token = ownersToken(values.token, values["token-file"]);
  const keyFile = values["encryption-key-file"];
  const webView = values["web-view"] ?? process.env.WORKSPACES_WEB_VIEW === "1";
  const server = await startServer({
    host: values.host,
    port: number("port", values.port, 0),
    db: values.db,
    token,
    encryptionKeyFile: keyFile,
    encryptionKey: keyFile === undefined ? process.env.WORKSPACES_SERVER_ENCRYPTION_KEY || undefined : undefined,
    organization: values.organization,
    rateLimit: number("rate-limit", values["rate-limit"], 0),
    runSpeed: number("run-speed", values["run-speed"], 0.001),
    selfManaged: values["self-managed"] ?? false,
    storeRemoteNotifications:
      values["store-remote-notifications"] ?? process.env.WORKSPACES_SERVER_STORE_REMOTE_NOTIFICATIONS === "1",
    publicUrl: values["public-url"],
    webView,
    logLevel,
  });
  // The generated token is shown once so the user can copy it; a token the user chose is never echoed.
  if (token === undefined)
    process.stderr.write(`workspaces-server: organization ${server.organization}, owners token ${server.token}\n`);
  process.stdout.write(`workspaces-server listening on ${server.url}\n`);
  // The sign-in address holds a one-time code (valid ten minutes), so it goes where the token does, not to stdout.
  if (webView) process.stderr.write(`workspaces-server: web view, open once to sign in: ${server.viewUrl()}\n`);
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
