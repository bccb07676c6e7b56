import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, expectStatus, start, type TestServer } from "./helpers";

let t: TestServer;
let projectB: string;
const names = ["app-prod", "app-staging", "db-prod", "db_staging", "Web-Prod", "web-dev", "misc"];
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await start();
  const p = await expectStatus(
    t.api.post(`/organizations/${t.org}/projects`, {
      data: {
        type: "projects",
        attributes: { name: "b" },
        relationships: {
          "tag-bindings": { data: [{ type: "tag-bindings", attributes: { key: "team", value: "blue" } }] },
        },
      },
    }),
    201,
  );
  projectB = p.body.data.id;
  for (const name of names) {
    const rel = name.startsWith("db") ? { project: { data: { type: "projects", id: projectB } } } : undefined;
    ids[name] = (await createWorkspace(t.api, t.org, name, {}, rel)).id;
  }
  const tag = (name: string, tags: string[]) =>
    t.api.post(`/workspaces/${ids[name]}/relationships/tags`, {
      data: tags.map((n) => ({ type: "tags", attributes: { name: n } })),
    });
  await tag("app-prod", ["prod", "app"]);
  await tag("db-prod", ["prod", "db"]);
  await tag("Web-Prod", ["prod"]);
  await tag("app-staging", ["app", "staging"]);
  const kv = (name: string, pairs: [string, string][]) =>
    t.api.patch(`/workspaces/${ids[name]}`, {
      data: {
        type: "workspaces",
        relationships: {
          "tag-bindings": { data: pairs.map(([key, value]) => ({ type: "tag-bindings", attributes: { key, value } })) },
        },
      },
    });
  await kv("app-prod", [
    ["env", "prod"],
    ["team", "red"],
  ]);
  await kv("db-prod", [["env", "prod"]]);
  await kv("db_staging", [["team", "green"]]);
});
afterAll(() => t.server.close());

const list = (q = "") => t.api.get(`/organizations/${t.org}/workspaces${q}`);
const namesOf = (r: { body: any }) => r.body.data.map((w: any) => w.attributes.name);

