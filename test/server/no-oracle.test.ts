/**
 * No existence oracle: for every route the server registers, a token of a user of another
 * organisation (B) asking for a record of organisation A that exists gets byte for byte
 * what it gets for an unknown id of the same kind (status and body, ids and timestamps
 * masked). The routes come from the domains' own registrations, so a new route is walked
 * without being listed here, and a route whose parameters this test cannot fill fails.
 */
import type { FastifyInstance, RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server";
import type { Domain } from "../../src/server/context";
import { DOMAINS } from "../../src/server/domains";
import { Api, createWorkspace, expectStatus, makeTeam, makeUser, uploadState } from "./helpers";
import { enableModule, publishModule } from "./no-code-support";

/** Routes that address no record of an organisation: nothing of A to tell apart. */
const ADDRESS_NO_RECORD = new Set([
  "GET /ping",
  "GET /account/details",
  "GET /organizations",
  "POST /organizations",
  "POST /admin/users",
  // A user is no organisation's record: any signed-in caller reads one, as on the service.
  "GET /users/:id",
  // The site administrator's plans and policy tool versions are no organisation's records.
  "GET /admin/feature-sets",
  "GET /admin/sentinel-versions",
  "POST /admin/sentinel-versions",
  "GET /admin/opa-versions",
  "POST /admin/opa-versions",
]);

let server: RunningServer;
let owner: Api;
let outsider: Api;
const routes = new Set<string>();
/** A's records by the kind of value a route parameter names. */
const records: Record<string, string> = {};

/** The server's domains, behind a first one that writes down every route the others register. */
function listed(): Domain[] {
  const recorder: Domain = {
    name: "route-recorder",
    routes(app: FastifyInstance) {
      app.addHook("onRoute", (r: RouteOptions) => {
        for (const m of [r.method].flat())
          if (m !== "HEAD" && m !== "OPTIONS") routes.add(`${m} ${r.url.replace(/^\/api\/v2/, "")}`);
      });
    },
  };
  return [recorder, ...DOMAINS];
}

const data = (type: string, attributes: Record<string, unknown> = {}, relationships?: Record<string, unknown>) => ({
  data: { type, attributes, ...(relationships ? { relationships } : {}) },
});
const rel = (type: string, id: string) => ({ data: { type, id } });

beforeAll(async () => {
  server = await startServer(
    { port: 0, db: ":memory:", rateLimit: false, selfManaged: true, runSpeed: 1000 },
    listed(),
  );
  owner = new Api(server.url, server.token);
  const org = server.organization;
  const id = (r: { body: { data: { id: string } } }) => r.body.data.id;

  // Organisation B and its only member.
  const b = await makeUser(owner, "outsider");
  outsider = owner.as(b.token);
  await expectStatus(
    outsider.post("/organizations", data("organizations", { name: "org-b", email: "b@example.com" })),
    201,
  );

  // One record of each kind in organisation A.
  records.organization = org;
  const ws = await createWorkspace(owner, org, "a-app", { "tag-names": ["a-tag"] });
  const source = await createWorkspace(owner, org, "a-source");
  records.workspace = ws.id;
  records.workspaceName = ws.attributes.name;
  records.project = id(
    await expectStatus(owner.post(`/organizations/${org}/projects`, data("projects", { name: "a-proj" })), 201),
  );
  const team = await makeTeam(owner, org, "a-team");
  records.team = team.id;
  records.teamWorkspace = id(
    await expectStatus(owner.post("/team-workspaces", carried("POST /team-workspaces", records).body), 201),
  );
  records.teamProject = id(
    await expectStatus(owner.post("/team-projects", carried("POST /team-projects", records).body), 201),
  );
  records.variable = id(
    await expectStatus(
      owner.post(`/workspaces/${ws.id}/vars`, data("vars", { key: "k", value: "v", category: "env" })),
      201,
    ),
  );
  records.varset = id(
    await expectStatus(owner.post(`/organizations/${org}/varsets`, data("varsets", { name: "a-set" })), 201),
  );
  records.varsetVariable = id(
    await expectStatus(
      owner.post(
        `/varsets/${records.varset}/relationships/vars`,
        data("vars", { key: "k", value: "v", category: "env" }),
      ),
      201,
    ),
  );
  records.notification = id(
    await expectStatus(
      owner.post(
        `/workspaces/${ws.id}/notification-configurations`,
        data("notification-configurations", {
          name: "n",
          "destination-type": "generic",
          enabled: false,
          url: "http://127.0.0.1:9/x",
        }),
      ),
      201,
    ),
  );
  records.runTrigger = id(
    await expectStatus(
      owner.post(
        `/workspaces/${ws.id}/run-triggers`,
        data("run-triggers", {}, { sourceable: rel("workspaces", source.id) }),
      ),
      201,
    ),
  );
  const sv = await uploadState(owner, ws.id, {
    version: 4,
    serial: 1,
    lineage: "a",
    outputs: { out: { value: "x", type: "string" } },
    resources: [],
  });
  records.stateVersion = sv.id;
  const outputs = await expectStatus(owner.get(`/state-versions/${sv.id}/outputs`), 200);
  records.stateVersionOutput = outputs.body.data[0].id;
  records.sshKey = id(
    await expectStatus(
      owner.post(`/organizations/${org}/ssh-keys`, data("ssh-keys", { name: "k", value: "KEY" })),
      201,
    ),
  );
  records.agentPool = id(
    await expectStatus(owner.post(`/organizations/${org}/agent-pools`, data("agent-pools", { name: "p" })), 201),
  );
  records.agentToken = id(
    await expectStatus(
      owner.post(
        `/agent-pools/${records.agentPool}/authentication-tokens`,
        data("authentication-tokens", { description: "t" }),
      ),
      201,
    ),
  );
  const oc = await expectStatus(
    owner.post(
      `/organizations/${org}/oauth-clients`,
      data("oauth-clients", {
        "service-provider": "github",
        "http-url": "https://github.com",
        "api-url": "https://api.github.com",
        "oauth-token-string": "ghp_x",
      }),
    ),
    201,
  );
  records.oauthClient = oc.body.data.id;
  records.oauthToken = oc.body.data.relationships["oauth-tokens"].data[0].id;
  records.registryModule = await publishModule(owner, org, "amod", ["1.0.0"]);
  records.moduleName = "amod";
  records.moduleProvider = "aws";
  records.moduleVersion = "1.0.0";
  records.registryName = "private";
  records.namespace = org;
  records.noCodeModule = (await enableModule(owner, org, records.registryModule)).id;
  const membership = await expectStatus(
    owner.post(
      `/organizations/${org}/organization-memberships`,
      data("organization-memberships", { email: "a@example.com" }),
    ),
    201,
  );
  records.membership = membership.body.data.id;
  records.user = membership.body.data.relationships.user.data.id;
  await expectStatus(
    owner.post(`/workspaces/${ws.id}/relationships/tags`, { data: [{ type: "tags", attributes: { name: "a-tag" } }] }),
    204,
  );
  const tags = await expectStatus(owner.get(`/organizations/${org}/tags`), 200);
  records.tag = tags.body.data[0].id;
  records.run = id(
    await expectStatus(owner.post("/runs", data("runs", {}, { workspace: rel("workspaces", ws.id) })), 201),
  );
  records.teamToken = id(
    await expectStatus(
      owner.post(`/teams/${team.id}/authentication-tokens`, data("authentication-tokens", { description: "ci" })),
      201,
    ),
  );
  records.policy = id(
    await expectStatus(
      owner.post(
        `/organizations/${org}/policies`,
        data("policies", { name: "a-pol", "enforcement-level": "advisory" }),
      ),
      201,
    ),
  );
  records.policySet = id(
    await expectStatus(owner.post(`/organizations/${org}/policy-sets`, data("policy-sets", { name: "a-polset" })), 201),
  );
  records.policySetParameter = id(
    await expectStatus(
      owner.post(
        `/policy-sets/${records.policySet}/parameters`,
        data("vars", { key: "k", value: "v", category: "policy-set" }),
      ),
      201,
    ),
  );
  records.policySetVersion = id(await expectStatus(owner.post(`/policy-sets/${records.policySet}/versions`), 201));
  records.toolVersion = id(
    await expectStatus(
      owner.post("/admin/sentinel-versions", data("sentinel-versions", { version: "0.0.1", url: "u", sha: "s" })),
      201,
    ),
  );
}, 60_000);
afterAll(() => server?.close());

/** What kind of record a route's parameter names, from the parameter and the path around it. */
function kindOf(route: string, param: string): string | undefined {
  const path = route.split(" ")[1];
  const first = path.split("/")[1];
  const byFirst: Record<string, string> = {
    "agent-pools": "agentPool",
    "authentication-tokens": "agentToken",
    "no-code-modules": "noCodeModule",
    "notification-configurations": "notification",
    "organization-memberships": "membership",
    "run-triggers": "runTrigger",
    "ssh-keys": "sshKey",
    "team-projects": "teamProject",
    "team-workspaces": "teamWorkspace",
    teams: "team",
    "oauth-clients": "oauthClient",
    "oauth-tokens": "oauthToken",
    "registry-modules": "registryModule",
    "state-version-outputs": "stateVersionOutput",
    "state-versions": "stateVersion",
    users: "user",
    workspaces: "workspace",
    projects: "project",
    policies: "policy",
    "policy-sets": "policySet",
    "policy-set-versions": "policySetVersion",
    // `/admin/sentinel-versions/:id` and `/admin/opa-versions/:id`
    admin: "toolVersion",
  };
  switch (param) {
    case "organization_name":
      return "organization";
    case "workspace_id":
      return "workspace";
    case "project_id":
      return "project";
    case "varset_id":
      return "varset";
    case "run_id":
      return "run";
    case "tag_id":
      return "tag";
    case "no_code_module_id":
      return "noCodeModule";
    case "policy_set_id":
      return "policySet";
    case "variable_id":
      return first === "varsets" ? "varsetVariable" : first === "policy-sets" ? "policySetParameter" : "variable";
    case "registry_name":
      return "registryName";
    case "namespace":
      return "namespace";
    case "provider":
      return "moduleProvider";
    case "version":
      return "moduleVersion";
    case "name":
      return path.includes("registry-modules") ? "moduleName" : "workspaceName";
    case "id":
      // An upgrade's id is the run of the upgrade.
      return path.includes("/upgrade/") ? "run" : byFirst[first];
  }
  return undefined;
}

/** Parameters that name no record but one of a fixed set (the registry: `private` or `public`): kept as they are. */
const FIXED = new Set(["registryName"]);

/** A value of the same shape as `real` that names nothing. */
const unknownLike = (real: string) => real.replace(/[A-Za-z0-9]+$/, (tail) => "Q".repeat(tail.length));

/** Query parameters and bodies that name a record, for the routes that take it there. */
function carried(route: string, ids: Record<string, string>): { query?: string; body?: unknown } {
  switch (route) {
    case "GET /team-workspaces":
      return { query: `?filter[workspace][id]=${ids.workspace}` };
    case "GET /team-projects":
      return { query: `?filter[project][id]=${ids.project}` };
    case "POST /team-workspaces":
      return {
        body: data(
          "team-workspaces",
          { access: "read" },
          { workspace: rel("workspaces", ids.workspace), team: rel("teams", ids.team) },
        ),
      };
    case "POST /team-projects":
      return {
        body: data(
          "team-projects",
          { access: "read" },
          { project: rel("projects", ids.project), team: rel("teams", ids.team) },
        ),
      };
    case "POST /runs":
      return { body: data("runs", {}, { workspace: rel("workspaces", ids.workspace) }) };
  }
  return {};
}

function mask(text: string, values: string[]): string {
  let out = text;
  for (const v of [...values].sort((a, b) => b.length - a.length)) out = out.split(v).join("<param>");
  return out.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>").replace(/\b[a-z]+-[A-Za-z0-9]{12,}\b/g, "<id>");
}

describe("no existence oracle", () => {
  it("every route answers a record of another organisation exactly as it answers an unknown id", async () => {
    expect(routes.size).toBeGreaterThan(100);
    const unfilled: string[] = [];
    const differ: string[] = [];
    let compared = 0;
    for (const route of [...routes].sort()) {
      if (ADDRESS_NO_RECORD.has(route)) continue;
      const [method, pattern] = route.split(" ");
      const params = [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const real: Record<string, string> = { ...records };
      const unknown: Record<string, string> = Object.fromEntries(
        Object.entries(records).map(([k, v]) => [k, FIXED.has(k) ? v : unknownLike(v)]),
      );
      const kinds = params.map((p) => kindOf(route, p));
      const noCarried = carried(route, real).query === undefined && carried(route, real).body === undefined;
      if (kinds.some((k) => k === undefined || records[k] === undefined) || (params.length === 0 && noCarried)) {
        unfilled.push(route);
        continue;
      }
      const answer = async (values: Record<string, string>) => {
        let i = 0;
        const path = pattern.replace(/:(\w+)/g, () => encodeURIComponent(values[kinds[i++]!]));
        const extra = carried(route, values);
        const body = method === "GET" || method === "DELETE" ? undefined : (extra.body ?? data("anything"));
        const r = await outsider.request(method, path + (extra.query ?? ""), body);
        const used = [...kinds.map((k) => values[k!]), ...Object.values(values)];
        return `${r.status} ${mask(r.text, used)}`;
      };
      const forReal = await answer(real);
      const forUnknown = await answer(unknown);
      compared += 1;
      if (forReal !== forUnknown) differ.push(`${route}\n  A's record: ${forReal}\n  unknown:    ${forUnknown}`);
    }
    expect(unfilled, "routes this test cannot fill: name their parameters' kinds in kindOf or carried").toEqual([]);
    expect(differ).toEqual([]);
    expect(compared).toBe(routes.size - ADDRESS_NO_RECORD.size);
  }, 120_000);

  it("a team token by id answers like an unknown id, on the path agent tokens share", async () => {
    for (const method of ["GET", "DELETE"]) {
      const real = await outsider.request(method, `/authentication-tokens/${records.teamToken}`);
      const unknown = await outsider.request(method, `/authentication-tokens/${unknownLike(records.teamToken)}`);
      expect(`${real.status} ${mask(real.text, [records.teamToken])}`).toBe(
        `${unknown.status} ${mask(unknown.text, [unknownLike(records.teamToken)])}`,
      );
      expect(real.status).toBe(404);
    }
    // The owner still reads it: the outsider's DELETE removed nothing.
    await expectStatus(owner.get(`/authentication-tokens/${records.teamToken}`), 200);
  });
});
