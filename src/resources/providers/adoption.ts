/**
 * Taking over records that already exist (`adopt: true`; every resource that accepts it
 * reports in preview the record it adopts, through reportsAdoption).
 *
 * Pulumi cannot `pulumi import` dynamic resources, so adoption happens in `create`: the
 * record is looked up by its natural key (a workspace by organization and name, a no-code
 * module by its registry module), read as a refresh would read it, and then brought to
 * the declared inputs by the provider's own `update`, which sends only what differs
 * (nothing when everything matches). From then on the record is the stack's like any
 * other.
 *
 * During preview a new resource marked `adopt` is looked up in `check` (the only provider
 * call a preview makes for it), and the engine is told whether `pulumi up` adopts a record
 * and which properties it changes. No other resource reads during preview. `pulumi up`
 * calls `check` too, in the same process as the `create` that follows: both look workspaces
 * up in the process's listing of the organization (process/snapshot.ts), so neither sends a
 * request per workspace; `create` decides what to send on that listing (read at most
 * SNAPSHOT_LIFETIME_MS ago, without any write of this process since to the workspace).
 *
 * Without `adopt`, a create refused because the name (or module) is taken fails with one
 * message that names the existing record and points to `adopt: true`, unless the record
 * carries exactly the origin this resource writes on its creates (./origin.ts): then it is
 * this very resource's record, left out of the state by an interrupted update, and is
 * taken over the same way, with one info line that says so.
 */
import { ConflictError, ValidationError, type WorkspacesClient } from "../../client";
import { getClient, tokenRefused } from "./client";
import { INPUT_NAMES_KEY, ORIGIN_KEY } from "./inputs";
import { sameOrigin, withOrigin } from "./origin";
import { ProviderError, describe } from "./user-errors";
import { isUnknown } from "./unknowns";
import { reportInfo } from "../process/engine-status";
import type { CheckFailure, CheckResult, ProviderImpl, Props } from "./types";

/** The input that asks for adoption. */
const ADOPT = "adopt";

/** Inputs that are never sent to the service and so never count as a change. */
const NOT_PROPERTIES: ReadonlySet<string> = new Set([ADOPT, ORIGIN_KEY, "__provider", INPUT_NAMES_KEY]);

/** An existing record found for a resource's inputs. */
export interface Found {
  id: string;
  /** How messages name it, e.g. `workspace "web" (ws-123) in organization "acme"`. */
  label: string;
  /** Props handed to the provider's `read` so that its outputs describe the record as this resource would own it. */
  seed: Props;
  /** The record's `source-name` and `source-url`, where it has them (see ./origin.ts). */
  source?: { sourceName: unknown; sourceUrl: unknown };
}

/** What a preview needs to name the record that `pulumi up` adopts (see reportsAdoption). */
export type AdoptionLookup = Pick<Adopter, "noun" | "key" | "find">;

/** What adoption needs to know about one kind of resource. */
export interface Adopter {
  /** Singular noun for messages: `workspace`, `no-code module`. */
  noun: string;
  /** What identifies the record, for messages; undefined while a needed input is unknown. */
  key(inputs: Props): string | undefined;
  /** The existing record for these inputs, or undefined when there is none (a 404). */
  find(client: WorkspacesClient, inputs: Props): Promise<Found | undefined>;
  /** Whether a create failure says that the record exists already. */
  isTaken(err: unknown): boolean;
  /** How messages name the existing record, for a create refused because it exists. */
  describeExisting(client: WorkspacesClient, inputs: Props): Promise<string | undefined>;
  /** The way out other than adopting, as a sentence. */
  otherwise: string;
}

/**
 * The existing record for `inputs` and its outputs, or undefined when there is none.
 * Workspaces are looked up and read in the process's listing of their organization
 * (process/snapshot.ts), which a write of this process to a workspace drops it from.
 */
