/** Organizations: the reads the resources need. */
import { organizationDocumentSchema } from "../api/organizations";
import { type Transport, urlPath } from "./transport";

/** An organization. */
export interface Organization {
  /** Organization name (its identifier). */
  name: string;
  /** Notification address, or null. */
  email: string | null;
  /** Creation time (ISO 8601), or null. */
  createdAt: string | null;
  /** Whether workspace admins may force delete their own workspaces. */
  allowForceDeleteWorkspaces: boolean | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** Organization calls of a {@link WorkspacesClient} (`client.organizations`). */
export class Organizations {
  constructor(private readonly transport: Transport) {}

  /** `GET /organizations/:name`. */
  async read(name: string): Promise<Organization> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("organizations", name), repeat: "idempotent" },
      organizationDocumentSchema,
    );
    const a = doc.data.attributes;
    return {
      // The id of an organization is its name: a server that leaves the attribute out still names it.
      name: a.name || doc.data.id,
      email: a.email ?? null,
      createdAt: a["created-at"] ?? null,
      allowForceDeleteWorkspaces: a["allow-force-delete-workspaces"] ?? null,
      attributes: a,
    };
  }
}
