/**
 * The lookups (`getWorkspaces`, `getWorkspace` and their `Output` forms) against the real
 * local server: the list filters of spec 4.4 with pages of 100, the same values a
 * `Workspace` outputs, the resources' settings and messages, and no token in any result.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import { startServer, type RunningServer } from "../../src/server";
import { WorkspacesClient, resetLimiters } from "../../src/client";
import { getWorkspace, getWorkspaceOutput, getWorkspaces, getWorkspacesOutput } from "../../src/index";
import { setConfiguredSettings } from "../../src/resources/provider-settings";
import { resetClients } from "../../src/resources/providers/client";
import { workspaceProvider } from "../../src/resources/providers/workspace";
import { configureFromStack } from "../../src/resources/provider-settings";

let server: RunningServer;
let client: WorkspacesClient;
const ids: Record<string, string> = {};
let project: string;
const ENV_KEYS = [
  "WORKSPACES_ADDRESS",
  "WORKSPACES_TOKEN",
  "WORKSPACES_ORGANIZATION",
  "TFE_HOSTNAME",
  "TFE_TOKEN",
  "TFE_ORGANIZATION",
];
const savedEnv: Record<string, string | undefined> = {};

/** Settings as a program's stack config gives them (what `new pulumi.Config("workspaces")` reads). */
function stackConfig(values: Record<string, string>): void {
  pulumi.runtime.setAllConfig(
    values,
    Object.keys(values).filter((k) => k === "workspaces:token"),
  );
}

function useStackConfig(token = server.token): void {
  stackConfig({
    "workspaces:address": server.url,
    "workspaces:token": token,
    "workspaces:organization": server.organization,
  });
}

function valueOf<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => (resolve(v), v)));
}

function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: Error) => e,
  );
}

async function make(
  name: string,
  options: { tags?: Record<string, string>; tagNames?: string[]; projectId?: string } = {},
): Promise<string> {
  const ws = await client.workspaces.create(server.organization, {
    name,
    tagBindings: Object.entries(options.tags ?? {}).map(([key, value]) => ({ key, value })),
    tagNames: options.tagNames,
    projectId: options.projectId,
  });
  if (options.tagNames?.length && ws.tagNames.length === 0) await client.tags.add(ws.id, options.tagNames);
  ids[name] = ws.id;
  return ws.id;
}

/** Workspace list requests the server served so far. */
function listRequests(): number {
  return server.stats().byRoute["GET /api/v2/organizations/:organization_name/workspaces"] ?? 0;
}

beforeAll(async () => {
  for (const k of ENV_KEYS) {
    savedEnv[k] = process.env[k];
    delete process.env[k];
  }
  server = await startServer({ port: 0, db: ":memory:", rateLimit: false });
  resetLimiters();
  client = new WorkspacesClient({ address: server.url, token: server.token, rateLimit: false });
  const p = await fetch(`${server.url}/organizations/${server.organization}/projects`, {
    method: "POST",
    headers: { Authorization: `Bearer ${server.token}`, "Content-Type": "application/vnd.api+json" },
    body: JSON.stringify({ data: { type: "projects", attributes: { name: "search-project" } } }),
  });
  project = ((await p.json()) as { data: { id: string } }).data.id;
  await make("search-prod", { tags: { team: "search", env: "prod" }, tagNames: ["search", "public"] });
  await make("search-staging", { tags: { team: "search", env: "staging" }, tagNames: ["search"] });
  await make("search-batch", {
    tags: { team: "search", env: "prod" },
    tagNames: ["search", "Legacy"],
    projectId: project,
  });
  await make("billing-prod", { tags: { team: "billing", env: "prod" }, tagNames: ["billing"] });
  await make("search-prod-old");
}, 60_000);

afterAll(async () => {
  stackConfig({});
  for (const k of ENV_KEYS)
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  await server.close();
});

afterEach(() => {
  stackConfig({});
  for (const k of ENV_KEYS) delete process.env[k];
});

