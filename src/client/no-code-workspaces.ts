/**
 * Workspaces created from a no-code module and their upgrades (spec 2.9, 3, 4.15, 4.16).
 * An upgrade is plan-then-confirm: initiate, poll until the plan settles, confirm,
 * poll until applied. {@link NoCodeUpgrades.waitFor} bounds each poll.
 */
import {
  UPGRADE_FINAL,
  UPGRADE_PLAN_SETTLED,
  workspaceUpgradeConfirmResponseSchema,
  workspaceUpgradeDocumentSchema,
  type WorkspaceUpgradeResource,
} from "../api/no-code";
import { VARIABLE_CATEGORY_ON_THE_WIRE, type VariableCategory } from "../api/variables";
import { WaitTimeoutError } from "./typed-errors";
import { currentCall, runInCall } from "./call-scope";
import { sleep } from "./limiter";
import { type RequestSpec, type Transport, urlPath } from "./transport";
import { relId } from "./wire";
import { createdWorkspace, type Workspace } from "./workspaces";
import { workspaceRequestBody, type WorkspaceSettings } from "./workspace-shapes";
import type { NoCodeExecutionMode, NoCodeLineName, WorkspaceFieldTable } from "../api/workspace-fields";

/** A variable given to a workspace created from (or upgraded to) a no-code module. */
export interface NoCodeVariable {
  /** Variable name. */
  key: string;
  /** Variable value (for an `engine` variable, as HCL when `hcl` is set). */
  value?: string;
  /** Description, or null. */
  description?: string | null;
  /** `engine` (the engine's own variables) or `env`. */
  category: VariableCategory;
  /** Evaluate the value as HCL; no effect for `env`. */
  hcl?: boolean;
  /** Write-once; the service never shows the value again. */
  sensitive?: boolean;
}

/** The client's names of the settings the field table marks as `NoCodeWorkspace`'s. */
type NoCodeClientName = {
  [K in NoCodeLineName<"setting">]: WorkspaceFieldTable[K] extends { client: infer C extends string } ? C : K;
}[NoCodeLineName<"setting">];

/** What `noCode.createWorkspace` sends: the field table's no-code settings, and the variables. */
export interface NoCodeWorkspaceCreateOptions extends Pick<
  WorkspaceSettings,
  Exclude<NoCodeClientName, "name" | "executionMode"> & keyof WorkspaceSettings
> {
  /** Workspace name, unique in the organization regardless of case. */
  name: string;
  /** Where runs execute: `remote` (default) or `agent` (which needs `agentPoolId`). */
  executionMode?: NoCodeExecutionMode;
  /** Variables the workspace is provisioned with. */
  variables?: NoCodeVariable[];
}

/** What an upgrade of a no-code workspace sends. */
export interface NoCodeUpgradeOptions {
  /** Variables to set with the upgrade. */
  variables?: NoCodeVariable[];
}

/** An upgrade of a no-code workspace to the module's current version and options (a run). */
export interface WorkspaceUpgrade {
  /** The run id of the upgrade. */
  id: string;
  /** Run status (`planning`, `planned`, `applied`, `errored`, ...). */
  status: string;
  /** Address of the upgrade's plan, or null. */
  planUrl: string | null;
  /** The workspace being upgraded, or null when the service does not say. */
  workspaceId: string | null;
  /** Module version the upgrade moves to, when the service says. */
  targetVersion: string | null;
  /** Why the run errored, when it did and the service says. */
  errorMessage: string | null;
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** How long and how often `upgrade.waitFor` polls. */
export interface WaitOptions {
  /** Longest total wait, in ms. Default 300 000. */
  timeoutMs?: number;
  /** Pause between polls, in ms. Default 1 000. */
  intervalMs?: number;
}

/** Variable categories as the hosted service and its official clients spell them (`terraform` for the spec's `engine`). */

function varsBody(vars: NoCodeVariable[]): { data: unknown[] } {
  return {
    data: vars.map((v) => {
      const attributes: Record<string, unknown> = {
        key: v.key,
        category: VARIABLE_CATEGORY_ON_THE_WIRE[v.category] ?? v.category,
      };
      if (v.value !== undefined) attributes.value = v.value;
      if (v.description !== undefined) attributes.description = v.description;
      if (v.hcl !== undefined) attributes.hcl = v.hcl;
      if (v.sensitive !== undefined) attributes.sensitive = v.sensitive;
      return { type: "vars", attributes };
    }),
  };
}

function toUpgrade(r: WorkspaceUpgradeResource): WorkspaceUpgrade {
  return {
    id: r.id,
    status: r.attributes.status,
    planUrl: r.attributes["plan-url"] ?? null,
    workspaceId: relId(r, "workspace"),
    targetVersion: typeof r.attributes["target-version"] === "string" ? r.attributes["target-version"] : null,
    errorMessage: typeof r.attributes["error-message"] === "string" ? r.attributes["error-message"] : null,
    attributes: r.attributes,
  };
}

/** Upgrade calls of no-code workspaces (`client.noCode.upgrade`). */
export class NoCodeUpgrades {
  constructor(private readonly transport: Transport) {}

