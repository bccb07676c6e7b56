/** The organization a resource is checked with, the check of a workspace id, and the inputs that read gives back. */
import { isId } from "../../api/common";
import { defaultOrganization } from "../provider-settings";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";

/**
 * The organization a resource is checked with. A program that names one gets it. Otherwise
 * the organization recorded with the resource's last inputs (`olds`) is kept, so that a
 * different ambient organization (stack config `workspaces:organization`,
 * `WORKSPACES_ORGANIZATION`) never turns into a replacement of a live record; only a
 * resource that has no recorded organization yet takes the ambient one.
 */
export function organizationInput(olds: Props, news: Props, ambient: () => string | undefined): unknown {
  const given = news.organization;
  if (given !== undefined && given !== null && given !== "") return given;
  const recorded = olds?.organization;
  if (typeof recorded === "string" && recorded !== "") return recorded;
  return ambient();
}

/** The failure of an `organization` a program gave that is not a name (a number, a list). */
export function organizationFailures(given: unknown): { property: string; reason: string }[] {
  if (given === undefined || given === null || typeof given === "string") return [];
  return [
    { property: "organization", reason: `organization must be an organization name, not ${JSON.stringify(given)}` },
  ];
}

/**
 * Sets `inputs.organization` to the organization a resource of an organization is checked
 * with ({@link organizationInput} with the provider's own), or adds the failure that says
 * where to set one.
 */
export function checkedOrganization(olds: Props, news: Props, inputs: Props, failures: CheckFailure[]): void {
  const org = organizationInput(olds, news, defaultOrganization);
  failures.push(...organizationFailures(news.organization));
  if (org) inputs.organization = org;
  else
    failures.push({
      property: "organization",
      reason:
        "organization is required: set it on the resource, or set the stack config workspaces:organization (or WORKSPACES_ORGANIZATION)",
    });
}

/** The failure of a required `workspaceId` that is missing (undefined or null) or not a workspace id. */
export function workspaceIdFailures(ws: unknown): CheckFailure[] {
  if (ws === undefined || ws === null) return [{ property: "workspaceId", reason: "workspaceId is required" }];
  if (!isUnknown(ws) && !isId("workspace", ws))
    return [{ property: "workspaceId", reason: "workspaceId must be a workspace id (ws-...)" }];
  return [];
}

/** Failures of a list of consumers (`property`, e.g. `consumerIds`) of the workspace `workspaceId`. */
export function consumerIdFailures(list: unknown, workspaceId: unknown, property: string): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (!Array.isArray(list)) {
    if (!isUnknown(list)) failures.push({ property, reason: `${property} must be a list of workspace ids` });
    return failures;
  }
  const seen = new Set<string>();
  list.forEach((c: unknown, i: number) => {
    if (isUnknown(c)) return;
    const at = `${property}[${i}]`;
    if (!isId("workspace", c))
      failures.push({ property: at, reason: `${at}: must be a workspace id (ws-...), not ${JSON.stringify(c)}` });
    else if (c === workspaceId) {
      failures.push({
        property: at,
        reason: `${at}: a workspace cannot be a remote state consumer of itself (${String(c)})`,
      });
    } else if (seen.has(c)) failures.push({ property: at, reason: `${at}: ${String(c)} is listed twice` });
    seen.add(c as string);
  });
  return failures;
}

/**
 * Output key under which create and update record the names of the inputs the resource
 * was given, so that read can hand back exactly those inputs (with the service's values)
 * and the next diff names what drifted. Names only: values stay where the engine keeps
 * them, secrets included.
 */
export const INPUT_NAMES_KEY = "__inputNames";

/**
 * Input under which a resource class hands its provider the origin of the records it
 * creates (see src/api/origin.ts and ./origin.ts). Never sent as a setting and never a
 * change: `diff` ignores it, so a stack written before it existed sees no update.
 */
export const ORIGIN_KEY = "__origin";

/** The names of the given inputs, for INPUT_NAMES_KEY. */
export function inputNames(inputs: Props): string[] {
  return Object.keys(inputs ?? {})
    .filter((k) => k !== "__provider" && k !== INPUT_NAMES_KEY && inputs[k] !== undefined)
    .sort();
}

/**
 * The inputs a read can reconstruct: each recorded input name with the value the service
 * now reports (from the read's outputs), shaped as an input by `shape` where the two
 * differ. Undefined when the state records no names (written before they were recorded,
 * or adopted through `get`) or when an input has no output to read it back from: the
 * engine then keeps the inputs it has, rather than lose one.
 */
export function reconstructInputs(
  outputs: Props,
  names: unknown,
  shape?: (name: string, value: unknown, outputs: Props) => unknown,
): Props | undefined {
  if (!Array.isArray(names)) return undefined;
  const inputs: Props = {};
  for (const name of names) {
    if (typeof name !== "string") continue;
    if (!(name in outputs)) return undefined;
    const value = shape ? shape(name, outputs[name], outputs) : outputs[name];
    if (value !== undefined) inputs[name] = value;
  }
  return inputs;
}
