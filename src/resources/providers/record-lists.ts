/**
 * One provider for every list of ids that a record owned elsewhere holds and that a
 * resource manages in `authoritative` or `additive` mode: the three lists of an agent pool
 * (./agent-pool-lists.ts), the four of a policy set (./policy-set-lists.ts). The lists
 * differ in the owner record, the relationship, the kind of id, the argument's name and how
 * the service writes a list (a whole list replaced, or ids added and removed); each owner's
 * module says so in a small table of lists (./record-list-rules.ts). Id: the owner's id.
 *
 * Additive mode is a read-modify-write of the list, taken in turn per owner in this process
 * (../process/in-turn.ts), so that two resources adding to one list in one `up` never lose
 * each other's ids, whichever way the service writes it.
 */
import type { WorkspacesClient } from "../../client";
import { ValidationError } from "../../client/typed-errors";
import { CLAIMANT_KEY, claimedItems, holderOf } from "../process/claims";
import { inTurn } from "../process/in-turn";
import { getClient, isNotFound } from "./client";
import { diffFields, sameStringSet, type FieldRule } from "./compare";
import { childRecord, unlessGone, updatedUnlessGone } from "./gone";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import { checkList, claimFailures, holdingOf, idsOf, label, modeOf, type RecordList } from "./record-list-rules";
import type { OwnershipMode } from "../workspace-tags";

/** A list the service writes by adding and removing ids (`POST`/`DELETE .../relationships/...`). */
export function byDelta(
  add: (client: WorkspacesClient, ownerId: string, ids: string[]) => Promise<unknown>,
  remove: (client: WorkspacesClient, ownerId: string, ids: string[]) => Promise<unknown>,
): RecordList<unknown>["write"] {
  return async (client, ownerId, current, next) => {
    const adding = next.filter((id) => !current.includes(id));
    const removing = current.filter((id) => !next.includes(id));
    if (adding.length > 0) await add(client, ownerId, adding);
    if (removing.length > 0) await remove(client, ownerId, removing);
    return next;
  };
}

/** Inputs and outputs as the engine hands them over: the owner, the list and the added ids under the kind's own names. */
type ListProps = { mode?: OwnershipMode; organization?: string | null } & Props;

/** `apool-...`, or `apool-.../<list>` as an import may write it -> `apool-...`. */
export function ownerIdOf(id: string): string {
  const slash = id.indexOf("/");
  return slash > 0 ? id.slice(0, slash) : id;
}

function missing<R>(client: WorkspacesClient, list: RecordList<R>, ownerId: string, props: Props) {
  return childRecord(client, { label: label(list, ownerId), kind: list.owner.noun }, props, []);
}

/**
 * The refusal of the owner as read (see RecordList.refusal), at check when its id is known.
 * A read that fails says nothing here: the write reports it.
 */
async function refusalFailures<R>(list: RecordList<R>, ownerId: string): Promise<CheckFailure[]> {
  if (!list.refusal || list.accepted?.(ownerId)) return [];
  const record = await list.owner.read(getClient(), ownerId).catch(() => undefined);
  const why = record === undefined ? undefined : list.refusal(record);
  return why === undefined ? [] : [{ property: list.owner.arg, reason: refused(list, ownerId, why) }];
}

function refused<R>(list: RecordList<R>, ownerId: string, why: string): string {
  return `cannot set ${label(list, ownerId)}: ${why}`;
}

/** The outputs as the service shows the list: the managed ids (all of them in authoritative mode) and those this resource added. */
function outputsOf<R>(
  list: RecordList<R>,
  ownerId: string,
  organization: unknown,
  inputs: Props,
  current: string[],
  added: string[],
): ListProps {
  const mode = modeOf(inputs);
  const all = [...current].sort();
  return {
    [list.owner.arg]: ownerId,
    mode,
    [list.arg]: mode === "authoritative" ? all : idsOf(inputs[list.arg]).filter((id) => all.includes(id)),
    [list.added]: mode === "additive" ? added.filter((id) => all.includes(id)).sort() : [],
    organization: typeof organization === "string" && organization !== "" ? organization : null,
  };
}

