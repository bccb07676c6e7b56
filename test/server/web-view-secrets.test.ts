/**
 * What the web view's session can read carries no secret: every GET route the server
 * registers, filled with every record of a seeded organisation (and each `include` the
 * server knows), then every link those answers give, read through the view's cookie as
 * the owners token. No answer holds a sensitive variable's value (workspace, variable
 * set, policy set parameter), a notification configuration's token, an SSH key, a VCS
 * client's OAuth token, or any token the service minted (team, organization, user, agent)
 * outside its create's answer.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_POOL_INCLUDES } from "../../src/api/agent-pools";
import { TEAM_MEMBER_INCLUDES } from "../../src/api/memberships";
import { NO_CODE_MODULE_INCLUDES } from "../../src/api/no-code";
import { POLICY_SET_INCLUDES } from "../../src/api/policy-sets";
import { RUN_TRIGGER_INCLUDES } from "../../src/api/run-triggers";
import { VARIABLE_SET_INCLUDES } from "../../src/api/variable-sets";
import { WORKSPACE_INCLUDES } from "../../src/api/workspaces";
import { registeredRoutes } from "../reliability/routes";
import { createWorkspace, expectStatus, grant, makeTeam, makeUser, start, type TestServer } from "./helpers";

const INCLUDES = [
  WORKSPACE_INCLUDES,
  VARIABLE_SET_INCLUDES,
  POLICY_SET_INCLUDES,
  RUN_TRIGGER_INCLUDES,
  TEAM_MEMBER_INCLUDES,
  AGENT_POOL_INCLUDES,
  NO_CODE_MODULE_INCLUDES,
  ["effective_tag_bindings"],
].map((list) => list.join(","));

/** Each route parameter's records, by the JSON:API type of what it names. */
const PARAMETER_TYPES: Record<string, string> = {
  workspace_id: "workspaces",
  project_id: "projects",
  varset_id: "varsets",
  policy_set_id: "policy-sets",
  variable_id: "vars",
  run_id: "runs",
  no_code_module_id: "no-code-modules",
};

const secret = (what: string) => `${what}-${randomBytes(12).toString("hex")}`;

let t: TestServer;
let cookie: string;
/** Every secret the seed wrote, by what it is. */
const secrets: Record<string, string> = {};
/** Every record seen, by type: what fills the routes' parameters. */
const records = new Map<string, Set<string>>();
const names = new Set<string>();
/** The id of each record that holds a secret: the scan must have read each one. */
const holders: Record<string, string> = {};

function collect(doc: unknown): void {
  if (doc === null || typeof doc !== "object") return;
  if (Array.isArray(doc)) return doc.forEach(collect);
  const o = doc as Record<string, unknown>;
  if (typeof o.id === "string" && typeof o.type === "string") {
    if (!records.has(o.type)) records.set(o.type, new Set());
    records.get(o.type)!.add(o.id);
  }
  for (const v of Object.values(o)) collect(v);
}

/** Every /api/v2 link an answer gives (self, related, pagination), without its origin. */
function linksOf(doc: unknown, into: Set<string>): void {
  if (doc === null || typeof doc !== "object") return;
  if (Array.isArray(doc)) return doc.forEach((d) => linksOf(d, into));
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (typeof v === "string" && (k === "self" || k === "related" || k === "next" || k === "first" || k === "last")) {
      const at = v.indexOf("/api/v2/");
      if (at >= 0) into.add(v.slice(at));
    } else linksOf(v, into);
  }
}

