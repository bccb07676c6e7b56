/**
 * Variables, a workspace's own and a variable set's (one set of rules for both): a key
 * unique per owner and category, a sensitive value sealed with the server's key and never
 * answered, a sensitive variable never made readable again. Permissions: a workspace's
 * variables take `can-read-variable` to read and `can-update-variable` to change; a set's
 * follow the set (./sets.ts).
 */
import { VARIABLE_CATEGORY_ALIASES, type VariableCategory, type VariableUpdateRequest } from "../../api/variables";
import type { Caller } from "../auth/service/caller";
import type { ServerContext } from "../context";
import { Forbidden, Invalid, NotFound } from "../domain-errors";
import { newId } from "../ids";
import { inTransaction, now, overwritingFreedSpace, type Page } from "../store/db";
import { loadWorkspace } from "../workspace/service";
import type { WorkspaceRecord } from "../workspace/store";
import * as store from "./store";
import {
  POLICY_SET_PARAMS_VALUE_PURPOSE,
  VARS_VALUE_PURPOSE,
  VARSET_VARS_VALUE_PURPOSE,
  type VariableRecord,
  type VariableRow,
  type VariableTable,
} from "./store";

export type { VariableRecord, VariableTable };

const PURPOSE: Record<VariableTable, string> = {
  vars: VARS_VALUE_PURPOSE,
  varset_vars: VARSET_VARS_VALUE_PURPOSE,
  policy_set_params: POLICY_SET_PARAMS_VALUE_PURPOSE,
};

/** The attributes of a create, as validated by a wire schema (a policy set parameter's category is `policy-set`). */
export interface NewVariable {
  key: string;
  value?: string | null;
  description?: string | null;
  category: string;
  hcl?: boolean;
  sensitive?: boolean;
}

/** The attributes of an update, as validated by the wire schemas. */
type Attributes = NonNullable<VariableUpdateRequest["data"]["attributes"]>;

/** The stored category and the spelling to answer with (null: as stored). */
function categoryOf(spelling: string): { category: VariableCategory; spelling: string | null } {
  const category = VARIABLE_CATEGORY_ALIASES[spelling] ?? (spelling as VariableCategory);
  return { category, spelling: category === spelling ? null : spelling };
}

const TAKEN = "has already been taken";

function assertKeyFree(
  ctx: ServerContext,
  t: VariableTable,
  ownerId: string,
  key: string,
  category: string,
  id?: string,
) {
  const other = store.variableByKey(ctx.db, t, ownerId, key, category);
  if (other && other.id !== id) throw new Invalid(`Key ${TAKEN}`, { attribute: "key" });
}

/** Creates a variable of the owner (`t`: a workspace's, a variable set's or a policy set's); the caller has been authorized. */
export function createVariableIn(
  ctx: ServerContext,
  t: VariableTable,
  ownerId: string,
  a: NewVariable,
): VariableRecord {
  const { category, spelling } = categoryOf(a.category);
  const sensitive = a.sensitive ?? false;
  const value = a.value ?? "";
  const id = newId("variable");
  inTransaction(ctx.db, () => {
    assertKeyFree(ctx, t, ownerId, a.key, category);
    store.insertVariable(ctx.db, t, {
      id,
      owner_id: ownerId,
      key: a.key,
      value: sensitive ? ctx.secrets.seal(value, PURPOSE[t]) : value,
      description: a.description ?? null,
      category,
      category_spelling: spelling,
      hcl: a.hcl ? 1 : 0,
      sensitive: sensitive ? 1 : 0,
      created_at: now(),
    });
  });
  return store.findVariable(ctx.db, t, ownerId, id)!;
}

/**
 * Changes the given attributes of a variable; its `version-id` changes even when nothing
 * else does. A sensitive variable stays sensitive, and keeps its sealed value unless a
 * new one is given.
 */
export function updateVariableIn(
  ctx: ServerContext,
  t: VariableTable,
  current: VariableRecord,
  a: Attributes,
): VariableRecord {
  const cat = a.category !== undefined ? categoryOf(a.category) : null;
  const category = cat?.category ?? current.category;
  const key = a.key ?? current.key;
  const wasSensitive = current.sensitive === 1;
  if (wasSensitive && a.sensitive === false)
    throw new Invalid("Sensitive cannot be changed from true to false: delete the variable and create it again", {
      attribute: "sensitive",
    });
  const sensitive = wasSensitive || a.sensitive === true;
  const clear = a.value !== undefined && a.value !== null ? a.value : wasSensitive ? null : current.value;
  const value = clear === null ? current.value : sensitive ? ctx.secrets.seal(clear, PURPOSE[t]) : clear;
  const row: VariableRow = {
    owner_id: current.owner_id,
    key,
    value,
    description: a.description !== undefined ? a.description : current.description,
    category,
    category_spelling: cat ? cat.spelling : current.category_spelling,
    hcl: a.hcl !== undefined ? (a.hcl ? 1 : 0) : current.hcl,
    sensitive: sensitive ? 1 : 0,
  };
  const write = () =>
    inTransaction(ctx.db, () => {
      assertKeyFree(ctx, t, current.owner_id, key, category, current.id);
      store.updateVariableById(ctx.db, t, current.id, row);
    });
  // A value made sensitive was stored in clear: the pages that held it are zeroed, not just freed.
  if (sensitive && !wasSensitive) overwritingFreedSpace(ctx.db, write);
  else write();
  return store.findVariable(ctx.db, t, current.owner_id, current.id)!;
}

export function deleteVariableIn(ctx: ServerContext, t: VariableTable, v: VariableRecord): void {
  inTransaction(ctx.db, () => store.deleteVariable(ctx.db, t, v.id));
}

export function loadVariableIn(ctx: ServerContext, t: VariableTable, ownerId: string, id: string): VariableRecord {
  const v = store.findVariable(ctx.db, t, ownerId, id);
  if (!v) throw new NotFound("variable not found");
  return v;
}

/** A page of the owner's variables, or all of them when no page was asked for (the hosted service does not page them). */
export function variablesPageIn(
  ctx: ServerContext,
  t: VariableTable,
  ownerId: string,
  page: Page | null,
): { rows: VariableRecord[]; total: number; page: Page } {
  const total = store.countVariables(ctx.db, t, ownerId);
  if (!page)
    return { rows: store.variablesOf(ctx.db, t, ownerId), total, page: { number: 1, size: Math.max(total, 1) } };
  return { rows: store.variablesPage(ctx.db, t, ownerId, page.size, (page.number - 1) * page.size), total, page };
}

// A workspace's own variables.

/** A workspace whose variables the caller may read (`write`: change); not found (or forbidden when it may read them) otherwise. */
export function variablesWorkspace(
  ctx: ServerContext,
  caller: Caller,
  workspaceId: string,
  write: boolean,
): WorkspaceRecord {
  const { ws, permissions } = loadWorkspace(ctx, caller, { id: workspaceId });
  if (!permissions["can-read-variable"]) throw new NotFound("workspace not found");
  if (write && !permissions["can-update-variable"])
    throw new Forbidden("the token may read this workspace's variables but not change them");
  return ws;
}
