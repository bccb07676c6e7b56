/**
 * Liberal reading of every record the client reads besides workspaces (issue 24): a
 * `null` or missing attribute, and a pagination block without its counters, read as
 * their absent values instead of failing a call the server executed; a document
 * without `data.id` still fails. Each answer comes from a fake service over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InconsistentPaginationError, UnexpectedResponseError, type WorkspacesClient } from "../../src/client";
import { fakeClient, pageAsked, reply, startFakeService, type FakeService } from "./fake-service";
import { failure } from "./helpers";

/** Answers by path (without `/api/v2`), given the page number asked for; other paths answer 404. */
const answers = new Map<string, (page: number) => unknown>();
let svc: FakeService;
let client: WorkspacesClient;

beforeAll(async () => {
  svc = await startFakeService((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname.replace(/^\/api\/v2/, "");
    if (path === "/ping") return reply(res, 204, undefined);
    const answer = answers.get(path);
    if (answer) reply(res, 200, answer(pageAsked(req)));
    else reply(res, 404, { errors: [{ status: "404", title: "not found" }] });
  });
  client = fakeClient(svc, { rateLimit: false });
});
afterAll(async () => svc?.close());

/** Serves `body` at `path` for every page. */
function serve(path: string, body: unknown): void {
  answers.set(path, () => body);
}

/** A one-page list of `items` whose pagination block has no counters at all. */
function bareList(items: unknown[]): unknown {
  return { data: items, meta: { pagination: {} } };
}

describe("records with null or missing attributes", () => {
  it("organization: null attributes read as absent, the name as the id", async () => {
    serve("/organizations/acme", {
      data: {
        id: "acme",
        type: "organizations",
        attributes: { name: null, email: null, "created-at": null, "allow-force-delete-workspaces": null },
      },
    });
    serve("/organizations/bare", { data: { id: "bare", type: "organizations" } });
    expect(await client.organizations.read("acme")).toMatchObject({
      name: "acme",
      email: null,
      createdAt: null,
      allowForceDeleteWorkspaces: null,
    });
    expect((await client.organizations.read("bare")).name).toBe("bare");
  });

  it("ssh keys: list and read with a null or missing name", async () => {
    serve(
      "/organizations/acme/ssh-keys",
      bareList([
        { id: "sshkey-1", type: "ssh-keys", attributes: { name: null } },
        { id: "sshkey-2", type: "ssh-keys", attributes: null },
      ]),
    );
    serve("/ssh-keys/sshkey-3", { data: { id: "sshkey-3", type: "ssh-keys", attributes: {} } });
    const keys = await client.sshKeys.list("acme").all();
    expect(keys.map((k) => [k.id, k.name])).toEqual([
      ["sshkey-1", ""],
      ["sshkey-2", ""],
    ]);
    expect(await client.sshKeys.read("sshkey-3")).toMatchObject({ id: "sshkey-3", name: "" });
  });

  it("projects: list and read with null name, description and timestamps", async () => {
    const project = {
      id: "prj-1",
      type: "projects",
      attributes: { name: null, description: null, "created-at": null, "unknown-attribute": { x: 1 } },
      relationships: { organization: null },
    };
    serve("/organizations/acme/projects", bareList([project]));
    serve("/projects/prj-1", { data: project });
    const expected = { id: "prj-1", name: "", description: null, organization: null };
    expect(await client.projects.list("acme").all()).toMatchObject([expected]);
    expect(await client.projects.read("prj-1")).toMatchObject(expected);
  });

  it("flat tags: a null name, timestamp and count", async () => {
    serve(
      "/organizations/acme/tags",
      bareList([{ id: "tag-1", type: "tags", attributes: { name: null, "created-at": null, "instance-count": null } }]),
    );
    expect(await client.tags.listOrganization("acme").all()).toEqual([
      { id: "tag-1", name: "", createdAt: null, instanceCount: null, attributes: { name: "" } },
    ]);
  });

  it("tag bindings: a null key or value, and effective bindings without attributes", async () => {
    serve("/workspaces/ws-1/tag-bindings", {
      data: [
        { id: "tb-1", type: "tag-bindings", attributes: { key: "env", value: null } },
        { id: "tb-2", type: "tag-bindings", attributes: { key: null } },
      ],
    });
    serve("/workspaces/ws-1/effective-tag-bindings", {
      data: [
        { type: "effective-tag-bindings", attributes: null },
        { type: "effective-tag-bindings", attributes: { key: "team", value: null } },
      ],
    });
    expect(await client.tagBindings.list("ws-1")).toEqual([
      { id: "tb-1", key: "env", value: "" },
      { id: "tb-2", key: "", value: "" },
    ]);
    expect(await client.tagBindings.listEffective("ws-1")).toEqual([
      { key: "", value: "" },
      { key: "team", value: "" },
    ]);
  });

  it("no-code module: null enabled and version pin, variable options with null type and options", async () => {
    serve("/no-code-modules/nocode-1", {
      data: {
        id: "nocode-1",
        type: "no-code-modules",
        attributes: { enabled: null, "version-pin": null },
        relationships: { "variable-options": { data: [{ id: "ncvaropt-1", type: "variable-options" }] } },
      },
      included: [
        {
          id: "ncvaropt-1",
          type: "variable-options",
          attributes: { "variable-name": "region", "variable-type": null, options: null },
        },
      ],
    });
    const module = await client.noCode.read("nocode-1", { includeVariableOptions: true });
    expect(module).toMatchObject({ id: "nocode-1", enabled: false, versionPin: "", variableOptionIds: ["ncvaropt-1"] });
    expect(module.variableOptions).toEqual([
      { id: "ncvaropt-1", variableName: "region", variableType: "", options: [] },
    ]);
  });

  it("variables: null key, category and flags", async () => {
    serve("/workspaces/ws-1/vars", {
      data: [
        {
          id: "var-1",
          type: "vars",
          attributes: { key: "x", value: null, description: null, category: null, hcl: null, sensitive: null },
        },
        { id: "var-2", type: "vars", attributes: { key: null, category: "terraform" } },
      ],
    });
    expect(await client.variables.list("ws-1")).toMatchObject([
      { id: "var-1", key: "x", value: null, description: null, category: "engine", hcl: false, sensitive: false },
      { id: "var-2", key: "", category: "engine", hcl: false, sensitive: false },
    ]);
  });

  it("registry module: null name, provider, statuses and flags", async () => {
    serve("/registry-modules/mod-1", {
      data: {
        id: "mod-1",
        type: "registry-modules",
        attributes: {
          name: null,
          namespace: null,
          status: null,
          "no-code": null,
          "version-statuses": [{ version: "1.0.0", status: null }],
          "created-at": null,
        },
      },
    });
    expect(await client.registryModules.readById("mod-1")).toMatchObject({
      id: "mod-1",
      name: "",
      provider: "",
      namespace: null,
      status: null,
      noCode: null,
      versionStatuses: [{ version: "1.0.0", status: "" }],
    });
  });

  it("workspace upgrade: a null status reads as pending", async () => {
    serve("/no-code-modules/nocode-1/workspaces/ws-1/upgrade/run-1", {
      data: { id: "run-1", type: "workspace-upgrade", attributes: { status: null, "plan-url": null } },
    });
    expect(await client.noCode.upgrade.read("nocode-1", "ws-1", "run-1")).toMatchObject({
      status: "pending",
      planUrl: null,
    });
  });
});

