import { describe, expect, it } from "vitest";
import { expectStatus, grant, makeTeam, start, type Api } from "./helpers";
import {
  serveForSuite,
  addVersion,
  createFromModule,
  enableModule,
  pointers,
  pollUpgrade,
  publishModule,
  upgradePath,
  varItems,
  workspaceFromModuleBody,
} from "./no-code-support";

let api: Api;
let org: string;
serveForSuite((t) => {
  api = t.api;
  org = t.org;
});

/** A registry module with the given versions, enabled for no-code use with a `region` option set. */
async function module(name: string, versions = ["1.0.0"], pin?: string) {
  const mod = await publishModule(api, org, name, versions);
  const m = await enableModule(api, org, mod, pin ? { "version-pin": pin } : {}, [
    { name: "region", options: ["eu-west-1", "us-east-1"] },
  ]);
  return { mod, id: m.id };
}

async function setPin(noCodeId: string, pin: string) {
  await expectStatus(
    api.patch(`/no-code-modules/${noCodeId}`, {
      data: { type: "no-code-modules", attributes: { "version-pin": pin } },
    }),
    200,
  );
}

async function workspace(id: string) {
  return (await expectStatus(api.get(`/workspaces/${id}`), 200)).body.data;
}

describe("creating a workspace from a no-code module", () => {
  it("creates the workspace through the workspace rules, with the module's attributes, relationship and variables", async () => {
    const { mod, id } = await module("ws-create");
    const r = await expectStatus(
      api.post(
        `/no-code-modules/${id}/workspaces`,
        workspaceFromModuleBody(
          "from-module",
          [
            { key: "region", value: "eu-west-1", category: "terraform", description: "where" },
            { key: "db_password", value: "hunter2", sensitive: true },
            { key: "AWS_PROFILE", value: "dev", category: "env" },
          ],
          { auto_apply: true, "source-name": "Catalog", "source-url": "https://catalog.example/items/1" },
        ),
      ),
      200,
    );
    const ws = r.body.data;
    expect(ws.id).toMatch(/^ws-/);
    expect(ws.attributes).toMatchObject({
      name: "from-module",
      source: "tfe-module",
      "source-name": "Catalog",
      "source-url": "https://catalog.example/items/1",
      "source-module-id": mod,
      "no-code-module-id": id,
      "source-module-version": "1.0.0",
      "no-code-upgrade-available": false,
      "auto-apply": true,
      "execution-mode": "remote",
      description: "",
    });
    expect(ws.relationships["no-code-module-version"].data).toMatchObject({
      type: "no-code-module-versions",
      id: expect.stringMatching(/^nocodever-/),
    });
    const varRefs = ws.relationships.vars.data as { id: string; type: string }[];
    expect(varRefs).toHaveLength(3);
    for (const v of varRefs) expect(v).toMatchObject({ type: "vars", id: expect.stringMatching(/^var-/) });

    // The same document on read, by id and by name, and in a list.
    expect(await workspace(ws.id)).toEqual(ws);
    const listed = await expectStatus(api.get(`/organizations/${org}/workspaces?search[name]=from-module`), 200);
    expect(listed.body.data.find((w: { id: string }) => w.id === ws.id)).toEqual(ws);

    // Variables: each category answers in the spelling it was written with; a sensitive value is never shown.
    const vars = (await expectStatus(api.get(`/workspaces/${ws.id}/vars`), 200)).body.data as any[];
    const byKey = Object.fromEntries(vars.map((v) => [v.attributes.key, v.attributes]));
    expect(byKey.region).toMatchObject({
      value: "eu-west-1",
      category: "terraform",
      description: "where",
      sensitive: false,
    });
    expect(byKey.db_password).toMatchObject({ value: null, sensitive: true, category: "engine" });
    expect(byKey.AWS_PROFILE).toMatchObject({ value: "dev", category: "env" });
    expect(JSON.stringify(vars)).not.toContain("hunter2");
    const one = await expectStatus(api.get(`/workspaces/${ws.id}/vars/${varRefs[0].id}`), 200);
    expect(one.body.data.id).toBe(varRefs[0].id);
    expect(JSON.stringify(r.body)).not.toContain("hunter2");
  });

  it("fills source-name and source-url from the module when not given; go-tfe's body type is accepted", async () => {
    const { id } = await module("ws-defaults");
    const r = await expectStatus(
      api.post(`/no-code-modules/${id}/workspaces`, {
        data: { type: "no-code-module-workspace", attributes: { name: "defaults", "auto-apply": true } },
      }),
      200,
    );
    expect(r.body.data.attributes["source-name"]).toBe(`no-code module ${org}/ws-defaults/aws`);
    expect(r.body.data.attributes["source-url"]).toMatch(
      /\/registry\/modules\/private\/.*\/ws-defaults\/aws\/1\.0\.0$/,
    );
    expect(r.body.data.attributes["auto-apply"]).toBe(true);
  });

  it("answers 422 per bad attribute with pointers and creates nothing", async () => {
    const { id } = await module("ws-invalid");
    const cases: Array<[unknown, string[]]> = [
      [workspaceFromModuleBody("bad name!"), ["/data/attributes/name"]],
      [
        workspaceFromModuleBody("ok-name", [{ key: "region", value: "mars-1" }]),
        ["/data/relationships/vars/data/0/attributes/value"],
      ],
      [
        workspaceFromModuleBody("ok-name", [{ key: "x", category: "policy" }]),
        ["/data/relationships/vars/data/0/attributes/category"],
      ],
      [
        workspaceFromModuleBody("ok-name", [
          { key: "a", value: "1" },
          { key: "a", value: "2", category: "terraform" },
        ]),
        ["/data/relationships/vars/data/1/attributes/key"],
      ],
      [workspaceFromModuleBody("ok-name", [], { "execution-mode": "local" }), ["/data/attributes/execution-mode"]],
      [workspaceFromModuleBody("ok-name", [], { "execution-mode": "agent" }), ["/data/attributes/agent-pool-id"]],
      [
        workspaceFromModuleBody("ok-name", [], { auto_apply: "yes", description: 5 }),
        ["/data/attributes/auto_apply", "/data/attributes/description"],
      ],
      [
        {
          data: {
            type: "workspaces",
            attributes: {},
            relationships: { vars: { data: [{ type: "vars", attributes: { value: "v" } }] } },
          },
        },
        [
          "/data/attributes/name",
          "/data/relationships/vars/data/0/attributes/key",
          "/data/relationships/vars/data/0/attributes/category",
        ],
      ],
      [{ data: { type: "projects", attributes: { name: "ok-name" } } }, ["/data/type"]],
    ];
    for (const [body, expected] of cases) {
      const r = await expectStatus(api.post(`/no-code-modules/${id}/workspaces`, body), 422);
      expect(pointers(r.body).sort(), JSON.stringify(body)).toEqual([...expected].sort());
    }
    await expectStatus(api.post(`/no-code-modules/${id}/workspaces`, "{"), 400);
    await expectStatus(api.get(`/organizations/${org}/workspaces/ok-name`), 404);
  });

  it("rejects a duplicate name, a disabled module and an unknown project without leaving anything behind", async () => {
    const { id } = await module("ws-rules");
    await createFromModule(api, id, "taken");
    const dup = await expectStatus(
      api.post(
        `/no-code-modules/${id}/workspaces`,
        workspaceFromModuleBody("taken", [{ key: "region", value: "us-east-1" }]),
      ),
      422,
    );
    expect(dup.body.errors[0]).toMatchObject({
      detail: "Name has already been taken",
      source: { pointer: "/data/attributes/name" },
    });
    await expectStatus(
      api.post(
        `/no-code-modules/${id}/workspaces`,
        workspaceFromModuleBody("no-project", [], {}, { project: { data: { type: "projects", id: "prj-unknown" } } }),
      ),
      404,
    );
    await expectStatus(api.get(`/organizations/${org}/workspaces/no-project`), 404);
    await expectStatus(
      api.patch(`/no-code-modules/${id}`, { data: { type: "no-code-modules", attributes: { enabled: false } } }),
      200,
    );
    const disabled = await expectStatus(
      api.post(`/no-code-modules/${id}/workspaces`, workspaceFromModuleBody("while-disabled")),
      422,
    );
    expect(disabled.body.errors[0].detail).toContain("not enabled");
    await expectStatus(api.get(`/organizations/${org}/workspaces/while-disabled`), 404);
  });

  it("needs permission to create workspaces: a member team without it gets 404", async () => {
    const { id } = await module("ws-perm");
    const team = await makeTeam(api, org, "ws-perm-readers");
    await expectStatus(
      api.as(team.token).post(`/no-code-modules/${id}/workspaces`, workspaceFromModuleBody("not-allowed")),
      404,
    );
    await expectStatus(api.get(`/organizations/${org}/workspaces/not-allowed`), 404);
    const creators = await makeTeam(api, org, "ws-perm-creators", { manageWorkspaces: true });
    await expectStatus(
      api.as(creators.token).post(`/no-code-modules/${id}/workspaces`, workspaceFromModuleBody("allowed")),
      200,
    );
  });
});

