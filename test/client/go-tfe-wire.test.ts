/**
 * What the client sends is what go-tfe sends: the request bodies of workspace create and
 * update (every setting, a VCS connection with every field) and of a no-code workspace
 * with variables of both categories, captured over HTTP, use only attribute names and
 * values that go-tfe v1.111.2's option structs declare (test/client/fixtures/go-tfe-wire.json,
 * read from its sources: the hosted service accepts what go-tfe's tests send). The fixture
 * is checked against those sources where the compatibility run keeps them
 * (scripts/compat/go-tfe-module.js): on a developer's machine when `npm run test:compat`
 * has fetched them, and always in CI (`CI` set), which fetches them before the unit suite
 * (`node scripts/compat/go-tfe.js --fetch-only` in .ci/run): there their absence fails.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKSPACE_SETTING_WIRE } from "../../src/api/workspace-fields";
import type { WorkspacesClient } from "../../src/client";
import { type FakeService, fakeClient, reply, startFakeService } from "./fake-service";
import fixture from "./fixtures/go-tfe-wire.json";

let service: FakeService;
let client: WorkspacesClient;
const bodies: { request: string; body: { data: { attributes: Record<string, unknown>; relationships?: any } } }[] = [];

beforeAll(async () => {
  service = await startFakeService((req, res, body) => {
    if (body) bodies.push({ request: `${req.method} ${req.url?.split("?")[0]}`, body: JSON.parse(body) });
    // What is answered does not matter here: only what was sent.
    reply(res, 422, { errors: [{ status: "422", title: "captured" }] });
  });
  client = fakeClient(service);
});
afterAll(async () => service.close());

/** Sends `call` and returns the body the fake service received for it. */
async function sent(call: () => Promise<unknown>) {
  const before = bodies.length;
  await call().catch(() => undefined);
  expect(bodies.length).toBe(before + 1);
  return bodies[before];
}

/** A value of the right shape for each workspace setting the client knows. */
function everySetting(): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key] of WORKSPACE_SETTING_WIRE) values[key] = "x";
  return {
    ...values,
    settingOverwrites: { executionMode: true, agentPool: true },
    vcsRepo: {
      identifier: "org/repo",
      oauthTokenId: "ot-1",
      vcsAppInstallationId: "ghain-1",
      branch: "main",
      ingressSubmodules: true,
      tagsRegex: "v.*",
    },
  };
}

describe("the client's wire against go-tfe's", () => {
  it("a workspace create uses only go-tfe's attribute names, engine version and VCS app included", async () => {
    const { body } = await sent(() => client.workspaces.create("acme", { name: "wire", ...everySetting() }));
    const keys = Object.keys(body.data.attributes);
    expect(keys.filter((k) => !fixture.WorkspaceCreateOptions.includes(k))).toEqual([]);
    expect(keys).toContain("terraform-version");
    expect(Object.keys(body.data.attributes["vcs-repo"] as object).sort()).toEqual([...fixture.VCSRepoOptions].sort());
  });

  it("a workspace update uses only go-tfe's attribute names, and the spec's source name and URL", async () => {
    const { body } = await sent(() => client.workspaces.update("ws-1", { name: "wire", ...everySetting() }));
    const keys = Object.keys(body.data.attributes);
    // The spec (4.3) updates every attribute of a create; go-tfe's update options leave out
    // these two, which OTF ignores on update (docs/compatibility.md).
    const specOnly = ["source-name", "source-url"];
    expect(keys.filter((k) => !fixture.WorkspaceUpdateOptions.includes(k) && !specOnly.includes(k))).toEqual([]);
    expect(keys).toContain("terraform-version");
  });

  it("a no-code workspace uses go-tfe's names, and its variables go-tfe's categories", async () => {
    const { body } = await sent(() =>
      client.noCode.createWorkspace("nocode-AbCdEfGhIjKlMnOp", {
        name: "wire",
        description: "d",
        autoApply: true,
        executionMode: "agent",
        agentPoolId: "apool-1",
        sourceName: "s",
        sourceUrl: "https://example.com",
        variables: [
          { key: "region", value: "eu", category: "engine", hcl: false, sensitive: false, description: "d" },
          { key: "TOKEN", value: "t", category: "env", sensitive: true },
        ],
      }),
    );
    const keys = Object.keys(body.data.attributes);
    // The spec (4.15) spells auto-apply with an underscore on this endpoint; go-tfe with a
    // hyphen. Both go out with the same value.
    expect(keys.filter((k) => !fixture.RegistryNoCodeModuleCreateWorkspaceOptions.includes(k))).toEqual(["auto_apply"]);
    expect(body.data.attributes["auto-apply"]).toBe(true);
    expect(body.data.attributes.auto_apply).toBe(true);
    const vars = body.data.relationships.vars.data as { attributes: Record<string, unknown> }[];
    for (const v of vars) {
      expect(Object.keys(v.attributes).filter((k) => !fixture.Variable.includes(k))).toEqual([]);
      expect(fixture.CategoryType).toContain(v.attributes.category);
    }
    expect(vars.map((v) => v.attributes.category)).toEqual(["terraform", "env"]);
  });
});

// eslint-disable-next-line @typescript-eslint/no-require-imports
const goTfe = require("../../scripts/compat/go-tfe-module.js") as { VERSION: string; sourcesDir(): string };

/** The go-tfe sources the compatibility run fetches, where it keeps them. */
const SOURCES = goTfe.sourcesDir();
const present = fs.existsSync(path.join(SOURCES, "workspace.go"));
const required = Boolean(process.env.CI);

/** The jsonapi attribute names (or, for VCSRepoOptions, json names) of a Go struct. */
function structNames(file: string, struct: string, tag: RegExp): string[] {
  const src = fs.readFileSync(path.join(SOURCES, file), "utf8");
  const block = new RegExp(`^type ${struct} struct \\{\\n([\\s\\S]*?)^\\}`, "m").exec(src)?.[1] ?? "";
  return [...new Set([...block.matchAll(tag)].map((m) => m[1]))].sort();
}

describe("the fixture against go-tfe's sources", () => {
  it("is of the go-tfe the compatibility run fetches", () => {
    expect(fixture.version).toBe(goTfe.VERSION);
  });

  // Skipped only outside CI, on a machine where the compatibility run never fetched them.
  it.skipIf(!present && !required)("lists exactly what go-tfe declares", () => {
    expect(present, `no go-tfe sources in ${SOURCES}: run node scripts/compat/go-tfe.js --fetch-only`).toBe(true);
    const attr = /jsonapi:"attr,([a-z0-9-]+)/g;
    const variables = fs.readFileSync(path.join(SOURCES, "variable.go"), "utf8");
    expect({
      WorkspaceCreateOptions: structNames("workspace.go", "WorkspaceCreateOptions", attr),
      WorkspaceUpdateOptions: structNames("workspace.go", "WorkspaceUpdateOptions", attr),
      VCSRepoOptions: structNames("workspace.go", "VCSRepoOptions", /json:"([a-z0-9-]+)/g),
      RegistryNoCodeModuleCreateWorkspaceOptions: structNames(
        "registry_no_code_module.go",
        "RegistryNoCodeModuleCreateWorkspaceOptions",
        attr,
      ),
      Variable: structNames("variable.go", "Variable", attr),
      CategoryType: [
        ...new Set([...variables.matchAll(/Category\w+\s+CategoryType = "([a-z]+)"/g)].map((m) => m[1])),
      ].sort(),
    }).toEqual({ ...fixture, version: undefined });
  });
});
