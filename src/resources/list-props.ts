/** What the classes of lists held by a record owned elsewhere share (agent pool lists, where a policy set applies). */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS, type ResourceTypeName } from "./tokens";
import { withOutputs, dynamicProps } from "./base";
import { CLAIMANT_KEY } from "./process/claims";

/** The props of a list resource: its inputs with the claimant its `check` claims the list for, and its outputs. */
export function listProps(kind: ResourceTypeName, name: string, args: object | undefined, outputs: readonly string[]) {
  const inputs = args ? { ...(args as Record<string, unknown>), [CLAIMANT_KEY]: name } : undefined;
  return dynamicProps(kind, name, withOutputs(inputs, outputs));
}

/** Whether `obj` is a resource of `kind`, by its type token. */
export function isKind(obj: unknown, kind: ResourceTypeName): boolean {
  return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS[kind];
}