describe("upgrading a workspace created from a module", () => {
  it("runs initiate, poll, confirm, poll to applied on the same workspace, and flips the upgrade flag", async () => {
    const { id } = await module("up-e2e", ["1.0.0", "1.1.0"], "1.0.0");
    const ws = await createFromModule(api, id, "up-e2e", [{ key: "region", value: "eu-west-1" }]);
    const firstVersionId = ws.relationships["no-code-module-version"].data.id;
    expect(ws.attributes["no-code-upgrade-available"]).toBe(false);

    await setPin(id, "1.1.0");
    const flagged = await workspace(ws.id);
    expect(flagged.attributes["no-code-upgrade-available"]).toBe(true);
    expect(flagged.attributes["source-module-version"]).toBe("1.0.0");

    const started = await expectStatus(
      api.post(upgradePath(id, ws.id), {
        data: {
          type: "workspaces",
          relationships: { vars: { data: varItems([{ key: "region", value: "us-east-1" }]) } },
        },
      }),
      200,
    );
    const up = started.body.data;
    expect(up).toMatchObject({
      type: "workspace-upgrade",
      id: expect.stringMatching(/^run-/),
      relationships: { workspace: { data: { id: ws.id, type: "workspaces" } } },
    });
    expect(up.attributes["plan-url"]).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+/app/${org}/workspaces/up-e2e/runs/${up.id}$`),
    );
    expect(["pending", "fetching", "planning", "planned"]).toContain(up.attributes.status);

    const planned = await pollUpgrade(api, id, ws.id, up.id, ["planned", "planned_and_finished", "errored"]);
    expect(planned.doc.attributes.status).toBe("planned");
    expect(planned.seen.every((s) => ["pending", "fetching", "planning", "planned"].includes(s))).toBe(true);
    // Nothing is applied before confirmation.
    expect((await workspace(ws.id)).attributes["source-module-version"]).toBe("1.0.0");

    const run = await expectStatus(api.get(`/runs/${up.id}`), 200);
    expect(run.body.data.attributes.status).toBe("planned");
    expect((await workspace(ws.id)).relationships["current-run"].data.id).toBe(up.id);

    const confirmed = await expectStatus(api.post(upgradePath(id, ws.id, up.id)), 200);
    expect(typeof confirmed.body.message).toBe("string");
    const applied = await pollUpgrade(api, id, ws.id, up.id, ["applied", "errored"]);
    expect(applied.doc.attributes.status).toBe("applied");
    expect(applied.seen.every((s) => ["planned", "confirmed", "applying", "applied"].includes(s))).toBe(true);

    const after = await workspace(ws.id);
    expect(after.id).toBe(ws.id);
    expect(after.attributes["no-code-upgrade-available"]).toBe(false);
    expect(after.attributes["source-module-version"]).toBe("1.1.0");
    expect(after.relationships["no-code-module-version"].data.id).not.toBe(firstVersionId);
    expect(after.relationships["no-code-module-version"].data.id).toMatch(/^nocodever-/);
    const vars = (await expectStatus(api.get(`/workspaces/${ws.id}/vars`), 200)).body.data as any[];
    expect(vars.find((v) => v.attributes.key === "region").attributes.value).toBe("us-east-1");

    // A confirmed upgrade cannot be confirmed again.
    await expectStatus(api.post(upgradePath(id, ws.id, up.id)), 409);
    // The flag turns on again when the pin moves past the workspace's version.
    await addVersion(api, org, "up-e2e", "1.2.0");
    await setPin(id, "1.2.0");
    expect((await workspace(ws.id)).attributes["no-code-upgrade-available"]).toBe(true);
  });

  it("finishes without changes as planned_and_finished, which is not confirmable", async () => {
    const { id } = await module("up-same", ["1.0.0"]);
    const ws = await createFromModule(api, id, "up-same", [{ key: "region", value: "eu-west-1" }]);
    const up = (
      await expectStatus(
        api.post(upgradePath(id, ws.id), {
          data: {
            type: "workspaces",
            relationships: { vars: { data: varItems([{ key: "region", value: "eu-west-1" }]) } },
          },
        }),
        200,
      )
    ).body.data;
    const done = await pollUpgrade(api, id, ws.id, up.id, ["planned", "planned_and_finished", "errored", "applied"]);
    expect(done.doc.attributes.status).toBe("planned_and_finished");
    const refused = await expectStatus(api.post(upgradePath(id, ws.id, up.id)), 409);
    expect(refused.body.errors[0].detail).toContain("planned_and_finished");
    expect((await workspace(ws.id)).attributes["no-code-upgrade-available"]).toBe(false);
  });

  it("errors when a variable is outside the module's options, applying nothing", async () => {
    const { id } = await module("up-fail", ["1.0.0", "2.0.0"], "1.0.0");
    const ws = await createFromModule(api, id, "up-fail", [{ key: "region", value: "eu-west-1" }]);
    await setPin(id, "2.0.0");
    const up = (
      await expectStatus(
        api.post(upgradePath(id, ws.id), {
          data: {
            type: "workspaces",
            relationships: { vars: { data: varItems([{ key: "region", value: "mars-1" }]) } },
          },
        }),
        200,
      )
    ).body.data;
    const failed = await pollUpgrade(api, id, ws.id, up.id, ["planned", "planned_and_finished", "errored", "applied"]);
    expect(failed.doc.attributes.status).toBe("errored");
    expect(failed.doc.attributes["error-message"]).toContain("region");
    await expectStatus(api.post(upgradePath(id, ws.id, up.id)), 409);
    const after = await workspace(ws.id);
    expect(after.attributes["source-module-version"]).toBe("1.0.0");
    expect(after.attributes["no-code-upgrade-available"]).toBe(true);
    const vars = (await expectStatus(api.get(`/workspaces/${ws.id}/vars`), 200)).body.data as any[];
    expect(vars.find((v) => v.attributes.key === "region").attributes.value).toBe("eu-west-1");
  });

  it("confirming before the plan settles is a 409; a new upgrade supersedes a planned one", async () => {
    const slow = await start({ runSpeed: 1 });
    try {
      const sapi = slow.api;
      const mod = await publishModule(sapi, slow.org, "slow", ["1.0.0", "1.1.0"]);
      const m = await enableModule(sapi, slow.org, mod, { "version-pin": "1.0.0" });
      const ws = await createFromModule(sapi, m.id, "slow");
      await expectStatus(
        sapi.patch(`/no-code-modules/${m.id}`, {
          data: { type: "no-code-modules", attributes: { "version-pin": "1.1.0" } },
        }),
        200,
      );
      const first = (await expectStatus(sapi.post(upgradePath(m.id, ws.id), { data: { type: "workspaces" } }), 200))
        .body.data;
      expect(first.attributes.status).toBe("pending");
      const early = await expectStatus(sapi.post(upgradePath(m.id, ws.id, first.id)), 409);
      expect(early.body.errors[0].detail).toContain("pending");
      const second = (await expectStatus(sapi.post(upgradePath(m.id, ws.id), { data: { type: "workspaces" } }), 200))
        .body.data;
      expect(second.id).not.toBe(first.id);
      const superseded = await expectStatus(sapi.get(upgradePath(m.id, ws.id, first.id)), 200);
      expect(superseded.body.data.attributes.status).toBe("discarded");
    } finally {
      await slow.server.close();
    }
  });

  it("moves the stored run status without being polled, so run filters see it", async () => {
    const { id } = await module("up-timers", ["1.0.0", "1.1.0"], "1.0.0");
    const ws = await createFromModule(api, id, "up-timers");
    await setPin(id, "1.1.0");
    const up = (await expectStatus(api.post(upgradePath(id, ws.id), { data: { type: "workspaces" } }), 200)).body.data;
    const listed = async (status: string) =>
      (
        await expectStatus(
          api.get(`/organizations/${org}/workspaces?filter[current-run][status]=${status}&search[name]=up-timers`),
          200,
        )
      ).body.data.map((w: { id: string }) => w.id);
    const deadline = Date.now() + 5000;
    while (!(await listed("planned")).includes(ws.id)) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await listed("pending")).toEqual([]);
    await expectStatus(api.post(upgradePath(id, ws.id, up.id)), 200);
    while (!(await listed("applied")).includes(ws.id)) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect((await workspace(ws.id)).attributes["source-module-version"]).toBe("1.1.0");
  });

  it("refuses to start an upgrade while the module is disabled", async () => {
    const { id } = await module("up-disabled", ["1.0.0"]);
    const ws = await createFromModule(api, id, "up-disabled");
    await expectStatus(
      api.patch(`/no-code-modules/${id}`, { data: { type: "no-code-modules", attributes: { enabled: false } } }),
      200,
    );
    const r = await expectStatus(api.post(upgradePath(id, ws.id), { data: { type: "workspaces" } }), 422);
    expect(r.body.errors[0].detail).toContain("not enabled");
    expect((await workspace(ws.id)).relationships["current-run"].data).toBeNull();
  });

  it("answers 404 for unknown upgrades, foreign workspaces and callers without access, 422 for malformed bodies", async () => {
    const { id } = await module("up-404", ["1.0.0"]);
    const other = await module("up-404-other", ["1.0.0"]);
    const ws = await createFromModule(api, id, "up-404");
    const plain = await expectStatus(
      api.post(`/organizations/${org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: "up-404-plain" } },
      }),
      201,
    );
    await expectStatus(api.get(upgradePath(id, ws.id, "run-doesnotexist")), 404);
    await expectStatus(api.post(upgradePath(id, ws.id, "run-doesnotexist")), 404);
    await expectStatus(api.post(upgradePath(other.id, ws.id), { data: { type: "workspaces" } }), 404);
    await expectStatus(api.post(upgradePath(id, plain.body.data.id), { data: { type: "workspaces" } }), 404);
    await expectStatus(api.post(upgradePath(id, "ws-doesnotexist"), { data: { type: "workspaces" } }), 404);
    // Who may call comes before what the body says.
    await expectStatus(api.post(upgradePath(id, "ws-doesnotexist"), { data: { type: "wrong" } }), 404);

    const up = (await expectStatus(api.post(upgradePath(id, ws.id), { data: { type: "workspaces" } }), 200)).body.data;
    await expectStatus(api.get(upgradePath(other.id, ws.id, up.id)), 404);

    const readers = await makeTeam(api, org, "up-404-readers");
    await expectStatus(api.as(readers.token).get(upgradePath(id, ws.id, up.id)), 404);
    await grant(api, readers.id, ws.id, "read");
    await expectStatus(api.as(readers.token).get(upgradePath(id, ws.id, up.id)), 200);
    await expectStatus(api.as(readers.token).post(upgradePath(id, ws.id), { data: { type: "workspaces" } }), 404);

    const bad = await expectStatus(
      api.post(upgradePath(id, ws.id), {
        data: {
          type: "workspaces",
          relationships: { vars: { data: [{ type: "vars", attributes: { key: "", category: "engine", hcl: "no" } }] } },
        },
      }),
      422,
    );
    expect(pointers(bad.body).sort()).toEqual([
      "/data/relationships/vars/data/0/attributes/hcl",
      "/data/relationships/vars/data/0/attributes/key",
    ]);
    await expectStatus(api.post(upgradePath(id, ws.id), "nope"), 400);
    expect(pointers((await expectStatus(api.post(upgradePath(id, ws.id)), 422)).body)).toEqual(["/data"]);
    // The refused requests started nothing: the current run is still the one upgrade.
    expect((await workspace(ws.id)).relationships["current-run"].data.id).toBe(up.id);
  });
});
