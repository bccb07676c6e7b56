/**
 * The providers' declared inputs and stored outputs (src/resources/providers/types.ts), for
 * tests that call a provider's methods directly, and the few places where a test
 * deliberately hands a provider something other than what its types declare.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { VcsRepoValue } from "../../src/api/workspace-fields";
import type { noCodeModuleProvider } from "../../src/resources/providers/no-code-module";
import type { CheckResult, ProviderImpl, Props } from "../../src/resources/providers/types";
import type { VcsRepoArgs } from "../../src/resources/workspace";

/** A provider's inputs: what check returns, and create, diff and update take. */
export type InputsOf<P> = P extends ProviderImpl<infer I, infer _O> ? I : never;

/** A provider's outputs as stored in state. */
export type OutputsOf<P> = P extends ProviderImpl<infer _I, infer O> ? O : never;

/**
 * `check` as the engine calls it before a create: no earlier inputs (`{}`), and the
 * program's values as plain JSON. Judging that JSON is what check is for, so the tests
 * hand it values of any shape, invalid ones on purpose.
 */
export function checkNew<I extends Props, O extends Props>(
  p: ProviderImpl<I, O>,
  news: Props,
): Promise<CheckResult<I>> {
  return p.check({} as I, news as I);
}

/**
 * Stored outputs with only some of their fields, where a test hands read, diff or delete
 * no more than the call needs (the id names the record): state written by hand, by an
 * earlier release, or adopted through `get`. The providers declare their outputs complete.
 */
export function partialState<I extends Props, O extends Props>(_p: ProviderImpl<I, O>, outs: Partial<O>): O {
  return outs as O;
}

/**
 * A Workspace's `vcsRepo` input as a program gives it (VcsRepoArgs: only `identifier` is
 * required). The provider's declared inputs give `vcsRepo` the shape the service reports
 * (VcsRepoValue, every field present); check passes the program's object on as it is.
 */
export function vcsRepoInput(repo: pulumi.Unwrap<VcsRepoArgs>): VcsRepoValue {
  return repo as VcsRepoValue;
}

type VariableOptionsInput = NonNullable<InputsOf<typeof noCodeModuleProvider>["variableOptions"]>;

/**
 * A NoCodeModule's `variableOptions` input as a program gives it. The provider's declared
 * inputs (pulumi.Unwrap of NoCodeModuleArgs) turn `options: unknown[]` into an array of
 * `never`, since Unwrap of `unknown` is never; the values are JSON passed to the service.
 */
export function optionSets(
  sets: { variableName: string; variableType: string; options: unknown[] }[],
): VariableOptionsInput {
  return sets as VariableOptionsInput;
}

/**
 * The error `p` fails with; a create that made the record and then failed carries its
 * `id` and the `properties` the engine records.
 */
export async function failure(p: Promise<unknown>): Promise<Error & { id?: string; properties?: Props }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { id?: string; properties?: Props };
  }
  throw new Error("expected a failure");
}
