import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectStatus, start, type Api } from "./helpers";
import {
  createFromModule,
  enableModule,
  pollUpgrade,
  publishModule,
  serveForSuite,
  upgradePath,
} from "./no-code-support";

let api: Api;
let org: string;
serveForSuite((t) => {
  api = t.api;
  org = t.org;
});

describe("bodies as go-tfe sends them", () => {
  it("registers a module, enables it, creates and upgrades a workspace with go-tfe's shapes and spellings", async () => {
    const rm = await expectStatus(
      api.post(`/organizations/${org}/registry-modules`, {
        data: { type: "registry-modules", attributes: { name: "gotfe", provider: "aws", "registry-name": "private" } },
      }),
      201,
    );
    for (const version of ["0.1.0", "0.2.0"]) {
      await expectStatus(
        api.post(`/registry-modules/${org}/gotfe/aws/versions`, {
          data: { type: "registry-module-versions", attributes: { version, "commit-sha": "" } },
        }),
        201,
      );
    }
    expect((await expectStatus(api.get(`/registry-modules/${rm.body.data.id}`), 200)).body.data.attributes.name).toBe(
      "gotfe",
    );

    // Relationship members without an id carry their attributes (go-tfe's shallow nodes).
    const enabled = await expectStatus(
      api.post(`/organizations/${org}/no-code-modules`, {
        data: {
          type: "no-code-modules",
          attributes: { enabled: true, "version-pin": "0.1.0" },
          relationships: {
            "registry-module": { data: { type: "registry-modules", id: rm.body.data.id } },
            "variable-options": {
              data: [
                {
                  type: "variable-options",
                  attributes: { "variable-name": "size", "variable-type": "string", options: ["s", "m"] },
                },
              ],
            },
          },
        },
      }),
      200,
    );
    const nc = enabled.body.data.id as string;
    const read = await expectStatus(api.get(`/no-code-modules/${nc}?include=variable-options`), 200);
    expect(read.body.included.map((i: any) => i.attributes.options)).toEqual([["s", "m"]]);

    const goVar = (key: string, value: string) => ({
      type: "vars",
      attributes: {
        key,
        value,
        description: "",
        category: "terraform",
        hcl: false,
        sensitive: false,
        "version-id": "",
      },
    });
    const created = await expectStatus(
      api.post(`/no-code-modules/${nc}/workspaces`, {
        data: {
          type: "no-code-module-workspace",
          attributes: { name: "gotfe-ws", "auto-apply": false },
          relationships: { vars: { data: [goVar("size", "s")] } },
        },
      }),
      200,
    );
    const ws = created.body.data;
    expect(ws.attributes["source-module-id"]).toBe(rm.body.data.id);
    expect(ws.attributes["terraform-version"]).toBe(ws.attributes["engine-version"]);

    await expectStatus(
      api.patch(`/no-code-modules/${nc}`, {
        data: {
          type: "no-code-modules",
          attributes: { "version-pin": "0.2.0" },
          relationships: { "registry-module": { data: { type: "registry-modules", id: rm.body.data.id } } },
        },
      }),
      200,
    );
    const up = await expectStatus(
      api.post(upgradePath(nc, ws.id), {
        data: { type: "no-code-module-workspace", relationships: { vars: { data: [goVar("size", "m")] } } },
      }),
      200,
    );
    expect(up.body.data.type).toBe("workspace-upgrade");
    await pollUpgrade(api, nc, ws.id, up.body.data.id, ["planned"]);
    await expectStatus(api.post(upgradePath(nc, ws.id, up.body.data.id)), 200);
    await pollUpgrade(api, nc, ws.id, up.body.data.id, ["applied"]);
    const vars = (await expectStatus(api.get(`/workspaces/${ws.id}/vars`), 200)).body.data;
    expect(vars.map((v: any) => [v.attributes.key, v.attributes.value, v.attributes.category])).toEqual([
      ["size", "m", "terraform"],
    ]);
  });
});

