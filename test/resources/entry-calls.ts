/** One resource kind's provider calls through the entry point, as the engine makes them. */
import { expect } from "vitest";
import { dispatch, PROTOCOL } from "../../src/resources/entry";
import type { CheckFailure } from "../../src/resources/providers/types";

/** Property bags as tests read them: any value at any key. */
type Props = Record<string, any>;

/** `call(method, ...args)`, `check(news, olds?)` and `create(news)` (check, which must pass, then create) of `kind`. */
export function entryCalls(kind: string) {
  const call = (method: string, ...args: unknown[]) => dispatch(PROTOCOL, kind, method, args) as Promise<any>;
  const check = (news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: CheckFailure[] }> =>
    call("check", olds, news);
  const create = async (news: Props): Promise<{ id: string; outs: Props }> => {
    const checked = await check(news);
    expect(checked.failures).toEqual([]);
    return call("create", checked.inputs);
  };
  return { call, check, create };
}

/**
 * The calls of a family of kinds (e.g. the lists of one record), kind first: `check`,
 * `create` (which answers the checked inputs too), and `diff` and `update`, each after a
 * `check` of the new inputs, as the engine makes them.
 */
export function familyCalls() {
  const call = (kind: string, method: string, ...args: unknown[]) =>
    dispatch(PROTOCOL, kind, method, args) as Promise<any>;
  const check = (kind: string, news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: CheckFailure[] }> =>
    call(kind, "check", olds, news);
  const create = async (kind: string, news: Props): Promise<{ id: string; outs: Props; inputs: Props }> => {
    const checked = await check(kind, news);
    expect(checked.failures).toEqual([]);
    return { ...(await call(kind, "create", checked.inputs)), inputs: checked.inputs };
  };
  const diff = async (kind: string, id: string, olds: Props, news: Props) =>
    call(kind, "diff", id, olds, (await check(kind, news)).inputs);
  const update = async (kind: string, id: string, olds: Props, news: Props): Promise<Props> => {
    const checked = await check(kind, news);
    expect(checked.failures).toEqual([]);
    return (await call(kind, "update", id, olds, checked.inputs)).outs;
  };
  return { call, check, create, diff, update };
}
