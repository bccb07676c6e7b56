/**
 * The program-side inputs of `Workspace` and `NoCodeWorkspace` as zod schemas, derived from
 * the workspace field table (src/api/workspace-fields.ts): each line's request schema, with
 * nested keys in the program's spelling, or for a line the program alone sets (organization,
 * project, tags, SSH key, `forceDelete`) its own schema below. Issues are reported at the
 * program's property paths (`vcsRepo.identifier`, `engineVersion`, `tagNames[1]`), never at
 * wire names, and the cross-field rules of spec 4.2 and 4.3 are stated in the same names.
 */
import { z } from "zod";
import { isId } from "../../api/common";
import { TAG_NAME_MAX_LENGTH, TAG_NAME_PATTERN } from "../../api/tags";
import {
  workspaceFieldEntries,
  vcsRepoRequestSchema,
  type FieldDef,
  type WorkspaceFieldName,
} from "../../api/workspace-fields";
import { propertyPath } from "./check-failures";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";

/** Nested wire keys whose program name is not their camel case (`null`: an alias the program does not offer). */
const NESTED_NAMES: Record<string, string | null> = {
  "github-app-installation-id": "vcsAppInstallationId",
  "vcs-app-installation-id": null,
};

function camel(key: string): string {
  return key.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The object schema inside optional and nullable wrappers. */
function objectOf(schema: z.ZodType): z.ZodObject {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
  return s as z.ZodObject;
}

/** An object schema with its keys in the program's spelling. */
function programKeys(schema: z.ZodObject): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, s] of Object.entries(schema.shape)) {
    const name = key in NESTED_NAMES ? NESTED_NAMES[key] : camel(key);
    if (name) shape[name] = s as z.ZodType;
  }
  return z.object(shape).loose();
}

const tagName = z
  .string()
  .min(1)
  .max(TAG_NAME_MAX_LENGTH)
  .regex(TAG_NAME_PATTERN, "must start with a letter or digit and contain only letters, digits, :, - and _");

/** Inputs the program alone sets: lines of the table without a request schema of their own. */
const PROGRAM_ONLY: Partial<Record<WorkspaceFieldName, z.ZodType>> = {
  organization: z.string().trim().min(1, "must be a non-empty organization name"),
  project: z.string().refine((v) => isId("project", v), "must be a project id (prj-...)"),
  sshKeyId: z
    .string()
    .refine((v) => v === "" || isId("sshKey", v), "must be an SSH key id (sshkey-...), or empty to unassign"),
  tags: z
    .record(z.string(), z.unknown(), { error: "must be a map of key to value" })
    .refine((m) => !("" in m), "must not have an empty key"),
  tagNames: z.array(tagName, { error: "must be a list of strings" }),
  forceDelete: z.boolean({ error: "must be true or false" }),
};

/** `vcsRepo` as programs give it. */
const vcsRepoInput = programKeys(vcsRepoRequestSchema);

/** The keys of `vcsRepo` a program gives (the service adds read-only ones). */
export const VCS_INPUT_KEYS: readonly string[] = Object.keys(vcsRepoInput.shape);

/** The program-side schema of a table line, or undefined for a line programs do not set. */
function lineSchema(name: WorkspaceFieldName, f: FieldDef): z.ZodType | undefined {
  if (f.role === "computed") return undefined;
  const own = PROGRAM_ONLY[name];
  if (own) return own;
  const wire = f.write === "read" ? f.read : f.write;
  if (!wire) return undefined;
  if (name === "vcsRepo") return vcsRepoInput;
  return f.shape ? programKeys(objectOf(wire)) : wire;
}

/**
 * The settings a program may clear, and how, said once for every language: the empty
 * string `""` clears a string setting of the table marked `nullable`, the empty object
 * `{}` an object setting (`vcsRepo`: no repository, no credential), and `""` a key the
 * table names in `nullableKeys` (`vcsRepo.tagsRegex`). TypeScript programs may give
 * `null` for the same; check turns each empty form into `null`, so the two are one input.
 */
