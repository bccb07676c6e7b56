/**
 * `check` of `NoCodeWorkspace`: its workspace settings against the schemas derived from the
 * workspace field table (narrowed where the no-code create request is stricter), its own
 * inputs against theirs, every failure at the program's property path.
 */
import { z } from "zod";
import { isId } from "../../api/common";
import { noCodeVariableRequestSchema, noCodeWorkspaceCreateRequestSchema } from "../../api/no-code";
import { fieldLine, type WorkspaceFieldName } from "../../api/workspace-fields";
import { defaultOrganization } from "../provider-settings";
import { dedupeFailures } from "./check-failures";
import { organizationFailures, organizationInput } from "./inputs";
import { isUnknown } from "./unknowns";
import type { CheckFailure, CheckResult, Props } from "./types";
import { executionModeFailures, inputLines, lineFailures, withClears, type InputLine } from "./workspace-inputs";
import {
  DEFAULT_UPGRADE_TIMEOUT_SECONDS,
  NO_CODE_SETTINGS,
  UPGRADE_STRATEGIES,
  type NoCodeWorkspaceInputs,
} from "./no-code-fields";

/** The attributes of the no-code create request, by wire name. */
const NO_CODE_ATTRIBUTES = (noCodeWorkspaceCreateRequestSchema.shape.data.shape.attributes as unknown as z.ZodObject)
  .shape as Record<string, z.ZodType | undefined>;

/** A setting's schema where the no-code request is stricter than the workspace's (`executionMode`: `remote` or `agent`). */
function noCodeNarrower(name: WorkspaceFieldName): z.ZodType | undefined {
  const wire = fieldLine(name)?.wire;
  return name === "name" || !wire ? undefined : NO_CODE_ATTRIBUTES[wire];
}

const variable = noCodeVariableRequestSchema.shape.attributes;

/** The no-code workspace's inputs: its workspace settings, then its own. */
const LINES: ReadonlyMap<string, InputLine> = new Map<string, InputLine>([
  [
    "noCodeModuleId",
    {
      schema: z.string().refine((v) => isId("noCodeModule", v), "must be a no-code module id (nocode-...)"),
      nullable: false,
    },
  ],
  ...inputLines(NO_CODE_SETTINGS, noCodeNarrower),
  [
    "variables",
    {
      schema: z.array(variable),
      nullable: false,
    },
  ],
  ["moduleVersion", { schema: z.string().min(1), nullable: false }],
  ["forceDelete", { schema: z.boolean(), nullable: false }],
  ["autoConfirm", { schema: z.boolean(), nullable: false }],
  [
    "upgradeTimeoutSeconds",
    {
      schema: z.number().int("must be a whole number of seconds").gt(0, "must be a number of seconds above 0"),
      nullable: false,
    },
  ],
]);

/** Variable keys given twice: the service keeps one variable per key. */
function repeatedKeys(variables: unknown): CheckFailure[] {
  if (!Array.isArray(variables)) return [];
  const seen = new Set<unknown>();
  return variables.flatMap((v: Props | null, i) => {
    const key = v?.key;
    if (typeof key !== "string" || isUnknown(key)) return [];
    const repeated = seen.has(key);
    seen.add(key);
    return repeated ? [{ property: `variables[${i}].key`, reason: `variables[${i}].key: ${key} is given twice` }] : [];
  });
}

export function checkNoCodeWorkspace(
  news: NoCodeWorkspaceInputs & Props,
  olds: Props = {},
): CheckResult<NoCodeWorkspaceInputs & Props> {
  // A setting cleared with `""` is checked and kept as `null` (see CLEARABLE).
  const inputs = withClears(news, LINES.keys()) as NoCodeWorkspaceInputs & Props;
  const failures: CheckFailure[] = [];
  if (inputs.organization === undefined || inputs.organization === "") {
    // No organization given, so this is the recorded or the ambient one: a string or undefined.
    const org = organizationInput(olds, news, defaultOrganization);
    if (typeof org === "string" && org) inputs.organization = org;
  }
  failures.push(...organizationFailures(news.organization));
  if (inputs.autoConfirm === undefined) inputs.autoConfirm = true;
  if (inputs.upgradeTimeoutSeconds === undefined) inputs.upgradeTimeoutSeconds = DEFAULT_UPGRADE_TIMEOUT_SECONDS;
  for (const req of ["noCodeModuleId", "name", "project"]) {
    if (news[req] === undefined) failures.push({ property: req, reason: `${req} is required` });
  }
  failures.push(...lineFailures(inputs, LINES), ...executionModeFailures(inputs), ...repeatedKeys(inputs.variables));
  const strategy = inputs.upgradeStrategy;
  if (strategy !== undefined && !(UPGRADE_STRATEGIES as readonly unknown[]).includes(strategy)) {
    failures.push({
      property: "upgradeStrategy",
      reason: `upgradeStrategy must be "in-place" or "replace", not ${JSON.stringify(strategy)}`,
    });
  }
  return { inputs, failures: dedupeFailures(failures) };
}