describe("pagination blocks without counters", () => {
  it("follows total-pages when next-page is missing, and reads missing counters as absent", async () => {
    answers.set("/workspaces/ws-2/relationships/tags", (page) => ({
      data: [{ id: `tag-p${page}`, type: "tags", attributes: { name: `p${page}` } }],
      meta: { pagination: page === 1 ? { "total-pages": 2, "total-count": null } : { "current-page": null } },
    }));
    const pages = [];
    for await (const page of client.tags.list("ws-2").pages()) pages.push(page);
    expect(pages.map((p) => p.items.map((t) => t.name))).toEqual([["p1"], ["p2"]]);
    expect(pages.map((p) => p.pagination)).toEqual([
      { "current-page": 1, "next-page": 2, "prev-page": null, "total-pages": 2 },
      { "current-page": 2, "next-page": null, "prev-page": 1 },
    ]);
  });

  it("follows total-count when next-page and total-pages are missing", async () => {
    // 150 records, 100 a page (the page size asked for, as the service did not say).
    answers.set("/workspaces/ws-5/relationships/tags", (page) => ({
      data: Array.from({ length: page === 1 ? 100 : 50 }, (_, i) => ({
        id: `tag-c${page}-${i}`,
        type: "tags",
        attributes: { name: `c${page}-${i}` },
      })),
      meta: { pagination: { "total-count": 150 } },
    }));
    const pages = [];
    for await (const page of client.tags.list("ws-5").pages()) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([100, 50]);
    expect(pages.map((p) => p.pagination?.["next-page"])).toEqual([2, null]);
  });

  it("reads a block whose counters are all null as one page", async () => {
    const nulls = { "current-page": null, "page-size": null, "total-count": null, "total-pages": null };
    answers.set("/workspaces/ws-3/relationships/tags", (page) => ({
      data: [{ id: `tag-q${page}`, type: "tags", attributes: { name: `q${page}` } }],
      meta: { pagination: { ...nulls, "next-page": null, "prev-page": null } },
    }));
    expect((await client.tags.list("ws-3").all()).map((t) => t.name)).toEqual(["q1"]);
  });

  it("still stops on pages that contradict the counters the service did send", async () => {
    answers.set("/workspaces/ws-4/relationships/tags", () => ({
      data: [],
      meta: { pagination: { "total-pages": 3 } },
    }));
    const err = await failure(client.tags.list("ws-4").all());
    expect(err).toBeInstanceOf(InconsistentPaginationError);
    expect(err.message).toMatch(/at page 1: the page is empty but names page 2 as the next one/);
  });
});

describe("documents without data.id", () => {
  it("still fail, for a single record and for an item of a list", async () => {
    serve("/organizations/noid", { data: { type: "organizations", attributes: { name: "noid" } } });
    serve("/organizations/noid/ssh-keys", bareList([{ type: "ssh-keys", attributes: { name: "k" } }]));
    const single = await failure(client.organizations.read("noid"));
    expect(single).toBeInstanceOf(UnexpectedResponseError);
    expect(single.message).toMatch(/\/data\/id/);
    const listed = await failure(client.sshKeys.list("noid").all());
    expect(listed).toBeInstanceOf(UnexpectedResponseError);
    expect(listed.message).toMatch(/\/data\/0\/id/);
  });
});
