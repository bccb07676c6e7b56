import type { PolicyConfigSchema, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { EXECUTION_MODES, workspaceSettingsProblems } from "pulumi-workspaces/api";
import { declaredBy, settingsInEffect } from "./settingsInEffect";
import { tagsInEffect } from "./tags";
import {
  NoCodeWorkspace,
  UNKNOWN,
  Workspace,
  WorkspaceSettings,
  WorkspaceTags,
  configOf,
  hasUnknown,
  isAbsent,
  isGiven,
  isOfType,
  knownProps,
  recordInputsOf,
  requireType,
  show,
  subject,
  validateKnownProps,
  workspaceKinds,
  type Props,
  type StackRule,
} from "./common";

// Workspaces created from a no-code module run remotely or on an agent; `local` is not accepted.
const NO_CODE_EXECUTION_MODES = ["remote", "agent"] as const;

/**
 * The mode a workspace will run in: its `executionMode`, else what the deprecated `operations`
 * means, else `remote` for a no-code workspace (the spec's default there). Undefined when the
 * organization's default decides; UNKNOWN when the engine does not know yet.
 */
export function effectiveExecutionMode(
  props: Props,
  args: Pick<ResourceValidationArgs, "type">,
): string | undefined | typeof UNKNOWN {
  const mode = props.executionMode;
  if (mode === UNKNOWN || typeof mode === "string") return mode;
  if (isOfType(args, NoCodeWorkspace)) return "remote";
  if (props.operations === UNKNOWN) return UNKNOWN;
  if (props.operations === true) return "remote";
  if (props.operations === false) return "local";
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The spec's own rules
// ---------------------------------------------------------------------------------------------

// The workspace inputs that take part in the service's execution-mode rules, and their wire names.
const MODE_INPUTS = {
  executionMode: "execution-mode",
  agentPoolId: "agent-pool-id",
  operations: "operations",
  settingOverwrites: "setting-overwrites",
} as const;
type ModeInput = keyof typeof MODE_INPUTS;

/** What to do about a problem the service's rules report at each input. */
const MODE_FIXES: Record<ModeInput, (detail: string) => string> = {
  executionMode: () =>
    "set executionMode, or set settingOverwrites.executionMode false to follow the organization default",
  agentPoolId: (detail) =>
    detail.includes("required")
      ? 'set agentPoolId to the agent pool (apool-...) that runs it, or use executionMode "remote"'
      : detail.includes("operations")
        ? 'remove agentPoolId, or replace operations with executionMode "agent" to run on that pool'
        : 'remove agentPoolId, or set executionMode "agent" to run on that pool',
  operations: () => "remove operations (deprecated); executionMode alone decides",
  settingOverwrites: () => "correct settingOverwrites",
};

/**
 * A Workspace's execution-mode settings judged by the package's own statement of the spec's
 * rules (`workspaceSettingsProblems`, shared with the server and the provider's check), so the
 * pack never disagrees with what the service accepts.
 */
function workspaceModeFindings(props: Props, partial: boolean): { input: ModeInput; detail: string }[] {
  const inputs = Object.keys(MODE_INPUTS) as ModeInput[];
  // One unknown of the group can change every verdict about the others.
  if (inputs.some((k) => props[k] === UNKNOWN || hasUnknown(props[k]))) return [];
  const attributes: Record<string, unknown> = {};
  for (const k of inputs) {
    const value = props[k];
    if (value === undefined || value === null) continue;
    if (k === "settingOverwrites") {
      const so = value as Record<string, unknown>;
      attributes[MODE_INPUTS[k]] = { "execution-mode": so.executionMode, "agent-pool": so.agentPool };
    } else {
      attributes[MODE_INPUTS[k]] = value;
    }
  }
  const findings: { input: ModeInput; detail: string }[] = [];
  for (const problem of partial ? certainProblems(attributes) : workspaceSettingsProblems(attributes)) {
    const wire = problem.pointer.replace(/^\/data\/attributes\//, "").split("/")[0];
    const input = inputs.find((k) => MODE_INPUTS[k] === wire);
    if (input !== undefined) findings.push({ input, detail: problem.detail });
  }
  return findings;
}

/**
 * A WorkspaceSettings sends only what it declares, onto a workspace whose current mode and pool
 * the preview does not know: the problems the service would find whatever the workspace runs on
 * now (on a pool, or remotely without one).
 */
function certainProblems(attributes: Record<string, unknown>): ReturnType<typeof workspaceSettingsProblems> {
  const key = (p: { pointer: string; detail: string }) => `${p.pointer} ${p.detail}`;
  const onPool = workspaceSettingsProblems(attributes, { "execution-mode": "agent", "agent-pool-id": "apool-current" });
  const remote = new Set(workspaceSettingsProblems(attributes, { "execution-mode": "remote" }).map(key));
  return onPool.filter((p) => remote.has(key(p)));
}

export const executionModeValid: ResourceValidationPolicy = {
  name: "workspace-execution-mode-valid",
  description:
    "executionMode is one the service accepts; `agent` comes with agentPoolId and `remote`/`local` without one; the deprecated operations is not combined with executionMode or an agent pool. A WorkspaceSettings is judged on what it declares, whatever the workspace runs on now.",
  enforcementLevel: "mandatory",
  configSchema: { properties: {} },
  validateResource: validateKnownProps([...workspaceKinds, WorkspaceSettings], (props, args, reportViolation) => {
    const who = subject(args);
    const noCode = isOfType(args, NoCodeWorkspace);
    const accepted: readonly string[] = noCode ? NO_CODE_EXECUTION_MODES : EXECUTION_MODES;
    const mode = props.executionMode;
    if (typeof mode === "string" && !accepted.includes(mode)) {
      reportViolation(
        `${who}: executionMode ${show(mode)} is not accepted${noCode ? " for a workspace created from a no-code module" : ""}. ` +
          `Fix: use one of ${accepted.map(show).join(", ")}.`,
      );
      return;
    }

    if (!noCode) {
      for (const { input, detail } of workspaceModeFindings(props, isOfType(args, WorkspaceSettings))) {
        const value = isAbsent(props[input]) ? "is not set" : show(props[input]);
        reportViolation(`${who}: ${input} ${value} (${detail}). Fix: ${MODE_FIXES[input](detail)}.`);
      }
      return;
    }

    // No-code workspaces (spec 4.15): `remote` when not given; a pool only with `agent`.
    const pool = props.agentPoolId;
    if (mode === UNKNOWN || pool === UNKNOWN) return;
    const effective = typeof mode === "string" ? mode : "remote";
    if (effective === "agent" && isAbsent(pool)) {
      reportViolation(
        `${who}: agentPoolId is not set (it is required when executionMode is "agent"). Fix: ${MODE_FIXES.agentPoolId("required")}.`,
      );
    }
    if (effective !== "agent" && isGiven(pool)) {
      reportViolation(
        `${who}: agentPoolId ${show(pool)} (it must not be given when executionMode is "remote"${isAbsent(mode) ? ", the default" : ""}). ` +
          `Fix: ${MODE_FIXES.agentPoolId("")}.`,
      );
    }
  }),
};

// ---------------------------------------------------------------------------------------------
// Deprecated `operations`
// ---------------------------------------------------------------------------------------------

function modeForOperations(operations: boolean): string {
  return operations ? "remote" : "local";
}

export const operationsDeprecated: ResourceValidationPolicy = {
  name: "workspace-operations-deprecated",
  description:
    "The deprecated operations flag is replaced by executionMode (true is `remote`, false is `local`). With enforcementLevel `remediate` the replacement is made when executionMode is not also given.",
  enforcementLevel: "advisory",
  configSchema: { properties: {} },
  remediationSteps: 'Remove operations and set executionMode: true becomes "remote", false becomes "local".',
  validateResource: validateKnownProps([Workspace], (props, args, reportViolation) => {
    const operations = props.operations;
    if (typeof operations !== "boolean") return;
    reportViolation(
      `${subject(args)}: operations ${show(operations)} is deprecated. ` +
        `Fix: remove operations${isGiven(props.executionMode) ? "" : ` and set executionMode ${show(modeForOperations(operations))}`}.`,
    );
  }),
  remediateResource: (args) => {
    requireType(args, [Workspace]);
    const known = knownProps(args.props);
    // With executionMode also given the two may disagree, and which one was meant is not ours to guess.
    if (typeof known.operations !== "boolean" || !isAbsent(known.executionMode)) return undefined;
    const props = args.props as Record<string, unknown>;
    props.executionMode = modeForOperations(known.operations);
    delete props.operations;
    return props;
  },
};

// ---------------------------------------------------------------------------------------------
// Organisation conventions
// ---------------------------------------------------------------------------------------------

const allowedModesSchema: PolicyConfigSchema = {
  properties: {
    allowedModes: {
      type: "array",
      items: { type: "string", enum: [...EXECUTION_MODES] },
      uniqueItems: true,
      default: [...EXECUTION_MODES],
      description: "Execution modes workspaces may use.",
    },
  },
};

export const executionModeAllowed: ResourceValidationPolicy = {
  name: "workspace-execution-mode-allowed",
  description:
    "Workspaces use one of the execution modes the organization allows (all three by default), declared on the workspace or by a WorkspaceSettings.",
  enforcementLevel: "advisory",
  configSchema: allowedModesSchema,
  validateResource: validateKnownProps([...workspaceKinds, WorkspaceSettings], (props, args, reportViolation) => {
    const { allowedModes } = configOf<{ allowedModes: string[] }>(allowedModesSchema, args);
    const mode = effectiveExecutionMode(props, args);
    if (typeof mode !== "string" || allowedModes.includes(mode)) return;
    const how =
      typeof props.executionMode === "string"
        ? "executionMode is"
        : props.operations !== undefined
          ? "operations (deprecated) means"
          : "the default executionMode is";
    reportViolation(
      `${subject(args)}: ${how} ${show(mode)}, which this organization does not allow. ` +
        `Fix: set executionMode to one of ${allowedModes.map(show).join(", ")}.`,
    );
  }),
};

/**
 * `key=value` matches a key-value tag (`key=*` any value of that key); a bare word matches a flat
 * tag name, without regard to case. UNKNOWN when the tags that would decide are not known yet.
 */
function matchesSelector(
  tags: { tags: Record<string, string> | typeof UNKNOWN; tagNames: string[] | typeof UNKNOWN },
  selector: string,
): boolean | typeof UNKNOWN {
  const eq = selector.indexOf("=");
  if (eq >= 0) {
    if (tags.tags === UNKNOWN) return UNKNOWN;
    const key = selector.slice(0, eq).trim();
    const value = selector.slice(eq + 1).trim();
    return key in tags.tags && (value === "*" || tags.tags[key] === value);
  }
  if (tags.tagNames === UNKNOWN) return UNKNOWN;
  return tags.tagNames.includes(selector.trim().toLowerCase());
}

const selectorSettingsSchema: PolicyConfigSchema = {
  properties: {
    selectors: {
      type: "array",
      items: { type: "string", minLength: 1 },
      default: ["env=prod"],
      description:
        "Workspaces this rule applies to: `key=value` matches a key-value tag (`key=*` any value), a bare name matches a flat tag. Any match selects the workspace.",
    },
    requiredExecutionMode: {
      type: "string",
      enum: [...EXECUTION_MODES],
      description: "Execution mode selected workspaces must set explicitly (no requirement when omitted).",
    },
    forbidAutoApply: {
      type: "boolean",
      default: true,
      description: "Selected workspaces must not set autoApply or autoApplyRunTrigger.",
    },
  },
};

export const tagSelectorSettings: StackRule = {
  name: "workspace-tag-selector-settings",
  description:
    "Workspaces selected by tag (env=prod by default; their own tags or those a WorkspaceTags adds) use the required execution mode and do not apply automatically.",
  enforcementLevel: "advisory",
  configSchema: selectorSettingsSchema,
  validateResource: recordInputsOf([Workspace, NoCodeWorkspace, WorkspaceTags, WorkspaceSettings]),
  validateStack: (args, reportViolation) => {
    const config = configOf<{ selectors: string[]; requiredExecutionMode?: string; forbidAutoApply: boolean }>(
      selectorSettingsSchema,
      args,
    );
    const settings = settingsInEffect(args.resources).workspaces;
    for (const [urn, tags] of tagsInEffect(args.resources)) {
      const selector = config.selectors.find((s) => matchesSelector(tags, s) === true);
      if (selector === undefined) continue;
      const resource = tags.resource;
      const entry = settings.get(urn)!;
      const props = entry.props;
      const who = `${subject(resource)} (selected by ${show(selector)})`;
      // A setting a WorkspaceSettings of the stack declares is reported on it, and named.
      const at = (property: string) => {
        const by = declaredBy(entry, property);
        return by === resource
          ? { urn: by.urn, note: "", on: "" }
          : { urn: by.urn, note: ` (declared by ${subject(by)})`, on: ` on ${subject(by)}` };
      };

      const required = config.requiredExecutionMode;
      if (required !== undefined) {
        const mode = props.executionMode;
        if (typeof mode === "string" && mode !== required) {
          const where = at("executionMode");
          reportViolation(
            `${who}: executionMode is ${show(mode)}${where.note}, but selected workspaces run in ${show(required)}. Fix: set executionMode ${show(required)}${where.on}.`,
            where.urn,
          );
        } else if (isAbsent(mode) && !(isOfType(resource, NoCodeWorkspace) && required === "remote")) {
          reportViolation(
            `${who}: executionMode is not set, so ${isOfType(resource, NoCodeWorkspace) ? "it runs remotely" : "the organization default applies"}, ` +
              `but selected workspaces run in ${show(required)}. Fix: set executionMode ${show(required)}.`,
            urn,
          );
        }
      }
      if (config.forbidAutoApply) {
        for (const property of ["autoApply", "autoApplyRunTrigger"]) {
          if (props[property] === true) {
            const where = at(property);
            reportViolation(
              `${who}: ${property} is true${where.note}, so runs apply without review. Fix: remove ${property} or set it false${where.on}.`,
              where.urn,
            );
          }
        }
      }
    }
  },
};