  /** `POST /no-code-modules/:nc/workspaces/:ws/upgrade`: starts a plan. Not repeated once sent. */
  async initiate(
    noCodeModuleId: string,
    workspaceId: string,
    options: NoCodeUpgradeOptions = {},
  ): Promise<WorkspaceUpgrade> {
    const data: Record<string, unknown> = { type: "workspaces" };
    if (options.variables) data.relationships = { vars: varsBody(options.variables) };
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: urlPath("no-code-modules", noCodeModuleId, "workspaces", workspaceId, "upgrade"),
        body: { data },
        repeat: "once",
      },
      workspaceUpgradeDocumentSchema,
    );
    return toUpgrade(doc.data);
  }

  /** `GET /no-code-modules/:nc/workspaces/:ws/upgrade/:id`. */
  async read(noCodeModuleId: string, workspaceId: string, upgradeId: string): Promise<WorkspaceUpgrade> {
    const doc = await this.transport.requestParsed(
      {
        method: "GET",
        path: urlPath("no-code-modules", noCodeModuleId, "workspaces", workspaceId, "upgrade", upgradeId),
        repeat: "idempotent",
      },
      workspaceUpgradeDocumentSchema,
    );
    return toUpgrade(doc.data);
  }

  /**
   * `POST /no-code-modules/:nc/workspaces/:ws/upgrade/:id`: confirms and applies. Returns
   * the service's completion message (and the run's status when the service adds it).
   */
  async confirm(
    noCodeModuleId: string,
    workspaceId: string,
    upgradeId: string,
  ): Promise<{ message: string | null; status: string | null }> {
    const res = await this.transport.request({
      method: "POST",
      path: urlPath("no-code-modules", noCodeModuleId, "workspaces", workspaceId, "upgrade", upgradeId),
      repeat: "once",
    });
    const parsed = workspaceUpgradeConfirmResponseSchema.safeParse(res.data);
    const body = parsed.success ? (parsed.data as { message?: string; status?: unknown }) : {};
    return { message: body.message ?? null, status: typeof body.status === "string" ? body.status : null };
  }

  /**
   * Polls until the upgrade's status is one of `statuses` (default: the plan has settled
   * or the run ended), or throws {@link WaitTimeoutError} when `timeoutMs` runs out.
   * Each poll is a call of its own, with its own deadline; `timeoutMs` bounds the whole
   * wait, a poll whose answer is still arriving included, and the call's signal
   * (`client.with({ signal })`) ends it.
   */
  async waitFor(
    noCodeModuleId: string,
    workspaceId: string,
    upgradeId: string,
    statuses: readonly string[] = [...UPGRADE_PLAN_SETTLED, ...UPGRADE_FINAL],
    options: WaitOptions = {},
  ): Promise<WorkspaceUpgrade> {
    const timeoutMs = options.timeoutMs ?? 300_000;
    const intervalMs = options.intervalMs ?? 1_000;
    const started = Date.now();
    const call = currentCall()?.options ?? {};
    let last: WorkspaceUpgrade | undefined;
    const timedOut = (elapsed: number, note = "") =>
      new WaitTimeoutError(
        `upgrade ${upgradeId} of workspace ${workspaceId} still "${last?.status ?? "unknown"}" after ${(elapsed / 1000).toFixed(1)}s${note}; expected one of ${statuses.join(", ")}`,
        last?.status,
        elapsed,
      );
    for (;;) {
      // A poll ends when the wait does, however slowly its answer arrives; an aborted
      // signal makes it fail at once with AbortedError.
      const waitOver = new AbortController();
      const timer = setTimeout(() => waitOver.abort(), Math.max(0, timeoutMs - (Date.now() - started)));
      const signal = call.signal ? AbortSignal.any([call.signal, waitOver.signal]) : waitOver.signal;
      try {
        last = await runInCall({ ...call, signal }, () => this.read(noCodeModuleId, workspaceId, upgradeId));
      } catch (err) {
        if (waitOver.signal.aborted && !call.signal?.aborted)
          throw timedOut(Date.now() - started, " (the last poll's answer had not arrived)");
        throw err;
      } finally {
        clearTimeout(timer);
      }
      if (statuses.includes(last.status)) return last;
      const elapsed = Date.now() - started;
      if (elapsed + intervalMs > timeoutMs) throw timedOut(elapsed);
      await sleep(intervalMs, call.signal);
    }
  }
}

/** Calls on workspaces created from no-code modules. */
export class NoCodeWorkspaces {
  /** Upgrades of workspaces created from a module. */
  readonly upgrade: NoCodeUpgrades;

  /** `moduleOrganization` names a module's organization (null when it cannot be told). */
  constructor(
    private readonly transport: Transport,
    private readonly moduleOrganization: (noCodeModuleId: string) => Promise<string | null>,
  ) {
    this.upgrade = new NoCodeUpgrades(transport);
  }

  /** `POST /no-code-modules/:id/workspaces`. A create: never repeated once it reached the service. */
  async create(noCodeModuleId: string, options: NoCodeWorkspaceCreateOptions): Promise<Workspace> {
    const { variables, ...settings } = options;
    // The settings as on any workspace create (one request builder, the field table's names).
    const { data } = workspaceRequestBody(settings) as {
      data: { attributes: Record<string, unknown>; relationships?: Record<string, unknown> };
    };
    // The spec spells this key with an underscore on this endpoint only; go-tfe (and so
    // what the hosted service is tested with) sends the hyphen. Both go out, with one value:
    // a server reads the one it knows and ignores the other.
    if (options.autoApply !== undefined) data.attributes.auto_apply = options.autoApply;
    if (variables) data.relationships = { ...data.relationships, vars: varsBody(variables) };
    const spec: RequestSpec = {
      method: "POST",
      path: urlPath("no-code-modules", noCodeModuleId, "workspaces"),
      body: { data },
      repeat: "once",
      conflict: "create",
    };
    const started = Date.now();
    const res = await this.transport.request(spec);
    // An unreadable answer without an id: the workspace is found by name in the module's organization.
    return createdWorkspace(this.transport, spec, res, started, {
      name: options.name,
      organization: () => this.moduleOrganization(noCodeModuleId),
    });
  }
}
