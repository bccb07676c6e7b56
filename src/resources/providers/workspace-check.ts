/** `check` of `Workspace`: the program's inputs against the schemas derived from the field table. */
import { defaultOrganization } from "../provider-settings";
import { dedupeFailures } from "./check-failures";
import { organizationInput } from "./inputs";
import type { CheckFailure, CheckResult, Props } from "./types";
import {
  WORKSPACE_INPUT_LINES,
  executionModeFailures,
  lineFailures,
  vcsRepoFailures,
  withClears,
} from "./workspace-inputs";

/**
 * `olds` are the inputs of the last deployment: an organization the program does not
 * give is taken from there before the ambient default (see organizationInput). A setting
 * cleared with `""` (or `vcsRepo: {}`) is checked and kept as `null` (see CLEARABLE).
 */
export function checkWorkspace(news: Props, olds: Props = {}): CheckResult {
  const inputs: Props = withClears(news, WORKSPACE_INPUT_LINES.keys());
  const failures: CheckFailure[] = [];
  if (inputs.organization === undefined || inputs.organization === null || inputs.organization === "") {
    const org = organizationInput(olds, news, defaultOrganization);
    if (org) inputs.organization = org;
    else {
      delete inputs.organization;
      failures.push({
        property: "organization",
        reason:
          "organization is required: set it on the resource, or set the stack config workspaces:organization (or WORKSPACES_ORGANIZATION)",
      });
    }
  }
  if (news.name === undefined) failures.push({ property: "name", reason: "name is required" });
  failures.push(...lineFailures(inputs, WORKSPACE_INPUT_LINES));
  failures.push(...executionModeFailures(inputs), ...vcsRepoFailures(inputs));
  return { inputs, failures: dedupeFailures(failures) };
}
