/**
 * What the policy end-to-end tests do on the local server directly, over the wire the
 * hosted service speaks (go-tfe's shapes, not this package's client): make policies, policy
 * sets, their versions and parameters out of band, change them behind a program's back, and
 * read back what a program made.
 */
import { execFileSync } from "node:child_process";
import type { RunningServer } from "../../src/server";
import { attempts } from "./engine-steps";
import { api } from "./harness";
import { read } from "./interrupt";
import { expectStatus } from "./server-helpers";

/** A policy as the server answers it. */
export interface ServerPolicy {
  id: string;
  name: string;
  kind: string;
  enforcementLevel: string;
  description: string | null;
}

/** A policy set as the server answers it, with its lists sorted. */
export interface ServerPolicySet {
  id: string;
  name: string;
  kind: string;
  global: boolean;
  policyIds: string[];
  workspaceIds: string[];
  projectIds: string[];
  workspaceExclusionIds: string[];
  projectExclusionIds: string[];
  currentVersionId: string | null;
}

/** A parameter as the server answers it (a sensitive one's value answered empty). */
export interface ServerParameter {
  id: string;
  key: string;
  value: string | null;
  sensitive: boolean;
}

const refs = (type: string, ids: readonly string[] = []) => ({ data: ids.map((id) => ({ type, id })) });

/** Sends `body` as the raw bytes of an upload (`PUT` to the absolute `url`), as go-tfe does. */
async function upload(server: RunningServer, url: string, body: Buffer | string): Promise<void> {
  const res = await fetch(url, {
    method: "PUT",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/octet-stream" },
    body,
  });
  if (res.status >= 300) throw new Error(`PUT ${url}: HTTP ${res.status} ${await res.text()}`);
}

