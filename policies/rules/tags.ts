import type { PolicyConfigSchema, PolicyResource, ResourceValidationPolicy } from "@pulumi/policy";
import {
  NoCodeWorkspace,
  UNKNOWN,
  Workspace,
  WorkspaceTags,
  configOf,
  declaredProps,
  hasUnknown,
  isOfType,
  knownProps,
  pattern,
  recordInputsOf,
  requireType,
  show,
  stringMap,
  strings,
  subject,
  taggingKinds,
  validateKnownProps,
  workspaceKinds,
  workspaceRef,
  type Props,
  type StackRule,
} from "./common";

// Workspace, WorkspaceTags and NoCodeWorkspace all spell their tags the same way:
// `tags` (key-value tags, a map) and `tagNames` (flat tags, a list).

// ---------------------------------------------------------------------------------------------
// Required keys (stack): a workspace's key-value tags may come from the workspace itself and
// from WorkspaceTags resources that target it, so only the whole stack can tell what it ends with.
// ---------------------------------------------------------------------------------------------

/** The tags a workspace of the stack ends up with, or UNKNOWN while any part is not known. */
export interface TagsInEffect {
  resource: PolicyResource;
  tags: Record<string, string> | typeof UNKNOWN;
  tagNames: string[] | typeof UNKNOWN;
}

/**
 * For every workspace resource (by URN): its declared tags, those WorkspaceTags resources of the
 * stack add to it, and, once deployed, those its outputs report (project-inherited ones included).
 */
export function tagsInEffect(resources: readonly PolicyResource[]): Map<string, TagsInEffect> {
  const out = new Map<string, TagsInEffect>();
  for (const r of resources) {
    if (isOfType(r, ...workspaceKinds)) out.set(r.urn, { resource: r, tags: {}, tagNames: [] });
  }
  const add = (urn: string, tags: unknown, tagNames: unknown) => {
    const entry = out.get(urn);
    if (entry === undefined) return;
    if (tags !== undefined && tags !== null) {
      const map = stringMap(tags);
      entry.tags =
        entry.tags === UNKNOWN || map === undefined || hasUnknown(tags) ? UNKNOWN : { ...entry.tags, ...map };
    }
    if (tagNames !== undefined && tagNames !== null) {
      const names = strings(tagNames);
      entry.tagNames =
        entry.tagNames === UNKNOWN || names === undefined || hasUnknown(tagNames)
          ? UNKNOWN
          : [...new Set([...entry.tagNames, ...names.map((n) => n.toLowerCase())])];
    }
  };
  for (const r of resources) {
    if (isOfType(r, ...workspaceKinds)) {
      const declared = declaredProps(r);
      const outputs = knownProps(r.props);
      add(r.urn, declared.tags, declared.tagNames);
      add(r.urn, outputs.tags, outputs.tagNames);
      add(r.urn, outputs.effectiveTags, undefined);
    } else if (isOfType(r, WorkspaceTags)) {
      const declared = declaredProps(r);
      const target = workspaceRef(r, "workspaceId", declared);
      if (target?.resource !== undefined) add(target.resource.urn, declared.tags, declared.tagNames);
    }
  }
  return out;
}

const requiredTagsSchema: PolicyConfigSchema = {
  properties: {
    requiredKeys: {
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
      default: [],
      description: 'Key-value tag keys every workspace must carry, for example ["owner", "env"].',
    },
  },
};