describe("registry deletes and module moves", () => {
  it("keeps a pinned version, deletes others, and takes the no-code module with its registry module", async () => {
    const mod = await publishModule(api, org, "deletes", ["1.0.0", "1.1.0"]);
    const m = await enableModule(api, org, mod, { "version-pin": "1.0.0" });
    const ws = await createFromModule(api, m.id, "deletes-ws");
    const base = `/organizations/${org}/registry-modules/private/${org}/deletes/aws`;

    const pinned = await expectStatus(api.delete(`${base}/1.0.0`), 409);
    expect(pinned.body.errors[0].detail).toContain(m.id);
    await expectStatus(api.delete(`${base}/1.1.0`), 204);
    await expectStatus(api.delete(`${base}/1.1.0`), 404);
    expect((await expectStatus(api.get(base), 200)).body.data.attributes["version-statuses"]).toEqual([
      { version: "1.0.0", status: "ok" },
    ]);

    await expectStatus(api.delete(`/organizations/${org}/registry-modules/private/${org}/deletes`), 204);
    await expectStatus(api.get(base), 404);
    await expectStatus(api.get(`/no-code-modules/${m.id}`), 404);
    // The workspace outlives its module; nothing is left to upgrade to.
    const after = (await expectStatus(api.get(`/workspaces/${ws.id}`), 200)).body.data;
    expect(after.attributes).toMatchObject({
      "source-module-id": mod,
      "no-code-upgrade-available": false,
      "source-module-version": "1.0.0",
    });
    await expectStatus(api.post(upgradePath(m.id, ws.id), { data: { type: "workspaces" } }), 404);
  });

  it("offers an upgrade when the no-code module moves to another registry module, and applying it follows", async () => {
    const a = await publishModule(api, org, "origin", ["1.0.0"]);
    const b = await publishModule(api, org, "destination", ["1.0.0"]);
    const m = await enableModule(api, org, a);
    const ws = await createFromModule(api, m.id, "mover");
    await expectStatus(
      api.patch(`/no-code-modules/${m.id}`, {
        data: {
          type: "no-code-modules",
          relationships: { "registry-module": { data: { type: "registry-module", id: b } } },
        },
      }),
      200,
    );
    const flagged = (await expectStatus(api.get(`/workspaces/${ws.id}`), 200)).body.data.attributes;
    expect(flagged).toMatchObject({ "no-code-upgrade-available": true, "source-module-id": a });
    const up = (await expectStatus(api.post(upgradePath(m.id, ws.id), { data: { type: "workspaces" } }), 200)).body
      .data;
    await pollUpgrade(api, m.id, ws.id, up.id, ["planned"]);
    await expectStatus(api.post(upgradePath(m.id, ws.id, up.id)), 200);
    await pollUpgrade(api, m.id, ws.id, up.id, ["applied"]);
    const after = (await expectStatus(api.get(`/workspaces/${ws.id}`), 200)).body.data.attributes;
    expect(after).toMatchObject({ "no-code-upgrade-available": false, "source-module-id": b });
  });
});

describe("durability", () => {
  it("continues an upgrade across a restart on a database file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nocode-restart-"));
    const db = join(dir, "ws.db");
    try {
      // Slow on the first server, so the upgrade is still pending when it stops.
      const first = await start({ db, runSpeed: 1, token: "restart-token" });
      const mod = await publishModule(first.api, first.org, "durable", ["1.0.0", "2.0.0"]);
      const m = await enableModule(first.api, first.org, mod, { "version-pin": "1.0.0" });
      const ws = await createFromModule(first.api, m.id, "durable");
      await expectStatus(
        first.api.patch(`/no-code-modules/${m.id}`, {
          data: { type: "no-code-modules", attributes: { "version-pin": "2.0.0" } },
        }),
        200,
      );
      const up = (await expectStatus(first.api.post(upgradePath(m.id, ws.id), { data: { type: "workspaces" } }), 200))
        .body.data;
      expect(up.attributes.status).toBe("pending");
      await first.server.close();

      const second = await start({ db, runSpeed: 1000, token: "restart-token" });
      try {
        await pollUpgrade(second.api, m.id, ws.id, up.id, ["planned"]);
        await expectStatus(second.api.post(upgradePath(m.id, ws.id, up.id)), 200);
        await pollUpgrade(second.api, m.id, ws.id, up.id, ["applied"]);
        const after = (await expectStatus(second.api.get(`/workspaces/${ws.id}`), 200)).body.data.attributes;
        expect(after).toMatchObject({ "source-module-version": "2.0.0", "no-code-upgrade-available": false });
      } finally {
        await second.server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
