/** Helpers shared by the resource classes. */
import type * as pulumi from "@pulumi/pulumi";

/**
 * Props for `pulumi.dynamic.Resource`: the given inputs plus every output name set
 * to undefined, which is how a dynamic resource declares the outputs it will have.
 */
export function withOutputs(inputs: Record<string, unknown> | undefined, outputs: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const name of outputs) props[name] = undefined;
  for (const [k, v] of Object.entries(inputs ?? {})) props[k] = v;
  return props;
}

/** Options for adopting an existing resource through `get`. */
export function adoptOptions(id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions {
  return { ...opts, id };
}

/** Adds secret output names without dropping the caller's own. */
export function withSecretOutputs(opts: pulumi.CustomResourceOptions | undefined, names: string[]): pulumi.CustomResourceOptions {
  const given = opts?.additionalSecretOutputs ?? [];
  return { ...opts, additionalSecretOutputs: Array.from(new Set([...given, ...names])) };
}
