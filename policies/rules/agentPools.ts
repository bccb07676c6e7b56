import type { PolicyResource, ResourceValidationPolicy } from "@pulumi/policy";
import {
  AgentPool,
  AgentToken,
  UNKNOWN,
  WorkspaceSettings,
  WorkspaceTags,
  allowanceSchema,
  configOf,
  declaredProps,
  exemptByName,
  isAbsent,
  isGiven,
  isOfType,
  recordInputsOf,
  show,
  str,
  stringMap,
  strings,
  subject,
  validateKnownProps,
  workspaceKinds,
  workspaceRef,
  type StackRule,
} from "./common";
import { effectiveExecutionMode } from "./executionMode";
import { productionTagOf } from "./notifications";
import { productionReason, productionSchema, type ProductionConfig } from "./production";
import { declaredBy, settingsInEffect, type SettingsInEffect } from "./settingsInEffect";
import { tagsInEffect } from "./tags";

// ---------------------------------------------------------------------------------------------
// Production workspaces run on an agent pool (stack): the mode and the pool may be declared on
// the workspace or on a WorkspaceSettings for it, and its tags on a WorkspaceTags.
// ---------------------------------------------------------------------------------------------

/** What is wrong with a production workspace's execution settings in effect, or undefined when they run it on a pool. */
function offPool(entry: SettingsInEffect): { problem: string; at: PolicyResource } | undefined {
  const mode = effectiveExecutionMode(entry.props, entry.resource);
  if (mode === UNKNOWN) return undefined;
  const modeBy = declaredBy(entry, "executionMode");
  const bySettings = modeBy !== entry.resource ? `${subject(modeBy)} sets ` : "";
  if (mode === "agent") {
    const pool = entry.props.agentPoolId;
    if (isGiven(pool) || pool === UNKNOWN) return undefined;
    return { problem: `${bySettings}executionMode "agent" but no agentPoolId is declared`, at: modeBy };
  }
  if (mode === undefined) {
    return { problem: "executionMode is not set, so the organization's default mode decides", at: entry.resource };
  }
  const how = bySettings
    ? `${bySettings}executionMode ${show(mode)}`
    : typeof entry.props.executionMode === "string"
      ? `executionMode is ${show(mode)}`
      : isAbsent(entry.props.operations)
        ? `executionMode is ${show(mode)} (the default)`
        : `operations (deprecated) means executionMode ${show(mode)}`;
  return { problem: how, at: modeBy };
}

const FIX = 'Fix: set executionMode "agent" and agentPoolId to its agent pool (an AgentPool\'s id, or apool-...)';

/** The tags the WorkspaceTags of the stack give the workspace of `key` (an id), which the stack does not declare. */
function taggedElsewhere(resources: readonly PolicyResource[], key: string): { tags: object; tagNames: string[] } {
  const out = { tags: {}, tagNames: [] as string[] };
  for (const r of resources) {
    if (!isOfType(r, WorkspaceTags)) continue;
    const props = declaredProps(r);
    if (workspaceRef(r, "workspaceId", props)?.key !== key) continue;
    out.tags = { ...out.tags, ...stringMap(props.tags) };
    out.tagNames.push(...(strings(props.tagNames) ?? []));
  }
  return out;
}

