/**
 * Reads of policy sets and of their parameters, shared by every resource the provider
 * process serves during one engine operation (terraform-provider-tfe #1080: a refresh read
 * every workspace of every set, once per resource).
 *
 * A set's read answers every list the resources of that set need (its policies, workspaces,
 * projects and both exclusions are relationships of the set, no `include`), so the
 * `PolicySet`, its parameters and the resources that say where it applies read it once:
 * a refresh of N sets costs about one request per set, plus one listing of parameters for a
 * set that has parameter resources. Concurrent reads of one set share one request.
 *
 * The rules, as for the workspaces' listing (./snapshot.ts):
 * - Per client (address and token): a read never answers for another token.
 * - Any write through the client to a set (`/policy-sets/:id...`) drops what is held of that
 *   set; a write that changes no set held (a new set or policy, a policy's settings or code)
 *   drops nothing; any other write to the policy area (a policy's delete, a version's upload)
 *   and a workspace's or a project's delete (it leaves every set's lists) drop everything
 *   held for the client. A read that was under way during a write is not
 *   kept. A set's create answer is held as a read ({@link rememberPolicySet}).
 * - An answer is used for {@link POLICY_SET_READ_LIFETIME_MS} after it arrived, then read again.
 * - Errors are never kept: a 404 is judged by the caller under the one rule (providers/gone.ts).
 */
import type { PolicySet, PolicySetParameter, WorkspacesClient } from "../../client";

/** How long an answer is shared: the reads of one refresh come within seconds of each other. */
const POLICY_SET_READ_LIFETIME_MS = 15_000;

interface Held<T> {
  value: Promise<T>;
  /** When the answer arrived; undefined while it is on its way. */
  readAt?: number;
}

interface Reads {
  sets: Map<string, Held<PolicySet>>;
  parameters: Map<string, Held<PolicySetParameter[]>>;
  /** Bumped by every write, so that a read that was under way during one is not kept. */
  generation: number;
}

const byClient = new WeakMap<WorkspacesClient, Reads>();

function readsOf(client: WorkspacesClient): Reads {
  let reads = byClient.get(client);
  if (!reads) byClient.set(client, (reads = { sets: new Map(), parameters: new Map(), generation: 0 }));
  return reads;
}

function shared<T>(reads: Reads, held: Map<string, Held<T>>, id: string, read: () => Promise<T>): Promise<T> {
  const known = held.get(id);
  if (known && (known.readAt === undefined || Date.now() - known.readAt < POLICY_SET_READ_LIFETIME_MS))
    return known.value;
  const generation = reads.generation;
  const entry: Held<T> = { value: read() };
  held.set(id, entry);
  entry.value.then(
    () => {
      if (held.get(id) !== entry) return;
      if (reads.generation === generation) entry.readAt = Date.now();
      else held.delete(id);
    },
    () => {
      if (held.get(id) === entry) held.delete(id);
    },
  );
  return entry.value;
}

/** The set `id` as read by this process within the lifetime, or read now (`client.policySets.read`). */
export function readPolicySet(client: WorkspacesClient, id: string): Promise<PolicySet> {
  const reads = readsOf(client);
  return shared(reads, reads.sets, id, () => client.policySets.read(id));
}

/** The parameters of the set `setId`, as listed by this process within the lifetime, or listed now. */
export function listPolicySetParameters(client: WorkspacesClient, setId: string): Promise<PolicySetParameter[]> {
  const reads = readsOf(client);
  return shared(reads, reads.parameters, setId, async () => {
    const all: PolicySetParameter[] = [];
    for await (const p of client.policySetParameters.list(setId)) all.push(p);
    return all;
  });
}

/** Forgets what is held of the set `id` (its read and its parameters): call after a write the client does not see. */
export function dropPolicySet(client: WorkspacesClient, id: string): void {
  const reads = readsOf(client);
  reads.generation += 1;
  reads.sets.delete(id);
  reads.parameters.delete(id);
}

/**
 * Holds `set` as just answered by a write (a create's answer): the resources of the set that
 * run next (where it applies, its parameters) read it from here instead of asking again.
 */
export function rememberPolicySet(client: WorkspacesClient, set: PolicySet): void {
  readsOf(client).sets.set(set.id, { value: Promise.resolve(set), readAt: Date.now() });
}

const SET_PATH = /\/policy-sets\/([^/?]+)/;
/** A workspace's or a project's delete: the service takes it out of every set's lists. */
const LEAVES_SETS = /^(DELETE .*\/(workspaces|projects)\/[^/]+|POST .*\/workspaces\/[^/]+\/actions\/safe-delete)$/;
/** Writes that change no set already held: a new set or policy, a policy's settings or code. */
const CHANGES_NO_SET = [
  /^POST .*\/organizations\/[^/]+\/(policy-sets|policies)$/,
  /^(PATCH|PUT) .*\/policies\/pol-[^/]+(\/upload)?$/,
];

/**
 * Called with every write the client sends (method and path; see clients.ts): drops what
 * it may have changed. Writes outside the policy area change nothing held here.
 */
export function notePolicyWrite(client: WorkspacesClient, method: string, path: string): void {
  const route = `${method} ${path.split("?")[0]}`;
  if (!/polic/.test(path) && !LEAVES_SETS.test(route)) return;
  if (CHANGES_NO_SET.some((w) => w.test(route))) return;
  const reads = byClient.get(client);
  if (!reads) return;
  const set = SET_PATH.exec(path)?.[1];
  if (set?.startsWith("polset-")) return dropPolicySet(client, set);
  reads.generation += 1;
  reads.sets.clear();
  reads.parameters.clear();
}
