/**
 * Pieces shared by the provider implementations: unknown values during preview,
 * check failures with property paths, and the comparisons that keep `diff` quiet
 * about what is not a real change (service defaults, list order, tag-name case).
 */
import {
  FeatureUnavailableError,
  NetworkError,
  NotFoundError,
  ServerError,
  ServiceUnavailableError,
  type Feature,
} from "../../client/errors";
import type { WorkspacesClient } from "../../client";
import type { CheckFailure, ProviderImpl, Props } from "./types";

/** The placeholder the engine sends for values not known until apply. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}

/** A copy without the properties (at any depth) whose value is not known yet. */
export function withoutUnknowns<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((v) => v !== UNKNOWN).map(withoutUnknowns) as T;
  if (value && typeof value === "object") {
    const out: Props = {};
    for (const [k, v] of Object.entries(value)) if (v !== UNKNOWN) out[k] = withoutUnknowns(v);
    return out as T;
  }
  return value;
}

function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}

// ---------------------------------------------------------------------------
// Names

function kebabToCamel(key: string): string {
  return key.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function camelToKebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

// ---------------------------------------------------------------------------
// Check failures

/**
 * Maps a path into a request body (zod issue path or JSON pointer) to the input
 * property it came from, e.g. `/data/attributes/vcs-repo/identifier` -> `vcsRepo.identifier`.
 * `renames` maps wire keys that do not convert mechanically (`terraform-version` to
 * `engineVersion`; `agent-pool-id` to `agentPoolId` converts by itself).
 */
export function inputPathOf(path: ReadonlyArray<PropertyKey> | string, renames: Record<string, string> = {}): string {
  const parts =
    typeof path === "string"
      ? path
          .split("/")
          .filter((p) => p !== "")
          .map(unescapePointer)
      : path.map(String);
  let rest = parts;
  if (rest[0] === "data") rest = rest.slice(1);
  if (rest[0] === "attributes") rest = rest.slice(1);
  else if (rest[0] === "relationships") {
    rest = rest.slice(1);
    const rel = rest[0];
    if (rel !== undefined && renames[`relationships.${rel}`]) {
      // e.g. relationships/vars/data/2/attributes/key -> variables[2].key
      const after = rest.slice(1).filter((p) => p !== "data" && p !== "attributes");
      return joinPath([renames[`relationships.${rel}`], ...after], renames);
    }
  }
  return joinPath(rest, renames);
}

function unescapePointer(p: string): string {
  return p.replace(/~1/g, "/").replace(/~0/g, "~");
}

function joinPath(parts: string[], renames: Record<string, string>): string {
  let out = "";
  parts.forEach((p, i) => {
    if (/^\d+$/.test(p)) {
      out += `[${p}]`;
      return;
    }
    const name = renames[p] ?? kebabToCamel(p);
    out += i === 0 ? name : `.${name}`;
  });
  return out;
}

/** Failures from zod issues of a request body. */
export function failuresFromIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  renames: Record<string, string> = {},
): CheckFailure[] {
  return issues.map((issue) => {
    const property = inputPathOf(issue.path, renames);
    return { property, reason: `${property || "input"}: ${issue.message}` };
  });
}

