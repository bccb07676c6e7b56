/**
 * Workspace variables as no-code provisioning writes them (spec 4.15, 4.16), their
 * checks against a module's allowed values, and the hosted service's read endpoints
 * (`GET /workspaces/:id/vars`, `GET /workspaces/:id/vars/:var_id`) so that a client can
 * see what a workspace was given.
 */
import type { FastifyInstance } from "fastify";
import type { Problem } from "../../api/common";
import { VARIABLE_CATEGORY_ALIASES, type NoCodeVariableRequest, type VariableCategory } from "../../api/nocode";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { notFound } from "../http/errors";
import { API_PREFIX, send, type Resource } from "../http/jsonapi";
import { newId } from "../ids";
import type { Db } from "../store/db";
import { now, prepare } from "../store/db";
import { loadWorkspace } from "../workspace/service";
import { variableOptionsOf } from "./store";

export interface Variable {
  key: string;
  value: string;
  description: string | null;
  category: VariableCategory;
  /** The vendor spelling the request used for `category`, if any. */
  categorySpelling: string | null;
  hcl: boolean;
  sensitive: boolean;
}

interface VariableRecord {
  id: string;
  workspace_id: string;
  key: string;
  value: string;
  description: string | null;
  category: VariableCategory;
  category_spelling: string | null;
  hcl: number;
  sensitive: number;
  created_at: string;
}

/**
 * Request variables in stored form. The vendor category `terraform` is stored as the
 * neutral `engine`, and the spelling is kept so that the variable is answered the way
 * its writer spelled it (go-tfe compares against its `terraform` constant). The same
 * key twice in one category is a problem of the later item.
 */
export function normalizeVariables(items: NoCodeVariableRequest[], pointer: string, problems: Problem[]): Variable[] {
  const seen = new Set<string>();
  const out: Variable[] = [];
  items.forEach((item, i) => {
    const a = item.attributes;
    const category = (VARIABLE_CATEGORY_ALIASES[a.category] ?? a.category) as VariableCategory;
    const k = `${category}\u0000${a.key}`;
    if (seen.has(k)) {
      problems.push({ pointer: `${pointer}/${i}/attributes/key`, detail: `variable "${a.key}" (${category}) is given more than once` });
      return;
    }
    seen.add(k);
    out.push({
      key: a.key,
      value: a.value ?? "",
      description: a.description ?? null,
      category,
      categorySpelling: a.category === category ? null : a.category,
      hcl: a.hcl ?? false,
      sensitive: a.sensitive ?? false,
    });
  });
  return out;
}

/** Allowed values match by their text: a string option as it is, anything else as JSON. */
function optionText(option: unknown): string {
  return typeof option === "string" ? option : JSON.stringify(option);
}

/**
 * Values outside a module's allowed options (spec 2.8): only engine variables are module
 * inputs, and a variable without an option set takes any value.
 */
export function optionViolations(db: Db, noCodeModuleId: string, vars: Variable[]): { index: number; detail: string }[] {
  const sets = new Map(variableOptionsOf(db, noCodeModuleId).map((o) => [o.variable_name, JSON.parse(o.options) as unknown[]]));
  const out: { index: number; detail: string }[] = [];
  vars.forEach((v, index) => {
    const allowed = v.category === "engine" ? sets.get(v.key) : undefined;
    if (!allowed || allowed.length === 0) return;
    if (!allowed.some((o) => optionText(o) === v.value)) {
      out.push({ index, detail: `value of variable "${v.key}" is not one of the allowed options: ${allowed.map(optionText).join(", ")}` });
    }
  });
  return out;
}

/** Inserts new variables and overwrites the ones with the same key and category. */
export function upsertVariables(db: Db, workspaceId: string, vars: Variable[]): void {
  const t = now();
  const update = prepare(
    db,
    `UPDATE vars SET value = @value, description = COALESCE(@description, description), hcl = @hcl, sensitive = MAX(sensitive, @sensitive),
            category_spelling = @category_spelling
      WHERE workspace_id = @workspace_id AND key = @key AND category = @category`,
  );
  const insert = prepare(
    db,
    `INSERT INTO vars (id, workspace_id, key, value, description, category, category_spelling, hcl, sensitive, created_at)
     VALUES (@id, @workspace_id, @key, @value, @description, @category, @category_spelling, @hcl, @sensitive, @created_at)`,
  );
  for (const v of vars) {
    const row = {
      workspace_id: workspaceId,
      key: v.key,
      value: v.value,
      description: v.description,
      category: v.category,
      category_spelling: v.categorySpelling ?? null,
      hcl: v.hcl ? 1 : 0,
      sensitive: v.sensitive ? 1 : 0,
    };
    // A sensitive variable stays sensitive: write-once values never become readable.
    if (update.run(row).changes === 0) insert.run({ ...row, id: newId("variable"), created_at: t });
  }
}

/**
 * Whether applying `vars` would change what the workspace holds. A sensitive variable
 * given in the request (sensitive in the request or as stored) always counts as a
 * change: comparing it with the stored value would tell the caller, through the plan's
 * outcome, whether a guess was right.
 */
export function variablesDiffer(db: Db, workspaceId: string, vars: Variable[]): boolean {
  const get = prepare(db, `SELECT * FROM vars WHERE workspace_id = ? AND key = ? AND category = ?`);
  return vars.some((v) => {
    const r = get.get(workspaceId, v.key, v.category) as VariableRecord | undefined;
    if (!r || v.sensitive || r.sensitive === 1) return true;
    if (r.value !== v.value || (r.hcl === 1) !== v.hcl || (v.sensitive && r.sensitive === 0)) return true;
    return v.description !== null && v.description !== r.description;
  });
}

/** The hosted `vars` document; a sensitive value is never rendered. */
export function renderVariable(r: VariableRecord): Resource {
  return {
    id: r.id,
    type: "vars",
    attributes: {
      key: r.key,
      value: r.sensitive === 1 ? null : r.value,
      description: r.description,
      category: r.category_spelling ?? r.category,
      hcl: r.hcl === 1,
      sensitive: r.sensitive === 1,
      "created-at": r.created_at,
    },
    relationships: {
      configurable: { data: { id: r.workspace_id, type: "workspaces" }, links: { related: `${API_PREFIX}/workspaces/${r.workspace_id}` } },
    },
    links: { self: `${API_PREFIX}/workspaces/${r.workspace_id}/vars/${r.id}` },
  };
}

export function variableRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;
  const readable = (request: Parameters<typeof requireCaller>[0], workspaceId: string) => {
    const { ws, permissions } = loadWorkspace(ctx, requireCaller(request), { id: workspaceId });
    if (!permissions["can-read-variable"]) throw notFound("workspace not found");
    return ws;
  };

  app.get<{ Params: { workspace_id: string } }>("/workspaces/:workspace_id/vars", async (request, reply) => {
    const ws = readable(request, request.params.workspace_id);
    const rows = prepare(db, `SELECT * FROM vars WHERE workspace_id = ? ORDER BY created_at, key`).all(ws.id) as VariableRecord[];
    return send(reply, 200, { data: rows.map(renderVariable) });
  });

  app.get<{ Params: { workspace_id: string; variable_id: string } }>("/workspaces/:workspace_id/vars/:variable_id", async (request, reply) => {
    const ws = readable(request, request.params.workspace_id);
    const row = prepare(db, `SELECT * FROM vars WHERE id = ? AND workspace_id = ?`).get(request.params.variable_id, ws.id) as VariableRecord | undefined;
    if (!row) throw notFound("variable not found");
    return send(reply, 200, { data: renderVariable(row) });
  });
}
