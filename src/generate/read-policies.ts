/**
 * Reads the organization's policy layer for the generator: its policies with their code (one
 * download each), and its policy sets with where each applies (the list carries every list of
 * a set) and their parameters (one list per set). A server that does not offer policies (OTF)
 * has none to carry over: one request says so.
 */
import type { Policy, PolicySet, PolicySetParameter, WorkspacesClient } from "../client";
import { byCodePoint } from "./names";
import { noneIfUnavailable, perRecordList, pool } from "./read-lists";

/** A policy with its code, as the service answers it: undefined when none was uploaded. */
export interface PolicyRecord {
  /** The policy as the service answers it. */
  policy: Policy;
  /** Its code, or undefined when none was uploaded. */
  code: string | undefined;
}

/** A policy set (its policies and where it applies in `set`) with its parameters; a sensitive one's value is never answered. */
export interface PolicySetRecord {
  /** The set, with its policies and its lists. */
  set: PolicySet;
  /** Its parameters, by key; a sensitive one without its value. */
  parameters: PolicySetParameter[];
}

const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
  byCodePoint(a.name, b.name) || byCodePoint(a.id, b.id);

/** The organization's policies with their code, and its policy sets with their parameters, by name. */
export async function readPolicies(
  client: WorkspacesClient,
  organization: string,
  concurrency: number,
  progress: ((line: string) => void) | undefined,
): Promise<{ policies: PolicyRecord[]; policySets: PolicySetRecord[] }> {
  // The organization's workspaces were just listed, so a 404 is a server without policies.
  const listed = (await noneIfUnavailable(client.policies.list(organization).all(), true)).sort(byName);
  const policies = await pool(listed, concurrency, async (policy) => ({
    policy,
    code: await client.policies.download(policy.id),
  }));
  const sets = (await noneIfUnavailable(client.policySets.list(organization).all(), true)).sort(byName);
  const parametersOf = perRecordList(
    "policy set parameters",
    (id) => client.policySetParameters.list(id).all(),
    progress,
  );
  const policySets = await pool(sets, concurrency, async (set) => ({
    set,
    parameters: (await parametersOf(set.id)).sort((a, b) => byCodePoint(a.key, b.key) || byCodePoint(a.id, b.id)),
  }));
  if (policies.length || policySets.length)
    progress?.(
      `read ${policies.length} polic${policies.length === 1 ? "y" : "ies"} with their code and ${policySets.length} policy set${policySets.length === 1 ? "" : "s"} with their parameters`,
    );
  return { policies, policySets };
}
