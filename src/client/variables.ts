/**
 * Workspace variables, read-only: what a workspace created from a no-code module holds.
 * They are set through no-code creation and upgrades; a sensitive value is never
 * returned by the service (its `value` is null).
 */
import { variableDocumentSchema, variableListDocumentSchema, type VariableResource } from "../api/no-code";
import { type Transport, urlPath } from "./transport";

/** A workspace variable. */
export interface Variable {
  /** Variable id (`var-...`). */
  id: string;
  /** Variable name. */
  key: string;
  /** Null when the variable is sensitive. */
  value: string | null;
  /** Description, or null. */
  description: string | null;
  /** `engine` or `env` (the vendor spelling `terraform` is read as `engine`). */
  category: string;
  /** Whether the value is parsed as HCL. */
  hcl: boolean;
  /** Whether the value is write-only (then `value` is null). */
  sensitive: boolean;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

function toVariable(r: VariableResource): Variable {
  const a = r.attributes;
  return {
    id: r.id,
    key: a.key,
    value: a.value ?? null,
    description: a.description ?? null,
    category: a.category === "terraform" ? "engine" : a.category,
    hcl: a.hcl ?? false,
    sensitive: a.sensitive ?? false,
    attributes: a,
  };
}

/** Variable calls of a {@link WorkspacesClient} (`client.variables`). */
export class Variables {
  constructor(private readonly transport: Transport) {}

  /** `GET /workspaces/:id/vars`. */
  async list(workspaceId: string): Promise<Variable[]> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("workspaces", workspaceId, "vars"), repeat: "idempotent" },
      variableListDocumentSchema,
    );
    return doc.data.map(toVariable);
  }

  /** `GET /workspaces/:id/vars/:variable_id`. */
  async read(workspaceId: string, variableId: string): Promise<Variable> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("workspaces", workspaceId, "vars", variableId), repeat: "idempotent" },
      variableDocumentSchema,
    );
    return toVariable(doc.data);
  }
}