/** The error of a create whose owner the service answered 404 for: the owner's id names no record this token may see. */
function noOwner<R>(list: RecordList<R>, ownerId: string): ProviderError {
  const { owner } = list;
  return new ProviderError(
    `cannot set ${label(list, ownerId)}: the service answered 404 for ${owner.noun} ${ownerId}, so it does not exist or the token in use may not see it. ` +
      `Check ${owner.arg}, or use ${owner.manager}.`,
  );
}

/**
 * The write of the list. The owner was just read, so a 404 or a 422 concerns the ids it
 * lists: one message that names them and the way out.
 */
async function write<R>(
  client: WorkspacesClient,
  list: RecordList<R>,
  ownerId: string,
  current: string[],
  ids: string[],
): Promise<string[]> {
  try {
    return await list.write(client, ownerId, current, ids);
  } catch (err) {
    const refused = err instanceof ValidationError;
    if (!refused && !isNotFound(err)) throw err;
    const why = refused
      ? `the service refused the list (${err.problems.map((p) => p.detail).join("; ")})`
      : `the service answered 404, so one of them does not exist or the token in use may not see it, or the token may read the ${list.owner.short} but not manage it`;
    throw new ProviderError(
      `cannot set ${label(list, ownerId)} to ${JSON.stringify(ids)}: ${why}. ` +
        `Check ${list.arg}: each must be a ${list.idKind} of the ${list.owner.short}'s organization that the token may see` +
        (refused ? "." : `; or use ${list.owner.manager}.`),
    );
  }
}

/**
 * Brings the owner's list to the declaration, in the owner's turn: the whole list in
 * authoritative mode; in additive mode the declared ids added, and the ids this resource
 * added earlier and no longer declares removed. Writes nothing when the list already is as
 * it should be.
 */
function apply<R>(list: RecordList<R>, ownerId: string, inputs: Props, previouslyAdded: string[]): Promise<ListProps> {
  return inTurn(ownerId, async () => {
    const client = getClient();
    // A 404 here is the owner's (create and update each say what it means).
    const record = await list.owner.read(client, ownerId);
    const why = list.refusal?.(record);
    if (why !== undefined) throw new ProviderError(refused(list, ownerId, why));
    const current = list.of(record);
    const desired = idsOf(inputs[list.arg]);
    let next = desired;
    let added: string[] = [];
    if (modeOf(inputs) === "additive") {
      const add = desired.filter((id) => !current.includes(id));
      // An id another resource of the stack declares in this update (handed over) stays.
      const kept = claimedItems(list.relationship, ownerId);
      const drop = previouslyAdded.filter((id) => !desired.includes(id) && kept !== "all" && !kept.includes(id));
      next = [...current.filter((id) => !drop.includes(id)), ...add];
      added = Array.from(new Set([...previouslyAdded.filter((id) => desired.includes(id)), ...add]));
    }
    const after = sameStringSet(next, current) ? current : await write(client, list, ownerId, current, next);
    return outputsOf(list, ownerId, list.owner.organization(record), inputs, after, added);
  });
}

/** The claimant of the list `inputs` declare, for the signals: the resource that holds it, or the list's label. */
function claimantOf<R>(list: RecordList<R>, ownerId: string, inputs: Props): string {
  return holderOf(list.relationship, holdingOf(list, inputs)) ?? label(list, ownerId);
}

/** `apply`, with its landing (or failure) signalled to whoever waits for the list's write. */
async function applySignalled<R>(list: RecordList<R>, ownerId: string, inputs: Props, previouslyAdded: string[]) {
  const { signals } = list;
  const claimant = signals ? claimantOf(list, ownerId, inputs) : "";
  try {
    const outs = await apply(list, ownerId, inputs, previouslyAdded);
    signals?.written(ownerId, claimant);
    return outs;
  } catch (err) {
    signals?.failed(ownerId, claimant);
    throw err;
  }
}

