/**
 * The service's own policies, in the organization stack (organization.json): the records made
 * over HTTP before the first step (a policy and its code, a set with a parameter and its four
 * lists, which the import step takes over), what the server holds for the stack's own after
 * each step, the drift made over HTTP, and what the checkpoint holds of the parameters' values.
 */
import type { RunningServer } from "../../src/server";
import { expectStatus } from "../e2e/server-helpers";
import { api, isSealed } from "./organization-agents";
import { organization, type PoliciesExpected } from "./organization";

/** A JSON:API write that must succeed; its body. */
function write(server: RunningServer, method: string, path: string, body: unknown, what: string): Promise<any> {
  return expectStatus(api<any>(server, path, { method, body }), [200, 201, 204], what);
}

function read(server: RunningServer, path: string, what: string): Promise<any> {
  return expectStatus(api<any>(server, path), [200], what);
}

/** A policy's code, sent as the service takes it: raw bytes. */
async function uploadCode(server: RunningServer, policyId: string, code: string): Promise<void> {
  const res = await fetch(`${server.url}/policies/${policyId}/upload`, {
    method: "PUT",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/octet-stream" },
    body: code,
  });
  if (!res.ok) throw new Error(`upload the code of ${policyId}: HTTP ${res.status} ${await res.text()}`);
}

async function downloadCode(server: RunningServer, policyId: string): Promise<string> {
  const res = await fetch(`${server.url}/policies/${policyId}/download`, {
    headers: { authorization: `Bearer ${server.token}` },
  });
  if (!res.ok) throw new Error(`download the code of ${policyId}: HTTP ${res.status} ${await res.text()}`);
  return res.text();
}