/** Removes repeated failures (the same property and reason reported by two rules). */
export function dedupeFailures(failures: CheckFailure[]): CheckFailure[] {
  const seen = new Set<string>();
  return failures.filter((f) => {
    const key = `${f.property}\u0000${f.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------
// Comparisons used by diff

/** A value the engine passed where text is expected: text as is, nothing as "", anything else as JSON. */
export function text(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined || value === null ? "" : (JSON.stringify(value) ?? "");
}

/** null, undefined and "" all mean "not set" for optional strings. */
export function sameOptionalString(a: unknown, b: unknown): boolean {
  const na = text(a);
  const nb = text(b);
  return na === nb;
}

/** Lists compared as sets of strings. */
export function sameStringSet(a: unknown, b: unknown, fold: (s: string) => string = (s) => s): boolean {
  const sa = new Set(((a as unknown[]) ?? []).map((v) => fold(String(v))));
  const sb = new Set(((b as unknown[]) ?? []).map((v) => fold(String(v))));
  if (sa.size !== sb.size) return false;
  for (const v of sa) if (!sb.has(v)) return false;
  return true;
}

/** Flat tag names: the service stores them lower-cased. */
export function foldTagName(name: string): string {
  return name.trim().toLowerCase();
}

export function sameTagNames(a: unknown, b: unknown): boolean {
  return sameStringSet(a, b, foldTagName);
}

/** Key-value maps compared by content. */
export function sameStringMap(a: unknown, b: unknown): boolean {
  const ma = (a ?? {}) as Record<string, unknown>;
  const mb = (b ?? {}) as Record<string, unknown>;
  const ka = Object.keys(ma);
  if (ka.length !== Object.keys(mb).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(mb, k) && String(ma[k]) === String(mb[k]));
}

/** Two timestamps naming the same instant (the service may reformat them). */
export function sameInstant(a: unknown, b: unknown): boolean {
  if (!isGiven(a) || !isGiven(b) || a === "" || b === "") return sameOptionalString(a, b);
  const ta = Date.parse(String(a));
  const tb = Date.parse(String(b));
  return Number.isNaN(ta) || Number.isNaN(tb) ? a === b : ta === tb;
}

/** Deep equality of JSON values where arrays are compared without regard to order. */
export function sameJsonUnordered(a: unknown, b: unknown): boolean {
  return canonical(a, true) === canonical(b, true);
}

/** Deep equality of JSON values. */
function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a, false) === canonical(b, false);
}

function canonical(v: unknown, unorderedArrays: boolean): string {
  if (Array.isArray(v)) {
    const items = v.map((x) => canonical(x, unorderedArrays));
    if (unorderedArrays) items.sort();
    return `[${items.join(",")}]`;
  }
  if (v && typeof v === "object") {
    const keys = Object.keys(v as Props)
      .filter((k) => (v as Props)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Props)[k], unorderedArrays)}`).join(",")}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * A field of a resource as `diff` sees it: `same` decides whether the desired
 * value (news) equals what the service last reported (olds). A field absent from
 * news is not managed and never differs.
 */
export interface FieldRule {
  name: string;
  same?: (desired: unknown, actual: unknown, olds: Props) => boolean;
  /** A change of this field needs a new resource. */
  replaces?: boolean;
  /** An absent value means "unset" rather than "not managed". */
  absentIsValue?: boolean;
}

export interface FieldDiff {
  changed: string[];
  replaces: string[];
}

export function diffFields(olds: Props, news: Props, rules: FieldRule[]): FieldDiff {
  const changed: string[] = [];
  const replaces: string[] = [];
  for (const rule of rules) {
    const desired = news[rule.name];
    if (desired === undefined && !rule.absentIsValue) continue;
    let differs: boolean;
    if (isUnknown(desired)) {
      // Not known until apply: it may change, so say so.
      differs = true;
    } else {
      const same = rule.same ?? ((a: unknown, b: unknown) => sameJson(a, b));
      differs = !same(desired, olds[rule.name], olds);
    }
    if (differs) {
      changed.push(rule.name);
      if (rule.replaces) replaces.push(rule.name);
    }
  }
  return { changed, replaces };
}

/** The subset of `object` keys that `desired` gives are equal (nested objects such as vcsRepo). */
export function sameGivenKeys(
  desired: unknown,
  actual: unknown,
  compare: Record<string, (a: unknown, b: unknown) => boolean> = {},
): boolean {
  if (desired === null) return actual === null || actual === undefined;
  if (!desired || typeof desired !== "object") return sameJson(desired, actual);
  if (!actual || typeof actual !== "object") return false;
  for (const [k, v] of Object.entries(desired as Props)) {
    if (v === undefined) continue;
    const same = compare[k] ?? sameJson;
    if (!same(v, (actual as Props)[k])) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Errors shown to the user

/** An error whose message is complete on its own; the stack adds nothing for users. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderError";
  }
}

/** What a program can do about a feature its server lacks. */
const WAY_OUT: Record<Feature, string> = {
  "safe delete":
    "set forceDelete: true on the resource and run `pulumi up` before destroying, to delete it with the plain DELETE (which does not check for managed resources), or delete it on the server",
  "key-value tags":
    "remove tags (key-value) from the program, or use a server that offers them; flat tags (tagNames) work without them",
  projects:
    "remove project from the program (the server keeps workspaces without one), or use a server that offers projects",
  "remote state consumers":
    "remove the RemoteStateConsumers resource from the program, or use a server that offers them; globalRemoteState: true on the workspace lets every workspace of the organization read its state",
  "no-code provisioning":
    "servers such as OTF have none, and the hosted service refuses it to organization tokens: use a user or team token, or declare plain Workspace resources instead of NoCodeModule and NoCodeWorkspace",
};

/**
 * The error a user sees for a feature the server lacks: what could not be done, the
 * feature, the server's answer and the way out, in one message. Any other error is
 * returned as it is.
 *
 * @param doing what was being done, for the message (`delete workspace "app" (ws-1)`)
 */
export function withWayOut(err: unknown, doing?: string): unknown {
  if (!(err instanceof FeatureUnavailableError)) return err;
  return new ProviderError(`${doing ? `cannot ${doing}: ` : ""}${err.message}; ${WAY_OUT[err.feature]}.`);
}

/**
 * `impl` whose create, read, update and delete turn a FeatureUnavailableError into the
 * one message of {@link withWayOut}, naming `noun` and the id where there is one.
 */
export function explainingMissingFeatures<I extends Props, O extends Props>(
  impl: ProviderImpl<I, O>,
  noun: string,
): ProviderImpl<I, O> {
  const explain =
    (doing: string) =>
    (err: unknown): never => {
      throw withWayOut(err, doing);
    };
  return {
    ...impl,
    create: (inputs) => impl.create(inputs).catch(explain(`create the ${noun}`)),
    read: (id, props) => impl.read(id, props).catch(explain(`read the ${noun} ${id}`)),
    update: (id, olds, news) => impl.update(id, olds, news).catch(explain(`update the ${noun} ${id}`)),
    delete: (id, props) => impl.delete(id, props).catch(explain(`delete the ${noun} ${id}`)),
  };
}

export function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How far the service's clock may lag ours when judging whether a record is the one our create made. */
const CREATE_CLOCK_SKEW_MS = 120_000;

/**
 * A create whose answer was lost (dropped connection, timeout, 5xx) may still have
 * happened, and the client never repeats it. Left alone, the record would be orphaned:
 * outside the state, and blocking every later create of its unique name. So look the
 * name up: a record created since the request started (allowing for clock skew) is
 * the one this create made, and is adopted. Anything else keeps the original error.
 */
export async function recoverLostCreate<T extends { createdAt: string }>(
  err: unknown,
  lookup: () => Promise<T>,
  startedMs: number,
): Promise<T> {
  const outcomeUnknown =
    (err instanceof NetworkError && err.code !== "ECONNREFUSED") ||
    err instanceof ServiceUnavailableError ||
    err instanceof ServerError;
  if (!outcomeUnknown) throw err;
  let found: T;
  try {
    found = await lookup();
  } catch {
    throw err;
  }
  const created = Date.parse(found.createdAt);
  if (Number.isFinite(created) && created >= startedMs - CREATE_CLOCK_SKEW_MS) return found;
  throw err;
}

// ---------------------------------------------------------------------------
// Progress shown while a long step waits

interface EngineLogClient {
  log(req: unknown, cb: (err: unknown) => void): void;
}

let engineLog: EngineLogClient | null | undefined;
/** Messages go out one after the other, so the engine shows the latest as the status. */
let lastStatus: Promise<void> = Promise.resolve();

/**
 * The engine's address inside the dynamic-provider host: the engine starts every
 * provider with its own address as the last argument (`127.0.0.1:PORT`). Anywhere else
 * (unit tests, scripts) there is none and status messages go nowhere.
 */
function engineAddress(): string | undefined {
  if (!/dynamic-provider/.test(process.argv[1] ?? "")) return undefined;
  const args = process.argv.slice(2);
  for (let i = args.length - 1; i >= 0; i--) if (/^[\w.[\]-]+:\d+$/.test(args[i])) return args[i];
  return undefined;
}

function engineLogClient(): EngineLogClient | null {
  if (engineLog !== undefined) return engineLog;
  engineLog = null;
  const address = engineAddress();
  if (!address) return engineLog;
  try {
    // The SDK's own generated client, loaded from the SDK's directory so that its copy of grpc is used.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const fromSdk = require("node:module").createRequire(require.resolve("@pulumi/pulumi"));
    const grpc = fromSdk("@grpc/grpc-js");
    const { EngineClient } = fromSdk("./proto/engine_grpc_pb");
    /* eslint-enable @typescript-eslint/no-require-imports */
    engineLog = new EngineClient(address, grpc.credentials.createInsecure()) as EngineLogClient;
  } catch {
    engineLog = null;
  }
  return engineLog;
}

/**
 * Shows `message` as the engine's ephemeral status (the info column of `pulumi up`,
 * replaced by the next one and not repeated in the summary), so a long wait says what
 * it waits for. Dynamic providers are not told their resource's URN, so without `urn`
 * the message goes to the stack's row: name the resource in it. Never throws and never
 * delays the caller (messages are sent in order, in the background): progress is a courtesy.
 */
export function reportStatus(message: string, urn = "", ephemeral = true): void {
  const client = engineLogClient();
  if (!client) return;
  try {
    /* eslint-disable-next-line @typescript-eslint/no-require-imports */
    const { LogRequest, LogSeverity } = require("node:module").createRequire(require.resolve("@pulumi/pulumi"))(
      "./proto/engine_pb",
    );
    const req = new LogRequest();
    req.setSeverity(LogSeverity.INFO);
    req.setMessage(message);
    req.setUrn(urn);
    req.setEphemeral(ephemeral);
    lastStatus = lastStatus.then(() => new Promise<void>((resolve) => client.log(req, () => resolve())));
  } catch {
    // nothing to report to
  }
}

/**
 * Shows `message` as an info diagnostic that stays: printed under "Diagnostics" at the end
 * of `pulumi preview` and `pulumi up`. The same rules as {@link reportStatus} otherwise.
 */
export function reportInfo(message: string): void {
  reportStatus(message, "", false);
}

// ---------------------------------------------------------------------------
// A 404: gone, or not this token's to see

/**
 * What a 404 concerned. The service answers 404 both for a record that does not exist
 * and for one the token may not see (spec section 7), so a 404 alone never proves
 * that a record is gone.
 */
export interface MissingRecord {
  /** How messages name the record, e.g. `workspace "app" (ws-123)`. */
  label: string;
  /** Organization of the record as recorded in state; unknown for adopted (`get`) resources and older state. */
  organization?: unknown;
  /**
   * Which records the token must be able to see all of: `workspace` (also for the tags,
   * consumers and lock of a workspace) or `no-code module`.
   */
  kind: "workspace" | "no-code module";
}

/** Refusal to take a 404 as "gone": the record may exist and be hidden from the token. */
export class NotVisibleError extends ProviderError {
  constructor(message: string) {
    super(message);
    this.name = "NotVisibleError";
  }
}

/**
 * Organization permissions that prove a token sees every record of a kind. Spec 5.3:
 * only owners, teams that manage all workspaces and the organization token may create
 * workspaces, and each of them sees every workspace of the organization, so
 * `can-create-workspace` proves it for workspaces. No-code modules are hidden from
 * organization tokens (spec 5.9), which also create workspaces; only the owners'
 * `can-update` proves it for modules.
 */
const PROOF: Record<MissingRecord["kind"], string> = {
  workspace: "can-create-workspace",
  "no-code module": "can-update",
};

type Standing = { member: false } | { member: true; permissions: Record<string, unknown> };

// One organization read per client and organization in a provider process (a refresh
// that finds many records gone asks once).
const standings = new WeakMap<WorkspacesClient, Map<string, Promise<Standing>>>();

function standingIn(client: WorkspacesClient, organization: string): Promise<Standing> {
  let byOrg = standings.get(client);
  if (!byOrg) standings.set(client, (byOrg = new Map()));
  let p = byOrg.get(organization);
  if (!p) {
    p = client.organizations.read(organization).then(
      (org): Standing => {
        const perms = org.attributes.permissions;
        return {
          member: true,
          permissions: perms && typeof perms === "object" ? (perms as Record<string, unknown>) : {},
        };
      },
      (err): Standing => {
        if (err instanceof NotFoundError) return { member: false };
        throw err;
      },
    );
    p.catch(() => byOrg.delete(organization));
    byOrg.set(organization, p);
  }
  return p;
}

/**
 * The one rule for a 404 on read, delete or update: it means "gone" only when the token
 * could have seen the record, that is when the organization's permissions show that the
 * token sees every record of its kind (see PROOF). Resolves when the record is gone;
 * otherwise throws a NotVisibleError that names the record, says why the 404 proves
 * nothing, and gives both ways out.
 *
 * @param action what was being done, for the message: `refresh` (read) or `delete`
 */
export async function confirmGone(
  client: WorkspacesClient,
  record: MissingRecord,
  action: "refresh" | "delete" | "update",
): Promise<void> {
  const org = typeof record.organization === "string" && record.organization !== "" ? record.organization : undefined;
  let why: string;
  if (!org) {
    throw new NotVisibleError(
      `cannot ${action === "refresh" ? "read" : action} ${record.label}: the service answered 404, so it does not exist or the token in use ` +
        `may not see it, and nothing recorded with the resource tells which (a resource adopted with \`get\`, or state written by ` +
        `an earlier release). Check the id and use a token that can see it; if it really is gone and the resource is in the stack, ` +
        `remove it with \`pulumi state delete <urn>\`.`,
    );
  } else {
    const standing = await standingIn(client, org);
    if (standing.member && standing.permissions[PROOF[record.kind]] === true) return;
    why = standing.member
      ? `the token cannot see every ${record.kind} of organization "${org}" (it is not an owners token${
          record.kind === "workspace" ? ", an organization token or a team that manages all workspaces" : ""
        }), so the ${record.kind} may exist and be hidden from it`
      : `the token is not a member of organization "${org}", so the ${record.kind} may exist and be hidden from it`;
  }
  const retry = action === "refresh" ? "`pulumi refresh`" : action === "delete" ? "the destroy" : "`pulumi up`";
  throw new NotVisibleError(
    `cannot ${action} ${record.label}: the service answered 404 (not found, or not visible to this token) and ${why}. ` +
      `Run ${retry} again with a token that can see it, or, if it really is gone, remove it from the stack with ` +
      `\`pulumi state delete <urn>\` (the URN is shown with this error and by \`pulumi stack --show-urns\`).`,
  );
}

/**
 * `fn`'s result, or what a 404 means under the one rule: `gone()` when the token could
 * have seen the record (see confirmGone), a NotVisibleError otherwise.
 */
export async function unlessGone<T, G>(
  client: WorkspacesClient,
  record: MissingRecord,
  action: "refresh" | "delete" | "update",
  fn: () => Promise<T>,
  gone: () => G,
): Promise<T | G> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    await confirmGone(client, record, action);
    return gone();
  }
}

/** How messages name a workspace: `workspace "name" (ws-...)`, or by id alone. */
export function workspaceLabel(id: string, name?: unknown): string {
  return typeof name === "string" && name !== "" ? `workspace "${name}" (${id})` : `workspace ${id}`;
}

/** The record behind a workspace's tags, consumers or lock: the workspace itself. */
export function dependentRecord(what: string, workspaceId: string, props: Props): MissingRecord {
  return { label: `the ${what} of workspace ${workspaceId}`, organization: props.organization, kind: "workspace" };
}

// ---------------------------------------------------------------------------
// Organization not given by the program

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

// ---------------------------------------------------------------------------
// Inputs that read gives back

/**
 * Output key under which create and update record the names of the inputs the resource
 * was given, so that read can hand back exactly those inputs (with the service's values)
 * and the next diff names what drifted. Names only: values stay where the engine keeps
 * them, secrets included.
 */
export const INPUT_NAMES_KEY = "__inputNames";

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
