import type { PolicyResource } from "@pulumi/policy";
import {
  NoCodeModule,
  NoCodeWorkspace,
  RemoteStateConsumers,
  UNKNOWN,
  Workspace,
  WorkspaceSettings,
  WorkspaceTags,
  declaredProps,
  hasUnknown,
  isGiven,
  isOfType,
  recordInputsOf,
  recordedInputsOf,
  show,
  str,
  strings,
  stringMap,
  subject,
  workspaceKinds,
  workspaceKey,
  workspaceRef,
  type Props,
  type StackRule,
} from "./common";

/** The mode WorkspaceTags and RemoteStateConsumers use when `mode` is not given. */
const DEFAULT_OWNERSHIP_MODE = "authoritative";

// ---------------------------------------------------------------------------------------------
// Unique names
// ---------------------------------------------------------------------------------------------

/**
 * The organization a workspace resource lands in: its own `organization`, for a no-code workspace
 * the organization of its NoCodeModule; "" for the provider's configured default organization;
 * undefined when that is not known.
 */
function organizationOf(resource: PolicyResource, props: Props, moduleOrgs: Map<string, unknown>): string | undefined {
  const own = props.organization;
  if (typeof own === "string") return own;
  if (own === UNKNOWN) return undefined;
  if (!isOfType(resource, NoCodeWorkspace)) return "";
  const modules = (resource.propertyDependencies?.noCodeModuleId ?? []).filter((d) => isOfType(d, NoCodeModule));
  if (modules.length !== 1) return undefined;
  const org = moduleOrgs.get(modules[0].urn);
  if (typeof org === "string") return org;
  return org === undefined || org === null ? "" : undefined;
}

export const nameUnique: StackRule = {
  name: "workspace-name-unique",
  description:
    "No two workspaces of the stack share a name in one organization (the service keeps names unique per organization, regardless of case).",
  enforcementLevel: "mandatory",
  configSchema: { properties: {} },
  validateResource: recordInputsOf([Workspace, NoCodeWorkspace, NoCodeModule]),
  validateStack: (args, reportViolation) => {
    const moduleOrgs = new Map<string, unknown>();
    for (const r of args.resources) {
      if (isOfType(r, NoCodeModule)) moduleOrgs.set(r.urn, declaredProps(r).organization);
    }
    const groups = new Map<string, { name: string; org: string; resources: PolicyResource[] }>();
    for (const r of args.resources) {
      if (!isOfType(r, ...workspaceKinds)) continue;
      const props = declaredProps(r);
      const name = str(props.name);
      const org = organizationOf(r, props, moduleOrgs);
      if (name === undefined || org === undefined) continue;
      // The service finds workspaces by name without regard to case, so "App" and "app" clash.
      const key = JSON.stringify([org, name.toLowerCase()]);
      const group = groups.get(key) ?? { name, org, resources: [] };
      group.resources.push(r);
      groups.set(key, group);
    }
    for (const { name, org, resources } of groups.values()) {
      if (resources.length < 2) continue;
      const where = org === "" ? "the default organization" : `organization ${show(org)}`;
      for (const r of resources) {
        const others = resources
          .filter((o) => o !== r)
          .map(subject)
          .join(", ");
        const own = str(declaredProps(r).name) ?? name;
        reportViolation(
          `${subject(r)}: name ${show(own)} in ${where} is also the name of ${others}; workspace names are unique in an organization, regardless of case. ` +
            `Fix: give each workspace its own name.`,
          r.urn,
        );
      }
    }
  },
};

// ---------------------------------------------------------------------------------------------
// One owner for the tags and the consumers of a workspace
// ---------------------------------------------------------------------------------------------

interface Manager {
  resource: PolicyResource;
  authoritative: boolean;
  /** The known names it writes (flat tag names, tag keys, consumer ids). */
  names: Set<string>;
}

const ASPECTS = {
  flat: "the flat tags (tagNames)",
  kv: "the key-value tags (tags)",
  consumers: "the remote state consumers (consumerIds)",
} as const;
type Aspect = keyof typeof ASPECTS;

