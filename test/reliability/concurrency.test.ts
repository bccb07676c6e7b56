/**
 * Concurrency: parallel writers on one workspace, spread over two server processes that
 * share one database file, so the guarantees rest on SQLite transactions and not on the
 * single event loop of one process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Api, createWorkspace, start, type Reply, type TestServer } from "../server/helpers";
import { startChildServer, type ChildServer } from "./child";
import { recordFigures } from "./figures";

const N = 50;
let dir: string;
let a: TestServer;
let b: ChildServer;
let apis: Api[];
let org: string;
let requests = 0;

/** Request i goes to one process or the other. */
const via = (i: number) => apis[i % apis.length];

async function race(fn: (api: Api, i: number) => Promise<Reply>): Promise<Reply[]> {
  requests += N;
  return Promise.all(Array.from({ length: N }, (_, i) => fn(via(i), i)));
}

const count = (replies: Reply[], status: number) => replies.filter((r) => r.status === status).length;

async function allPages(api: Api, path: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const r = await api.get(`${path}${path.includes("?") ? "&" : "?"}page%5Bsize%5D=100&page%5Bnumber%5D=${page}`);
    expect(r.status).toBe(200);
    out.push(...r.body.data);
    if (!r.body.meta?.pagination?.["next-page"]) return out;
  }
}

async function tagNames(api: Api, id: string): Promise<string[]> {
  const listed = (await allPages(api, `/workspaces/${id}/relationships/tags`)).map((t) => t.attributes.name as string);
  const attr = (await api.get(`/workspaces/${id}`)).body.data.attributes["tag-names"] as string[];
  // Both views agree and neither holds a name twice.
  expect([...attr].sort()).toEqual([...listed].sort());
  expect(new Set(listed).size).toBe(listed.length);
  return listed.sort();
}

async function consumerIds(api: Api, id: string): Promise<string[]> {
  const ids = (await allPages(api, `/workspaces/${id}/relationships/remote-state-consumers`)).map(
    (w) => w.id as string,
  );
  expect(new Set(ids).size).toBe(ids.length);
  return ids.sort();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ws-concurrency-"));
  const file = join(dir, "workspaces.db");
  a = await start({ db: file });
  b = await startChildServer(["--db", file, "--token", a.server.token, "--rate-limit", "0"]);
  apis = [a.api, new Api(b.url, a.server.token)];
  org = a.org;
}, 60_000);

afterAll(async () => {
  await b?.stop();
  await a?.server.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  recordFigures("concurrency", { "parallel requests over two server processes on one database file": requests });
});

