/**
 * The organizations of the records children live under (workspaces, projects, teams,
 * variable sets), as each client has read them, per process: a record never moves to
 * another organization, so one read per parent and client is enough.
 */
import type { WorkspacesClient } from "../../client";

const learnt = new WeakMap<WorkspacesClient, Map<string, string>>();

/** The organization `client` has read for the parent `id`, if any. */
export function learntOrganization(client: WorkspacesClient, id: string): string | undefined {
  return learnt.get(client)?.get(id);
}

/** Records that `client` read the parent `id` in `organization`. */
export function learnOrganization(client: WorkspacesClient, id: string, organization: string): void {
  let known = learnt.get(client);
  if (!known) learnt.set(client, (known = new Map()));
  known.set(id, organization);
}