export const CLEARABLE: {
  readonly strings: readonly WorkspaceFieldName[];
  readonly objects: readonly WorkspaceFieldName[];
  readonly keys: Readonly<Partial<Record<WorkspaceFieldName, readonly string[]>>>;
} = {
  strings: workspaceFieldEntries.filter(([, f]) => f.nullable && !f.shape).map(([k]) => k),
  objects: workspaceFieldEntries.filter(([, f]) => f.nullable && f.shape).map(([k]) => k),
  keys: Object.fromEntries(
    workspaceFieldEntries.filter(([, f]) => f.nullableKeys).map(([k, f]) => [k, f.nullableKeys]),
  ),
};

const isEmpty = (v: unknown) => v === undefined || v === null || v === "";

/** `inputs` with each empty form of a clearable setting among `names` (see {@link CLEARABLE}) as `null`. */
export function withClears(inputs: Props, names: Iterable<string>): Props {
  const out: Props = { ...inputs };
  const given = new Set(names);
  for (const name of CLEARABLE.strings) if (given.has(name) && out[name] === "") out[name] = null;
  for (const name of CLEARABLE.objects) {
    const value = out[name];
    if (!given.has(name) || value === null || typeof value !== "object" || Array.isArray(value) || isUnknown(value))
      continue;
    const fields = value as Props;
    if (Object.values(fields).every(isEmpty)) {
      out[name] = null;
      continue;
    }
    const keys = CLEARABLE.keys[name] ?? [];
    if (keys.some((k) => fields[k] === "")) {
      out[name] = Object.fromEntries(
        Object.entries(fields).map(([k, v]) => [k, keys.includes(k) && v === "" ? null : v]),
      );
    }
  }
  return out;
}

/** One input's schema and whether a program's `null` clears it. */
export interface InputLine {
  schema: z.ZodType;
  nullable: boolean;
}

/** Every input of `Workspace`, by name, in table order. */
export const WORKSPACE_INPUT_LINES: ReadonlyMap<WorkspaceFieldName, InputLine> = new Map(
  workspaceFieldEntries.flatMap(([name, f]) => {
    const schema = lineSchema(name, f);
    return schema ? [[name, { schema, nullable: Boolean(f.nullable) }] as const] : [];
  }),
);

/**
 * The input lines of a resource that offers a subset of the workspace's settings, in the
 * order given; `narrower` replaces a line's schema where that resource's request is stricter.
 */
export function inputLines(
  names: readonly WorkspaceFieldName[],
  narrower: (name: WorkspaceFieldName) => z.ZodType | undefined = () => undefined,
): Map<string, InputLine> {
  return new Map(
    names.map((name) => {
      const line = WORKSPACE_INPUT_LINES.get(name);
      if (!line) throw new Error(`workspace field ${name} is not a program input`);
      return [name, { ...line, schema: narrower(name) ?? line.schema }];
    }),
  );
}

const EXPECTED: Record<string, string> = {
  boolean: "true or false",
  string: "a string",
  number: "a number",
  array: "a list",
  object: "an object",
  record: "a map",
};

/** Messages for zod's generic issues that say what to give instead. */
function message(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small":
      return issue.origin === "string" && Number(issue.minimum) === 1 ? "must not be empty" : undefined;
    default:
      return undefined;
  }
}

/** A reason that names its property: `name must ...`, or `name: <text>` for text that is not a predicate. */
function reasonAt(property: string, text: string): string {
  return /^[a-z]/.test(text) ? `${property} ${text}` : `${property}: ${text}`;
}

