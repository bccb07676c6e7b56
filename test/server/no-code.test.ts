import { describe, expect, it } from "vitest";
import { expectStatus, makeTeam, makeUser, type Api } from "./helpers";
import {
  addVersion,
  enableBody,
  enableModule,
  optionItems,
  pointers,
  publishModule,
  serveForSuite,
} from "./no-code-support";

let api: Api;
let org: string;
serveForSuite((t) => {
  api = t.api;
  org = t.org;
});

describe("private registry modules", () => {
  it("creates a module, adds versions under both paths and reads it by address, by id and in the list", async () => {
    const created = await expectStatus(
      api.post(`/organizations/${org}/registry-modules`, {
        data: { type: "registry-modules", attributes: { name: "network", provider: "aws" } },
      }),
      201,
    );
    const id = created.body.data.id as string;
    expect(id).toMatch(/^mod-/);
    expect(created.body.data.attributes).toMatchObject({
      name: "network",
      provider: "aws",
      namespace: org,
      "registry-name": "private",
      status: "pending",
      "no-code": false,
    });

    await addVersion(api, org, "network", "1.0.0");
    const v2 = await expectStatus(
      api.post(`/organizations/${org}/registry-modules/private/${org}/network/aws/versions`, {
        data: { type: "registry-module-versions", attributes: { version: "1.10.0" } },
      }),
      201,
    );
    expect(v2.body.data).toMatchObject({
      type: "registry-module-versions",
      attributes: { version: "1.10.0", status: "ok" },
    });
    await addVersion(api, org, "network", "1.2.0");

    const byAddress = await expectStatus(
      api.get(`/organizations/${org}/registry-modules/private/${org}/network/aws`),
      200,
    );
    expect(byAddress.body.data.id).toBe(id);
    expect(byAddress.body.data.attributes.status).toBe("setup_complete");
    // Newest first, by version order rather than by text.
    expect(byAddress.body.data.attributes["version-statuses"].map((v: { version: string }) => v.version)).toEqual([
      "1.10.0",
      "1.2.0",
      "1.0.0",
    ]);

    const byId = await expectStatus(api.get(`/registry-modules/${id}`), 200);
    expect(byId.body.data).toEqual(byAddress.body.data);

    const version = await expectStatus(
      api.get(`/organizations/${org}/registry-modules/private/${org}/network/aws/version?module_version=1.2.0`),
      200,
    );
    expect(version.body.data.attributes.version).toBe("1.2.0");
    await expectStatus(
      api.get(`/organizations/${org}/registry-modules/private/${org}/network/aws/version?module_version=9.9.9`),
      404,
    );

    const list = await expectStatus(api.get(`/organizations/${org}/registry-modules?q=netw`), 200);
    expect(list.body.data.map((m: { id: string }) => m.id)).toContain(id);
    expect(list.body.meta.pagination["total-count"]).toBeGreaterThanOrEqual(1);
  });

  it("refuses a duplicate module, a duplicate version and malformed bodies with pointers", async () => {
    await publishModule(api, org, "dup", ["0.1.0"]);
    const again = await expectStatus(
      api.post(`/organizations/${org}/registry-modules`, {
        data: { type: "registry-modules", attributes: { name: "dup", provider: "aws" } },
      }),
      422,
    );
    expect(again.body.errors[0].detail).toBe("Name has already been taken");
    const version = await expectStatus(
      api.post(`/registry-modules/${org}/dup/aws/versions`, {
        data: { type: "registry-module-versions", attributes: { version: "0.1.0" } },
      }),
      422,
    );
    expect(pointers(version.body)).toEqual(["/data/attributes/version"]);
    const bad = await expectStatus(
      api.post(`/organizations/${org}/registry-modules`, {
        data: { type: "registry-modules", attributes: { name: "has space", provider: "AWS" } },
      }),
      422,
    );
    expect(pointers(bad.body).sort()).toEqual(["/data/attributes/name", "/data/attributes/provider"]);
    const badVersion = await expectStatus(
      api.post(`/registry-modules/${org}/dup/aws/versions`, {
        data: { type: "registry-module-versions", attributes: { version: "one" } },
      }),
      422,
    );
    expect(pointers(badVersion.body)).toEqual(["/data/attributes/version"]);
    await expectStatus(
      api.post(`/registry-modules/${org}/missing/aws/versions`, {
        data: { type: "registry-module-versions", attributes: { version: "1.0.0" } },
      }),
      404,
    );
    const read = await expectStatus(api.get(`/organizations/${org}/registry-modules/private/${org}/dup/aws`), 200);
    expect(read.body.data.attributes["version-statuses"]).toEqual([{ version: "0.1.0", status: "ok" }]);
  });

  it("hides modules from tokens outside the organization", async () => {
    const id = await publishModule(api, org, "hidden", ["1.0.0"]);
    const outsider = await makeUser(api, "registry-outsider");
    await expectStatus(api.as(outsider.token).get(`/registry-modules/${id}`), 404);
    await expectStatus(
      api.as(outsider.token).get(`/organizations/${org}/registry-modules/private/${org}/hidden/aws`),
      404,
    );
    await expectStatus(
      api.as(outsider.token).post(`/registry-modules/${org}/hidden/aws/versions`, {
        data: { type: "registry-module-versions", attributes: { version: "2.0.0" } },
      }),
      404,
    );
  });
});

