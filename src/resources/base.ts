/** Helpers shared by the resource classes. */
import * as pulumi from "@pulumi/pulumi";
import { providerText } from "./provider-text";
import { carriesCredentials, isSecretItem, secretsOf } from "./secret-values";
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
  names: readonly string[],
): pulumi.CustomResourceOptions {
  const given = opts?.additionalSecretOutputs ?? [];
  return { ...opts, additionalSecretOutputs: Array.from(new Set([...given, ...names])) };
}

/**
 * `args` with each list input that holds a secret value (./secret-values.ts) made secret.
 * The engine stores a dynamic resource's inputs as given and keeps a secret only as a
 * whole value, so the list holding a sensitive value is secret as a whole, and so is the
 * copy of it the engine keeps in the state.
 */
export function withSecretItems<T extends object>(kind: ResourceTypeName, args: T): T {
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const rule of secretsOf(kind).items) {
    const list = out[rule.list] as pulumi.Input<unknown[]> | undefined;
    if (list === undefined) continue;
    out[rule.list] = pulumi
      .output(list)
      .apply((items) =>
        (items ?? []).some((item) => isSecretItem(item, rule)) ? pulumi.secret(items) : pulumi.output(items),
      );
  }
  return out as T;
}

/**
 * `args` with each input made secret that ./secret-values.ts names for `kind` as secret
 * when its flag is true (`value` when `sensitive`): only then, so that a value that is not
 * sensitive stays readable in previews and diffs.
 */
export function withSecretFields<T extends object>(kind: ResourceTypeName, args: T): T {
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const rule of secretsOf(kind).fields ?? []) {
    const value = out[rule.value];
    if (value === undefined) continue;
    const flag = pulumi.output(out[rule.when] as pulumi.Input<boolean | undefined>);
    out[rule.value] = flag.apply((f) => (f === true ? pulumi.secret(value) : pulumi.output(value)));
  }
  return out as T;
}

/**
 * `args` with the inputs ./secret-values.ts names for `kind` made secret: an input that is
 * also a secret output (a write-only token) always, a URL only when it carries
 * credentials, so that a plain address stays readable in previews and diffs.
 */
export function withSecretInputs<T extends object>(kind: ResourceTypeName, args: T): T {
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  const secrets = secretsOf(kind);
  for (const name of secrets.outputs) if (out[name] !== undefined) out[name] = pulumi.secret(out[name]);
  for (const name of secrets.credentialed ?? []) {
    const value = out[name] as pulumi.Input<string> | undefined;
    if (value === undefined) continue;
    out[name] = pulumi.output(value).apply((v) => (carriesCredentials(v) ? pulumi.secret(v) : pulumi.output(v)));
  }
  return out as T;
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
