/**
 * Workspace variables as no-code provisioning writes them (spec 4.15, 4.16), their
 * checks against a module's allowed values, and the reads behind the hosted service's
 * `GET /workspaces/:id/vars` and `GET /workspaces/:id/vars/:var_id`, so that a client
 * can see what a workspace was given.
 */
import type { NoCodeVariableRequest } from "../../api/no-code";
import { VARIABLE_CATEGORY_ALIASES, type VariableCategory } from "../../api/variables";
import type { ServerContext } from "../context";
import { wrongKey } from "../secrets";
import type { Failure } from "../domain-errors";
import { newId } from "../ids";
import type { Db } from "../store/db";
import { inTransaction, now, overwritingFreedSpace } from "../store/db";
import * as store from "./store";
import { variableOptionsOf } from "./store";
import * as varStore from "../variable/store";
import { VARS_VALUE_PURPOSE as VALUE_PURPOSE } from "../variable/store";

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

/**
 * Request variables in stored form. The vendor category `terraform` is stored as the
 * neutral `engine`, and the spelling is kept so that the variable is answered the way
 * its writer spelled it (go-tfe compares against its `terraform` constant). The same
 * key twice in one category is a failure of the later item (of the `vars` relationship).
 */
export function normalizeVariables(items: NoCodeVariableRequest[], failures: Failure[]): Variable[] {
  const seen = new Set<string>();
  const out: Variable[] = [];
  items.forEach((item, i) => {
    const a = item.attributes;
    const category = VARIABLE_CATEGORY_ALIASES[a.category] ?? a.category;
    const k = `${category}\u0000${a.key}`;
    if (seen.has(k)) {
      failures.push({
        field: { relationship: "vars", item: i, attribute: "key" },
        detail: `variable "${a.key}" (${category}) is given more than once`,
      });
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
export function optionViolations(
  db: Db,
  noCodeModuleId: string,
  vars: Variable[],
): { index: number; detail: string }[] {
  const sets = new Map(
    variableOptionsOf(db, noCodeModuleId).map((o) => [o.variable_name, JSON.parse(o.options) as unknown[]]),
  );
  const out: { index: number; detail: string }[] = [];
  vars.forEach((v, index) => {
    const allowed = v.category === "engine" ? sets.get(v.key) : undefined;
    if (!allowed || allowed.length === 0) return;
    if (!allowed.some((o) => optionText(o) === v.value)) {
      out.push({
        index,
        detail: `value of variable "${v.key}" is not one of the allowed options: ${allowed.map(optionText).join(", ")}`,
      });
    }
  });
  return out;
}

/** The column a sealed value belongs to, authenticated with it: a value sealed for one cannot be passed off in another. */
const UPGRADE_PURPOSE = "no_code_upgrades.vars";

/** Whether `v` is sensitive, in the request or as the workspace stores it (a sensitive variable stays sensitive). */
function sensitiveAsStored(db: Db, workspaceId: string, v: Variable): boolean {
  return v.sensitive || varStore.variableByKey(db, "vars", workspaceId, v.key, v.category)?.sensitive === 1;
}

/**
 * Inserts new variables and overwrites the ones with the same key and category. The
 * value of a sensitive variable (in the request or as stored) is sealed with the
 * server's key: the database never holds it in clear.
 */
export function upsertVariables(ctx: ServerContext, workspaceId: string, vars: Variable[]): void {
  const { db } = ctx;
  const t = now();
  for (const v of vars) {
    const row = {
      owner_id: workspaceId,
      key: v.key,
      value: sensitiveAsStored(db, workspaceId, v) ? ctx.secrets.seal(v.value, VALUE_PURPOSE) : v.value,
      description: v.description,
      category: v.category,
      category_spelling: v.categorySpelling ?? null,
      hcl: v.hcl ? 1 : 0,
      sensitive: v.sensitive ? 1 : 0,
    };
    // A sensitive variable stays sensitive: write-once values never become readable.
    if (!varStore.updateVariableByKey(db, row))
      varStore.insertVariable(db, "vars", { ...row, id: newId("variable"), created_at: t });
  }
}

/**
 * Whether applying `vars` would change what the workspace holds. A sensitive variable
 * given in the request (sensitive in the request or as stored) always counts as a
 * change: comparing it with the stored value would tell the caller, through the plan's
 * outcome, whether a guess was right.
 */
export function variablesDiffer(db: Db, workspaceId: string, vars: Variable[]): boolean {
  return vars.some((v) => {
    const r = varStore.variableByKey(db, "vars", workspaceId, v.key, v.category);
    if (!r || v.sensitive || r.sensitive === 1) return true;
    if (r.value !== v.value || (r.hcl === 1) !== v.hcl || (v.sensitive && r.sensitive === 0)) return true;
    return v.description !== null && v.description !== r.description;
  });
}

/**
 * The variables of an upgrade as its row stores them until it is applied: the value of
 * every variable that is sensitive (in the request or as the workspace stores it) sealed
 * and marked `sealed`.
 */
export function sealUpgradeVariables(ctx: ServerContext, workspaceId: string, vars: Variable[]): string {
  return JSON.stringify(
    vars.map((v) =>
      sensitiveAsStored(ctx.db, workspaceId, v)
        ? { ...v, value: ctx.secrets.seal(v.value, UPGRADE_PURPOSE), sealed: true }
        : v,
    ),
  );
}

/** The variables an upgrade row stores, with sealed values opened. */
export function openUpgradeVariables(ctx: ServerContext, stored: string): Variable[] {
  return (JSON.parse(stored) as StoredUpgradeVariable[]).map(({ sealed, ...v }) =>
    sealed ? { ...v, value: ctx.secrets.open(v.value, UPGRADE_PURPOSE) } : v,
  );
}

/** A stored variable of an upgrade; `sealed` marks a value sealed for the upgrade's column. */
type StoredUpgradeVariable = Variable & { sealed?: boolean };

/**
 * Seals the sensitive values a release before encryption at rest stored in clear, in one
 * transaction: run on every start, it finds nothing to do once a database is sealed.
 * The clear text is overwritten in place and the WAL that still held it is truncated.
 * A sealed value the server's key does not open means the key is not the one the
 * database was written with: the start is refused before anything is sealed twice.
 */
export function sealClearValues(ctx: ServerContext): void {
  const { db, secrets } = ctx;
  const first = clearValues(ctx);
  if (first.values.length === 0 && first.upgrades.length === 0) return;
  overwritingFreedSpace(db, () =>
    inTransaction(db, () => {
      // Read again under the write lock: another server on the file may have sealed them since.
      const { values, upgrades } = clearValues(ctx);
      for (const r of values) varStore.setVariableValue(db, r.id, secrets.seal(r.value, VALUE_PURPOSE));
      for (const u of upgrades) {
        const sealed = u.vars.map((v) =>
          v.sealed || !sensitiveAsStored(db, u.workspace_id, v)
            ? v
            : { ...v, value: secrets.seal(v.value, UPGRADE_PURPOSE), sealed: true },
        );
        store.setUpgradeVariables(db, u.run_id, JSON.stringify(sealed));
      }
    }),
  );
}

/** The sensitive values stored in clear, and the upgrades that hold some; throws when a sealed value is not this key's. */
function clearValues(ctx: ServerContext) {
  const { db, secrets } = ctx;
  const values = varStore.sensitiveVariables(db);
  const upgrades = store
    .upgradeVariableRows(db)
    .map((u) => ({ ...u, vars: JSON.parse(u.vars) as StoredUpgradeVariable[] }));
  const foreign =
    values.some((r) => secrets.looksSealed(r.value) && !secrets.sealedHere(r.value, VALUE_PURPOSE)) ||
    upgrades.some((u) => u.vars.some((v) => v.sealed && !secrets.sealedHere(v.value, UPGRADE_PURPOSE)));
  if (foreign) throw wrongKey(db.name);
  return {
    values: values.filter((r) => !secrets.sealedHere(r.value, VALUE_PURPOSE)),
    upgrades: upgrades.filter((u) => u.vars.some((v) => !v.sealed && sensitiveAsStored(db, u.workspace_id, v))),
  };
}
