/**
 * Listings of one project (src/resources/process/snapshot.ts): a resource that names its
 * project is read from that project's listing (`filter[project][id]`), so a stack split by
 * project reads its project's pages and not the organization's; a process asked for many
 * projects reads the organization's listing for the rest; a server that ignores the
 * filter is filtered here too, and its answer serves as the organization's listing.
 * Against the real local server over HTTP, through a pass-through proxy on loopback that
 * counts every request with its query (and, for one test, drops the filter, as a server
 * without it would).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { implementationOf } from "../../src/resources/entry";
import { MAX_PROJECT_LISTINGS } from "../../src/resources/process/snapshot";
import { workspaceProvider } from "../../src/resources/providers/workspace";
import { type FakeService, JSONAPI, startFakeService } from "../client/fake-service";
import { createProject, pointProviders, startHarness, uniqueName, type Harness } from "./helpers";

const FILTER = "filter%5Bproject%5D%5Bid%5D";
/** Workspaces per project: the first takes two pages of 100, the whole organization three. */
const SIZES = [120, 30, 30, 20];

let h: Harness;
let proxy: FakeService;
let ignoreFilter = false;
const projects: { id: string; workspaces: { id: string; name: string; description: string }[] }[] = [];

beforeAll(async () => {
  h = await startHarness();
  const origin = new URL(h.server.url).origin;
  proxy = await startFakeService((req, res, body) => {
    void (async () => {
      const url = ignoreFilter ? req.url!.replace(new RegExp(`[?&]${FILTER}=[^&]*`), (m) => m[0]) : req.url!;
      const headers: Record<string, string> = { "content-type": JSONAPI };
      if (req.headers.authorization) headers.authorization = req.headers.authorization;
      const up = await fetch(origin + url, { method: req.method, headers, body: body === "" ? undefined : body });
      const text = await up.text();
      res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? JSONAPI });
      res.end(text);
    })();
  });
  for (const [p, size] of SIZES.entries()) {
    const id = await createProject(h, uniqueName(`split-${p}`));
    const workspaces = [];
    for (let i = 0; i < size; i++) {
      const ws = await h.client.workspaces.create(h.org, {
        name: uniqueName(`p${p}-ws-${i}`),
        description: `p${p} n${i}`,
        projectId: id,
      });
      workspaces.push({ id: ws.id, name: ws.name, description: `p${p} n${i}` });
    }
    projects.push({ id, workspaces });
  }
}, 120_000);
afterAll(async () => {
  await proxy.close();
  await h.close();
});

beforeEach(() => {
  ignoreFilter = false;
  // A new client, so new listings, talking to the proxy as the engine's configure would point it.
  pointProviders(h.server, proxy.url);
});

/** The requests `fn` sends through the proxy, as `METHOD /path?query`, the limit's `/ping` left out. */
async function sent<T>(fn: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const from = proxy.requests.length;
  const result = await fn();
  return { result, requests: proxy.requests.slice(from).filter((r) => !r.includes("/ping")) };
}
const lists = (requests: string[], filter?: string) =>
  requests.filter(
    (r) =>
      /^GET \/api\/v2\/organizations\/[^/]+\/workspaces\?/.test(r) &&
      (filter === undefined ? !r.includes(FILTER) : r.includes(`${FILTER}=${filter}`)),
  );
const shows = (requests: string[]) => requests.filter((r) => /^GET \/api\/v2\/workspaces\/ws-/.test(r));

/** Refresh-style reads of `workspaces`, each naming `project` as its state does. */
function readAll(workspaces: { id: string }[], project: string) {
  return Promise.all(workspaces.map((w) => workspaceProvider.read(w.id, { organization: h.org, project })));
}

describe("a stack that owns one project", () => {
  it("reads that project's listing alone, a page per 100 of its workspaces, and answers as a read by id would", async () => {
    const [big] = projects;
    const { result, requests } = await sent(() => readAll(big.workspaces, big.id));
    expect(lists(requests, big.id)).toHaveLength(2);
    expect(requests).toHaveLength(2);
    for (const [i, r] of result.entries()) {
      expect(r.id).toBe(big.workspaces[i].id);
      expect(r.props).toMatchObject({ name: big.workspaces[i].name, description: big.workspaces[i].description });
      expect(r.props?.project).toBe(big.id);
    }
  });

  it("adopts from that listing: check and create of existing workspaces send no other request", async () => {
    const [, small] = projects;
    const impl = implementationOf("Workspace");
    const { requests } = await sent(async () => {
      for (const w of small.workspaces) {
        const news = { name: w.name, organization: h.org, project: small.id, description: w.description, adopt: true };
        const checked = await impl.check({}, news);
        expect(checked.failures).toEqual([]);
        expect((await impl.create(checked.inputs)).id).toBe(w.id);
      }
    });
    expect(requests).toEqual(lists(requests, small.id));
    expect(requests).toHaveLength(1);
  });

  it("a workspace that is not in the project it names is read by id, as without a listing", async () => {
    const [a, b] = projects;
    const { result, requests } = await sent(() =>
      Promise.all([readAll(a.workspaces.slice(0, 5), a.id), readAll([b.workspaces[0]], a.id)]),
    );
    expect(lists(requests, a.id)).toHaveLength(2);
    expect(shows(requests)).toEqual([`GET /api/v2/workspaces/${b.workspaces[0].id}?include=effective_tag_bindings`]);
    expect(result[1][0].props?.project).toBe(b.id);
  });
});

describe("one process asked for many projects", () => {
  it(`lists ${MAX_PROJECT_LISTINGS} projects on their own and reads the organization's listing for the others`, async () => {
    const { result, requests } = await sent(() => Promise.all(projects.map((p) => readAll(p.workspaces, p.id))));
    const own = projects.slice(0, MAX_PROJECT_LISTINGS);
    expect(own.map((p) => lists(requests, p.id).length)).toEqual(own.map((p) => Math.ceil(p.workspaces.length / 100)));
    for (const p of projects.slice(MAX_PROJECT_LISTINGS)) expect(lists(requests, p.id)).toEqual([]);
    const total = SIZES.reduce((a, b) => a + b, 0);
    expect(lists(requests)).toHaveLength(Math.ceil(total / 100));
    expect(shows(requests)).toEqual([]);
    for (const [p, reads] of result.entries())
      expect(reads.map((r) => r.props?.description)).toEqual(projects[p].workspaces.map((w) => w.description));
  });
});

describe("a server that ignores the project filter", () => {
  it("is filtered here too, and its answer serves as the organization's listing", async () => {
    ignoreFilter = true;
    const [a, b, c] = projects;
    // While the first listing is read, a read that names the wrong project: not in it.
    const first = await sent(() => Promise.all([readAll(b.workspaces, b.id), readAll([c.workspaces[0]], b.id)]));
    const total = SIZES.reduce((x, y) => x + y, 0);
    expect(lists(first.requests, b.id)).toHaveLength(Math.ceil(total / 100));
    expect(shows(first.requests)).toEqual([
      `GET /api/v2/workspaces/${c.workspaces[0].id}?include=effective_tag_bindings`,
    ]);
    expect(first.result[0].map((r) => r.props?.description)).toEqual(b.workspaces.map((w) => w.description));
    // The other projects are then answered from that same answer.
    const then = await sent(() => Promise.all([readAll(a.workspaces, a.id), readAll(c.workspaces, c.id)]));
    expect(then.requests).toEqual([]);
    expect(then.result[1].map((r) => r.props?.description)).toEqual(c.workspaces.map((w) => w.description));
  });
});