/** `a, b and c`. */
function spokenList(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/**
 * Failures of the given inputs against their lines: a `null` where the line cannot be
 * cleared, then each schema issue at its program path. A value unknown until apply (at any
 * depth) is not judged; check runs again with it known.
 */
export function lineFailures(inputs: Props, lines: ReadonlyMap<string, InputLine>): CheckFailure[] {
  const nulls: CheckFailure[] = [];
  const issues: CheckFailure[] = [];
  const clearable = [...lines].filter(([, l]) => l.nullable).map(([k]) => k);
  for (const [name, line] of lines) {
    const value = inputs[name];
    if (value === undefined || isUnknown(value)) continue;
    if (value === null) {
      if (!line.nullable)
        nulls.push({
          property: name,
          reason: `${name} cannot be cleared with null (only ${spokenList(clearable)} can); omit ${name} to leave the service's value alone`,
        });
      continue;
    }
    const parsed = line.schema.safeParse(value, { error: message });
    if (parsed.success) continue;
    for (const issue of parsed.error.issues) {
      const property = propertyPath([name, ...issue.path]);
      issues.push({ property, reason: reasonAt(property, issue.message) });
    }
  }
  return [...nulls, ...issues];
}

/** Whether any of the named inputs is unknown until apply. */
function anyUnknown(inputs: Props, names: readonly string[]): boolean {
  return names.some((n) => isUnknown(inputs[n]));
}

/**
 * The execution mode and agent pool rule (spec 4.2): agent mode needs a pool, any other
 * mode refuses one. `operations` is the deprecated mirror of the mode (`false` is local)
 * and is never given together with `executionMode`.
 */
export function executionModeFailures(inputs: Props): CheckFailure[] {
  if (anyUnknown(inputs, ["executionMode", "operations", "agentPoolId", "settingOverwrites"])) return [];
  const out: CheckFailure[] = [];
  const given = (k: string) => inputs[k] !== undefined && inputs[k] !== null;
  if (given("executionMode") && given("operations")) {
    out.push({
      property: "operations",
      reason: "operations is deprecated and must not be given together with executionMode; use executionMode only",
    });
  }
  const mode = given("executionMode") ? String(inputs.executionMode) : inputs.operations === false ? "local" : "remote";
  if (mode === "agent" && !inputs.agentPoolId) {
    out.push({ property: "agentPoolId", reason: "agentPoolId is required when executionMode is agent" });
  }
  if (mode !== "agent" && inputs.agentPoolId) {
    out.push({
      property: "agentPoolId",
      reason:
        inputs.operations === true
          ? "agentPoolId must not be given when operations is true"
          : `agentPoolId must not be given when executionMode is ${mode}`,
    });
  }
  const overwrites = inputs.settingOverwrites as Props | undefined;
  if (overwrites?.executionMode === true && !given("executionMode")) {
    out.push({
      property: "executionMode",
      reason: "executionMode must be given when settingOverwrites.executionMode is true",
    });
  }
  return out;
}

/** The VCS connection rules (spec 4.2): a repository and one credential, an OAuth token or an app installation. */
export function vcsRepoFailures(inputs: Props): CheckFailure[] {
  const repo = inputs.vcsRepo as Props | null | undefined;
  if (!repo || typeof repo !== "object" || isUnknown(repo)) return [];
  const out: CheckFailure[] = [];
  if (repo.oauthTokenId && repo.vcsAppInstallationId) {
    out.push({
      property: "vcsRepo.vcsAppInstallationId",
      reason: "vcsRepo.vcsAppInstallationId cannot be given together with vcsRepo.oauthTokenId",
    });
  }
  if (!repo.identifier) {
    out.push({
      property: "vcsRepo.identifier",
      reason: "vcsRepo.identifier is required when adding a VCS repository",
    });
  }
  if (!repo.oauthTokenId && !repo.vcsAppInstallationId) {
    out.push({
      property: "vcsRepo.oauthTokenId",
      reason: "vcsRepo.oauthTokenId (or vcsRepo.vcsAppInstallationId) is required when adding a VCS repository",
    });
  }
  return out;
}