export const singleOwner: StackRule = {
  name: "workspace-single-owner",
  description:
    "The flat tags, the key-value tags and the remote state consumers of a workspace are each managed by one resource (or only by additive resources that name different items); a WorkspaceSettings that declares remoteStateConsumerIds owns the consumers.",
  enforcementLevel: "mandatory",
  configSchema: { properties: {} },
  remediationSteps:
    'Keep each kind of tag in one resource: on the Workspace, or in one WorkspaceTags. Several WorkspaceTags or RemoteStateConsumers on one workspace must all be mode "additive" and name different items.',
  validateResource: recordInputsOf([
    Workspace,
    NoCodeWorkspace,
    WorkspaceTags,
    RemoteStateConsumers,
    WorkspaceSettings,
  ]),
  validateStack: (args, reportViolation) => {
    const managed = new Map<string, { label: string; aspect: Aspect; managers: Manager[] }>();
    const add = (target: { key: string; label: string }, aspect: Aspect, manager: Manager) => {
      const key = `${target.key} ${aspect}`;
      const entry = managed.get(key) ?? { label: target.label, aspect, managers: [] };
      entry.managers.push(manager);
      managed.set(key, entry);
    };

    for (const r of args.resources) {
      if (isOfType(r, ...workspaceKinds)) {
        // A workspace's outputs carry its tags whether or not the program manages them: only
        // its inputs say whether it owns them.
        const props = recordedInputsOf(r);
        if (props === undefined) continue;
        const target = { key: workspaceKey(r), label: subject(r) };
        if (isGiven(props.tagNames)) {
          add(target, "flat", {
            resource: r,
            authoritative: true,
            names: new Set((strings(props.tagNames) ?? []).map((n) => n.toLowerCase())),
          });
        }
        if (isGiven(props.tags)) {
          add(target, "kv", {
            resource: r,
            authoritative: true,
            names: new Set(Object.keys(stringMap(props.tags) ?? {})),
          });
        }
        continue;
      }
      if (isOfType(r, WorkspaceSettings)) {
        // Its list of consumers is the workspace's whole list: an authoritative owner.
        const props = declaredProps(r);
        const target = workspaceRef(r, "workspaceId", props);
        if (target !== undefined && isGiven(props.remoteStateConsumerIds)) {
          add(target, "consumers", {
            resource: r,
            authoritative: true,
            names: new Set(strings(props.remoteStateConsumerIds) ?? []),
          });
        }
        continue;
      }
      const tagging = isOfType(r, WorkspaceTags);
      if (!tagging && !isOfType(r, RemoteStateConsumers)) continue;
      // Their outputs keep what they manage and null for what they leave alone.
      const props = declaredProps(r);
      const target = workspaceRef(r, "workspaceId", props);
      const mode = props.mode ?? DEFAULT_OWNERSHIP_MODE;
      if (target === undefined || typeof mode !== "string") continue;
      const authoritative = mode !== "additive";
      if (tagging) {
        if (isGiven(props.tagNames)) {
          add(target, "flat", {
            resource: r,
            authoritative,
            names: new Set((strings(props.tagNames) ?? []).map((n) => n.toLowerCase())),
          });
        }
        if (isGiven(props.tags)) {
          add(target, "kv", { resource: r, authoritative, names: new Set(Object.keys(stringMap(props.tags) ?? {})) });
        }
      } else if (isGiven(props.consumerIds)) {
        add(target, "consumers", { resource: r, authoritative, names: new Set(strings(props.consumerIds) ?? []) });
      }
    }

    for (const { label, aspect, managers } of managed.values()) {
      for (let j = 1; j < managers.length; j++) {
        const b = managers[j];
        for (let i = 0; i < j; i++) {
          const a = managers[i];
          const what = ASPECTS[aspect];
          if (a.authoritative || b.authoritative) {
            const owner = a.authoritative ? a : b;
            reportViolation(
              `${subject(b.resource)} and ${subject(a.resource)} both manage ${what} of ${label}; ${subject(owner.resource)} sets them authoritatively, ` +
                `so each removes what the other writes and they never settle. Fix: manage ${what} of ${label} in one resource only.`,
              b.resource.urn,
            );
            continue;
          }
          const overlap = [...b.names].filter((n) => a.names.has(n));
          if (overlap.length === 0) continue;
          reportViolation(
            `${subject(b.resource)}: ${what} ${overlap.map(show).join(", ")} of ${label} are also added by ${subject(a.resource)}; ` +
              `deleting either resource removes them for both. Fix: name each item in one resource only.`,
            b.resource.urn,
          );
        }
      }
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Remote state consumers the service refuses
// ---------------------------------------------------------------------------------------------

export const remoteStateConsumersValid: StackRule = {
  name: "remote-state-consumers-valid",
  description:
    "A RemoteStateConsumers does not name its own workspace as a consumer, and targets a workspace whose globalRemoteState is false (the service refuses both).",
  enforcementLevel: "mandatory",
  configSchema: { properties: {} },
  validateResource: recordInputsOf([Workspace, RemoteStateConsumers]),
  validateStack: (args, reportViolation) => {
    for (const r of args.resources) {
      if (!isOfType(r, RemoteStateConsumers)) continue;
      const props = declaredProps(r);
      const target = workspaceRef(r, "workspaceId", props);
      if (target === undefined) continue;
      const who = subject(r);

      const targetId = str(props.workspaceId);
      const consumerIds = strings(props.consumerIds) ?? [];
      const namesItselfById = targetId !== undefined && consumerIds.includes(targetId);
      // In a preview the ids of new workspaces are unknown; consumerIds computed from the very
      // workspace it targets can only be that workspace's id.
      const namesItselfByDependency =
        !namesItselfById &&
        target.resource !== undefined &&
        (props.workspaceId === UNKNOWN || hasUnknown(props.consumerIds)) &&
        (r.propertyDependencies?.consumerIds ?? []).some((d) => d.urn === target.resource?.urn);
      if (namesItselfById || namesItselfByDependency) {
        const what = namesItselfById ? `has ${show(targetId)}, the id of` : `is computed from ${target.label},`;
        const fix = namesItselfById ? show(targetId) : `the id of ${target.label}`;
        reportViolation(
          `${who}: consumerIds ${what} the workspace whose consumers it manages; a workspace cannot be its own consumer. ` +
            `Fix: remove ${fix} from consumerIds.`,
          r.urn,
        );
      }

      if (target.resource !== undefined && isOfType(target.resource, Workspace)) {
        if (declaredProps(target.resource).globalRemoteState === true) {
          reportViolation(
            `${who}: ${target.label} has globalRemoteState true, and the service changes consumers only of workspaces whose global remote state is off. ` +
              `Fix: set globalRemoteState false on ${target.label}, or delete ${who}.`,
            r.urn,
          );
        }
      }
    }
  },
};