const FIELDS = <R>(list: RecordList<R>): FieldRule[] => [
  { name: list.owner.arg, replaces: true },
  { name: "mode", same: (a, b) => modeOf({ mode: a }) === modeOf({ mode: b }) },
  { name: list.arg, same: (a, b) => sameStringSet(a, b) },
];

/** The provider of one kind of list. */
export function recordListProvider<R>(list: RecordList<R>): ProviderImpl<Props, ListProps> {
  const fields = FIELDS(list);
  const { owner, signals } = list;
  return {
    async check(_olds, news) {
      const { [CLAIMANT_KEY]: claimant, ...inputs } = news;
      if (inputs.mode === undefined) inputs.mode = "authoritative";
      const failures = checkList(list, inputs);
      const ids = inputs[list.arg];
      const ownerId = inputs[owner.arg];
      const known = failures.length === 0 && !isUnknown(ownerId);
      const complete = Array.isArray(ids) && !ids.some(isUnknown) && !isUnknown(inputs.mode);
      if (known && typeof claimant === "string") {
        if (complete) failures.push(...claimFailures(list, inputs, claimant));
        if (failures.length === 0) signals?.declared(String(ownerId), claimant);
      }
      if (known && failures.length === 0) failures.push(...(await refusalFailures(list, String(ownerId))));
      return { inputs, failures };
    },

    async diff(_id, olds, news) {
      const { changed, replaces } = diffFields(olds, news, fields);
      // Nothing to write: what its check declared is on the service already, so nothing
      // waits for a create or update that will not come.
      if (changed.length === 0 && signals && !isUnknown(news[owner.arg])) {
        const ownerId = String(news[owner.arg]);
        signals.written(ownerId, claimantOf(list, ownerId, news));
      }
      return { changes: changed.length > 0, replaces };
    },

    async create(inputs) {
      const ownerId = String(inputs[owner.arg]);
      const outs = await applySignalled(list, ownerId, inputs, []).catch((err: unknown) => {
        throw isNotFound(err) ? noOwner(list, ownerId) : err;
      });
      return { id: ownerId, outs };
    },

    async read(id, props) {
      const ownerId = ownerIdOf(id);
      const client = getClient();
      return unlessGone(
        client,
        () => missing(client, list, ownerId, props),
        "refresh",
        async () => {
          const record = await owner.read(client, ownerId);
          // Adopted through `get` or imported: the whole list, as an authoritative resource holds it.
          const inputs = props.mode === undefined ? { mode: "authoritative" } : props;
          const added = idsOf(props[list.added]);
          const organization = owner.organization(record) ?? props.organization;
          return { id: ownerId, props: outputsOf(list, ownerId, organization, inputs, list.of(record), added) };
        },
        () => ({}),
      );
    },

    async update(id, olds, news) {
      const ownerId = ownerIdOf(id);
      const client = getClient();
      const record = await missing(client, list, ownerId, olds);
      const previouslyAdded = modeOf(olds) === "additive" ? idsOf(olds[list.added]) : [];
      return {
        outs: await updatedUnlessGone(client, record, () => applySignalled(list, ownerId, news, previouslyAdded)),
      };
    },

    async delete(id, props) {
      const ownerId = ownerIdOf(id);
      const client = getClient();
      const ours = idsOf(props[list.added]);
      await unlessGone(
        client,
        () => missing(client, list, ownerId, props),
        "delete",
        () =>
          inTurn(ownerId, async () => {
            // What another resource of this stack declares of the list in this update (this
            // one renamed, or the list handed to other owners) stays.
            const kept = claimedItems(list.relationship, ownerId);
            if (kept === "all") return;
            const current = list.of(await owner.read(client, ownerId));
            const gone = modeOf(props) === "authoritative" ? current : ours;
            const next = current.filter((id) => !gone.includes(id) || kept.includes(id));
            // Written as is: an owner deleted since the read (deleted in parallel) is a 404
            // that unlessGone judges, not a refused list.
            if (!sameStringSet(next, current)) await list.write(client, ownerId, current, next);
          }),
        () => undefined,
      );
    },
  };
}