describe("enabling a module for no-code provisioning", () => {
  it("pins the latest version by default and gives each option set an id related back to the module", async () => {
    const mod = await publishModule(api, org, "bucket", ["1.0.0", "1.1.0", "2.0.0-beta.1"]);
    const r = await expectStatus(
      api.post(
        `/organizations/${org}/no-code-modules`,
        enableBody(mod, { enabled: true }, [
          { name: "region", options: ["eu-west-1", "us-east-1"] },
          { name: "size", type: "number", options: [1, 2, 3] },
        ]),
      ),
      200,
    );
    const m = r.body.data;
    expect(m.id).toMatch(/^nocode-/);
    expect(m.type).toBe("no-code-modules");
    expect(m.attributes).toMatchObject({ enabled: true, "version-pin": "1.1.0" });
    expect(m.relationships["registry-module"].data).toEqual({ id: mod, type: "registry-modules" });
    expect(m.relationships["registry-module"].links.related).toBe(`/api/v2/registry-modules/${mod}`);
    expect(m.relationships.organization.data).toEqual({ id: org, type: "organizations" });
    expect(m.links.self).toBe(`/api/v2/no-code-modules/${m.id}`);
    const optionRefs = m.relationships["variable-options"].data as { id: string; type: string }[];
    expect(optionRefs).toHaveLength(2);
    for (const o of optionRefs)
      expect(o).toMatchObject({ type: "variable-options", id: expect.stringMatching(/^ncvaropt-/) });
    expect(r.body.included).toBeUndefined();

    const read = await expectStatus(api.get(`/no-code-modules/${m.id}?include=variable_options`), 200);
    expect(read.body.data).toEqual(m);
    expect(read.body.included).toHaveLength(2);
    for (const inc of read.body.included) {
      expect(inc.relationships["no-code-allowed-module"].data).toEqual({ id: m.id, type: "no-code-allowed-modules" });
    }
    const size = read.body.included.find((i: any) => i.attributes["variable-name"] === "size");
    expect(size.attributes).toEqual({ "variable-name": "size", "variable-type": "number", options: [1, 2, 3] });

    // The registry module now reports it.
    const rm = await expectStatus(api.get(`/registry-modules/${mod}`), 200);
    expect(rm.body.data.attributes["no-code"]).toBe(true);
    expect(rm.body.data.relationships["no-code-modules"].data).toEqual([{ id: m.id, type: "no-code-modules" }]);
  });

  it("defaults enabled to false and takes an explicit pin and go-tfe's `latest`", async () => {
    const a = await publishModule(api, org, "pinned", ["1.0.0", "1.5.0"]);
    const m = (
      await expectStatus(
        api.post(`/organizations/${org}/no-code-modules`, enableBody(a, { "version-pin": "1.0.0" })),
        200,
      )
    ).body.data;
    expect(m.attributes).toMatchObject({ enabled: false, "version-pin": "1.0.0" });
    const b = await publishModule(api, org, "latest-pin", ["3.0.0", "3.1.0"]);
    const goTfe = {
      data: {
        type: "no-code-modules",
        attributes: { "version-pin": "latest", enabled: true },
        relationships: { "registry-module": { data: { type: "registry-modules", id: b } } },
      },
    };
    expect(
      (await expectStatus(api.post(`/organizations/${org}/no-code-modules`, goTfe), 200)).body.data.attributes[
        "version-pin"
      ],
    ).toBe("3.1.0");
  });

  it("answers 422 with a pointer per problem and creates nothing", async () => {
    const mod = await publishModule(api, org, "strict", ["1.0.0"]);
    const noVersions = await publishModule(api, org, "empty", []);
    const before = (await expectStatus(api.get(`/registry-modules/${mod}`), 200)).body.data.relationships[
      "no-code-modules"
    ].data;

    const cases: Array<[unknown, string[]]> = [
      [
        {
          data: {
            type: "no-code-modules",
            attributes: { enabled: "yes" },
            relationships: { "registry-module": { data: { type: "registry-module", id: mod } } },
          },
        },
        ["/data/attributes/enabled"],
      ],
      [{ data: { type: "no-code-modules", attributes: {} } }, ["/data/relationships"]],
      [
        {
          data: {
            type: "workspaces",
            relationships: { "registry-module": { data: { type: "registry-module", id: mod } } },
          },
        },
        ["/data/type"],
      ],
      [enableBody(mod, { "version-pin": "9.9.9" }), ["/data/attributes/version-pin"]],
      [enableBody(noVersions, { "version-pin": "1.0.0" }), ["/data/attributes/version-pin"]],
      [enableBody("mod-doesnotexist"), ["/data/relationships/registry-module/data/id"]],
      [
        enableBody(mod, {}, [
          { name: "region", options: ["a"] },
          { name: "region", options: ["b"] },
        ]),
        [
          "/data/relationships/variable-options/data/0/attributes/variable-name",
          "/data/relationships/variable-options/data/1/attributes/variable-name",
        ],
      ],
      [
        enableBody(mod, {}, [{ id: "ncvaropt-x", name: "region", options: ["a"] }]),
        ["/data/relationships/variable-options/data/0/id"],
      ],
      [
        {
          data: {
            type: "no-code-modules",
            relationships: {
              "registry-module": { data: { type: "registry-module", id: mod } },
              "variable-options": {
                data: [{ type: "variable-options", attributes: { "variable-name": "x", options: "a" } }],
              },
            },
          },
        },
        [
          "/data/relationships/variable-options/data/0/attributes/variable-type",
          "/data/relationships/variable-options/data/0/attributes/options",
        ],
      ],
    ];
    for (const [body, expected] of cases) {
      const r = await expectStatus(api.post(`/organizations/${org}/no-code-modules`, body), 422);
      expect(pointers(r.body).sort(), JSON.stringify(body)).toEqual([...expected].sort());
      for (const e of r.body.errors)
        expect(e).toMatchObject({ status: "422", title: expect.any(String), detail: expect.any(String) });
    }
    await expectStatus(api.post(`/organizations/${org}/no-code-modules`, "{not json"), 400);
    await expectStatus(api.post(`/organizations/${org}/no-code-modules`), 422);
    const after = (await expectStatus(api.get(`/registry-modules/${mod}`), 200)).body.data.relationships[
      "no-code-modules"
    ].data;
    expect(after).toEqual(before);
    expect(after).toEqual([]);
  });

  it("lists registry modules with their no-code modules included (go-tfe's include)", async () => {
    const mod = await publishModule(api, org, "listed", ["1.0.0"]);
    const m = await enableModule(api, org, mod);
    const r = await expectStatus(
      api.get(`/organizations/${org}/registry-modules?q=listed&include=no-code-modules`),
      200,
    );
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual([mod]);
    expect(r.body.included).toEqual([(await expectStatus(api.get(`/no-code-modules/${m.id}`), 200)).body.data]);
    await expectStatus(api.get(`/organizations/${org}/registry-modules?include=versions`), 400);
  });

  it("allows one no-code module per registry module", async () => {
    const mod = await publishModule(api, org, "single", ["1.0.0"]);
    const first = await enableModule(api, org, mod);
    const second = await expectStatus(api.post(`/organizations/${org}/no-code-modules`, enableBody(mod)), 422);
    expect(pointers(second.body)).toEqual(["/data/relationships/registry-module/data/id"]);
    expect(second.body.errors[0].detail).toContain(first.id);
  });
});

