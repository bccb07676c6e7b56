/**
 * A token's standing in an organization (member or not, and its permissions), read
 * once per client and organization in a provider process: a refresh that finds many
 * records gone asks once.
 */
import { NotFoundError } from "../../client/typed-errors";
import type { WorkspacesClient } from "../../client";

export type Standing = { member: false } | { member: true; permissions: Record<string, unknown> };

// One organization read per client and organization in a provider process (a refresh
// that finds many records gone asks once).
const standings = new WeakMap<WorkspacesClient, Map<string, Promise<Standing>>>();

export function standingIn(client: WorkspacesClient, organization: string): Promise<Standing> {
  let byOrg = standings.get(client);
  if (!byOrg) standings.set(client, (byOrg = new Map()));
  let p = byOrg.get(organization);
  if (!p) {
    p = client.organizations.read(organization).then(
      (org): Standing => {
        const perms = org.attributes.permissions;
        return {
          member: true,
          permissions: perms && typeof perms === "object" ? (perms as Record<string, unknown>) : {},
        };
      },
      (err): Standing => {
        if (err instanceof NotFoundError) return { member: false };
        throw err;
      },
    );
    p.catch(() => byOrg.delete(organization));
    byOrg.set(organization, p);
  }
  return p;
}
