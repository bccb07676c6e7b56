/**
 * The provider objects handed to `pulumi.dynamic.Resource`.
 *
 * The engine serializes each provider into state and runs that text again on
 * refresh and destroy, maybe on another machine and after this package was
 * upgraded. So each method is a one-liner that resolves the package's stable
 * entry point (`pulumi-workspaces/provider`) at call time and hands it the
 * protocol version, the resource kind and its own arguments. Nothing else is
 * captured: no settings, no client, no path.
 *
 * The entry point is resolved from the program directory (the dynamic-provider
 * host's working directory) through `createRequire`, which finds the package in
 * the program's node_modules and, inside this package's own directory, through
 * Node's self-reference.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceTypeName } from "./tokens";

/**
 * Protocol spoken between serialized provider code and the entry point. Bump it
 * only together with an adapter in `entry.ts` that still accepts every older one.
 */
export const PROTOCOL = 1;

/* eslint-disable @typescript-eslint/no-require-imports */
// The literals below repeat ENTRY_SPECIFIER and PROTOCOL on purpose: referring to
// the constants would make the serializer capture this whole module. The call is
// written once (`call`) and each method hands it its name: the serializer emits a
// captured function once, so the text in state (stored twice per resource, with
// its inputs and its outputs) stays small.
function providerFor(kind: ResourceTypeName): pulumi.dynamic.ResourceProvider {
  const call = (method: string, args: unknown[]) =>
    require("module")
      .createRequire(process.cwd() + "/")("pulumi-workspaces/provider")
      .dispatch(1, kind, method, args);
  return {
    configure: (req) => call("configure", [req]),
    check: (olds, news) => call("check", [olds, news]),
    diff: (id, olds, news) => call("diff", [id, olds, news]),
    create: (inputs) => call("create", [inputs]),
    read: (id, props) => call("read", [id, props]),
    update: (id, olds, news) => call("update", [id, olds, news]),
    delete: (id, props) => call("delete", [id, props]),
  };
}
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * One provider object per resource type, created once: the SDK caches the
 * serialized text per object, so every resource of a type shares it.
 */
export const providers: Readonly<Record<ResourceTypeName, pulumi.dynamic.ResourceProvider>> = {
  Workspace: providerFor("Workspace"),
  WorkspaceTags: providerFor("WorkspaceTags"),
  RemoteStateConsumers: providerFor("RemoteStateConsumers"),
  NoCodeModule: providerFor("NoCodeModule"),
  NoCodeWorkspace: providerFor("NoCodeWorkspace"),
  WorkspaceLock: providerFor("WorkspaceLock"),
};