describe("updating no-code settings", () => {
  it("replaces an option set by id, adds new ones, changes the pin and disables", async () => {
    const mod = await publishModule(api, org, "updatable", ["1.0.0", "1.1.0"]);
    const m = await enableModule(api, org, mod, { "version-pin": "1.0.0" }, [{ name: "region", options: ["a", "b"] }]);
    const regionId = m.relationships["variable-options"].data[0].id as string;

    const r = await expectStatus(
      api.patch(`/no-code-modules/${m.id}?include=variable_options`, {
        data: {
          type: "no-code-modules",
          attributes: { "version-pin": "1.1.0", enabled: false },
          relationships: {
            "variable-options": {
              data: optionItems([
                { id: regionId, name: "region", options: ["c"] },
                { name: "tier", options: ["free", "paid"] },
              ]),
            },
          },
        },
      }),
      200,
    );
    expect(r.body.data.attributes).toMatchObject({ enabled: false, "version-pin": "1.1.0" });
    const included = r.body.included as any[];
    expect(included.map((i) => i.attributes["variable-name"]).sort()).toEqual(["region", "tier"]);
    const region = included.find((i) => i.attributes["variable-name"] === "region");
    expect(region.id).toBe(regionId);
    expect(region.attributes.options).toEqual(["c"]);
    expect(included.find((i) => i.attributes["variable-name"] === "tier").id).toMatch(/^ncvaropt-/);

    // Absent keys keep their values.
    const kept = await expectStatus(api.patch(`/no-code-modules/${m.id}`, { data: { type: "no-code-modules" } }), 200);
    expect(kept.body.data.attributes).toMatchObject({ enabled: false, "version-pin": "1.1.0" });
    expect(kept.body.data.relationships["variable-options"].data).toHaveLength(2);

    // A set without an id for a variable that has one replaces it (go-tfe sends no ids).
    const goTfe = await expectStatus(
      api.patch(`/no-code-modules/${m.id}?include=variable-options`, {
        data: {
          type: "no-code-modules",
          attributes: { enabled: true },
          relationships: {
            "registry-module": { data: { type: "registry-modules", id: mod } },
            "variable-options": { data: optionItems([{ name: "region", options: ["d"] }]) },
          },
        },
      }),
      200,
    );
    const regions = (goTfe.body.included as any[]).filter((i) => i.attributes["variable-name"] === "region");
    expect(regions).toHaveLength(1);
    expect(regions[0].attributes.options).toEqual(["d"]);
    expect(regions[0].id).not.toBe(regionId);
    expect(goTfe.body.data.attributes.enabled).toBe(true);
  });

  it("moves to another registry module, keeping the pin when it exists there", async () => {
    const a = await publishModule(api, org, "move-a", ["1.0.0", "2.0.0"]);
    const b = await publishModule(api, org, "move-b", ["1.0.0", "1.5.0"]);
    const c = await publishModule(api, org, "move-c", ["0.3.0"]);
    const m = await enableModule(api, org, a, { "version-pin": "1.0.0" });
    const toB = await expectStatus(
      api.patch(`/no-code-modules/${m.id}`, {
        data: {
          type: "no-code-modules",
          relationships: { "registry-module": { data: { type: "registry-module", id: b } } },
        },
      }),
      200,
    );
    expect(toB.body.data.relationships["registry-module"].data.id).toBe(b);
    expect(toB.body.data.attributes["version-pin"]).toBe("1.0.0");
    const toC = await expectStatus(
      api.patch(`/no-code-modules/${m.id}`, {
        data: {
          type: "no-code-modules",
          relationships: { "registry-module": { data: { type: "registry-module", id: c } } },
        },
      }),
      200,
    );
    expect(toC.body.data.attributes["version-pin"]).toBe("0.3.0");
  });

  it("rejects a pin that names no version, an unknown option set id and a malformed body, changing nothing", async () => {
    const mod = await publishModule(api, org, "guarded", ["1.0.0"]);
    const m = await enableModule(api, org, mod, {}, [{ name: "region", options: ["a"] }]);
    const before = (await expectStatus(api.get(`/no-code-modules/${m.id}?include=variable_options`), 200)).body;

    const cases: Array<[unknown, string[]]> = [
      [{ data: { type: "no-code-modules", attributes: { "version-pin": "2.0.0" } } }, ["/data/attributes/version-pin"]],
      [
        { data: { type: "no-code-modules", attributes: { enabled: false, "version-pin": "" } } },
        ["/data/attributes/version-pin"],
      ],
      [
        {
          data: {
            type: "no-code-modules",
            attributes: { enabled: false },
            relationships: {
              "variable-options": { data: optionItems([{ id: "ncvaropt-nope", name: "x", options: [] }]) },
            },
          },
        },
        ["/data/relationships/variable-options/data/0/id"],
      ],
      [
        {
          data: {
            type: "no-code-modules",
            attributes: { enabled: 1 },
            relationships: { "variable-options": { data: [{ type: "variable-options" }] } },
          },
        },
        ["/data/attributes/enabled", "/data/relationships/variable-options/data/0/attributes"],
      ],
      [
        {
          data: {
            type: "no-code-modules",
            relationships: { "registry-module": { data: { type: "registry-module", id: "mod-unknown" } } },
          },
        },
        ["/data/relationships/registry-module/data/id"],
      ],
      [{ data: {} }, ["/data/type"]],
    ];
    for (const [body, expected] of cases) {
      const r = await expectStatus(api.patch(`/no-code-modules/${m.id}`, body), 422);
      expect(pointers(r.body).sort(), JSON.stringify(body)).toEqual([...expected].sort());
    }
    await expectStatus(api.patch(`/no-code-modules/${m.id}`, "[[["), 400);
    const after = (await expectStatus(api.get(`/no-code-modules/${m.id}?include=variable_options`), 200)).body;
    expect(after).toEqual(before);
  });
});