async function seed(): Promise<void> {
  const { api, org } = t;
  const keep = async (p: Parameters<typeof expectStatus>[0], status = 201) => {
    const r = await expectStatus(p, status);
    collect(r.body);
    return r.body?.data;
  };
  const project = await keep(
    api.post(`/organizations/${org}/projects`, { data: { type: "projects", attributes: { name: "platform" } } }),
  );
  const relProject = { project: { data: { type: "projects", id: project.id } } };
  const a = await createWorkspace(api, org, "network", {}, relProject);
  const b = await createWorkspace(api, org, "app", { "global-remote-state": false });
  for (const w of [a, b]) {
    collect({ data: w });
    names.add(w.attributes.name);
  }

  const vars = (attributes: Record<string, unknown>) => ({ data: { type: "vars", attributes } });
  secrets.workspaceVariable = secret("ws-var");
  holders.workspaceVariable = (
    await keep(
      api.post(
        `/workspaces/${a.id}/vars`,
        vars({ key: "db_password", value: secrets.workspaceVariable, category: "terraform", sensitive: true }),
      ),
    )
  ).id;
  await keep(api.post(`/workspaces/${a.id}/vars`, vars({ key: "region", value: "eu-west-1", category: "env" })));

  const set = await keep(
    api.post(`/organizations/${org}/varsets`, {
      data: { type: "varsets", attributes: { name: "cloud", global: false } },
    }),
  );
  secrets.setVariable = secret("set-var");
  holders.setVariable = (
    await keep(
      api.post(
        `/varsets/${set.id}/relationships/vars`,
        vars({ key: "api_key", value: secrets.setVariable, category: "env", sensitive: true }),
      ),
    )
  ).id;
  await expectStatus(
    api.post(`/varsets/${set.id}/relationships/workspaces`, { data: [{ type: "workspaces", id: a.id }] }),
    204,
  );
  await expectStatus(
    api.post(`/varsets/${set.id}/relationships/projects`, { data: [{ type: "projects", id: project.id }] }),
    204,
  );

  const policySet = await keep(
    api.post(`/organizations/${org}/policy-sets`, { data: { type: "policy-sets", attributes: { name: "guards" } } }),
  );
  secrets.policyParameter = secret("param");
  holders.policyParameter = (
    await keep(
      api.post(
        `/policy-sets/${policySet.id}/parameters`,
        vars({ key: "secret", value: secrets.policyParameter, category: "policy-set", sensitive: true }),
      ),
    )
  ).id;

  secrets.notificationToken = secret("nc-token");
  holders.notificationToken = (
    await keep(
      api.post(`/workspaces/${a.id}/notification-configurations`, {
        data: {
          type: "notification-configurations",
          attributes: {
            name: "ops",
            "destination-type": "generic",
            enabled: false,
            url: "http://127.0.0.1:9/hook",
            token: secrets.notificationToken,
            triggers: ["run:errored"],
          },
        },
      }),
    )
  ).id;

  // A Slack webhook's path is its credential: the view gets only its origin.
  secrets.slackWebhook = secret("slack");
  holders.slackWebhook = (
    await keep(
      api.post(`/workspaces/${a.id}/notification-configurations`, {
        data: {
          type: "notification-configurations",
          attributes: {
            name: "chat",
            "destination-type": "slack",
            enabled: false,
            url: `https://hooks.slack.com/services/T0/B0/${secrets.slackWebhook}`,
            triggers: ["run:errored"],
          },
        },
      }),
    )
  ).id;

  await keep(
    api.post(`/workspaces/${a.id}/run-triggers`, {
      data: { type: "run-triggers", relationships: { sourceable: { data: { type: "workspaces", id: b.id } } } },
    }),
  );
  await expectStatus(
    api.post(`/workspaces/${a.id}/relationships/remote-state-consumers`, { data: [{ type: "workspaces", id: b.id }] }),
    204,
  );

  const team = await makeTeam(api, org, "readers");
  secrets.teamToken = team.token;
  holders.teamToken = team.id;
  collect({ data: { id: team.id, type: "teams" } });
  await grant(api, team.id, a.id, "read");
  await keep(
    api.post(`/team-projects`, {
      data: {
        type: "team-projects",
        attributes: { access: "read" },
        relationships: {
          project: { data: { type: "projects", id: project.id } },
          team: { data: { type: "teams", id: team.id } },
        },
      },
    }),
  );
  const orgToken = await expectStatus(api.post(`/organizations/${org}/authentication-token`), 201);
  secrets.organizationToken = orgToken.body.data.attributes.token;
  holders.organizationToken = orgToken.body.data.id;
  const user = await makeUser(api, "viewer");
  secrets.userToken = user.token;
  holders.userToken = user.id;
  collect({ data: { id: user.id, type: "users" } });
  const pool = await keep(
    api.post(`/organizations/${org}/agent-pools`, { data: { type: "agent-pools", attributes: { name: "pool" } } }),
  );
  const agentToken = await expectStatus(
    api.post(`/agent-pools/${pool.id}/authentication-tokens`, {
      data: { type: "agent-tokens", attributes: { description: "ci" } },
    }),
    201,
  );
  secrets.agentToken = agentToken.body.data.attributes.token;
  holders.agentToken = agentToken.body.data.id;
  collect(agentToken.body);
  secrets.sshKey = secret("ssh-key");
  holders.sshKey = (
    await keep(
      api.post(`/organizations/${org}/ssh-keys`, {
        data: { type: "ssh-keys", attributes: { name: "deploy", value: secrets.sshKey } },
      }),
    )
  ).id;
  secrets.oauthTokenString = secret("oauth");
  holders.oauthTokenString = (
    await keep(
      api.post(`/organizations/${org}/oauth-clients`, {
        data: {
          type: "oauth-clients",
          attributes: {
            "service-provider": "github",
            "http-url": "https://github.com",
            "api-url": "https://api.github.com",
            "oauth-token-string": secrets.oauthTokenString,
          },
        },
      }),
    )
  ).id;
  secrets.ownersToken = t.server.token;
}

