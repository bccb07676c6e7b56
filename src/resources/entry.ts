/**
 * The one stable entry point that serialized provider code calls
 * (`require("pulumi-workspaces/provider").dispatch(protocol, kind, method, args)`).
 *
 * State written by any earlier release holds provider text that calls this
 * function, so it stays tolerant: older protocol numbers are adapted, kinds are
 * matched by type name or full type token, and a call it cannot serve fails
 * with a message that says what to do instead of a stack trace.
 */
import { PROTOCOL } from "./closure";
import { configureFromStack } from "./settings";
import type { ProviderImpl } from "./providers/types";

export { PROTOCOL };

type Method = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";
const METHODS: ReadonlySet<string> = new Set<Method>(["configure", "check", "diff", "create", "read", "update", "delete"]);

/* eslint-disable @typescript-eslint/no-require-imports */
// Loaded on first use so that a refresh of one kind does not load the others.
const loaders: Record<string, () => ProviderImpl> = {
  workspace: () => require("./providers/workspace").workspaceProvider,
  workspacetags: () => require("./providers/workspaceTags").workspaceTagsProvider,
  remotestateconsumers: () => require("./providers/remoteStateConsumers").remoteStateConsumersProvider,
  nocodemodule: () => require("./providers/noCodeModule").noCodeModuleProvider,
  nocodeworkspace: () => require("./providers/noCodeWorkspace").noCodeWorkspaceProvider,
  workspacelock: () => require("./providers/workspaceLock").workspaceLockProvider,
};

/** Accepts `Workspace`, `workspace`, `workspaces:Workspace` or the full token. */
function normalizeKind(kind: unknown): string {
  const s = String(kind ?? "");
  const last = s.slice(s.lastIndexOf(":") + 1);
  return last.replace(/[-_\s]/g, "").toLowerCase();
}

export function implementationOf(kind: string): ProviderImpl {
  const loader = loaders[normalizeKind(kind)];
  if (!loader) {
    throw new Error(
      `pulumi-workspaces: unknown resource kind "${String(kind)}"; the state was written by a release that knows it, ` +
        `install that release (or a newer one) of pulumi-workspaces`,
    );
  }
  return loader();
}

/**
 * Serves one provider call.
 *
 * @param protocol version of the serialized caller (see PROTOCOL in closure.ts)
 * @param kind resource type name, e.g. "Workspace"
 * @param method provider method name
 * @param args the method's own arguments, unchanged
 */
export async function dispatch(protocol: number, kind: string, method: string, args: unknown[] = []): Promise<unknown> {
  if (typeof protocol !== "number" || !Number.isFinite(protocol) || protocol < 1) {
    throw new Error(`pulumi-workspaces: provider call with an unreadable protocol version (${String(protocol)})`);
  }
  if (protocol > PROTOCOL) {
    throw new Error(
      `pulumi-workspaces: the state was written by a newer release (provider protocol ${protocol}, this release speaks ` +
        `${PROTOCOL}); upgrade the pulumi-workspaces package in this program`,
    );
  }
  if (!METHODS.has(method)) {
    throw new Error(`pulumi-workspaces: unknown provider method "${String(method)}"`);
  }
  if (method === "configure") {
    configureFromStack(args[0]);
    return undefined;
  }
  const impl = implementationOf(kind);
  const a = Array.isArray(args) ? args : [];
  switch (method as Exclude<Method, "configure">) {
    case "check":
      return impl.check(a[0] ?? {}, a[1] ?? {});
    case "diff":
      return impl.diff(String(a[0] ?? ""), a[1] ?? {}, a[2] ?? {});
    case "create":
      return impl.create(a[0] ?? {});
    case "read":
      return impl.read(String(a[0] ?? ""), a[1] ?? {});
    case "update":
      return impl.update(String(a[0] ?? ""), a[1] ?? {}, a[2] ?? {});
    case "delete":
      return impl.delete(String(a[0] ?? ""), a[1] ?? {});
  }
}
