import type { PolicyConfigSchema } from "@pulumi/policy";
import { Project, UNKNOWN, declaredProps, isOfType, pattern, show, str, strings } from "./common";
import { productionTagOf, productionTagsProperty } from "./notifications";
import type { SettingsInEffect } from "./settingsInEffect";
import type { TagsInEffect } from "./tags";

// What makes a workspace a production one, for the rules that ask it of every workspace of
// the stack: its tags (its own, or a WorkspaceTags'), its name, or its project.

/** The config of a rule about production workspaces: tags, a name pattern, projects. */
export const productionSchema: PolicyConfigSchema = {
  properties: {
    productionTags: productionTagsProperty,
    namePattern: {
      type: "string",
      minLength: 1,
      description:
        'A regular expression: a workspace whose name matches it is production, whatever its tags, for example "-prod$". None by default.',
    },
    projects: {
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
      default: [],
      description:
        'Projects whose workspaces are all production: a project id (`prj-...`) or the `name` of a Project resource of the stack, for example ["payments"]. Default [].',
    },
  },
};

/** The config {@link productionSchema} describes, with its defaults. */
export interface ProductionConfig {
  productionTags: string[];
  namePattern?: string;
  projects: string[];
}

/**
 * Why a workspace is a production one, in words; undefined when nothing known says it is.
 * `policyName` names the rule whose `namePattern` a bad regular expression is reported for.
 */
export function productionReason(
  entry: SettingsInEffect,
  tags: TagsInEffect | undefined,
  config: ProductionConfig,
  policyName: string,
): string | undefined {
  if (tags !== undefined) {
    const tag = productionTagOf(
      { tags: tags.tags === UNKNOWN ? {} : tags.tags, tagNames: tags.tagNames === UNKNOWN ? [] : tags.tagNames },
      config.productionTags,
    );
    if (tag !== undefined) return `tagged ${show(tag)}`;
  }
  const name = str(entry.props.name);
  if (config.namePattern !== undefined && name !== undefined) {
    const re = pattern(policyName, "namePattern", config.namePattern);
    if (re.test(name)) return `its name matches namePattern ${show(config.namePattern)}`;
  }
  const projects = new Set(strings(config.projects) ?? []);
  if (projects.size > 0) {
    const id = str(entry.props.project);
    if (id !== undefined && projects.has(id)) return `in project ${show(id)}`;
    for (const p of (entry.resource.propertyDependencies?.project ?? []).filter((d) => isOfType(d, Project))) {
      const projectName = str(declaredProps(p).name);
      if (projectName !== undefined && projects.has(projectName)) return `in project ${show(projectName)}`;
    }
  }
  return undefined;
}