beforeAll(async () => {
  t = await start({ webView: true });
  await seed();
  const address = new URL(t.server.viewUrl());
  const code = new URLSearchParams(address.hash.slice(1)).get("code")!;
  const r = await fetch(new URL("/app/session", address), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code }),
  });
  expect(r.status).toBe(204);
  cookie = r.headers.get("set-cookie")!.split(";")[0];
});
afterAll(() => t.server.close());

describe("the web view's reads", () => {
  it("never carry a sensitive value or a token, on any GET route or link", { timeout: 120_000 }, async () => {
    const origin = t.server.url.replace(/\/api\/v2$/, "");
    const answers = new Map<string, { status: number; text: string }>();
    const read = async (path: string) => {
      if (answers.has(path)) return answers.get(path)!;
      const r = await fetch(origin + path, { headers: { cookie } });
      const answer = { status: r.status, text: await r.text() };
      answers.set(path, answer);
      if (answer.status === 200 && answer.text) collect(JSON.parse(answer.text));
      return answer;
    };
    const routes = (await registeredRoutes()).filter((r) => r.method === "GET");
    // A parameter's records: by its name, else by the segment before it (`/teams/:id`), else every record.
    const values = (url: string, param: string): string[] => {
      if (param === "organization_name") return [t.org];
      if (param === "name") return [...names];
      const before = new RegExp(`/([^/:]+)/:${param}\\b`).exec(url)?.[1];
      const type = PARAMETER_TYPES[param] ?? (before !== undefined && records.has(before) ? before : undefined);
      if (type) return [...(records.get(type) ?? [])];
      // A parameter of no known type (a registry module's namespace) with others: one guess, not every record.
      const every = [...records.values()].flatMap((ids) => [...ids]);
      return (url.match(/:/g) ?? []).length > 1 ? every.slice(0, 1) : every;
    };
    const paths = (url: string, params: string[]): string[] => {
      if (params.length === 0) return [url];
      const [first, ...rest] = params;
      return values(url, first).flatMap((v) => paths(url.replace(`:${first}`, encodeURIComponent(v)), rest));
    };
    // Two rounds: the first round's lists add records (memberships, tokens) the second reads.
    for (let round = 0; round < 2; round++)
      for (const route of routes)
        for (const path of paths(route.url, route.params)) {
          const full = `/api/v2${path}`;
          if ((await read(full)).status === 200 && round === 0)
            for (const include of INCLUDES) await read(`${full}?include=${encodeURIComponent(include)}`);
        }
    const links = new Set<string>();
    for (const a of answers.values()) if (a.status === 200 && a.text) linksOf(JSON.parse(a.text), links);
    for (const link of links) await read(link);

    const ok = [...answers].filter(([, a]) => a.status === 200);
    // The scan read the records that hold the secrets (not only 404s).
    expect(ok.length).toBeGreaterThan(150);
    const everything = ok.map(([, a]) => a.text).join("\n");
    for (const [what, id] of Object.entries(holders)) expect(everything, what).toContain(`"id":"${id}"`);
    for (const [path, a] of answers)
      for (const [what, value] of Object.entries(secrets))
        expect(a.text.includes(value), `${what} in ${path}`).toBe(false);
  });
});
