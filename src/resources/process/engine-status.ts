/**
 * Progress shown while a long step waits: the engine's status line and info
 * diagnostics, through the engine's log service. Process-wide: one connection to the
 * engine per provider process, and messages sent in order.
 */

import { sdkModule } from "./sdk-modules";

interface EngineLogClient {
  log(req: unknown, cb: (err: unknown) => void): void;
}

let engineLog: EngineLogClient | null | undefined;

/** Messages go out one after the other, so the engine shows the latest as the status. */
let lastStatus: Promise<void> = Promise.resolve();

/** Whether this process is a provider plugin the engine started (see {@link reportToEngine}). */
let providerPlugin = false;

/**
 * Sends status and info messages to the engine that started this process, a provider
 * plugin: the engine starts it, as it starts the dynamic-provider host, with its address
 * as the last argument.
 */
export function reportToEngine(): void {
  providerPlugin = true;
  engineLog = undefined;
}

/**
 * The engine's address inside the dynamic-provider host: the engine starts every
 * provider with its own address as the last argument (`127.0.0.1:PORT`). Anywhere else
 * (unit tests, scripts) there is none and status messages go nowhere.
 */
function engineAddress(): string | undefined {
  if (!providerPlugin && !/dynamic-provider/.test(process.argv[1] ?? "")) return undefined;
  const args = process.argv.slice(2);
  for (let i = args.length - 1; i >= 0; i--) if (/^[\w.[\]-]+:\d+$/.test(args[i])) return args[i];
  return undefined;
}

function engineLogClient(): EngineLogClient | null {
  if (engineLog !== undefined) return engineLog;
  engineLog = null;
  const address = engineAddress();
  if (!address) return engineLog;
  try {
    // The SDK's own generated client, loaded as the SDK loads it so that its copy of grpc is used.
    const grpc = sdkModule<{ credentials: { createInsecure(): unknown } }>("@grpc/grpc-js");
    const { EngineClient } = sdkModule<{ EngineClient: new (address: string, credentials: unknown) => unknown }>(
      "@pulumi/pulumi/proto/engine_grpc_pb",
    );
    engineLog = new EngineClient(address, grpc.credentials.createInsecure()) as EngineLogClient;
  } catch {
    engineLog = null;
  }
  return engineLog;
}

/**
 * Shows `message` as the engine's ephemeral status (the info column of `pulumi up`,
 * replaced by the next one and not repeated in the summary), so a long wait says what
 * it waits for. Dynamic providers are not told their resource's URN, so without `urn`
 * the message goes to the stack's row: name the resource in it. Never throws and never
 * delays the caller (messages are sent in order, in the background): progress is a courtesy.
 */
export function reportStatus(message: string, urn = "", ephemeral = true, severity: "INFO" | "WARNING" = "INFO"): void {
  const client = engineLogClient();
  if (!client) return;
  try {
    const { LogRequest, LogSeverity } = sdkModule<any>("@pulumi/pulumi/proto/engine_pb");
    const req = new LogRequest();
    req.setSeverity(LogSeverity[severity]);
    req.setMessage(message);
    req.setUrn(urn);
    req.setEphemeral(ephemeral);
    lastStatus = lastStatus.then(() => new Promise<void>((resolve) => client.log(req, () => resolve())));
  } catch {
    // nothing to report to
  }
}

/**
 * Shows `message` as an info diagnostic that stays: printed under "Diagnostics" at the end
 * of `pulumi preview` and `pulumi up`. The same rules as {@link reportStatus} otherwise.
 */
export function reportInfo(message: string): void {
  reportStatus(message, "", false);
}

/**
 * Shows `message` as a warning diagnostic that stays (printed under "Diagnostics"): for
 * what is accepted but may not be what the program meant.
 */
export function reportWarning(message: string): void {
  reportStatus(message, "", false, "WARNING");
}