describe("getWorkspaces", () => {
  it("selects by key-value tags, sorted by name, with ids, names and a map name to id", async () => {
    useStackConfig();
    const r = await getWorkspaces({ tags: { team: "search", env: "prod" } });
    expect(r).toEqual({
      organization: server.organization,
      ids: [ids["search-batch"], ids["search-prod"]],
      names: ["search-batch", "search-prod"],
      idsByName: { "search-batch": ids["search-batch"], "search-prod": ids["search-prod"] },
    });
  });

  it("selects by flat tags (all required, case folded), excluded tags, project and fuzzy search", async () => {
    useStackConfig();
    expect((await getWorkspaces({ tagNames: ["SEARCH"] })).names).toEqual([
      "search-batch",
      "search-prod",
      "search-staging",
    ]);
    expect((await getWorkspaces({ tagNames: ["search", "public"] })).names).toEqual(["search-prod"]);
    expect((await getWorkspaces({ tagNames: ["search"], excludeTags: ["legacy", "public"] })).names).toEqual([
      "search-staging",
    ]);
    expect((await getWorkspaces({ project })).names).toEqual(["search-batch"]);
    expect((await getWorkspaces({ search: "billing" })).names).toEqual(["billing-prod"]);
  });

  it("selects by exact names and `*` patterns, one list each; `*` alone selects all", async () => {
    useStackConfig();
    const before = listRequests();
    expect((await getWorkspaces({ names: ["search-prod", "*-staging", "nothing-like-this"] })).names).toEqual([
      "search-prod",
      "search-staging",
    ]);
    expect(listRequests() - before).toBe(3);
    // "search-prod" must not select "search-prod-2" or anything else containing it.
    expect((await getWorkspaces({ names: ["search-prod"] })).ids).toEqual([ids["search-prod"]]);
    expect((await getWorkspaces({ names: ["*"], tags: { team: "billing" } })).names).toEqual(["billing-prod"]);
  });

  it("reads every page of 100 (one request per page) and finds nothing when nothing matches", async () => {
    useStackConfig();
    for (let i = 0; i < 101; i++) await make(`paged-${String(i).padStart(3, "0")}`, { tags: { batch: "paged" } });
    const before = listRequests();
    const r = await getWorkspaces({ tags: { batch: "paged" } });
    expect(listRequests() - before).toBe(2);
    expect(r.names).toHaveLength(101);
    expect(r.names[0]).toBe("paged-000");
    expect(r.idsByName["paged-100"]).toBe(ids["paged-100"]);
    expect(await getWorkspaces({ tags: { batch: "none-such" } })).toEqual({
      organization: server.organization,
      ids: [],
      names: [],
      idsByName: {},
    });
  }, 60_000);

  it("the Output form takes Inputs and keeps no token in its value", async () => {
    useStackConfig();
    const out = getWorkspacesOutput({ tags: pulumi.output({ team: "billing" }), tagNames: [pulumi.output("billing")] });
    const r = await valueOf(out);
    expect(r.names).toEqual(["billing-prod"]);
    // The SDK's own record of secrecy: a lookup's result is not a secret, since no token is in it.
    expect(await (out as unknown as { isSecret: Promise<boolean> }).isSecret).toBe(false);
    expect(JSON.stringify(r)).not.toContain(server.token);
  });
});