export const productionAgentPool: StackRule = {
  name: "production-agent-pool",
  description:
    "Every production workspace (by tag, name or project) runs on an agent pool: executionMode `agent` with an agentPoolId, declared on the workspace or on a WorkspaceSettings of the stack for it.",
  // An organisation's convention, not the service's rule.
  enforcementLevel: "advisory",
  configSchema: productionSchema,
  remediationSteps:
    'Set executionMode "agent" and agentPoolId to the agent pool (an AgentPool of the stack, or apool-...) on the workspace or on a WorkspaceSettings for it.',
  validateResource: recordInputsOf([...workspaceKinds, WorkspaceTags, WorkspaceSettings]),
  validateStack: (args, reportViolation) => {
    const config = configOf<ProductionConfig>(productionSchema, args);
    const tags = tagsInEffect(args.resources);
    const { workspaces, elsewhere } = settingsInEffect(args.resources);
    for (const [urn, entry] of workspaces) {
      const reason = productionReason(entry, tags.get(urn), config, productionAgentPool.name);
      if (reason === undefined) continue;
      const found = offPool(entry);
      if (found === undefined) continue;
      const where =
        found.at === entry.resource
          ? `on ${subject(entry.resource)}, or on a WorkspaceSettings for it`
          : `on ${subject(found.at)}`;
      reportViolation(
        `${subject(entry.resource)} is production (${reason}), but ${found.problem}; production workspaces run on an agent pool. ` +
          `${FIX} ${where}.`,
        found.at.urn,
      );
    }
    // A workspace the stack does not declare: a WorkspaceTags of the stack may tag it, and
    // its WorkspaceSettings may declare a mode (an undeclared one is the workspace's own, unknown here).
    for (const settings of elsewhere) {
      const mode = settings.props.executionMode;
      if (typeof mode !== "string" || mode === "agent" || settings.key === undefined) continue;
      const tag = productionTagOf(taggedElsewhere(args.resources, settings.key), config.productionTags);
      if (tag === undefined) continue;
      reportViolation(
        `${subject(settings.resource)}: ${settings.label} is production (tagged ${show(tag)} by a WorkspaceTags of the stack), ` +
          `but it sets executionMode ${show(mode)}; production workspaces run on an agent pool. ${FIX} on ${subject(settings.resource)}.`,
        settings.resource.urn,
      );
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Organization-scoped agent pools
// ---------------------------------------------------------------------------------------------

const organizationScopedSchema = allowanceSchema(
  "allowOrganizationScoped",
  true,
  "Allow agent pools that every workspace of the organization may use. Set it false where the organization says each pool names who may use it.",
  'Names of the agent pools that may be organization-scoped when allowOrganizationScoped is false, for example ["shared"].',
);

export const agentPoolOrganizationScoped: ResourceValidationPolicy = {
  name: "agent-pool-organization-scoped",
  description:
    "Where the organization says so (allowOrganizationScoped false), an AgentPool is not organization-scoped: it names the workspaces and projects that may use it.",
  enforcementLevel: "advisory",
  configSchema: organizationScopedSchema,
  validateResource: validateKnownProps([AgentPool], (props, args, reportViolation) => {
    const config = configOf<{ allowOrganizationScoped: boolean; allowedNames: string[] }>(
      organizationScopedSchema,
      args,
    );
    if (config.allowOrganizationScoped === true) return;
    const scoped = props.organizationScoped;
    if (scoped === false || scoped === UNKNOWN) return;
    const allowed = strings(config.allowedNames) ?? [];
    const name = str(props.name);
    if (exemptByName(allowed, name)) return;
    const how = isAbsent(scoped)
      ? "organizationScoped is not set, and the service's default is true"
      : `organizationScoped is ${show(scoped)}`;
    reportViolation(
      `${subject(args)}: ${how}, so every workspace of the organization may run on ${name === undefined ? "the pool" : `pool ${show(name)}`}. ` +
        "Fix: set organizationScoped false and name who may use it with AgentPoolAllowedWorkspaces or AgentPoolAllowedProjects" +
        `${allowed.length ? `; the pools allowed to be organization-scoped are ${allowed.map(show).join(", ")}` : ", or list the pool in allowedNames"}.`,
    );
  }),
};

// ---------------------------------------------------------------------------------------------
// Agent tokens that say when they are rotated (optional)
// ---------------------------------------------------------------------------------------------

export const agentTokenRotation: ResourceValidationPolicy = {
  name: "agent-token-rotation",
  description:
    "Optional (disabled unless the pack's config gives it a level): every AgentToken declares `rotation`, the label whose change replaces the token.",
  enforcementLevel: "disabled",
  configSchema: { properties: {} },
  validateResource: validateKnownProps([AgentToken], (props, args, reportViolation) => {
    if (!isAbsent(props.rotation)) return;
    reportViolation(
      `${subject(args)}: rotation is not set, so the token is never replaced and its agents keep it for as long as it exists. ` +
        'Fix: set rotation to a label of its period (for example "2026-12"), and change the label to rotate the token (the preview shows a replacement).',
    );
  }),
};
