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
import { workspaceProvider } from "./providers/workspace";
import { workspaceTagsProvider } from "./providers/workspaceTags";
import { remoteStateConsumersProvider } from "./providers/remoteStateConsumers";
import { noCodeModuleProvider } from "./providers/noCodeModule";
import { noCodeWorkspaceProvider } from "./providers/noCodeWorkspace";
import { workspaceLockProvider } from "./providers/workspaceLock";

export { PROTOCOL };

type Method = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";
const METHODS: ReadonlySet<string> = new Set<Method>(["configure", "check", "diff", "create", "read", "update", "delete"]);

const implementations: Record<string, ProviderImpl> = {
  workspace: workspaceProvider,
  workspacetags: workspaceTagsProvider,
  remotestateconsumers: remoteStateConsumersProvider,
  nocodemodule: noCodeModuleProvider,
  nocodeworkspace: noCodeWorkspaceProvider,
  workspacelock: workspaceLockProvider,
};

/** Accepts `Workspace`, `workspace`, `workspaces:Workspace` or the full token. */
function normalizeKind(kind: unknown): string {
  const s = String(kind ?? "");
  const last = s.slice(s.lastIndexOf(":") + 1);
  return last.replace(/[-_\s]/g, "").toLowerCase();
}

export function implementationOf(kind: string): ProviderImpl {
  const impl = implementations[normalizeKind(kind)];
  if (!impl) {
    throw new Error(
      `pulumi-workspaces: unknown resource kind "${String(kind)}"; the state was written by a release that knows it, ` +
        `install that release (or a newer one) of pulumi-workspaces`,
    );
  }
  return impl;
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
