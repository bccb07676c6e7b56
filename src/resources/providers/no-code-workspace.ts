/**
 * Provider of `NoCodeWorkspace` (spec 4.15, 4.16). Version and variable changes are
 * in-place upgrades through the plan-then-confirm flow, and the workspace keeps its id;
 * with `upgradeStrategy: "replace"` they replace the workspace instead.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isId } from "../../api/common";
import { UPGRADE_FINAL, UPGRADE_PLAN_SETTLED, noCodeWorkspaceCreateRequestSchema } from "../../api/no-code";
import { WORKSPACE_NAME_PATTERN } from "../../api/workspaces";
import {
  UnreadableCreateError,
  WaitTimeoutError,
  type NoCodeModule,
  type NoCodeVariable,
  type VariableOptions,
  type Workspace as ApiWorkspace,
  type WorkspacesClient,
} from "../../client";
import { defaultOrganization } from "../settings";
import { getClient, isNotFound, readWorkspaceShared } from "./client";
import { ProviderError, explainingMissingFeatures } from "./errors";
import { dedupeFailures, failuresFromIssues } from "./check-failures";
import { diffFields, sameJsonUnordered, sameOptionalString, type FieldRule, text } from "./compare";
import { isUnknown, withoutUnknowns } from "./unknowns";
import { organizationInput } from "./inputs";
import { recoverLostCreate } from "./lost-create";
import { unlessGone, workspaceLabel } from "./gone";
import { reportStatus } from "../process/engine-status";
import { deleteWorkspace } from "./deletion";
import { refusedUpdate } from "./workspace";
import type { CheckFailure, CheckResult, ProviderImpl, Props } from "./types";
import type { NoCodeVariableOutput, NoCodeWorkspaceArgs } from "../no-code-workspace";

/** Inputs as the engine hands them over. */
type NoCodeWorkspaceInputs = pulumi.Unwrap<NoCodeWorkspaceArgs>;

/** The upgrade run that last changed the workspace's version or variables. */
interface LastUpgrade {
  runId: string;
  status: string;
  planUrl: string | null;
}

/** Outputs as stored in state. */
type NoCodeWorkspaceOutputs = {
  /** Absent when adopted through `get` from a workspace the service does not stamp with its module. */
  noCodeModuleId?: string;
  organization: string | null;
  name: ApiWorkspace["name"];
  project: ApiWorkspace["projectId"];
  description: ApiWorkspace["description"];
  executionMode: ApiWorkspace["executionMode"];
  agentPoolId: ApiWorkspace["agentPoolId"];
  autoApply: ApiWorkspace["autoApply"];
  sourceName: ApiWorkspace["sourceName"];
  sourceUrl: ApiWorkspace["sourceUrl"];
  variables: NoCodeVariableOutput[];
  sensitiveValues: Record<string, string>;
  moduleVersion: string | null;
  forceDelete: boolean;
  autoConfirm: boolean;
  upgradeTimeoutSeconds: number;
  /** Absent from state written before replace-style upgrades. */
  upgradeStrategy?: "in-place" | "replace";
  noCodeModuleVersionId: ApiWorkspace["noCodeModuleVersionId"];
  noCodeUpgradeAvailable: ApiWorkspace["noCodeUpgradeAvailable"];
  sourceModuleId: ApiWorkspace["sourceModuleId"];
  resourceCount: ApiWorkspace["resourceCount"];
  locked: ApiWorkspace["locked"];
  lastUpgrade: LastUpgrade | null;
  createdAt: ApiWorkspace["createdAt"];
  selfLink: string | null;
  htmlLink: string | null;
};

/** The values outputsOf echoes: from the inputs, or from stored outputs on a read. */
type Echoed = Partial<
  Pick<
    NoCodeWorkspaceOutputs,
    "noCodeModuleId" | "organization" | "forceDelete" | "autoConfirm" | "upgradeTimeoutSeconds" | "upgradeStrategy"
  >
> & {
  variables?: unknown;
};

