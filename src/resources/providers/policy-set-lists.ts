/**
 * Provider of `PolicySetWorkspaces`, `PolicySetProjects`, `PolicySetWorkspaceExclusions` and
 * `PolicySetProjectExclusions`: the four lists of a policy set that say where it applies,
 * served by the one provider of lists (./record-lists.ts). Id: the set's id (`polset-...`).
 *
 * The service adds and removes ids (`POST`/`DELETE /policy-sets/:id/relationships/...`).
 * A global set applies to every workspace, so its workspaces and projects are refused, at
 * check when the set can be read and before any write otherwise; its exclusions are not.
 */
import type { PolicySet } from "../../client";
import { dropPolicySet, readPolicySet } from "../process/policy-set-reads";
import { ValidationError } from "../../client/typed-errors";
import { declaredGlobal } from "../process/policy-set-globals";
import { byDelta, recordListProvider } from "./record-lists";
import type { ListOwner, RecordList } from "./record-list-rules";
import type { ProviderImpl } from "./types";

/** The four lists, by resource type name. */
export type PolicySetListKind =
  "PolicySetWorkspaces" | "PolicySetProjects" | "PolicySetWorkspaceExclusions" | "PolicySetProjectExclusions";

const SET: ListOwner<PolicySet> = {
  arg: "policySetId",
  idKind: "policySet",
  noun: "policy set",
  short: "set",
  manager: "a token that may manage policies (an owners token, the organization token or a team that manages policies)",
  // One read of the set per operation, shared with the set and its other lists (#1080).
  read: readPolicySet,
  organization: (set) => set.organization,
};

/**
 * A global set takes no workspaces or projects: the refusal of such a list. Global as the
 * program's `PolicySet` declares it when this process has diffed it, else as the set is.
 */
function notGlobal(set: PolicySet): string | undefined {
  return (declaredGlobal(set.id) ?? set.global)
    ? `policy set "${set.name}" is global, so it applies to every workspace of the organization already. ` +
        `Make the set not global (global: false on the PolicySet), or remove this resource; ` +
        `PolicySetWorkspaceExclusions and PolicySetProjectExclusions take workspaces out of a global set.`
    : undefined;
}

/** A list of a set: the client's `add<List>`/`remove<List>` and the read model's `<field>`. */
type ListName = "Workspaces" | "Projects" | "WorkspaceExclusions" | "ProjectExclusions";
type ListField = "workspaceIds" | "projectIds" | "workspaceExclusionIds" | "projectExclusionIds";

/** The list of one relationship of a set. */
function list(
  relationship: string,
  noun: string,
  ids: "workspace" | "project",
  name: ListName,
  field: ListField,
): RecordList<PolicySet> {
  const [arg, added] = ids === "workspace" ? ["workspaceIds", "addedWorkspaceIds"] : ["projectIds", "addedProjectIds"];
  const applies = name === "Workspaces" || name === "Projects";
  return {
    owner: SET,
    // Claims of a set's lists are their own kind of claims, apart from an agent pool's.
    relationship: `policy-set-${relationship}`,
    noun,
    arg,
    added,
    idKind: ids,
    of: (set) => set[field],
    write: byDelta(
      (client, setId, list) => client.policySets[`add${name}`](setId, list),
      async (client, setId, list) => {
        try {
          await client.policySets[`remove${name}`](setId, list);
        } catch (err) {
          // A workspace or project deleted since the set was read has left the list already
          // (the service refuses to remove an id it no longer knows): remove what is still there.
          if (!(err instanceof ValidationError)) throw err;
          dropPolicySet(client, setId);
          const still = new Set((await client.policySets.read(setId))[field]);
          const left = list.filter((id) => still.has(id));
          if (left.length === list.length) throw err;
          if (left.length > 0) await client.policySets[`remove${name}`](setId, left);
        }
      },
    ),
    refusal: applies ? notGlobal : undefined,
    // A set the program declares not global takes the list: a preview reads nothing (#1080).
    accepted: applies ? (setId) => declaredGlobal(setId) === false : undefined,
  };
}

const LISTS: Record<PolicySetListKind, RecordList<PolicySet>> = {
  PolicySetWorkspaces: list("workspaces", "workspaces", "workspace", "Workspaces", "workspaceIds"),
  PolicySetProjects: list("projects", "projects", "project", "Projects", "projectIds"),
  PolicySetWorkspaceExclusions: list(
    "workspace-exclusions",
    "workspace exclusions",
    "workspace",
    "WorkspaceExclusions",
    "workspaceExclusionIds",
  ),
  PolicySetProjectExclusions: list(
    "project-exclusions",
    "project exclusions",
    "project",
    "ProjectExclusions",
    "projectExclusionIds",
  ),
};

/** The provider of one kind of list. */
export function policySetListProvider(kind: PolicySetListKind): ProviderImpl {
  return recordListProvider(LISTS[kind]);
}
