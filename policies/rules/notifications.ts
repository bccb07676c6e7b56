import type { PolicyConfigSchema, PolicyResource } from "@pulumi/policy";
import {
  NotificationConfiguration,
  RunTrigger,
  Workspace,
  configOf,
  declaredProps,
  isOfType,
  recordInputsOf,
  show,
  str,
  strings,
  stringMap,
  subject,
  workspaceKey,
  workspaceRef,
  type StackRule,
} from "./common";

/** The trigger a production workspace's notification must deliver: a failed run. */
const FAILED_RUN = "run:errored";

/** The config that says which tags make a workspace a production one, shared by the rules about production workspaces. */
export const productionTagsProperty: PolicyConfigSchema["properties"][string] = {
  type: "array",
  items: { type: "string", minLength: 1 },
  default: ["production"],
  description:
    'What makes a workspace a production one: flat tags (`production`, compared without regard to case) and key-value tags written `key=value` (`env=production`); a workspace carrying any one of them is production. Default ["production"].',
};

const productionSchema: PolicyConfigSchema = { properties: { productionTags: productionTagsProperty } };

/** The first of the configured production tags that a workspace's tags carry, if any. */
export function productionTagOf(
  props: Readonly<Record<string, unknown>>,
  productionTags: readonly string[],
): string | undefined {
  const flat = new Set((strings(props.tagNames) ?? []).map((t) => t.toLowerCase()));
  const kv = stringMap(props.tags) ?? {};
  return productionTags.find((t) => {
    const at = t.indexOf("=");
    return at < 0 ? flat.has(t.toLowerCase()) : kv[t.slice(0, at)] === t.slice(at + 1);
  });
}

/** Whether a workspace's declared tags carry one of the configured production tags. */
function isProduction(props: Readonly<Record<string, unknown>>, productionTags: string[]): boolean {
  return productionTagOf(props, productionTags) !== undefined;
}

export const productionNotified: StackRule = {
  name: "production-notified",
  description:
    "Every workspace tagged production has, in the stack, an enabled NotificationConfiguration with the `run:errored` trigger, so that someone hears of a failed run.",
  enforcementLevel: "advisory",
  configSchema: productionSchema,
  remediationSteps:
    'Declare a NotificationConfiguration for the workspace with triggers including "run:errored" (and enabled left true).',
  validateResource: recordInputsOf([Workspace, NotificationConfiguration]),
  validateStack: (args, reportViolation) => {
    const { productionTags } = configOf<{ productionTags: string[] }>(productionSchema, args);
    const notified = new Set<string>();
    for (const r of args.resources) {
      if (!isOfType(r, NotificationConfiguration)) continue;
      const props = declaredProps(r);
      if (props.enabled === false || !(strings(props.triggers) ?? []).includes(FAILED_RUN)) continue;
      const target = workspaceRef(r, "workspaceId", props);
      if (target) notified.add(target.key);
    }
    for (const r of args.resources) {
      if (!isOfType(r, Workspace) || !isProduction(declaredProps(r), productionTags)) continue;
      // A workspace is known by its resource, and by its id once the outputs have it.
      const id = str(r.props?.id);
      if (notified.has(workspaceKey(r)) || (id !== undefined && notified.has(`id:${id}`))) continue;
      reportViolation(
        `${subject(r)} is tagged production and no enabled NotificationConfiguration of the stack delivers its failed runs (${show(FAILED_RUN)}). ` +
          `Fix: declare a NotificationConfiguration with workspaceId: ${r.name}.id and triggers including ${show(FAILED_RUN)}.`,
        r.urn,
      );
    }
  },
};

const withinProjectSchema: PolicyConfigSchema = {
  properties: {
    projects: {
      type: "array",
      items: { type: "string", minLength: 1 },
      default: [],
      description:
        "Projects (`prj-...`) whose workspaces may be triggered only from a workspace of the same project. Default [] (every project).",
    },
  },
};

/** The project a trigger's workspace is declared in, where the stack declares the workspace and its project. */
function projectOf(trigger: PolicyResource, property: string): { label: string; project?: string } | undefined {
  const ref = workspaceRef(trigger, property, declaredProps(trigger));
  if (!ref) return undefined;
  const project = ref.resource ? str(declaredProps(ref.resource).project) : undefined;
  return { label: ref.label, project };
}

export const runTriggerWithinProject: StackRule = {
  name: "run-trigger-within-project",
  description:
    "A RunTrigger joins two workspaces of one project: a run in one project never queues runs in another. Judged where the stack declares both workspaces with their project.",
  enforcementLevel: "advisory",
  configSchema: withinProjectSchema,
  remediationSteps:
    "Trigger the workspace from a workspace of its own project, or move one of the two workspaces so that both are in one project.",
  validateResource: recordInputsOf([Workspace, RunTrigger]),
  validateStack: (args, reportViolation) => {
    const { projects } = configOf<{ projects: string[] }>(withinProjectSchema, args);
    for (const r of args.resources) {
      if (!isOfType(r, RunTrigger)) continue;
      const target = projectOf(r, "workspaceId");
      const source = projectOf(r, "sourceWorkspaceId");
      if (!target?.project || !source?.project || target.project === source.project) continue;
      if (projects.length > 0 && !projects.includes(target.project)) continue;
      reportViolation(
        `${subject(r)} makes runs of ${source.label} (project ${show(source.project)}) queue runs of ${target.label} (project ${show(target.project)}); ` +
          "run triggers stay within one project. Fix: trigger the workspace from one of its own project.",
        r.urn,
      );
    }
  },
};