const DEFAULT_UPGRADE_TIMEOUT_SECONDS = 1800;
const POLL_INTERVAL_MS = 250;
const RENAMES = { "relationships.vars": "variables", "relationships.project": "project", auto_apply: "autoApply" };
const FAILED = ["errored", "canceled", "discarded"];
const UPGRADE_STRATEGIES = ["in-place", "replace"] as const;
/** Inputs whose change is an upgrade: in place, or a replacement under `upgradeStrategy: "replace"`. */
const UPGRADE_INPUTS = ["moduleVersion", "variables"];

function strategyOf(p: { upgradeStrategy?: unknown }): "in-place" | "replace" {
  return p.upgradeStrategy === "replace" ? "replace" : "in-place";
}

interface Variable {
  key: string;
  value: string;
  category: "engine" | "env";
  hcl: boolean;
  sensitive: boolean;
  description?: string;
}

function category(c: unknown): "engine" | "env" {
  return c === "env" ? "env" : "engine";
}

/** Variables as given, normalized (alias category, defaults filled). */
function normalizeVariables(v: unknown): Variable[] {
  if (!Array.isArray(v)) return [];
  return v.map((x: Props) => ({
    key: text(x.key),
    value: text(x.value),
    category: category(x.category),
    hcl: Boolean(x.hcl),
    sensitive: Boolean(x.sensitive),
    ...(x.description !== undefined && x.description !== null && x.description !== ""
      ? { description: text(x.description) }
      : {}),
  }));
}

/** Stored form: sensitive values are moved to a separate (secret) map. */
function storedVariables(vars: Variable[]): {
  variables: NoCodeVariableOutput[];
  sensitiveValues: Record<string, string>;
} {
  const sensitiveValues: Record<string, string> = {};
  const variables = vars.map((v) => {
    if (!v.sensitive) return { ...v };
    sensitiveValues[v.key] = v.value;
    const { value: _omitted, ...rest } = v;
    return rest;
  });
  return { variables, sensitiveValues };
}

/** The variables recorded in state, sensitive values put back. */
function recordedVariables(olds: Partial<Pick<NoCodeWorkspaceOutputs, "variables" | "sensitiveValues">>): Variable[] {
  const secret = olds.sensitiveValues ?? {};
  return normalizeVariables(
    (olds.variables ?? []).map((v) => (v.sensitive ? { ...v, value: secret[String(v.key)] ?? "" } : v)),
  );
}

function sameVariables(desired: unknown, _actual: unknown, olds: Props): boolean {
  return sameJsonUnordered(normalizeVariables(desired), recordedVariables(olds));
}

const FIELDS: FieldRule[] = [
  { name: "noCodeModuleId", replaces: true },
  { name: "organization", replaces: true },
  { name: "name" },
  { name: "project" },
  { name: "description", same: sameOptionalString },
  { name: "executionMode", same: (a, b) => (a ?? "remote") === (b ?? "remote") },
  { name: "agentPoolId", same: sameOptionalString },
  { name: "autoApply", same: (a, b) => Boolean(a) === Boolean(b) },
  { name: "sourceName", same: sameOptionalString },
  { name: "sourceUrl", same: sameOptionalString },
  { name: "variables", same: sameVariables },
  { name: "moduleVersion", same: sameOptionalString },
  { name: "forceDelete", same: (a, b) => Boolean(a) === Boolean(b) },
  { name: "autoConfirm", same: (a, b) => (a ?? true) === (b ?? true) },
  {
    name: "upgradeTimeoutSeconds",
    same: (a, b) => Number(a ?? DEFAULT_UPGRADE_TIMEOUT_SECONDS) === Number(b ?? DEFAULT_UPGRADE_TIMEOUT_SECONDS),
  },
  { name: "upgradeStrategy", same: (a, b) => (a ?? "in-place") === (b ?? "in-place") },
];

const SETTINGS = [
  "name",
  "project",
  "description",
  "executionMode",
  "agentPoolId",
  "autoApply",
  "sourceName",
  "sourceUrl",
];
/** Settings a program may set to `null` to clear them on the service. */
const NULLABLE_SETTINGS = ["description", "agentPoolId"];

