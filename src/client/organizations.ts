/** Organizations: the reads the resources need. */
import { organizationDocumentSchema } from "../api/organizations";
import { Transport, urlPath } from "./transport";

export interface Organization {
  name: string;
  email: string | null;
  createdAt: string | null;
  /** Whether workspace admins may force delete their own workspaces. */
  allowForceDeleteWorkspaces: boolean | null;
  attributes: Record<string, unknown>;
}

export class Organizations {
  constructor(private readonly transport: Transport) {}

  /** `GET /organizations/:name`. */
  async read(name: string): Promise<Organization> {
    const doc = await this.transport.requestParsed({ method: "GET", path: urlPath("organizations", name), repeat: "idempotent" }, organizationDocumentSchema);
    const a = doc.data.attributes;
    return {
      name: a.name,
      email: a.email ?? null,
      createdAt: a["created-at"] ?? null,
      allowForceDeleteWorkspaces: a["allow-force-delete-workspaces"] ?? null,
      attributes: a as Record<string, unknown>,
    };
  }
}
