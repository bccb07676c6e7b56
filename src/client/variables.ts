/**
 * Workspace variables (`/workspaces/:id/vars`): list, create, read, update, delete, and
 * the service's own effective list (`/workspaces/:id/all-vars`). A sensitive variable's
 * value is write-only: the service never returns it (`value` is null).
 *
 * Programs say `engine` for the engine's own category; the wire says `terraform`. The
 * client sends `terraform` and reads either spelling as `engine`.
 */
import {
  VARIABLE_CATEGORY_ON_THE_WIRE,
  variableCategoryOf,
  variableDocumentSchema,
  variableListDocumentSchema,
  type VariableCategory,
  type VariableResource,
} from "../api/variables";
import { pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { relId } from "./wire";

/** A variable: a workspace's own or a variable set's. */
export interface Variable {
  /** Variable id (`var-...`). */
  id: string;
  /** Variable name. */
  key: string;
  /** The value; null when the variable is sensitive (the service never returns it). */
  value: string | null;
  /** Description, or null. */
  description: string | null;
  /** `engine` or `env` (the wire's `terraform` reads as `engine`); a category the client does not know, as received. */
  category: VariableCategory | (string & {});
  /** Whether the value is parsed as HCL. */
  hcl: boolean;
  /** Whether the value is write-only (then `value` is null). */
  sensitive: boolean;
  /** Changes on every update of the variable; null when the service does not say. */
  versionId: string | null;
  /** The workspace it belongs to (relationship `configurable`), when the service says. */
  workspaceId: string | null;
  /** The variable set it belongs to (relationship `varset`), when it is a set's. */
  variableSetId: string | null;
  /** Every attribute exactly as received (never holds a sensitive value: the service sends none). */
  attributes: Record<string, unknown>;
}

/** A variable to create. */
export interface VariableCreateOptions {
  /** Variable name: letters, digits, `_`, `-`, `.`; unique per workspace (or set) and category. */
  key: string;
  /** The value; absent means the empty string. */
  value?: string;
  /** Description, at most 512 characters. */
  description?: string | null;
  /** `engine` (sent as `terraform`) or `env`. */
  category: VariableCategory;
  /** Whether the value is parsed as HCL. */
  hcl?: boolean;
  /** Whether the value is write-only. A sensitive variable cannot be made non-sensitive again. */
  sensitive?: boolean;
}

/** Changes to a variable: only the given attributes change. */
export type VariableUpdateOptions = Partial<VariableCreateOptions>;

/** A variable as the client reads it from a `vars` resource. */
export function toVariable(r: VariableResource): Variable {
  const a = r.attributes;
  const sensitive = a.sensitive ?? false;
  return {
    id: r.id,
    key: a.key,
    value: sensitive ? null : (a.value ?? null),
    description: a.description ?? null,
    category: variableCategoryOf(a.category) ?? a.category,
    hcl: a.hcl ?? false,
    sensitive,
    versionId: a["version-id"] ?? null,
    workspaceId: relId(r, "configurable"),
    variableSetId: relId(r, "varset"),
    attributes: a,
  };
}

/** The `vars` document of a create or an update: only the given attributes, the category in the wire's spelling. */
export function variableRequestBody(options: VariableUpdateOptions, id?: string): unknown {
  const attributes: Record<string, unknown> = {};
  if (options.key !== undefined) attributes.key = options.key;
  if (options.value !== undefined) attributes.value = options.value;
  if (options.description !== undefined) attributes.description = options.description;
  if (options.category !== undefined)
    attributes.category = VARIABLE_CATEGORY_ON_THE_WIRE[options.category] ?? options.category;
  if (options.hcl !== undefined) attributes.hcl = options.hcl;
  if (options.sensitive !== undefined) attributes.sensitive = options.sensitive;
  return { data: { type: "vars", ...(id ? { id } : {}), attributes } };
}

/** The variable calls shared by a workspace's variables and a set's: only the collection path differs. */
export class VariableCollection {
  constructor(
    protected readonly transport: Transport,
    private readonly collection: (ownerId: string) => string,
  ) {}

  /** Every variable of the owner, all pages read. */
  protected listOf(ownerId: string): Promise<Variable[]> {
    return pagedGet(this.transport, this.collection(ownerId), {}, variableListDocumentSchema, toVariable).all();
  }

  /** Never repeated after it reached the service: a second create would be refused as a duplicate key, or make one. */
  protected async createIn(ownerId: string, options: VariableCreateOptions): Promise<Variable> {
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: this.collection(ownerId),
        body: variableRequestBody(options),
        repeat: "once",
        conflict: "create",
      },
      variableDocumentSchema,
    );
    return toVariable(doc.data);
  }

  protected async readIn(ownerId: string, variableId: string): Promise<Variable> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: this.itemPath(ownerId, variableId), repeat: "idempotent" },
      variableDocumentSchema,
    );
    return toVariable(doc.data);
  }

  /** Setting the same attributes twice leaves the same variable (its `version-id` aside), so it is retried like a read. */
  protected async updateIn(ownerId: string, variableId: string, options: VariableUpdateOptions): Promise<Variable> {
    const doc = await this.transport.requestParsed(
      {
        method: "PATCH",
        path: this.itemPath(ownerId, variableId),
        body: variableRequestBody(options, variableId),
        repeat: "idempotent",
      },
      variableDocumentSchema,
    );
    return toVariable(doc.data);
  }

  protected async deleteIn(ownerId: string, variableId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: this.itemPath(ownerId, variableId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }

  private itemPath(ownerId: string, variableId: string): string {
    return `${this.collection(ownerId)}/${encodeURIComponent(variableId)}`;
  }
}

/** Workspace variable calls of a {@link WorkspacesClient} (`client.variables`). */
export class Variables extends VariableCollection {
  constructor(transport: Transport) {
    super(transport, (workspaceId) => urlPath("workspaces", workspaceId, "vars"));
  }

  /** `GET /workspaces/:id/vars`: the workspace's own variables, every page read. */
  list(workspaceId: string): Promise<Variable[]> {
    return this.listOf(workspaceId);
  }

  /**
   * `GET /workspaces/:id/all-vars`: the variables that apply to the workspace, its own
   * and its sets', as the service resolves precedence (one per key and category). It
   * does not say where each comes from: `client.variableSets.effectiveVariables` does.
   */
  listAll(workspaceId: string): Promise<Variable[]> {
    return pagedGet(
      this.transport,
      urlPath("workspaces", workspaceId, "all-vars"),
      {},
      variableListDocumentSchema,
      toVariable,
    ).all();
  }

  /** `POST /workspaces/:id/vars`: a key already taken in that category is a 422 ({@link ValidationError}). */
  create(workspaceId: string, options: VariableCreateOptions): Promise<Variable> {
    return this.createIn(workspaceId, options);
  }

  /** `GET /workspaces/:id/vars/:variable_id`. */
  read(workspaceId: string, variableId: string): Promise<Variable> {
    return this.readIn(workspaceId, variableId);
  }

  /** `PATCH /workspaces/:id/vars/:variable_id`: only the given attributes change. */
  update(workspaceId: string, variableId: string, options: VariableUpdateOptions): Promise<Variable> {
    return this.updateIn(workspaceId, variableId, options);
  }

  /** `DELETE /workspaces/:id/vars/:variable_id`. */
  delete(workspaceId: string, variableId: string): Promise<void> {
    return this.deleteIn(workspaceId, variableId);
  }
}