async function readExisting(
  impl: ProviderImpl,
  adopter: Adopter,
  client: WorkspacesClient,
  inputs: Props,
  known?: Found,
): Promise<{ found: Found; props: Props } | undefined> {
  const found = known ?? (await adopter.find(client, inputs));
  if (!found) return undefined;
  const current = await impl.read(found.id, found.seed);
  if (!current.props)
    throw new ProviderError(`cannot adopt ${found.label}: it disappeared while being read; run pulumi up again`);
  return { found, props: current.props };
}

function isEmpty(p: Props | undefined): boolean {
  return !p || Object.keys(p).filter((k) => !NOT_PROPERTIES.has(k)).length === 0;
}

/**
 * The declared inputs whose value differs from the record's, judged by the provider's own
 * `diff` one input at a time, so that every service default, order and case rule of that
 * provider applies. An input is judged twice, alone and among the record's other values,
 * and counts as changed only when both say so: some providers read an input alone (a
 * no-code workspace takes the news' other keys as declared, so the record's own outputs
 * among them would look changed), others only beside the rest (a grant's level with its
 * permissions). A real difference shows in both.
 */
export async function changedInputs(impl: ProviderImpl, id: string, current: Props, inputs: Props): Promise<string[]> {
  const changed: string[] = [];
  for (const [k, v] of Object.entries(inputs)) {
    if (NOT_PROPERTIES.has(k) || v === undefined) continue;
    if (!(await impl.diff(id, current, { [k]: v })).changes) continue;
    if ((await impl.diff(id, current, { ...current, [k]: v })).changes) changed.push(k);
  }
  return changed;
}

function describeChanges(changed: string[]): string {
  return changed.length === 0 ? "no property changes" : `changes ${changed.join(", ")}`;
}

/**
 * What `pulumi up` will do with a new resource marked `adopt`, as the one line preview
 * shows under Diagnostics: the record it adopts and the declared properties that differ
 * from it, that none exists and it is created, or why it could not be told. Looks the
 * record up; throws only when the service refuses the token.
 */
export async function adoptionPreview(impl: ProviderImpl, adopter: AdoptionLookup, inputs: Props): Promise<string> {
  const key = adopter.key(inputs);
  if (key === undefined)
    return `adopt: the ${adopter.noun} is identified by values known only during pulumi up; it is adopted then if it exists`;
  try {
    const client = getClient();
    const found = await adopter.find(client, inputs);
    if (!found) return `adopt: no ${adopter.noun} ${key} exists; pulumi up creates it`;
    const current = await impl.read(found.id, found.seed);
    // A value known only during pulumi up (a reference to another resource) cannot be judged now.
    const pending = Object.keys(inputs).filter((k) => !NOT_PROPERTIES.has(k) && isUnknown(inputs[k]));
    const judged = Object.fromEntries(Object.entries(inputs).filter(([k]) => !pending.includes(k)));
    const changed = await changedInputs(impl, found.id, current.props ?? {}, judged);
    const later = pending.length ? ` (${pending.join(", ")} known only during pulumi up)` : "";
    return `adopt: pulumi up adopts the existing ${found.label}; ${describeChanges(changed)}${later}`;
  } catch (err) {
    // A refused token fails every look-up after this one too: it ends the operation instead.
    const refused = tokenRefused(err);
    if (refused) throw refused;
    return `adopt: could not look up the ${adopter.noun} ${key} (${describe(err)}); pulumi up tries again`;
  }
}

/** Outputs that carry `adopt` and the origin along, so that a refresh can rebuild the inputs from them. */
export function echoAdopt(outs: Props | undefined, from: Props): Props | undefined {
  if (!outs) return outs;
  const echoed = [ADOPT, ORIGIN_KEY].filter((k) => from[k] !== undefined);
  if (echoed.length === 0) return outs;
  return { ...outs, ...Object.fromEntries(echoed.map((k) => [k, from[k]])) };
}

