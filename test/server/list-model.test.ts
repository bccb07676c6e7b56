import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, start, type TestServer } from "./helpers";

/**
 * Model-based check of the list filters (spec 4.4): random workspaces, random queries,
 * and every page of the answer compared with a plain filter over the model.
 */
interface ModelWorkspace {
  name: string;
  tags: string[];
  bindings: Record<string, string>;
  project: "a" | "b";
}

const PROJECT_B_BINDINGS: Record<string, string> = { team: "q", cost: "1" };
const lower = (s: string) => s.toLowerCase();
const cmp = (a: string, b: string) => (lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : 0);

let t: TestServer;
const model: ModelWorkspace[] = [];
let projectB = "";

const workspaceArb = fc.record({
  name: fc.stringMatching(/^[abAB_-]{1,4}[0-9]{0,2}$/),
  tags: fc.uniqueArray(fc.constantFrom("red", "green", "blue", "gray"), { maxLength: 3 }),
  env: fc.option(fc.constantFrom("x", "y"), { nil: undefined }),
  team: fc.option(fc.constantFrom("p", "q"), { nil: undefined }),
  project: fc.constantFrom<"a" | "b">("a", "b"),
});

beforeAll(async () => {
  t = await start();
  projectB = (
    await expectStatus(
      t.api.post(`/organizations/${t.org}/projects`, {
        data: {
          type: "projects",
          attributes: { name: "model-b" },
          relationships: {
            "tag-bindings": {
              data: Object.entries(PROJECT_B_BINDINGS).map(([key, value]) => ({
                type: "tag-bindings",
                attributes: { key, value },
              })),
            },
          },
        },
      }),
      201,
    )
  ).body.data.id;
  const generated = fc.sample(
    fc.uniqueArray(workspaceArb, { minLength: 25, maxLength: 25, selector: (w) => lower(w.name) }),
    { numRuns: 1, seed: 42 },
  )[0];
  for (const g of generated) {
    const bindings: Record<string, string> = {};
    if (g.env) bindings.env = g.env;
    if (g.team) bindings.team = g.team;
    const rel: Record<string, unknown> = {
      "tag-bindings": {
        data: Object.entries(bindings).map(([key, value]) => ({ type: "tag-bindings", attributes: { key, value } })),
      },
      tags: { data: g.tags.map((name) => ({ type: "tags", attributes: { name } })) },
    };
    if (g.project === "b") rel.project = { data: { type: "projects", id: projectB } };
    await expectStatus(
      t.api.post(`/organizations/${t.org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: g.name }, relationships: rel },
      }),
      201,
    );
    model.push({ name: g.name, tags: g.tags, bindings, project: g.project });
  }
});
afterAll(() => t.server.close());

const queryArb = fc.record({
  name: fc.option(fc.stringMatching(/^[abAB_-]{1,2}$/), { nil: undefined, freq: 2 }),
  wildcard: fc.option(fc.constantFrom("a*", "*1", "*b*", "A*", "*_*"), { nil: undefined, freq: 2 }),
  tags: fc.uniqueArray(fc.constantFrom("red", "green", "blue"), { maxLength: 1 }),
  exclude: fc.uniqueArray(fc.constantFrom("red", "gray"), { maxLength: 1 }),
  tagged: fc.array(
    fc.record({
      key: fc.constantFrom("env", "team", "cost"),
      value: fc.option(fc.constantFrom("x", "y", "p", "q", "1"), { nil: undefined }),
    }),
    { maxLength: 1 },
  ),
  inB: fc.boolean(),
  desc: fc.boolean(),
  size: fc.integer({ min: 1, max: 7 }),
});

function wildcardMatch(pattern: string, name: string): boolean {
  const re = new RegExp(
    "^" +
      pattern
        .split("*")
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*") +
      "$",
    "i",
  );
  return re.test(name);
}

type Query = typeof queryArb extends fc.Arbitrary<infer T> ? T : never;

function expected(q: Query): string[] {
  return model
    .filter((w) => (q.name === undefined ? true : lower(w.name).includes(lower(q.name))))
    .filter((w) => (q.wildcard === undefined ? true : wildcardMatch(q.wildcard, w.name)))
    .filter((w) => q.tags.every((tag) => w.tags.includes(tag)))
    .filter((w) => !q.exclude.some((tag) => w.tags.includes(tag)))
    .filter((w) => (q.inB ? w.project === "b" : true))
    .filter((w) =>
      q.tagged.every(({ key, value }) => {
        const effective = { ...(w.project === "b" ? PROJECT_B_BINDINGS : {}), ...w.bindings };
        return key in effective && (value === undefined || effective[key] === value);
      }),
    )
    .map((w) => w.name)
    .sort((a, b) => (q.desc ? -cmp(a, b) : cmp(a, b)));
}

describe("list filters against a model", () => {
  it("every combination of filters returns exactly the model's matches, in order, across pages", async () => {
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(queryArb, async (q) => {
        const params = new URLSearchParams();
        if (q.name !== undefined) params.set("search[name]", q.name);
        if (q.wildcard !== undefined) params.set("search[wildcard-name]", q.wildcard);
        if (q.tags.length) params.set("search[tags]", q.tags.join(","));
        if (q.exclude.length) params.set("search[exclude-tags]", q.exclude.join(","));
        if (q.inB) params.set("filter[project][id]", projectB);
        q.tagged.forEach((f, i) => {
          params.set(`filter[tagged][${i}][key]`, f.key);
          if (f.value !== undefined) params.set(`filter[tagged][${i}][value]`, f.value);
        });
        params.set("sort", q.desc ? "-name" : "name");
        params.set("page[size]", String(q.size));
        const want = expected(q);
        if (want.length) nonEmpty++;
        const got: string[] = [];
        for (let page = 1; ; page++) {
          params.set("page[number]", String(page));
          const r = await expectStatus(t.api.get(`/organizations/${t.org}/workspaces?${params.toString()}`), 200);
          expect(r.body.meta.pagination["total-count"]).toBe(want.length);
          got.push(...r.body.data.map((w: any) => w.attributes.name));
          if (r.body.meta.pagination["next-page"] === null) break;
        }
        expect(got).toEqual(want);
      }),
      { numRuns: 80 },
    );
    // The property only means something if many queries match something.
    expect(nonEmpty).toBeGreaterThan(20);
  });
});
