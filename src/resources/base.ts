/** Helpers shared by the resource classes. */
import type * as pulumi from "@pulumi/pulumi";
import { providerText } from "./provider-text";
import type { ResourceTypeName } from "./tokens";

/**
 * Props for a dynamic resource: the given inputs plus every output name set
 * to undefined, which is how a dynamic resource declares the outputs it will have.
 */
export function withOutputs(
  inputs: Record<string, unknown> | undefined,
  outputs: readonly string[],
): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const name of outputs) props[name] = undefined;
  for (const [k, v] of Object.entries(inputs ?? {})) props[k] = v;
  return props;
}

/** Options for adopting an existing resource through `get`. */
export function adoptOptions(
  id: pulumi.Input<pulumi.ID>,
  opts?: pulumi.CustomResourceOptions,
): pulumi.CustomResourceOptions {
  return { ...opts, id };
}

/** Adds secret output names without dropping the caller's own. */
export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  names: string[],
): pulumi.CustomResourceOptions {
  const given = opts?.additionalSecretOutputs ?? [];
  return { ...opts, additionalSecretOutputs: Array.from(new Set([...given, ...names])) };
}

/**
 * The props of a resource served by the engine's dynamic-provider host (`pulumi-nodejs`),
 * as `pulumi.dynamic.Resource` makes them, but with the short provider text of
 * `provider-text.ts` in `__provider` instead of the SDK's serialized closure. The classes
 * extend `pulumi.CustomResource` themselves, so that the source position the SDK
 * records for a resource (a fixed number of frames above `CustomResource`) is the
 * line of the user's program that declared it.
 */
export function dynamicProps(
  kind: ResourceTypeName,
  name: string,
  props: Record<string, unknown>,
): Record<string, unknown> {
  if (props.__provider !== undefined) {
    throw new Error(
      `${kind} "${name}": __provider is reserved for the provider text this package stores; remove it from the arguments`,
    );
  }
  return { ...props, __provider: providerText(kind) };
}

/**
 * Lowers `Error.stackTraceLimit` to 0 for the synchronous part of a resource's
 * registration and returns the previous limit, which the caller restores in a
 * `finally`. The SDK takes a stack trace (through source-map-support) for every
 * promise of every declared output, about a third of a program's CPU, and prints it
 * only with `PULUMI_DEBUG_PROMISE_LEAKS` set; then the limit is left alone. The
 * source position the SDK records sets its own limit and is not affected.
 */
export function quietStacks(): number {
  const limit = Error.stackTraceLimit;
  if (!process.env.PULUMI_DEBUG_PROMISE_LEAKS) Error.stackTraceLimit = 0;
  return limit;
}
