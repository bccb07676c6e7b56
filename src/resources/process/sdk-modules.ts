/**
 * Modules loaded as `@pulumi/pulumi` itself loads them (its copies of grpc, protobuf and its
 * generated protocol), so that what this package does with them reaches the instances the
 * SDK uses. Inside the plugin's bundled file (scripts/plugin/pack) there is no
 * `node_modules`: the bundle's entry registers those modules under {@link BUNDLED} first.
 */
import { createRequire } from "node:module";

/** Where a bundle registers the modules it holds, by the ids this function is asked for. */
const BUNDLED = Symbol.for("pulumi-workspaces.sdk-modules");

/** The module `id` (e.g. `@grpc/grpc-js`, `@pulumi/pulumi/proto/engine_pb`) as the SDK resolves it. */
export function sdkModule<T = unknown>(id: string): T {
  const bundled = (globalThis as unknown as Record<symbol, Record<string, unknown> | undefined>)[BUNDLED]?.[id];
  if (bundled !== undefined) return bundled as T;
  return createRequire(require.resolve("@pulumi/pulumi"))(id) as T;
}