const refs = (type: "workspaces" | "projects", ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

/**
 * Made over HTTP before the first step: their policy (with its code), the project their set
 * leaves out, and their set with its four lists and a parameter. `workspaceIds`,
 * `projectIds`: the ids of the workspaces and projects made over HTTP, by name.
 */
export async function makePolicyRecords(
  server: RunningServer,
  workspaceIds: Record<string, string>,
  projectIds: Record<string, string>,
): Promise<{
  theirPolicyId: string;
  theirPolicySetId: string;
  theirParameterId: string;
  theirExcludedProjectId: string;
}> {
  const org = server.organization;
  const t = organization.server.theirs;
  const { code, ...policy } = t.policy;
  const made = await write(
    server,
    "POST",
    `/organizations/${org}/policies`,
    { data: { type: "policies", attributes: policy } },
    "their policy",
  );
  await uploadCode(server, made.data.id, code);
  const excluded = await write(
    server,
    "POST",
    `/organizations/${org}/projects`,
    { data: { type: "projects", attributes: t.excludedProject } },
    "the project their set leaves out",
  );
  const projects = { ...projectIds, [t.excludedProject.name]: excluded.data.id };
  const { name, description, parameter, ...lists } = t.policySet;
  const set = await write(
    server,
    "POST",
    `/organizations/${org}/policy-sets`,
    {
      data: {
        type: "policy-sets",
        attributes: { name, description },
        relationships: {
          workspaces: refs(
            "workspaces",
            lists.workspaces.map((n) => workspaceIds[n]),
          ),
          "workspace-exclusions": refs(
            "workspaces",
            lists["workspace-exclusions"].map((n) => workspaceIds[n]),
          ),
          projects: refs(
            "projects",
            lists.projects.map((n) => projects[n]),
          ),
          "project-exclusions": refs(
            "projects",
            lists["project-exclusions"].map((n) => projects[n]),
          ),
        },
      },
    },
    "their policy set",
  );
  const param = await write(
    server,
    "POST",
    `/policy-sets/${set.data.id}/parameters`,
    { data: { type: "vars", attributes: { ...parameter, category: "policy-set" } } },
    "their set's parameter",
  );
  return {
    theirPolicyId: made.data.id,
    theirPolicySetId: set.data.id,
    theirParameterId: param.data.id,
    theirExcludedProjectId: excluded.data.id,
  };
}

/** A record's ids on one of its relationships. */
const related = (record: any, name: string): string[] =>
  (record.relationships?.[name]?.data ?? []).map((x: { id: string }) => x.id);

/** The last part of a resource's id: a parameter's `var-` id, whether or not its set's id comes first. */
const lastPart = (id: string) => id.slice(id.lastIndexOf("/") + 1);

/**
 * The stack's policy, its set of policies and its uploaded set as the server holds them, in
 * the terms of `want` (the attributes it names; names for ids by `names`); `ids` are the
 * stack's ids by resource name.
 */
export async function policiesHeld(
  server: RunningServer,
  ids: Record<string, string>,
  names: (kind: "policies" | "workspaces", ids: string[]) => Promise<string[]>,
  want: PoliciesExpected,
): Promise<PoliciesExpected> {
  const pick = (attributes: any, w: object) => Object.fromEntries(Object.keys(w).map((k) => [k, attributes[k]]));
  const policy = (await read(server, `/policies/${ids["require-tags"]}`, "the stack's policy")).data;
  const set = (await read(server, `/policy-sets/${ids.guardrails}`, "the stack's set")).data;
  const folderSet = (await read(server, `/policy-sets/${ids.everywhere}`, "the stack's uploaded set")).data;
  const versionId: string | undefined = folderSet.relationships?.["current-version"]?.data?.id;
  const version = versionId
    ? (await read(server, `/policy-set-versions/${versionId}`, "its current version")).data.attributes.status
    : "none";
  const parameters = (await read(server, `/policy-sets/${ids.everywhere}/parameters`, "its parameters")).data;
  return {
    policy: {
      attributes: pick(policy.attributes, want.policy.attributes),
      code: await downloadCode(server, policy.id),
    },
    set: {
      attributes: pick(set.attributes, want.set.attributes),
      policies: (await names("policies", related(set, "policies"))).sort(),
      workspaces: (await names("workspaces", related(set, "workspaces"))).sort(),
    },
    folderSet: {
      attributes: pick(folderSet.attributes, want.folderSet.attributes),
      version,
      exclusions: (await names("workspaces", related(folderSet, "workspace-exclusions"))).sort(),
      parameters: Object.fromEntries(
        parameters.map((p: any) => [
          p.attributes.key,
          { value: p.attributes.value || null, sensitive: p.attributes.sensitive },
        ]),
      ),
    },
  };
}

/** Every answer about the stack's parameters, as text: where no sensitive value may appear. */
export async function parameterAnswers(server: RunningServer, ids: Record<string, string>): Promise<string> {
  const list = await read(server, `/policy-sets/${ids.everywhere}/parameters`, "its parameters");
  const one = await Promise.all(
    Object.keys(ids)
      .filter((k) => k.startsWith("everywhere-") && k !== "everywhere-excluded")
      .map((k) => read(server, `/policy-sets/${ids.everywhere}/parameters/${lastPart(ids[k])}`, k)),
  );
  return JSON.stringify([list, ...one]);
}

/**
 * The drift of organization.json made over HTTP: the policy's code uploaded and its level
 * changed, the set's attributes and the plain parameter's value changed, a workspace
 * detached from the set.
 */
export async function driftPolicies(
  server: RunningServer,
  ids: Record<string, string>,
  workspaceIds: Record<string, string>,
): Promise<void> {
  const d = organization.drift.policies;
  await uploadCode(server, ids["require-tags"], d.code);
  await write(
    server,
    "PATCH",
    `/policies/${ids["require-tags"]}`,
    { data: { type: "policies", id: ids["require-tags"], attributes: d.policy } },
    "drift the policy",
  );
  await write(
    server,
    "PATCH",
    `/policy-sets/${ids.guardrails}`,
    { data: { type: "policy-sets", id: ids.guardrails, attributes: d.set } },
    "drift the set",
  );
  const param = lastPart(ids["everywhere-region"]);
  await write(
    server,
    "PATCH",
    `/policy-sets/${ids.everywhere}/parameters/${param}`,
    { data: { type: "vars", id: param, attributes: d.parameter } },
    "drift the parameter",
  );
  await write(
    server,
    "DELETE",
    `/policy-sets/${ids.guardrails}/relationships/workspaces`,
    refs("workspaces", [workspaceIds[d.detached]]),
    "drift: detach a workspace from the set",
  );
}

/** The names of the organization's policies (`policies`) or policy sets (`policy-sets`). */
export async function policyNames(server: RunningServer, kind: "policies" | "policy-sets"): Promise<string[]> {
  const body = await read(server, `/organizations/${server.organization}/${kind}?page%5Bsize%5D=100`, `list ${kind}`);
  return body.data.map((x: any) => x.attributes.name).sort();
}

/**
 * What the checkpoint holds of each parameter's value, `<urn name>: <what is wrong>` where
 * it is not as it must be: a sensitive one's value encrypted in its inputs and in its
 * `sensitiveValue` output (its `value` output empty, or encrypted too), a plain one's readable
 * in both.
 */
export function parameterValueProblems(
  resources: { urn: string; type: string; inputs?: any; outputs?: any }[],
): string[] {
  return resources
    .filter((r) => r.type === "workspaces:index:PolicySetParameter")
    .flatMap((r) => {
      const name = r.urn.split("::").pop();
      const [input, output, sealedOutput] = [r.inputs?.value, r.outputs?.value, r.outputs?.sensitiveValue];
      const problems: string[] = [];
      if (r.inputs?.sensitive === true) {
        if (!isSealed(input)) problems.push("its input value is not encrypted");
        if (!isSealed(sealedOutput)) problems.push("its sensitiveValue output is not encrypted");
        if (output !== undefined && output !== null && output !== "" && !isSealed(output))
          problems.push(`its value output is ${JSON.stringify(output)}, neither empty nor encrypted`);
      } else {
        if (typeof input !== "string") problems.push("its input value is not readable");
        if (typeof output !== "string") problems.push("its value output is not readable");
      }
      return problems.map((p) => `${name}: ${p}`);
    });
}