/** Reads `found` and brings it to the declared inputs: one update of what differs, or none. */
async function takeOver(
  impl: ProviderImpl,
  adopter: Adopter,
  client: WorkspacesClient,
  inputs: Props,
  found?: Found,
): Promise<{ id: string; outs: Props } | undefined> {
  const existing = await readExisting(impl, adopter, client, inputs, found);
  if (!existing) return undefined;
  const { props } = existing;
  const id = existing.found.id;
  const changed = await changedInputs(impl, id, props, inputs);
  const outs = changed.length === 0 ? props : (await impl.update(id, props, inputs)).outs;
  return { id, outs: echoAdopt(outs, inputs)! };
}

/**
 * `impl` that reports, for a new resource marked `adopt: true`, what `pulumi up` will do
 * (see adoptionPreview): the one way every resource that accepts `adopt` reports it, in
 * `check`, the only call a preview makes for a new resource. `check` also validates
 * `adopt`, and `previewAdoption` gives the same line to callers that want it.
 */
export function reportsAdoption<I extends Props, O extends Props>(
  impl: ProviderImpl<I, O>,
  lookup: AdoptionLookup,
): ProviderImpl<I, O> {
  const previewAdoption = (inputs: Props) => adoptionPreview(impl, lookup, inputs);
  return {
    ...impl,
    previewAdoption,

    async check(olds, news): Promise<CheckResult<I>> {
      const result = await impl.check(olds, news);
      const failures: CheckFailure[] = [...result.failures];
      const adopt = news[ADOPT];
      if (
        adopt !== undefined &&
        !isUnknown(adopt) &&
        typeof adopt !== "boolean" &&
        !failures.some((f) => f.property === ADOPT)
      ) {
        failures.push({ property: ADOPT, reason: "adopt must be true or false" });
      }
      if (adopt === true && isEmpty(olds) && failures.length === 0) {
        reportInfo(await previewAdoption(result.inputs));
      }
      return { ...result, failures };
    },
  };
}

/**
 * `impl` with adoption: `check` reports it (see reportsAdoption), `create` adopts an
 * existing record when asked and explains a taken name when not, and every output set
 * carries `adopt` along.
 */
export function adoptable(impl: ProviderImpl, adopter: Adopter): ProviderImpl {
  return {
    ...reportsAdoption(impl, adopter),

    async create(inputs) {
      const client = getClient();
      if (inputs[ADOPT] === true) {
        const adopted = await takeOver(impl, adopter, client, inputs);
        if (adopted) return adopted;
      }
      try {
        const created = await impl.create(withOrigin(inputs));
        return { ...created, outs: echoAdopt(created.outs, inputs)! };
      } catch (err) {
        if (!adopter.isTaken(err)) throw err;
        // This resource's own record, made by an update that stopped before the engine recorded it.
        const found = await adopter.find(client, inputs).catch(() => undefined);
        if (found?.source && sameOrigin(inputs, found.source)) {
          const taken = await takeOver(impl, adopter, client, inputs, found);
          if (taken) {
            reportInfo(`took over ${found.label}, created by an interrupted update of this stack`);
            return taken;
          }
        }
        const existing = await adopter.describeExisting(client, inputs).catch(() => undefined);
        const what = existing ?? `${adopter.noun} ${adopter.key(inputs) ?? ""}`.trim();
        throw new ProviderError(
          `${what} already exists. To manage it from this stack, set adopt: true on this resource: pulumi up then takes it ` +
            `over and changes only what the program declares differently. ${adopter.otherwise}`,
        );
      }
    },

    async read(id, props) {
      const result = await impl.read(id, props);
      return result.props ? { ...result, props: echoAdopt(result.props, props) } : result;
    },

    async update(id, olds, news) {
      const result = await impl.update(id, olds, news);
      return { outs: echoAdopt(result.outs, news)! };
    },
  };
}

// ---------------------------------------------------------------------------
// The three kinds

/** A create refused because the name is taken: 422 from the hosted service, 409 from OTF and others. */
export function nameTaken(err: unknown): boolean {
  if (err instanceof ConflictError) return err.reason === "already-exists";
  return (
    err instanceof ValidationError && err.problems.some((p) => /already been taken|already exists/i.test(p.detail))
  );
}