export const requiredTags: StackRule = {
  name: "workspace-required-tags",
  description:
    "Every workspace carries the configured key-value tag keys: set on the workspace, added by a WorkspaceTags of the same stack, or (once deployed) in effect through its project.",
  enforcementLevel: "advisory",
  configSchema: requiredTagsSchema,
  remediationSteps:
    "Add the missing keys to the workspace's `tags`, or to a WorkspaceTags resource whose workspaceId is that workspace.",
  validateResource: recordInputsOf([Workspace, NoCodeWorkspace, WorkspaceTags]),
  validateStack: (args, reportViolation) => {
    const { requiredKeys } = configOf<{ requiredKeys: string[] }>(requiredTagsSchema, args);
    if (requiredKeys.length === 0) return;

    for (const [urn, { resource, tags }] of tagsInEffect(args.resources)) {
      if (tags === UNKNOWN) continue;
      const missing = requiredKeys.filter((k) => !(k in tags));
      if (missing.length === 0) continue;
      reportViolation(
        `${subject(resource)}: tags ${show(tags)} lack the required key${missing.length > 1 ? "s" : ""} ${missing.map(show).join(", ")}. ` +
          `Fix: add ${missing.map((k) => `${k}: "<value>"`).join(", ")} to its tags or to a WorkspaceTags resource that targets it.`,
        urn,
      );
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Allowed values per key
// ---------------------------------------------------------------------------------------------

const allowedValuesSchema: PolicyConfigSchema = {
  properties: {
    allowedValues: {
      type: "object",
      additionalProperties: { type: "array", items: { type: "string" } },
      default: {},
      description: 'For each tag key, the values it may take, for example {"env": ["dev", "staging", "prod"]}.',
    },
  },
};

export const tagAllowedValues: ResourceValidationPolicy = {
  name: "workspace-tag-allowed-values",
  description: "Key-value tags with a configured key take one of that key's allowed values.",
  enforcementLevel: "advisory",
  configSchema: allowedValuesSchema,
  validateResource: validateKnownProps(taggingKinds, (props, args, reportViolation) => {
    const { allowedValues } = configOf<{ allowedValues: Record<string, string[]> }>(allowedValuesSchema, args);
    const tags = stringMap(props.tags) ?? {};
    for (const [key, value] of Object.entries(tags)) {
      const allowed = allowedValues[key];
      if (allowed === undefined || allowed.includes(value)) continue;
      reportViolation(
        `${subject(args)}: tags[${show(key)}] is ${show(value)}, not one of the allowed values ${allowed.map(show).join(", ")}. ` +
          `Fix: set tags[${show(key)}] to one of them, or add ${show(value)} to allowedValues.${key} in the policy config.`,
      );
    }
  }),
};

// ---------------------------------------------------------------------------------------------
// Format of keys, values and flat names
// ---------------------------------------------------------------------------------------------

const tagFormatSchema: PolicyConfigSchema = {
  properties: {
    keyPattern: {
      type: "string",
      default: "^[a-z0-9][a-z0-9._:/-]*$",
      description: "Regular expression every key-value tag key matches.",
    },
    valuePattern: {
      type: "string",
      default: "^[a-z0-9._:/-]*$",
      description: "Regular expression every key-value tag value matches.",
    },
    flatTagPattern: {
      type: "string",
      default: "^[a-z0-9][a-z0-9_:-]*$",
      description:
        "Regular expression every flat tag name matches, tested on the lower-case name (case is the business of workspace-flat-tag-lowercase).",
    },
  },
};

/** A nearby value that matches, offered in the fix when there is one. */
function suggestion(value: string, re: RegExp): string | undefined {
  for (const candidate of [value.toLowerCase(), value.toLowerCase().replace(/[^a-z0-9._:/-]+/g, "-")]) {
    if (candidate !== value && re.test(candidate)) return candidate;
  }
  return undefined;
}

export const tagFormat: ResourceValidationPolicy = {
  name: "workspace-tag-format",
  description: "Tag keys, tag values and flat tag names follow the configured formats (lower case by default).",
  enforcementLevel: "advisory",
  configSchema: tagFormatSchema,
  validateResource: validateKnownProps(taggingKinds, (props, args, reportViolation) => {
    const config = configOf<{ keyPattern: string; valuePattern: string; flatTagPattern: string }>(
      tagFormatSchema,
      args,
    );
    const keyRe = pattern(tagFormat.name, "keyPattern", config.keyPattern);
    const valueRe = pattern(tagFormat.name, "valuePattern", config.valuePattern);
    const flatRe = pattern(tagFormat.name, "flatTagPattern", config.flatTagPattern);
    const fix = (value: string, re: RegExp) => {
      const better = suggestion(value, re);
      return better === undefined ? "" : `, for example ${show(better)}`;
    };

    for (const [key, value] of Object.entries(stringMap(props.tags) ?? {})) {
      if (!keyRe.test(key)) {
        reportViolation(
          `${subject(args)}: tags key ${show(key)} does not match keyPattern ${keyRe.source}. Fix: rename the key${fix(key, keyRe)}.`,
        );
      }
      if (!valueRe.test(value)) {
        reportViolation(
          `${subject(args)}: tags[${show(key)}] value ${show(value)} does not match valuePattern ${valueRe.source}. ` +
            `Fix: change the value${fix(value, valueRe)}.`,
        );
      }
    }
    for (const name of strings(props.tagNames) ?? []) {
      const lower = name.toLowerCase();
      if (!flatRe.test(lower)) {
        reportViolation(
          `${subject(args)}: tagNames has ${show(name)}, which does not match flatTagPattern ${flatRe.source}. ` +
            `Fix: rename the tag${fix(lower, flatRe)}.`,
        );
      }
    }
  }),
};

// ---------------------------------------------------------------------------------------------
// Flat tag names in lower case (remediated)
// ---------------------------------------------------------------------------------------------

function upperCaseNames(props: Props): string[] {
  return (strings(props.tagNames) ?? []).filter((n) => n !== n.toLowerCase());
}

export const flatTagLowercase: ResourceValidationPolicy = {
  name: "workspace-flat-tag-lowercase",
  description:
    "Flat tag names are written in lower case, as the service stores them (it lower-cases every flat tag name), so the program, the state and the service agree. Remediation lower-cases them.",
  enforcementLevel: "remediate",
  configSchema: { properties: {} },
  remediationSteps: "Write the flat tag names in lower case.",
  validateResource: validateKnownProps(taggingKinds, (props, args, reportViolation) => {
    for (const name of upperCaseNames(props)) {
      reportViolation(
        `${subject(args)}: tagNames has ${show(name)}, but the service stores flat tag names in lower case, so the program and the service disagree. ` +
          `Fix: write ${show(name.toLowerCase())}.`,
      );
    }
  }),
  remediateResource: (args) => {
    requireType(args, taggingKinds);
    const known = knownProps(args.props);
    const names = known.tagNames;
    // A list with an element still unknown is left alone: rewriting it would drop that element.
    if (!Array.isArray(names) || names.includes(UNKNOWN) || upperCaseNames(known).length === 0) return undefined;
    const lowered = [...new Set((names as string[]).map((n) => n.toLowerCase()))];
    // Write through the engine's props object so every other property (secrets included) is kept as it was.
    const props = args.props as Record<string, unknown>;
    props.tagNames = lowered;
    return props;
  },
};
