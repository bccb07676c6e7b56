/**
 * The provider text each resource stores in state (`__provider`).
 *
 * The engine keeps this text with every resource, twice (with its inputs and its
 * outputs), rewrites the whole state file after every step, and runs the text
 * again on refresh and destroy, maybe on another machine and after this package
 * was upgraded. So it is one line, written here rather than produced by the SDK's
 * closure serializer (whose output for the same provider is about 2.4 KB): it
 * resolves the package's stable entry point (`pulumi-workspaces/provider`) when
 * the dynamic-provider host loads it and asks it for the provider of one kind.
 * Nothing else is in it: no settings, no client, no path.
 *
 * The entry point is resolved from the program directory (the dynamic-provider
 * host's working directory) through `createRequire`, which finds the package in
 * the program's node_modules and, inside this package's own directory, through
 * Node's self-reference.
 */
import type { ResourceTypeName } from "./tokens";

/**
 * Protocol spoken between provider text in state and the entry point. Bump it
 * only together with an adapter in `entry.ts` that still accepts every older one.
 */
export const PROTOCOL = 1;

/** The `__provider` text of one resource kind: the module the dynamic-provider host evaluates and whose `handler()` it calls once per process. */
export function providerText(kind: ResourceTypeName): string {
  return `exports.handler = () => require("module").createRequire(process.cwd() + "/")("pulumi-workspaces/provider").provider(${PROTOCOL}, ${JSON.stringify(kind)});\n`;
}
