/** What each resource's implementation offers the entry point. Inputs and outputs are plain JSON. */
export type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult {
  inputs: Props;
  failures: CheckFailure[];
}

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  stables?: string[];
  deleteBeforeReplace?: boolean;
}

export interface ProviderImpl {
  check(olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
  /**
   * An input's value rebuilt from read's outputs, where the output's shape differs from
   * the input's (see reconstructInputs); by default the output's value as it is.
   */
  inputShape?(name: string, value: unknown, outputs: Props): unknown;
}
