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
