/** Helpers shared by the resource classes. */
import * as pulumi from "@pulumi/pulumi";
import { providerText } from "./closure";
import { typeTokens, type ResourceTypeName } from "./tokens";

/**
 * Props for a dynamic resource: the given inputs plus every output name set
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

/**
 * A resource served by the engine's dynamic-provider host (`pulumi-nodejs`), as
 * `pulumi.dynamic.Resource` makes one, but with the short provider text of
 * `closure.ts` in `__provider` instead of the SDK's serialized closure.
 */
export abstract class DynamicResource extends pulumi.CustomResource {
  protected constructor(kind: ResourceTypeName, name: string, props: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    if (props.__provider !== undefined) {
      throw new Error(`${kind} "${name}": __provider is reserved for the provider text this package stores; remove it from the arguments`);
    }
    super(typeTokens[kind], name, { ...props, __provider: providerText(kind) }, opts);
  }
}
