/** What each resource's implementation offers the entry point. Inputs and outputs are plain JSON. */
import type * as pulumi from "@pulumi/pulumi";

export type Props = Record<string, unknown>;

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult<I = Props> {
  inputs: I;
  failures: CheckFailure[];
}

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  stables?: string[];
  deleteBeforeReplace?: boolean;
}

/**
 * The SDK's `pulumi.dynamic.ResourceProvider<Inputs, Outputs>` with every method
 * present and its results complete, as the entry point calls them (which always hands
 * `read` the stored outputs). `I` is the inputs' type and `O` the outputs' as stored
 * in state (which may be an earlier release's).
 */
export interface ProviderImpl<I extends Props = Props, O extends Props = Props> extends Omit<
  pulumi.dynamic.ResourceProvider<I, O>,
  "read"
> {
  check(olds: I, news: I): Promise<CheckResult<I>>;
  diff(id: string, olds: O, news: I): Promise<DiffResult>;
  create(inputs: I): Promise<{ id: string; outs: O }>;
  read(id: string, props: O): Promise<{ id?: string; props?: O; inputs?: I }>;
  update(id: string, olds: O, news: I): Promise<{ outs: O }>;
  delete(id: string, props: O): Promise<void>;
  /**
   * An input's value rebuilt from read's outputs, where the output's shape differs from
   * the input's (see reconstructInputs); by default the output's value as it is.
   */
  inputShape?(name: string, value: unknown, outputs: O): unknown;
  /**
   * For a resource that accepts `adopt: true`: the line preview shows for a new one, naming
   * the record `pulumi up` adopts (set by reportsAdoption in ./adoption.ts, never by hand).
   */
  previewAdoption?(inputs: Props): Promise<string>;
}