describe("getWorkspace", () => {
  it("gives what a Workspace resource outputs for the same workspace, by name or by id, and what the service reports", async () => {
    useStackConfig();
    const byName = await getWorkspace({ name: "search-prod" });
    const byId = await getWorkspace({ id: ids["search-prod"] });
    expect(byId).toEqual(byName);
    expect(byName.id).toBe(ids["search-prod"]);
    expect(byName).toMatchObject({
      name: "search-prod",
      organization: server.organization,
      tags: { team: "search", env: "prod" },
      tagNames: ["public", "search"],
    });
    expect(byName).not.toHaveProperty("forceDelete");
    // What the service reports on its own, which the resource does not store.
    expect(byName.metrics).toEqual({ resourceCount: 0 });
    expect(byName.status).toMatchObject({ locked: false, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(byName.status).not.toHaveProperty("lockedReason");
    expect(byName.permissions).toMatchObject({ canUpdate: true, canDestroy: true });

    // The provider's read of the same workspace: the same mapping, so the same values.
    configureFromStack({
      config: { get: (k: string) => ({ "workspaces:address": server.url, "workspaces:token": server.token })[k] },
    });
    resetClients();
    try {
      const read = await workspaceProvider.read(ids["search-prod"], {
        name: "search-prod",
        organization: server.organization,
      });
      const { forceDelete: _f, ...outputs } = read.props!;
      const { metrics: _m, status: _s, permissions: _p, ...stored } = byName;
      expect({ id: read.id, ...outputs }).toEqual(stored);
    } finally {
      setConfiguredSettings({});
      resetClients();
    }
    expect(JSON.stringify(byName)).not.toContain(server.token);
  });

  it("the Output form takes Inputs", async () => {
    useStackConfig();
    const r = await valueOf(
      getWorkspaceOutput({ organization: pulumi.output(server.organization), name: pulumi.output("billing-prod") }),
    );
    expect(r.id).toBe(ids["billing-prod"]);
    expect(r.effectiveTags).toEqual({ team: "billing", env: "prod" });
  });
});

describe("settings and messages", () => {
  it("reads the stack config before the environment, as the resources do", async () => {
    process.env.WORKSPACES_ADDRESS = "http://127.0.0.1:9";
    process.env.WORKSPACES_TOKEN = "not-the-token";
    process.env.WORKSPACES_ORGANIZATION = "not-the-organization";
    useStackConfig();
    expect((await getWorkspace({ name: "billing-prod" })).id).toBe(ids["billing-prod"]);
  });

  it("falls back to the environment without stack config", async () => {
    process.env.WORKSPACES_ADDRESS = server.url;
    process.env.WORKSPACES_TOKEN = server.token;
    process.env.WORKSPACES_ORGANIZATION = server.organization;
    expect((await getWorkspaces({ names: ["billing-prod"] })).ids).toEqual([ids["billing-prod"]]);
  });

  it("says what is missing and where to set it", async () => {
    stackConfig({ "workspaces:address": server.url, "workspaces:token": server.token });
    expect((await rejection(getWorkspaces({ tags: { team: "search" } }))).message).toBe(
      "getWorkspaces: organization is required: set it in the arguments, or set the stack config workspaces:organization (or WORKSPACES_ORGANIZATION)",
    );
    stackConfig({ "workspaces:address": server.url });
    const noToken = await rejection(getWorkspace({ id: "ws-x" }));
    expect(noToken.message).toMatch(
      /^getWorkspace: no API token for 127\.0\.0\.1:\d+: .*stack config workspaces:token.*WORKSPACES_TOKEN/,
    );
  });

  it("names the workspace a 404 concerns and both readings of it, without the token", async () => {
    useStackConfig();
    const err = await rejection(getWorkspace({ name: "no-such-workspace" }));
    expect(err).toBeInstanceOf(pulumi.RunError);
    expect(err.message).toBe(
      `getWorkspace: cannot read workspace ${server.organization}/no-such-workspace: the service answered 404: there is no such workspace, or the token in use may not see it (the service answers the same for both)`,
    );
    const org = await rejection(getWorkspaces({ organization: "no-such-org" }));
    expect(org.message).toContain('getWorkspaces: the service answered 404 for organization "no-such-org"');
    expect(err.message + org.message).not.toContain(server.token);
  });

  it("reports arguments it cannot use with their property paths, before any request", async () => {
    useStackConfig();
    const before = server.stats().total;
    expect((await rejection(getWorkspaces({ project: "search-project" }))).message).toBe(
      "getWorkspaces: project: must be a project id (prj-...)",
    );
    expect((await rejection(getWorkspaces({ tagNames: ["ok", 3 as unknown as string] }))).message).toMatch(
      /^getWorkspaces: tagNames\[1\]: /,
    );
    expect((await rejection(getWorkspaces({ tag: { a: "b" } } as never))).message).toMatch(/^getWorkspaces: .*tag/);
    expect((await rejection(getWorkspace({ id: "search-prod" }))).message).toBe(
      "getWorkspace: id: must be a workspace id (ws-...)",
    );
    expect((await rejection(getWorkspace({ id: ids["search-prod"], name: "search-prod" }))).message).toBe(
      "getWorkspace: give either `id` or `name` (with `organization`), not both",
    );
    expect(server.stats().total).toBe(before);
  });
});
