import type { PolicyConfigSchema, ResourceValidationPolicy } from "@pulumi/policy";
import { WORKSPACE_NAME_PATTERN } from "pulumi-workspaces/api";
import { configOf, pattern, show, subject, validateKnownProps, workspaceKinds } from "./common";

/** The spec's workspace name characters (letters, digits, `-` and `_`), as the package's schemas state them. */
const SPEC_NAME_PATTERN = WORKSPACE_NAME_PATTERN.source;

const namePatternSchema: PolicyConfigSchema = {
  properties: {
    pattern: {
      type: "string",
      default: SPEC_NAME_PATTERN,
      description:
        'Regular expression every workspace name matches. The default is the service\'s own rule; a convention such as "^[a-z]+-(dev|staging|prod)$" narrows it.',
    },
  },
};

export const namePattern: ResourceValidationPolicy = {
  name: "workspace-name-pattern",
  description:
    "Workspace names match the configured pattern (by default the characters the service allows: letters, digits, `-`, `_`).",
  enforcementLevel: "mandatory",
  configSchema: namePatternSchema,
  validateResource: validateKnownProps(workspaceKinds, (props, args, reportViolation) => {
    const config = configOf<{ pattern: string }>(namePatternSchema, args);
    const re = pattern(namePattern.name, "pattern", config.pattern);
    const name = props.name;
    if (typeof name !== "string" || re.test(name)) return;
    const candidate = name
      .trim()
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "");
    const example =
      candidate !== "" && candidate !== name && re.test(candidate) ? `, for example ${show(candidate)}` : "";
    const charset = config.pattern === SPEC_NAME_PATTERN ? ' (the service accepts letters, digits, "-" and "_")' : "";
    reportViolation(
      `${subject(args)}: name ${show(name)} does not match ${re.source}${charset}. Fix: rename the workspace${example}.`,
    );
  }),
};