describe("list (spec 4.4, 2.10)", () => {
  it("orders by name by default and carries the pagination envelope", async () => {
    const r = await list();
    expect(namesOf(r)).toEqual(["app-prod", "app-staging", "db-prod", "db_staging", "misc", "web-dev", "Web-Prod"]);
    expect(r.body.meta.pagination).toEqual({
      "current-page": 1,
      "page-size": 20,
      "prev-page": null,
      "next-page": null,
      "total-pages": 1,
      "total-count": 7,
    });
    for (const k of ["self", "first", "last", "next", "prev"]) expect(r.body.links).toHaveProperty(k);
    expect(r.body.links.next).toBeNull();
  });

  it("pages, including a page past the end with true totals", async () => {
    const p1 = await list("?page%5Bsize%5D=3");
    expect(namesOf(p1)).toHaveLength(3);
    expect(p1.body.meta.pagination).toMatchObject({
      "current-page": 1,
      "next-page": 2,
      "prev-page": null,
      "total-pages": 3,
      "total-count": 7,
      "page-size": 3,
    });
    expect(p1.body.links.next).toContain("page%5Bnumber%5D=2");
    const p3 = await list("?page[number]=3&page[size]=3");
    expect(namesOf(p3)).toHaveLength(1);
    expect(p3.body.meta.pagination).toMatchObject({ "next-page": null, "prev-page": 2 });
    const past = await list("?page[number]=9&page[size]=3");
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta.pagination).toMatchObject({ "current-page": 9, "total-count": 7, "total-pages": 3 });
    const all = [...namesOf(p1), ...namesOf(await list("?page[number]=2&page[size]=3")), ...namesOf(p3)];
    expect(new Set(all).size).toBe(7);
  });

  it("caps the page size at 100 and rejects nonsense page values", async () => {
    const r = await list("?page[size]=500");
    expect(r.body.meta.pagination["page-size"]).toBe(100);
    expect((await list("?page[size]=abc")).status).toBe(400);
    expect((await list("?page[number]=0")).status).toBe(400);
  });

  it("search[name] is a case-insensitive substring match", async () => {
    expect(namesOf(await list("?search[name]=PROD"))).toEqual(["app-prod", "db-prod", "Web-Prod"]);
    expect(namesOf(await list("?search[name]=_"))).toEqual(["db_staging"]);
  });

  it("search[wildcard-name] matches prefix, suffix or both", async () => {
    expect(namesOf(await list("?search[wildcard-name]=app*"))).toEqual(["app-prod", "app-staging"]);
    expect(namesOf(await list("?search[wildcard-name]=*staging"))).toEqual(["app-staging", "db_staging"]);
    expect(namesOf(await list("?search[wildcard-name]=*-pro*"))).toEqual(["app-prod", "db-prod", "Web-Prod"]);
    expect(namesOf(await list("?search[wildcard-name]=misc"))).toEqual(["misc"]);
  });

  it("search[tags] requires all; search[exclude-tags] excludes any", async () => {
    expect(namesOf(await list("?search[tags]=prod"))).toEqual(["app-prod", "db-prod", "Web-Prod"]);
    expect(namesOf(await list("?search[tags]=prod,app"))).toEqual(["app-prod"]);
    expect(namesOf(await list("?search[exclude-tags]=prod"))).toEqual(["app-staging", "db_staging", "misc", "web-dev"]);
    expect(namesOf(await list("?search[exclude-tags]=prod,staging"))).toEqual(["db_staging", "misc", "web-dev"]);
  });

  it("filter[project][id]", async () => {
    expect(namesOf(await list(`?filter[project][id]=${projectB}`))).toEqual(["db-prod", "db_staging"]);
  });

  it("filter[tagged] on keys and values, combined with AND, inherited bindings included", async () => {
    expect(namesOf(await list("?filter[tagged][0][key]=env&filter[tagged][0][value]=prod"))).toEqual([
      "app-prod",
      "db-prod",
    ]);
    expect(namesOf(await list("?filter[tagged][0][key]=team"))).toEqual(["app-prod", "db-prod", "db_staging"]);
    // db-prod inherits team=blue from its project; db_staging overrides it with green.
    expect(namesOf(await list("?filter[tagged][0][key]=team&filter[tagged][0][value]=blue"))).toEqual(["db-prod"]);
    expect(
      namesOf(
        await list(
          "?filter[tagged][0][key]=env&filter[tagged][0][value]=prod&filter[tagged][1][key]=team&filter[tagged][1][value]=red",
        ),
      ),
    ).toEqual(["app-prod"]);
    expect((await list("?filter[tagged][0][value]=prod")).status).toBe(400);
  });

  it("filter[current-run][status] and sort by current-run.created-at", async () => {
    const run = async (name: string) =>
      (
        await expectStatus(
          t.api.post(`/runs`, {
            data: { type: "runs", relationships: { workspace: { data: { type: "workspaces", id: ids[name] } } } },
          }),
          201,
        )
      ).body.data.id;
    const r1 = await run("misc");
    await run("web-dev");
    await expectStatus(t.api.post(`/runs/${r1}/actions/discard`), 202);
    expect(namesOf(await list("?filter[current-run][status]=pending"))).toEqual(["web-dev"]);
    expect(namesOf(await list("?filter[current-run][status]=discarded"))).toEqual(["misc"]);
    expect(namesOf(await list("?filter[current-run][status]=pending,discarded"))).toEqual(["misc", "web-dev"]);
    const desc = namesOf(await list("?sort=-current-run.created-at&filter[current-run][status]=pending,discarded"));
    expect(desc).toEqual(["web-dev", "misc"]);
    const ws = await t.api.get(`/workspaces/${ids["misc"]}?include=current_run`);
    expect(ws.body.data.relationships["current-run"].data).toEqual({ id: r1, type: "runs" });
    expect(ws.body.data.relationships["latest-run"].data).toEqual({ id: r1, type: "runs" });
    expect(ws.body.included[0]).toMatchObject({ id: r1, type: "runs", attributes: { status: "discarded" } });
  });

  it("sorts by name and latest-change-at, reversed with -", async () => {
    const asc = namesOf(await list("?sort=name"));
    expect(namesOf(await list("?sort=-name"))).toEqual([...asc].reverse());
    const byChange = await list("?sort=-latest-change-at");
    const stamps = byChange.body.data.map((w: any) => w.attributes["latest-change-at"]);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    expect((await list("?sort=bogus")).status).toBe(400);
  });

  it("include works on the list and an unknown include is 400", async () => {
    const r = await list("?include=project");
    expect(r.body.included.map((i: any) => i.id).sort()).toEqual(
      [...new Set(r.body.data.map((w: any) => w.relationships.project.data.id))].sort(),
    );
    expect((await list("?include=nope")).status).toBe(400);
  });

  it("a list entry is identical to the document read alone", async () => {
    const r = await list("?search[name]=misc");
    const one = await t.api.get(`/workspaces/${ids["misc"]}`);
    expect(r.body.data[0]).toEqual(one.body.data);
  });

  it("answers 404 for an unknown organization", async () => {
    expect((await t.api.get(`/organizations/nope/workspaces`)).status).toBe(404);
  });
});

describe("list totals stay exact while paging", () => {
  it("a write between two pages shows in the next total", async () => {
    const q = "?search[name]=count-me&page[size]=1";
    await createWorkspace(t.api, t.org, "count-me-1");
    expect((await list(q)).body.meta.pagination["total-count"]).toBe(1);
    await createWorkspace(t.api, t.org, "count-me-2");
    expect((await list(q)).body.meta.pagination["total-count"]).toBe(2);
    await expectStatus(t.api.delete(`/organizations/${t.org}/workspaces/count-me-1`), 204);
    expect((await list(q)).body.meta.pagination["total-count"]).toBe(1);
  });
});
