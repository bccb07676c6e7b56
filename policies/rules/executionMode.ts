import type { PolicyConfigSchema, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { tagsInEffect } from "./tags";
import {
  NoCodeWorkspace,
  UNKNOWN,
  Workspace,
  WorkspaceTags,
  configOf,
  declaredProps,
  isAbsent,
  isGiven,
  isOfType,
  knownProps,
  recordInputsOf,
  requireType,
  show,
  subject,
  validateKnownProps,
  workspaceClasses,
  type Props,
  type StackRule,
} from "./common";

const EXECUTION_MODES = ["remote", "local", "agent"] as const;
// Workspaces created from a no-code module run remotely or on an agent; `local` is not accepted.
const NO_CODE_EXECUTION_MODES = ["remote", "agent"] as const;

/**
 * The mode a workspace will run in: its `executionMode`, else what the deprecated `operations`
 * means, else `remote` for a no-code workspace (the spec's default there). Undefined when the
 * organization's default decides; UNKNOWN when the engine does not know yet.
 */
export function effectiveExecutionMode(props: Props, args: Pick<ResourceValidationArgs, "type">): string | undefined | typeof UNKNOWN {
  const mode = props.executionMode;
  if (mode === UNKNOWN || typeof mode === "string") return mode;
  if (args.type === NoCodeWorkspace.__pulumiType) return "remote";
  if (props.operations === UNKNOWN) return UNKNOWN;
  if (props.operations === true) return "remote";
  if (props.operations === false) return "local";
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The spec's own rules
// ---------------------------------------------------------------------------------------------

export const executionModeValid: ResourceValidationPolicy = {
  name: "workspace-execution-mode-valid",
  description:
    "executionMode is one the service accepts; `agent` comes with agentPoolId and `remote`/`local` without one; the deprecated operations is not combined with executionMode or an agent pool.",
  enforcementLevel: "mandatory",
  configSchema: { properties: {} },
  validateResource: validateKnownProps(workspaceClasses, (props, args, reportViolation) => {
    const who = subject(args);
    const noCode = args.type === NoCodeWorkspace.__pulumiType;
    const accepted: readonly string[] = noCode ? NO_CODE_EXECUTION_MODES : EXECUTION_MODES;
    const mode = effectiveExecutionMode(props, args);
    const pool = props.agentPoolId;

    if (typeof mode === "string" && !accepted.includes(mode)) {
      reportViolation(
        `${who}: executionMode ${show(mode)} is not accepted${noCode ? " for a workspace created from a no-code module" : ""}. ` +
          `Fix: use one of ${accepted.map(show).join(", ")}.`,
      );
    }
    if (mode === "agent" && isAbsent(pool)) {
      reportViolation(
        `${who}: executionMode "agent" has no agentPoolId. Fix: set agentPoolId to the agent pool (apool-...) that runs it, or use executionMode "remote".`,
      );
    }
    // A mode that only comes from `operations` is reported by the operations checks below.
    const modeIsExplicit = typeof props.executionMode === "string" || noCode;
    if ((mode === "remote" || mode === "local") && isGiven(pool) && modeIsExplicit) {
      reportViolation(
        `${who}: agentPoolId ${show(pool)} is set while executionMode is ${show(mode)}${isAbsent(props.executionMode) ? " (the default)" : ""}. ` +
          `Fix: remove agentPoolId, or set executionMode "agent" to run on that pool.`,
      );
    }
    if (noCode) return;

    if (isGiven(props.operations) && isGiven(props.executionMode)) {
      reportViolation(
        `${who}: operations ${show(props.operations)} is given together with executionMode ${show(props.executionMode)}. ` +
          `Fix: remove operations (deprecated); executionMode alone decides.`,
      );
    }
    if (props.operations === true && isGiven(pool)) {
      reportViolation(
        `${who}: agentPoolId ${show(pool)} is set while operations is true. Fix: remove operations and set executionMode "agent".`,
      );
    }
    const overwrites = props.settingOverwrites;
    if (
      overwrites !== null &&
      typeof overwrites === "object" &&
      (overwrites as Record<string, unknown>).executionMode === true &&
      isAbsent(props.executionMode)
    ) {
      reportViolation(
        `${who}: settingOverwrites.executionMode is true but executionMode is not set. ` +
          `Fix: set executionMode, or set settingOverwrites.executionMode false to follow the organization default.`,
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
  remediationSteps: "Remove operations and set executionMode: true becomes \"remote\", false becomes \"local\".",
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
  description: "Workspaces use one of the execution modes the organization allows (all three by default).",
  enforcementLevel: "advisory",
  configSchema: allowedModesSchema,
  validateResource: validateKnownProps(workspaceClasses, (props, args, reportViolation) => {
    const { allowedModes } = configOf<{ allowedModes: string[] }>(allowedModesSchema, args);
    const mode = effectiveExecutionMode(props, args);
    if (typeof mode !== "string" || allowedModes.includes(mode)) return;
    const how = typeof props.executionMode === "string" ? "executionMode is" : props.operations !== undefined ? "operations (deprecated) means" : "the default executionMode is";
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
export function matchesSelector(
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
  validateResource: recordInputsOf([Workspace, NoCodeWorkspace, WorkspaceTags]),
  validateStack: (args, reportViolation) => {
    const config = configOf<{ selectors: string[]; requiredExecutionMode?: string; forbidAutoApply: boolean }>(
      selectorSettingsSchema,
      args,
    );
    for (const [urn, tags] of tagsInEffect(args.resources)) {
      const selector = config.selectors.find((s) => matchesSelector(tags, s) === true);
      if (selector === undefined) continue;
      const resource = tags.resource;
      const props = declaredProps(resource);
      const who = `${subject(resource)} (selected by ${show(selector)})`;

      const required = config.requiredExecutionMode;
      if (required !== undefined) {
        const mode = props.executionMode;
        if (typeof mode === "string" && mode !== required) {
          reportViolation(
            `${who}: executionMode is ${show(mode)}, but selected workspaces run in ${show(required)}. Fix: set executionMode ${show(required)}.`,
            urn,
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
            reportViolation(`${who}: ${property} is true, so runs apply without review. Fix: remove ${property} or set it false.`, urn);
          }
        }
      }
    }
  },
};