function checkNoCodeWorkspace(
  news: NoCodeWorkspaceInputs & Props,
  olds: Props = {},
): CheckResult<NoCodeWorkspaceInputs & Props> {
  const inputs = { ...news };
  const failures: CheckFailure[] = [];
  if (inputs.organization === undefined || inputs.organization === "") {
    // No organization given, so this is the recorded or the ambient one: a string or undefined.
    const org = organizationInput(olds, news, defaultOrganization);
    if (typeof org === "string" && org) inputs.organization = org;
  }
  if (inputs.autoConfirm === undefined) inputs.autoConfirm = true;
  if (inputs.upgradeTimeoutSeconds === undefined) inputs.upgradeTimeoutSeconds = DEFAULT_UPGRADE_TIMEOUT_SECONDS;
  const known = withoutUnknowns(inputs);
  for (const req of ["noCodeModuleId", "name", "project"]) {
    if (news[req] === undefined) failures.push({ property: req, reason: `${req} is required` });
  }
  if (known.noCodeModuleId !== undefined && !isId("noCodeModule", known.noCodeModuleId)) {
    failures.push({ property: "noCodeModuleId", reason: "noCodeModuleId must be a no-code module id (nocode-...)" });
  }
  if (known.project !== undefined && !isId("project", known.project)) {
    failures.push({ property: "project", reason: "project must be a project id (prj-...)" });
  }
  const body = {
    data: {
      type: "workspaces",
      attributes: {
        name: known.name ?? "placeholder",
        "agent-pool-id": known.agentPoolId,
        auto_apply: known.autoApply,
        description: known.description,
        "execution-mode": known.executionMode,
        "source-name": known.sourceName,
        "source-url": known.sourceUrl,
      },
      relationships: {
        ...(known.project !== undefined ? { project: { data: { type: "projects", id: String(known.project) } } } : {}),
        ...(known.variables !== undefined
          ? {
              vars: {
                data: Array.isArray(known.variables)
                  ? known.variables.map((v: Props) => ({ type: "vars", attributes: v }))
                  : known.variables,
              },
            }
          : {}),
      },
    },
  };
  // `null` clears a setting the service can clear; any other input refuses it by name rather than on the wire schema.
  const nulled = new Set(
    ["noCodeModuleId", ...SETTINGS.filter((k) => !NULLABLE_SETTINGS.includes(k))].filter((k) => known[k] === null),
  );
  for (const k of nulled) {
    failures.push({
      property: k,
      reason: `${k} cannot be cleared with null (only ${NULLABLE_SETTINGS.join(" and ")} can); omit ${k} to leave the service's value alone`,
    });
  }
  const parsed = noCodeWorkspaceCreateRequestSchema.safeParse(body);
  if (!parsed.success)
    failures.push(
      ...failuresFromIssues(parsed.error.issues, RENAMES).filter((f) => !nulled.has(f.property.split(/[.[]/)[0])),
    );
  if (typeof known.name === "string" && !WORKSPACE_NAME_PATTERN.test(known.name)) {
    failures.push({ property: "name", reason: "name: must contain only letters, digits, - and _" });
  }
  const modeKnown = !isUnknown(inputs.executionMode) && !isUnknown(inputs.agentPoolId);
  if (modeKnown) {
    const mode = known.executionMode ?? "remote";
    if (mode === "agent" && !known.agentPoolId)
      failures.push({ property: "agentPoolId", reason: "agentPoolId is required when executionMode is agent" });
    if (mode !== "agent" && known.agentPoolId) {
      failures.push({ property: "agentPoolId", reason: `agentPoolId must not be given when executionMode is ${mode}` });
    }
  }
  if (Array.isArray(known.variables)) {
    const seen = new Set<string>();
    known.variables.forEach((v: Props, i: number) => {
      if (typeof v?.key === "string") {
        if (seen.has(v.key))
          failures.push({ property: `variables[${i}].key`, reason: `variables[${i}].key: ${v.key} is given twice` });
        seen.add(v.key);
      }
    });
  }
  if (
    known.upgradeTimeoutSeconds !== undefined &&
    !(typeof known.upgradeTimeoutSeconds === "number" && known.upgradeTimeoutSeconds > 0)
  ) {
    failures.push({
      property: "upgradeTimeoutSeconds",
      reason: "upgradeTimeoutSeconds must be a number of seconds above 0",
    });
  }
  if (
    known.upgradeStrategy !== undefined &&
    !(UPGRADE_STRATEGIES as readonly unknown[]).includes(known.upgradeStrategy)
  ) {
    failures.push({
      property: "upgradeStrategy",
      reason: `upgradeStrategy must be "in-place" or "replace", not ${JSON.stringify(known.upgradeStrategy)}`,
    });
  }
  for (const b of ["autoConfirm", "forceDelete"]) {
    if (known[b] !== undefined && typeof known[b] !== "boolean")
      failures.push({ property: b, reason: `${b} must be true or false` });
  }
  return { inputs, failures: dedupeFailures(failures) };
}

function apiVariables(vars: Variable[]): NoCodeVariable[] {
  return vars.map((v) => ({
    key: v.key,
    value: v.value,
    category: v.category,
    hcl: v.hcl,
    sensitive: v.sensitive,
    ...(v.description !== undefined ? { description: v.description } : {}),
  }));
}

function outputsOf(
  ws: ApiWorkspace,
  inputs: Echoed,
  extra: { moduleVersion: string | null; lastUpgrade?: LastUpgrade | null; organization?: string | null },
): NoCodeWorkspaceOutputs {
  const stored = storedVariables(normalizeVariables(inputs.variables));
  return {
    noCodeModuleId: inputs.noCodeModuleId,
    organization: ws.organization ?? extra.organization ?? inputs.organization ?? null,
    name: ws.name,
    project: ws.projectId,
    description: ws.description,
    executionMode: ws.executionMode,
    agentPoolId: ws.agentPoolId,
    autoApply: ws.autoApply,
    sourceName: ws.sourceName,
    sourceUrl: ws.sourceUrl,
    variables: stored.variables,
    sensitiveValues: stored.sensitiveValues,
    moduleVersion: extra.moduleVersion,
    forceDelete: Boolean(inputs.forceDelete),
    autoConfirm: inputs.autoConfirm !== false,
    upgradeTimeoutSeconds: Number(inputs.upgradeTimeoutSeconds ?? DEFAULT_UPGRADE_TIMEOUT_SECONDS),
    upgradeStrategy: strategyOf(inputs),
    noCodeModuleVersionId: ws.noCodeModuleVersionId,
    noCodeUpgradeAvailable: ws.noCodeUpgradeAvailable,
    sourceModuleId: ws.sourceModuleId,
    resourceCount: ws.resourceCount,
    locked: ws.locked,
    lastUpgrade: extra.lastUpgrade ?? null,
    createdAt: ws.createdAt,
    selfLink: ws.links.self ?? null,
    htmlLink: ws.links.selfHtml ?? null,
  };
}

/**
 * The version the workspace runs. The service states it (`source-module-version`);
 * otherwise it is the module's pin when no upgrade is pending, else the one recorded.
 */
function stated(ws: ApiWorkspace): string | undefined {
  const v = ws.attributes["source-module-version"];
  return typeof v === "string" && v !== "" ? v : undefined;
}

function versionOf(ws: ApiWorkspace, pin: string | undefined, recorded: unknown): string | null {
  const fromService = stated(ws);
  if (fromService !== undefined) return fromService;
  if (pin === undefined) return typeof recorded === "string" ? recorded : null;
  if (ws.noCodeUpgradeAvailable) return typeof recorded === "string" && recorded !== pin ? recorded : null;
  return pin;
}

/** Allowed values match by their text: a string option as it is, anything else as JSON (as the service compares). */
function optionText(option: unknown): string {
  return typeof option === "string" ? option : JSON.stringify(option);
}

/**
 * Why the service would refuse to create a workspace from `moduleId` with these inputs,
 * as far as the module tells: a `moduleVersion` other than its pin, another organization,
 * an engine variable whose value is outside the module's options (spec 2.8).
 */
function provisionRefusals(
  moduleId: string,
  module: { pin?: string; organization?: string; variableOptions?: VariableOptions[] },
  inputs: Pick<NoCodeWorkspaceInputs, "moduleVersion" | "organization" | "variables">,
): string[] {
  const out: string[] = [];
  const { pin, organization } = module;
  if (inputs.moduleVersion !== undefined && pin !== undefined && pin !== inputs.moduleVersion) {
    out.push(
      `no-code module ${moduleId} provisions version ${pin}, but moduleVersion is ${inputs.moduleVersion}: ` +
        `set the module's versionPin to ${inputs.moduleVersion} first, or drop moduleVersion`,
    );
  }
  if (inputs.organization !== undefined && organization !== undefined && inputs.organization !== organization) {
    out.push(`no-code module ${moduleId} belongs to organization ${organization}, not ${inputs.organization}`);
  }
  const sets = new Map((module.variableOptions ?? []).map((o) => [o.variableName, o.options]));
  for (const v of normalizeVariables(inputs.variables)) {
    const allowed = v.category === "engine" ? sets.get(v.key) : undefined;
    if (!allowed || allowed.length === 0 || allowed.some((o) => optionText(o) === v.value)) continue;
    const shown = v.sensitive ? "(sensitive)" : JSON.stringify(v.value);
    out.push(
      `variable "${v.key}" is ${shown}, which is not one of the options of no-code module ${moduleId}: ${allowed.map(optionText).join(", ")}`,
    );
  }
  return out;
}

/**
 * New inputs of the workspaces this deployment may replace, by the old record's key. In a
 * delete-before-replace the engine checks the new inputs, diffs, deletes the old workspace
 * and then creates the new one, all in this provider process; `delete` is handed only the
 * old outputs, so `check` leaves the new inputs here for it.
 */
const replacementInputs = new Map<string, NoCodeWorkspaceInputs & Props>();

function recordKey(p: { noCodeModuleId?: unknown; name?: unknown }): string | undefined {
  return typeof p.noCodeModuleId === "string" && typeof p.name === "string"
    ? `${p.noCodeModuleId}/${p.name}`
    : undefined;
}

/**
 * Before the old workspace of a replacement is deleted: refuse when the service would
 * refuse to create the new one (module pin, organization, variable options, a name taken
 * by another workspace), so that a replacement that cannot finish deletes nothing. One
 * read of the module (and one of the new name when it changes), during `pulumi up` only.
 */
async function refuseReplacementThatCannotFinish(
  client: WorkspacesClient,
  id: string,
  olds: NoCodeWorkspaceOutputs,
  news: NoCodeWorkspaceInputs,
): Promise<void> {
  const moduleId = String(news.noCodeModuleId);
  const label = workspaceLabel(id, olds.name);
  const kept = `; ${label} is kept. Change the program and run pulumi up again`;
  let module: NoCodeModule;
  try {
    module = await client.noCode.read(moduleId, { includeVariableOptions: true });
  } catch (err) {
    if (isNotFound(err))
      throw new ProviderError(
        `cannot replace ${label}: no-code module ${moduleId} was not found (or the token may not see it)${kept}`,
      );
    throw err;
  }
  const refusals = provisionRefusals(
    moduleId,
    { pin: module.versionPin, organization: module.organization ?? undefined, variableOptions: module.variableOptions },
    news,
  );
  const organization = news.organization ?? module.organization;
  if (refusals.length === 0 && typeof news.name === "string" && news.name !== olds.name && organization) {
    try {
      const taken = await client.workspaces.readByName(String(organization), news.name);
      refusals.push(`the name ${news.name} is taken by workspace ${taken.id} in organization ${organization}`);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  if (refusals.length)
    throw new ProviderError(
      `cannot replace ${label}: the new workspace would be refused: ${refusals.join("; ")}${kept}`,
    );
}

async function modulePin(client: WorkspacesClient, moduleId: string): Promise<{ pin?: string; organization?: string }> {
  try {
    const m = await client.noCode.read(moduleId);
    return { pin: m.versionPin, organization: m.organization ?? undefined };
  } catch (err) {
    if (isNotFound(err)) return {};
    throw err;
  }
}

/**
 * Initiate, wait for the plan, confirm, wait for the apply, telling the engine at each
 * stage what is awaited. Any failure carries the service's reason when it gives one and
 * names the run and its plan URL; until the apply succeeds the workspace keeps its old
 * version.
 */
async function upgrade(
  client: WorkspacesClient,
  moduleId: string,
  workspaceId: string,
  inputs: NoCodeWorkspaceInputs,
): Promise<LastUpgrade> {
  const timeoutMs = Number(inputs.upgradeTimeoutSeconds ?? DEFAULT_UPGRADE_TIMEOUT_SECONDS) * 1000;
  const started = Date.now();
  const remaining = () => Math.max(1, timeoutMs - (Date.now() - started));
  const label = workspaceLabel(workspaceId, inputs.name);
  reportStatus(`upgrading ${label}: starting the upgrade plan`);
  const started_ = await client.noCode.upgrade.initiate(moduleId, workspaceId, {
    variables: apiVariables(normalizeVariables(inputs.variables)),
  });
  const runId = started_.id;
  let planUrl = started_.planUrl;
  const fail = (what: string, status: string, reason?: string | null) =>
    new ProviderError(
      `upgrade of ${label} ${what}${reason ? `: ${reason}` : ""} (run ${runId}, status ${status}${planUrl ? `, plan ${planUrl}` : ""}); ` +
        `the workspace keeps its previous version`,
    );
  try {
    reportStatus(`upgrading ${label}: waiting for the plan of run ${runId}`);
    let s = await client.noCode.upgrade.waitFor(
      moduleId,
      workspaceId,
      runId,
      [...UPGRADE_PLAN_SETTLED, ...UPGRADE_FINAL],
      {
        timeoutMs: remaining(),
        intervalMs: POLL_INTERVAL_MS,
      },
    );
    planUrl = s.planUrl ?? planUrl;
    if (FAILED.includes(s.status)) throw fail("failed while planning", s.status, s.errorMessage);
    if (s.status !== "planned_and_finished" && s.status !== "applied") {
      if (inputs.autoConfirm === false) {
        throw fail(
          "is planned and waits for confirmation (autoConfirm is false): review and confirm it at the plan URL, then refresh",
          s.status,
        );
      }
      reportStatus(`upgrading ${label}: plan of run ${runId} ${s.status}, confirming`);
      await client.noCode.upgrade.confirm(moduleId, workspaceId, runId);
      reportStatus(`upgrading ${label}: waiting for run ${runId} to apply`);
      s = await client.noCode.upgrade.waitFor(
        moduleId,
        workspaceId,
        runId,
        ["applied", "planned_and_finished", ...FAILED],
        {
          timeoutMs: remaining(),
          intervalMs: POLL_INTERVAL_MS,
        },
      );
      planUrl = s.planUrl ?? planUrl;
      if (FAILED.includes(s.status)) throw fail("failed while applying", s.status, s.errorMessage);
    }
    return { runId, status: s.status, planUrl: planUrl ?? null };
  } catch (err) {
    if (err instanceof WaitTimeoutError) {
      throw fail(
        `did not finish within ${Math.round(timeoutMs / 1000)}s (upgradeTimeoutSeconds)`,
        err.lastStatus ?? "unknown",
      );
    }
    throw err;
  }
}

export const noCodeWorkspaceProvider: ProviderImpl<NoCodeWorkspaceInputs & Props, NoCodeWorkspaceOutputs> =
  explainingMissingFeatures(
    {
      async check(olds, news) {
        const result = checkNoCodeWorkspace(news, olds);
        const key = recordKey(olds);
        if (key !== undefined && result.failures.length === 0) replacementInputs.set(key, result.inputs);
        return result;
      },

      async diff(_id, olds, news) {
        const { changed, replaces } = diffFields(olds, news, FIELDS);
        // Replace-style upgrades: a new workspace instead of an upgrade run.
        if (strategyOf(news) === "replace")
          for (const k of UPGRADE_INPUTS) if (changed.includes(k) && !replaces.includes(k)) replaces.push(k);
        return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
      },

      async create(inputs) {
        const client = getClient();
        const moduleId = String(inputs.noCodeModuleId);
        const { pin, organization } = await modulePin(client, moduleId);
        const [refused] = provisionRefusals(moduleId, { pin, organization }, inputs);
        if (refused) throw new ProviderError(refused);
        const started = Date.now();
        const ws = await client.noCode
          .createWorkspace(moduleId, {
            name: inputs.name,
            // A cleared setting is one the new workspace does not have.
            agentPoolId: inputs.agentPoolId ?? undefined,
            autoApply: inputs.autoApply,
            description: inputs.description ?? undefined,
            executionMode: inputs.executionMode,
            sourceName: inputs.sourceName,
            sourceUrl: inputs.sourceUrl,
            projectId: inputs.project,
            variables: inputs.variables !== undefined ? apiVariables(normalizeVariables(inputs.variables)) : undefined,
          })
          .catch((err) =>
            recoverLostCreate(
              err,
              async () => {
                if (!organization) throw err;
                return client.workspaces.readByName(organization, String(inputs.name));
              },
              started,
            ),
          )
          .catch((err) => {
            // Acknowledged but unreadable, without an id to read it back by: the name finds it.
            if (!(err instanceof UnreadableCreateError) || err.createdId || !organization) throw err;
            return client.workspaces.readByName(organization, String(inputs.name)).catch(() => Promise.reject(err));
          });
        return {
          id: ws.id,
          outs: outputsOf(ws, inputs, {
            moduleVersion: stated(ws) ?? pin ?? inputs.moduleVersion ?? null,
            organization,
          }),
        };
      },

      async read(id, props) {
        const client = getClient();
        const record = {
          label: workspaceLabel(id, props.name),
          organization: props.organization,
          kind: "workspace" as const,
        };
        const ws = await unlessGone(
          client,
          record,
          "refresh",
          () => readWorkspaceShared(client, id, props.organization),
          () => undefined,
        );
        if (!ws) return {};
        const stamped = ws.attributes["no-code-module-id"];
        const moduleId = props.noCodeModuleId ?? (typeof stamped === "string" ? stamped : undefined);
        // One request when the service states the version; the module's pin otherwise.
        const { pin, organization } = moduleId && stated(ws) === undefined ? await modulePin(client, moduleId) : {};
        const inputs = { ...props, noCodeModuleId: moduleId, variables: recordedVariables(props) };
        return {
          id: ws.id,
          props: outputsOf(ws, inputs, {
            moduleVersion: versionOf(ws, pin, props.moduleVersion),
            lastUpgrade: props.lastUpgrade,
            organization,
          }),
        };
      },

      async update(id, olds, news) {
        const client = getClient();
        const { changed } = diffFields(olds, news, FIELDS);
        const set = new Set(changed);
        const moduleId = String(news.noCodeModuleId);
        let lastUpgrade = olds.lastUpgrade ?? null;
        let moduleVersion: string | null = olds.moduleVersion ?? null;

        if (set.has("moduleVersion") || set.has("variables")) {
          const { pin } = await modulePin(client, moduleId);
          if (news.moduleVersion !== undefined && pin !== undefined && pin !== news.moduleVersion) {
            throw new ProviderError(
              `cannot upgrade workspace ${id} to ${news.moduleVersion}: no-code module ${moduleId} provisions version ${pin}. ` +
                `Set the module's versionPin to ${news.moduleVersion} first.`,
            );
          }
          lastUpgrade = await upgrade(client, moduleId, id, news);
          moduleVersion = pin ?? news.moduleVersion ?? null;
        }

        const patch: Props = {};
        for (const k of SETTINGS)
          if (set.has(k) && news[k] !== undefined) patch[k === "project" ? "projectId" : k] = news[k];
        const record = {
          label: workspaceLabel(id, olds.name),
          organization: olds.organization,
          kind: "workspace" as const,
        };
        const ws = Object.keys(patch).length
          ? await client.workspaces
              .update(id, patch)
              .catch(async (err) => Promise.reject(await refusedUpdate(client, record, id, err)))
          : await client.workspaces.read(id);
        return {
          outs: outputsOf(ws, news, {
            moduleVersion: stated(ws) ?? moduleVersion,
            lastUpgrade,
            organization: olds.organization,
          }),
        };
      },

      async delete(id, props) {
        const client = getClient();
        // Checked new inputs for this record mean a replacement (a destroy or a removal is never checked).
        const key = recordKey(props);
        const news = key === undefined ? undefined : replacementInputs.get(key);
        if (key !== undefined) replacementInputs.delete(key);
        if (news) await refuseReplacementThatCannotFinish(client, id, props, news);
        await deleteWorkspace(client, id, {
          force: Boolean(props.forceDelete),
          name: props.name,
          organization: props.organization,
        });
      },

      inputShape(name, value, outputs) {
        // Sensitive values are kept apart (a secret output); the input holds them in place.
        return name === "variables" ? recordedVariables(outputs) : value;
      },
    },
    "no-code workspace",
  );