/** A policy made on the server with its code uploaded; its id. */
export async function createPolicy(
  server: RunningServer,
  o: { name: string; kind?: string; level: string; code: string; query?: string; description?: string },
): Promise<string> {
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/policies`, {
      method: "POST",
      body: {
        data: {
          type: "policies",
          attributes: {
            name: o.name,
            kind: o.kind ?? "sentinel",
            "enforcement-level": o.level,
            ...(o.query === undefined ? {} : { query: o.query }),
            ...(o.description === undefined ? {} : { description: o.description }),
          },
        },
      },
    }),
    [201],
    `create policy ${o.name}`,
  );
  await uploadPolicyCode(server, body.data.id, o.code);
  return body.data.id;
}

/** Replaces a policy's code on the server (`PUT /policies/:id/upload`). */
export function uploadPolicyCode(server: RunningServer, id: string, code: string): Promise<void> {
  return upload(server, `${server.url}/policies/${id}/upload`, code);
}

/** A policy set made on the server (its lists given at create, as go-tfe gives them); its id. */
export async function createPolicySet(
  server: RunningServer,
  o: {
    name: string;
    kind?: string;
    description?: string;
    global?: boolean;
    overridable?: boolean;
    policyIds?: string[];
    workspaceIds?: string[];
    projectIds?: string[];
    workspaceExclusionIds?: string[];
    projectExclusionIds?: string[];
  },
): Promise<string> {
  const body = await expectStatus(
    api<any>(server, `/organizations/${server.organization}/policy-sets`, {
      method: "POST",
      body: {
        data: {
          type: "policy-sets",
          attributes: {
            name: o.name,
            kind: o.kind ?? "sentinel",
            ...(o.description === undefined ? {} : { description: o.description }),
            ...(o.global === undefined ? {} : { global: o.global }),
            ...(o.overridable === undefined ? {} : { overridable: o.overridable }),
          },
          relationships: {
            ...(o.policyIds ? { policies: refs("policies", o.policyIds) } : {}),
            ...(o.workspaceIds ? { workspaces: refs("workspaces", o.workspaceIds) } : {}),
            ...(o.projectIds ? { projects: refs("projects", o.projectIds) } : {}),
            ...(o.workspaceExclusionIds ? { "workspace-exclusions": refs("workspaces", o.workspaceExclusionIds) } : {}),
            ...(o.projectExclusionIds ? { "project-exclusions": refs("projects", o.projectExclusionIds) } : {}),
          },
        },
      },
    }),
    [201],
    `create policy set ${o.name}`,
  );
  return body.data.id;
}

/** A gzipped tarball of `dir`'s contents, as a policy set version's upload carries it. */
function tarball(dir: string): Buffer {
  return execFileSync("tar", ["-czf", "-", "-C", dir, "."]);
}

/** Uploads `dir` as a new version of the set (create the version, PUT its upload link); the version's id. */
export async function uploadPolicySetVersion(server: RunningServer, setId: string, dir: string): Promise<string> {
  const body = await expectStatus(
    api<any>(server, `/policy-sets/${setId}/versions`, { method: "POST" }),
    [201],
    `create a version of ${setId}`,
  );
  // The link is absolute or from the server's root.
  await upload(server, new URL(body.data.links.upload, server.url).toString(), tarball(dir));
  return body.data.id;
}

/** A parameter made on the server; its id. */
export async function createParameter(
  server: RunningServer,
  setId: string,
  o: { key: string; value: string; sensitive?: boolean },
): Promise<string> {
  const body = await expectStatus(
    api<any>(server, `/policy-sets/${setId}/parameters`, {
      method: "POST",
      body: {
        data: {
          type: "vars",
          attributes: { key: o.key, value: o.value, category: "policy-set", sensitive: o.sensitive ?? false },
        },
      },
    }),
    [201],
    `create parameter ${o.key} of ${setId}`,
  );
  return body.data.id;
}

/** `PATCH /policies/:id` with these attributes. */
export async function patchPolicy(
  server: RunningServer,
  id: string,
  attributes: Record<string, unknown>,
): Promise<void> {
  await expectStatus(
    api(server, `/policies/${id}`, { method: "PATCH", body: { data: { type: "policies", attributes } } }),
    [200],
    `update policy ${id}`,
  );
}

/** Adds (`POST`) or removes (`DELETE`) ids of one of a set's lists (`workspaces`, `projects`, `workspace-exclusions`...). */
export async function changeSetList(
  server: RunningServer,
  setId: string,
  list: string,
  method: "POST" | "DELETE",
  ids: string[],
): Promise<void> {
  const type = list.includes("project") ? "projects" : list === "policies" ? "policies" : "workspaces";
  await expectStatus(
    api(server, `/policy-sets/${setId}/relationships/${list}`, { method, body: refs(type, ids) }),
    [200, 204],
    `${method} ${list} of ${setId}`,
  );
}

const ids = (rel: any): string[] => ((rel?.data ?? []) as Array<{ id: string }>).map((r) => r.id).sort();

/** The policy `id` as the server answers it. */
export async function policyOnServer(server: RunningServer, id: string): Promise<ServerPolicy> {
  const { data } = await read(server, `/policies/${id}`);
  const a = data.attributes;
  return {
    id: data.id,
    name: a.name,
    kind: a.kind,
    enforcementLevel: a["enforcement-level"] ?? a.enforce?.[0]?.mode,
    description: a.description ?? null,
  };
}

/** The code of the policy `id` (`GET /policies/:id/download`), waiting out the rate limit as `read` does. */
export async function policyCode(server: RunningServer, id: string): Promise<string> {
  return attempts(`download of ${id}`, 40, 250, async () => {
    const res = await fetch(`${server.url}/policies/${id}/download`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    if (res.status === 429) throw new Error("the rate limit answered 429");
    if (res.status !== 200) throw new Error(`download of ${id}: HTTP ${res.status}`);
    return res.text();
  });
}

/** The set `id` as the server answers it. */
export async function policySetOnServer(server: RunningServer, id: string): Promise<ServerPolicySet> {
  const { data } = await read(server, `/policy-sets/${id}`);
  const r = data.relationships ?? {};
  return {
    id: data.id,
    name: data.attributes.name,
    kind: data.attributes.kind,
    global: data.attributes.global,
    policyIds: ids(r.policies),
    workspaceIds: ids(r.workspaces),
    projectIds: ids(r.projects),
    workspaceExclusionIds: ids(r["workspace-exclusions"]),
    projectExclusionIds: ids(r["project-exclusions"]),
    currentVersionId: r["current-version"]?.data?.id ?? null,
  };
}

/** Whether the record at `path` (`/policies/pol-1`, `/policy-sets/polset-1`) reads 404. */
export async function gone(server: RunningServer, path: string): Promise<boolean> {
  return (await api(server, path)).status === 404;
}

/** Every page of an organization's collection (`policies`, `policy-sets`), as the server answers it. */
async function listAll(server: RunningServer, collection: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const body = await read(
      server,
      `/organizations/${server.organization}/${collection}?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
    );
    out.push(...body.data);
    if (!body.meta?.pagination?.["next-page"]) return out;
  }
}

/** The organization's policies, by name and id, sorted by name. */
export async function policiesOnServer(server: RunningServer): Promise<Array<{ id: string; name: string }>> {
  return (await listAll(server, "policies"))
    .map((p) => ({ id: p.id, name: p.attributes.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The organization's policy sets, by name and id, sorted by name. */
export async function policySetsOnServer(server: RunningServer): Promise<Array<{ id: string; name: string }>> {
  return (await listAll(server, "policy-sets"))
    .map((p) => ({ id: p.id, name: p.attributes.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The parameters of a set as the server answers them, sorted by key. */
export async function parametersOnServer(server: RunningServer, setId: string): Promise<ServerParameter[]> {
  const body = await read(server, `/policy-sets/${setId}/parameters?page%5Bsize%5D=100`);
  return (body.data as any[])
    .map((p) => ({ id: p.id, key: p.attributes.key, value: p.attributes.value, sensitive: p.attributes.sensitive }))
    .sort((a, b) => a.key.localeCompare(b.key));
}