describe("reading, statuses and tokens", () => {
  it("answers 400 for an include other than variable_options, 404 for unknown ids", async () => {
    const mod = await publishModule(api, org, "readable", ["1.0.0"]);
    const m = await enableModule(api, org, mod);
    for (const include of ["variable_option", "organization", "variable_options,project"]) {
      const r = await expectStatus(api.get(`/no-code-modules/${m.id}?include=${include}`), 400);
      expect(r.body.errors[0]).toMatchObject({ status: "400", source: { parameter: "include" } });
    }
    await expectStatus(api.get(`/no-code-modules/nocode-doesnotexist`), 404);
    await expectStatus(api.patch(`/no-code-modules/nocode-doesnotexist`, { data: { type: "no-code-modules" } }), 404);
    await expectStatus(
      api.post(`/no-code-modules/nocode-doesnotexist/workspaces`, {
        data: { type: "workspaces", attributes: { name: "x" } },
      }),
      404,
    );
    await expectStatus(api.post(`/organizations/no-such-org/no-code-modules`, enableBody(mod)), 404);
  });

  it("refuses organization tokens on every no-code endpoint", async () => {
    const mod = await publishModule(api, org, "orgtoken", ["1.0.0"]);
    const m = await enableModule(api, org, mod);
    const token = (await expectStatus(api.post(`/organizations/${org}/authentication-token`), 201)).body.data.attributes
      .token as string;
    const o = api.as(token);
    const other = await publishModule(api, org, "orgtoken-other", ["1.0.0"]);
    const ws = (
      await expectStatus(
        api.post(`/no-code-modules/${m.id}/workspaces`, {
          data: { type: "workspaces", attributes: { name: "orgtoken-ws" } },
        }),
        200,
      )
    ).body.data;
    const up = (
      await expectStatus(
        api.post(`/no-code-modules/${m.id}/workspaces/${ws.id}/upgrade`, { data: { type: "workspaces" } }),
        200,
      )
    ).body.data;
    for (const r of [
      await o.post(`/organizations/${org}/no-code-modules`, enableBody(other)),
      await o.post(`/no-code-modules/${m.id}/workspaces/${ws.id}/upgrade`, { data: { type: "workspaces" } }),
      await o.get(`/no-code-modules/${m.id}/workspaces/${ws.id}/upgrade/${up.id}`),
      await o.post(`/no-code-modules/${m.id}/workspaces/${ws.id}/upgrade/${up.id}`),
      await o.get(`/no-code-modules/${m.id}`),
      await o.patch(`/no-code-modules/${m.id}`, { data: { type: "no-code-modules", attributes: { enabled: false } } }),
      await o.post(`/no-code-modules/${m.id}/workspaces`, {
        data: { type: "workspaces", attributes: { name: "from-org-token" } },
      }),
      await o.delete(`/no-code-modules/${m.id}`),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.errors[0].detail).toContain("organization token");
    }
    // The organization token still works elsewhere, and nothing changed.
    await expectStatus(o.get(`/organizations/${org}/workspaces`), 200);
    expect((await expectStatus(api.get(`/no-code-modules/${m.id}`), 200)).body.data.attributes.enabled).toBe(true);
    expect(
      (await expectStatus(api.get(`/registry-modules/${other}`), 200)).body.data.relationships["no-code-modules"].data,
    ).toEqual([]);
    await expectStatus(api.get(`/organizations/${org}/workspaces/from-org-token`), 404);
  });

  it("lets members read, but only module managers enable and update; outsiders get 404", async () => {
    const mod = await publishModule(api, org, "teamwork", ["1.0.0"]);
    const m = await enableModule(api, org, mod);
    const readers = await makeTeam(api, org, "nocode-readers");
    const reader = api.as(readers.token);
    await expectStatus(reader.get(`/no-code-modules/${m.id}`), 200);
    await expectStatus(
      reader.patch(`/no-code-modules/${m.id}`, { data: { type: "no-code-modules", attributes: { enabled: false } } }),
      404,
    );
    await expectStatus(reader.patch(`/no-code-modules/${m.id}`, { data: "malformed" }), 404);
    const other = await publishModule(api, org, "teamwork-2", ["1.0.0"]);
    await expectStatus(reader.post(`/organizations/${org}/no-code-modules`, enableBody(other)), 404);

    const managers = await makeTeam(api, org, "nocode-managers", { manageWorkspaces: true });
    const updated = await expectStatus(
      api
        .as(managers.token)
        .patch(`/no-code-modules/${m.id}`, { data: { type: "no-code-modules", attributes: { enabled: false } } }),
      200,
    );
    expect(updated.body.data.attributes.enabled).toBe(false);

    const outsider = await makeUser(api, "nocode-outsider");
    await expectStatus(api.as(outsider.token).get(`/no-code-modules/${m.id}`), 404);
    await expectStatus(
      api.as(outsider.token).post(`/no-code-modules/${m.id}/workspaces`, {
        data: { type: "workspaces", attributes: { name: "outsider-ws" } },
      }),
      404,
    );
  });

  it("deletes a no-code module (go-tfe), which frees its registry module", async () => {
    const mod = await publishModule(api, org, "deletable", ["1.0.0"]);
    const m = await enableModule(api, org, mod);
    await expectStatus(api.delete(`/no-code-modules/${m.id}`), 204);
    await expectStatus(api.get(`/no-code-modules/${m.id}`), 404);
    await expectStatus(api.delete(`/no-code-modules/${m.id}`), 404);
    await enableModule(api, org, mod);
  });
});