describe("parallel writers on one workspace, two server processes, one database file", () => {
  test("50 parallel locks: exactly one wins, 49 conflicts", async () => {
    const ws = await createWorkspace(a.api, org, "lock-race");
    const replies = await race((api, i) => api.post(`/workspaces/${ws.id}/actions/lock`, { reason: `writer ${i}` }));
    expect(count(replies, 200)).toBe(1);
    expect(count(replies, 409)).toBe(N - 1);
    const winner = replies.findIndex((r) => r.status === 200);
    const shown = await a.api.get(`/workspaces/${ws.id}`);
    expect(shown.body.data.attributes.locked).toBe(true);
    expect(shown.body.data.attributes["locked-reason"]).toBe(`writer ${winner}`);
  });

  test("50 parallel creates of one name: exactly one workspace, 49 'Name has already been taken'", async () => {
    const replies = await race((api) =>
      api.post(`/organizations/${org}/workspaces`, {
        data: { type: "workspaces", attributes: { name: "create-race" } },
      }),
    );
    expect(count(replies, 201)).toBe(1);
    const refused = replies.filter((r) => r.status !== 201);
    expect(
      refused.every(
        (r) => r.status === 422 && r.body.errors.some((e: any) => e.detail === "Name has already been taken"),
      ),
    ).toBe(true);
    const found = (await allPages(a.api, `/organizations/${org}/workspaces?search%5Bname%5D=create-race`)).filter(
      (w) => w.attributes.name === "create-race",
    );
    expect(found).toHaveLength(1);
    expect(found[0].id).toBe(replies.find((r) => r.status === 201)!.body.data.id);
  });

  test("parallel flat tag adds end in the union, each tag once; parallel removes leave exactly the rest", async () => {
    const ws = await createWorkspace(a.api, org, "tag-race");
    // Writer i adds tags t(i mod 10) and t((i+1) mod 10): every tag is added by ten writers at once.
    const adds = await race((api, i) =>
      api.post(`/workspaces/${ws.id}/relationships/tags`, {
        data: [`t${i % 10}`, `t${(i + 1) % 10}`].map((name) => ({ type: "tags", attributes: { name } })),
      }),
    );
    expect(count(adds, 204)).toBe(N);
    const all = Array.from({ length: 10 }, (_, i) => `t${i}`).sort();
    expect(await tagNames(a.api, ws.id)).toEqual(all);
    const orgTags = (await allPages(a.api, `/organizations/${org}/tags`)).filter((t) =>
      all.includes(t.attributes.name),
    );
    expect(orgTags.map((t) => t.attributes.name).sort()).toEqual(all);
    expect(orgTags.every((t) => t.attributes["instance-count"] === 1)).toBe(true);

    // Writers remove t0..t4 (each by ten writers at once); t5..t9 must stay.
    const removes = await race((api, i) =>
      api.delete(`/workspaces/${ws.id}/relationships/tags`, {
        data: [{ type: "tags", attributes: { name: `t${i % 5}` } }],
      }),
    );
    expect(count(removes, 204)).toBe(N);
    expect(await tagNames(a.api, ws.id)).toEqual(["t5", "t6", "t7", "t8", "t9"]);
    const left = (await allPages(a.api, `/organizations/${org}/tags`)).map((t) => t.attributes.name);
    // A tag on no workspace disappears from the organization list.
    for (const gone of ["t0", "t1", "t2", "t3", "t4"]) expect(left).not.toContain(gone);
  });

  test("racing adds and removes of the same tags: every tag ends as its last writer left it, never twice", async () => {
    const ws = await createWorkspace(a.api, org, "tag-flip");
    // Rounds of 50 writers flip the same five tags on and off at once. Within a round the
    // order is the server's; the round that follows is the last writer of the previous.
    for (let round = 0; round < 4; round++) {
      const replies = await race((api, i) =>
        (i + round) % 2 === 0
          ? api.post(`/workspaces/${ws.id}/relationships/tags`, {
              data: [{ type: "tags", attributes: { name: `f${i % 5}` } }],
            })
          : api.delete(`/workspaces/${ws.id}/relationships/tags`, {
              data: [{ type: "tags", attributes: { name: `f${i % 5}` } }],
            }),
      );
      expect(count(replies, 204)).toBe(N);
      const names = await tagNames(a.api, ws.id);
      expect(names.every((n) => /^f[0-4]$/.test(n))).toBe(true);
      const org1 = (await allPages(a.api, `/organizations/${org}/tags`)).filter((t) =>
        /^f[0-4]$/.test(t.attributes.name),
      );
      // The organization list has exactly the tags in use, each once, counted once.
      expect(org1.map((t) => t.attributes.name).sort()).toEqual(names);
      expect(org1.every((t) => t.attributes["instance-count"] === 1)).toBe(true);
    }
    // The last writer of each tag: add f0, f2, f4 and remove f1, f3, in parallel from both processes.
    const finals = await race((api, i) => {
      const name = `f${i % 5}`;
      return i % 5 === 1 || i % 5 === 3
        ? api.delete(`/workspaces/${ws.id}/relationships/tags`, { data: [{ type: "tags", attributes: { name } }] })
        : api.post(`/workspaces/${ws.id}/relationships/tags`, { data: [{ type: "tags", attributes: { name } }] });
    });
    expect(count(finals, 204)).toBe(N);
    expect(await tagNames(a.api, ws.id)).toEqual(["f0", "f2", "f4"]);
  });

  test("parallel consumer adds end in the union; parallel removes leave exactly the rest; parallel replaces leave one writer's whole set", async () => {
    const subject = await createWorkspace(a.api, org, "consumer-subject");
    const consumers: string[] = [];
    for (let i = 0; i < 10; i++) consumers.push((await createWorkspace(a.api, org, `consumer-${i}`)).id);
    const ref = (id: string) => ({ type: "workspaces", id });

    const adds = await race((api, i) =>
      api.post(`/workspaces/${subject.id}/relationships/remote-state-consumers`, {
        data: [ref(consumers[i % 10]), ref(consumers[(i + 3) % 10])],
      }),
    );
    expect(count(adds, 204)).toBe(N);
    expect(await consumerIds(a.api, subject.id)).toEqual([...consumers].sort());

    const removes = await race((api, i) =>
      api.delete(`/workspaces/${subject.id}/relationships/remote-state-consumers`, { data: [ref(consumers[i % 5])] }),
    );
    expect(count(removes, 204)).toBe(N);
    expect(await consumerIds(a.api, subject.id)).toEqual(consumers.slice(5).sort());

    // Writer i asks for exactly {c(i mod 10), c((i+1) mod 10), c((i+2) mod 10)}: the result
    // is one writer's whole set, never a mix of two.
    const sets = Array.from({ length: N }, (_, i) =>
      [consumers[i % 10], consumers[(i + 1) % 10], consumers[(i + 2) % 10]].sort(),
    );
    const replaces = await race((api, i) =>
      api.patch(`/workspaces/${subject.id}/relationships/remote-state-consumers`, { data: sets[i].map(ref) }),
    );
    expect(count(replaces, 204)).toBe(N);
    const final = await consumerIds(a.api, subject.id);
    expect(sets.some((s) => JSON.stringify(s) === JSON.stringify(final))).toBe(true);

    // Then one last writer: its set, exactly.
    await a.api.patch(`/workspaces/${subject.id}/relationships/remote-state-consumers`, { data: [ref(consumers[9])] });
    expect(await consumerIds(apis[1], subject.id)).toEqual([consumers[9]]);
  });

  test("parallel key-value tag updates: one writer's whole set, each key once", async () => {
    const ws = await createWorkspace(a.api, org, "binding-race");
    const sets = Array.from({ length: N }, (_, i) => [
      { key: "owner", value: `team-${i}` },
      { key: `k${i % 7}`, value: String(i) },
    ]);
    const replies = await race((api, i) =>
      api.patch(`/workspaces/${ws.id}`, {
        data: {
          type: "workspaces",
          relationships: {
            "tag-bindings": { data: sets[i].map((attributes) => ({ type: "tag-bindings", attributes })) },
          },
        },
      }),
    );
    expect(count(replies, 200)).toBe(N);
    const bindings = (await a.api.get(`/workspaces/${ws.id}/tag-bindings`)).body.data.map((b: any) => ({
      key: b.attributes.key,
      value: b.attributes.value,
    })) as {
      key: string;
      value: string;
    }[];
    const keys = bindings.map((b) => b.key);
    expect(new Set(keys).size).toBe(keys.length);
    const owner = bindings.find((b) => b.key === "owner")!;
    const writer = Number(owner.value.slice("team-".length));
    // Bindings set in one update are kept together: the owner tag and the k-tag come from the same writer.
    expect(bindings).toContainEqual({ key: `k${writer % 7}`, value: String(writer) });
    // An update sets the whole list: exactly that writer's two bindings remain.
    const byKey = (x: { key: string }, y: { key: string }) => x.key.localeCompare(y.key);
    expect([...bindings].sort(byKey)).toEqual([...sets[writer]].sort(byKey));
  });
});
