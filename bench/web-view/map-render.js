#!/usr/bin/env node
/**
 * The web view's map: its first render in Chromium for an organisation of N workspaces in
 * N / 20 projects (10 at 200), with about 0.75 run triggers and 1.5 remote-state consumers
 * per workspace, four in five within the workspace's project and the rest across projects.
 *
 * For each size: the local server (dist/server, in this process, default rate limit, so the
 * page reads through the view session's own bucket), seeded over its API; Chromium signs in
 * through `viewUrl()`, then, `runs` times in a fresh page, loads the map's address and waits
 * until the page says it rendered (`body[data-route="map"][data-ready="true"]`). Prints, per
 * size: the time from navigation to that point on the page's own clock (median, min, max),
 * the API requests the page made (and how many were answered 429), the JS heap after the
 * render, and the nodes drawn; then the ratio of 200 to 20 and the time per workspace.
 *
 * Usage: npm run build && node bench/web-view/map-render.js [--sizes 20,50,200] [--runs 5]
 * Chromium: WORKSPACES_CHROMIUM, else /usr/bin/chromium (Debian's package).
 */
"use strict";
/* global document, requestAnimationFrame -- the page.evaluate callbacks run in the page */
const { chromium } = require("playwright-core");
const { startServer } = require("../../dist/server");

const PER_PROJECT = 20;
const MEDIA = "application/vnd.api+json";

function options(argv) {
  const o = { sizes: [20, 50, 200], runs: 5 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--sizes") o.sizes = argv[++i].split(",").map(Number);
    else if (argv[i] === "--runs") o.runs = Number(argv[++i]);
    else throw new Error(`unknown argument '${argv[i]}': the benchmark takes --sizes N,... and --runs R`);
  }
  return o;
}

/** A small deterministic generator, so that every run seeds the same organisation. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The organisation's shape: names, and the edges as index pairs. */
function shape(n) {
  const projects = Math.max(1, Math.round(n / PER_PROJECT));
  const rnd = random(n);
  const workspaces = Array.from({ length: n }, (_, i) => ({
    name: `svc-${String(i).padStart(3, "0")}`,
    project: i % projects,
  }));
  const pick = (i) => {
    const same = rnd() < 0.8;
    const pool = workspaces
      .map((w, j) => j)
      .filter((j) => j !== i && (workspaces[j].project === workspaces[i].project) === same);
    return pool.length ? pool[Math.floor(rnd() * pool.length)] : undefined;
  };
  const triggers = new Set();
  const consumers = new Set();
  for (let i = 0; i < n; i++) {
    // About 0.75 triggers and 1.5 consumers per workspace.
    if (rnd() < 0.75) {
      const from = pick(i);
      if (from !== undefined) triggers.add(`${from}>${i}`);
    }
    for (let k = rnd() < 0.5 ? 1 : 2; k > 0; k--) {
      const reader = pick(i);
      if (reader !== undefined) consumers.add(`${i}>${reader}`);
    }
  }
  const pairs = (set) => [...set].map((s) => s.split(">").map(Number));
  return { projects, workspaces, triggers: pairs(triggers), consumers: pairs(consumers) };
}

/** An API call with the owners token that waits out the server's rate limit. */
async function call(server, method, route, body) {
  for (;;) {
    const res = await fetch(server.url + route, {
      method,
      headers: { authorization: `Bearer ${server.token}`, "content-type": MEDIA },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("retry-after") ?? 1)));
      continue;
    }
    if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : undefined;
  }
}

/** Runs `fn` over `items`, `limit` at a time. */
async function each(items, limit, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

async function seed(server, org) {
  const ids = [];
  const projectIds = [];
  for (let p = 0; p < org.projects; p++) {
    const r = await call(server, "POST", `/organizations/${server.organization}/projects`, {
      data: { type: "projects", attributes: { name: `project-${String(p).padStart(2, "0")}` } },
    });
    projectIds.push(r.data.id);
  }
  await each(
    org.workspaces.map((w, i) => ({ ...w, i })),
    8,
    async (w) => {
      const r = await call(server, "POST", `/organizations/${server.organization}/workspaces`, {
        data: {
          type: "workspaces",
          attributes: { name: w.name },
          relationships: { project: { data: { type: "projects", id: projectIds[w.project] } } },
        },
      });
      ids[w.i] = r.data.id;
    },
  );
  await each(org.triggers, 8, ([from, to]) =>
    call(server, "POST", `/workspaces/${ids[to]}/run-triggers`, {
      data: { relationships: { sourceable: { data: { type: "workspaces", id: ids[from] } } } },
    }),
  );
  const readers = new Map();
  for (const [from, to] of org.consumers) readers.set(from, [...(readers.get(from) ?? []), to]);
  await each([...readers], 8, ([from, tos]) =>
    call(server, "POST", `/workspaces/${ids[from]}/relationships/remote-state-consumers`, {
      data: tos.map((t) => ({ type: "workspaces", id: ids[t] })),
    }),
  );
}

/** What the map shows: workspace nodes, collapsed project nodes, edges. */
const drawn = (page) =>
  page.evaluate(() => ({
    workspaces: document.querySelectorAll("svg[data-map] g[data-node]").length,
    projects: document.querySelectorAll("svg[data-map] g[data-project-node]").length,
    edges: document.querySelectorAll("svg[data-map] path[data-edge]").length,
  }));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);

async function measure(browser, server, runs, workspaces) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const signIn = await context.newPage();
  await signIn.goto(server.viewUrl());
  await signIn.waitForSelector(`body[data-ready="true"]:not([data-route="sign-in"])`, { state: "attached" });
  await signIn.close();
  const origin = new URL(server.url).origin;
  const mapUrl = `${origin}/app/#/o/${server.organization}/map`;
  const out = { ms: [], read: [], expanded: [], requests: [], throttled: [], heap: [], expandedHeap: [] };
  for (let r = 0; r < runs; r++) {
    const page = await context.newPage();
    let requests = 0;
    let throttled = 0;
    page.on("request", (q) => q.url().includes("/api/v2/") && requests++);
    page.on("response", (s) => s.status() === 429 && throttled++);
    // The page's own split of the render (map-view.ts logs it): reading the API, then the layout.
    let read;
    page.on("console", (m) => {
      const ms = /^map read: (\d+) ms/.exec(m.text());
      if (ms && read === undefined) read = Number(ms[1]);
    });
    await page.goto(mapUrl);
    await page.waitForFunction(
      () => document.body.dataset.route === "map" && document.body.dataset.ready === "true",
      null,
      {
        timeout: 300_000,
        polling: 10,
      },
    );
    out.ms.push(await page.evaluate(() => performance.now()));
    if (read !== undefined) out.read.push(read);
    out.nodes = await drawn(page);
    const cdp = await context.newCDPSession(page);
    const heap = async () => {
      await cdp.send("HeapProfiler.collectGarbage");
      return (await cdp.send("Runtime.getHeapUsage")).usedSize;
    };
    out.heap.push(await heap());
    // Every project expanded (what the map draws at once below its collapse threshold):
    // from the click to the last workspace node drawn, on the page's clock.
    out.expanded.push(
      await page.evaluate(async (n) => {
        const t0 = performance.now();
        document.querySelector("[data-expand-all]").click();
        while (document.querySelectorAll("svg[data-map] g[data-node]").length < n)
          await new Promise((r) => requestAnimationFrame(r));
        await new Promise((r) => requestAnimationFrame(r));
        return performance.now() - t0;
      }, workspaces),
    );
    out.expandedNodes = await drawn(page);
    out.expandedHeap.push(await heap());
    out.requests.push(requests);
    out.throttled.push(throttled);
    await page.close();
  }
  await context.close();
  return out;
}

(async () => {
  const o = options(process.argv.slice(2));
  const executablePath = process.env.WORKSPACES_CHROMIUM || "/usr/bin/chromium";
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
  console.log(
    `Chromium ${browser.version()}, ${o.runs} runs per size, first render of the map (navigation to data-ready)`,
  );
  const rows = [];
  try {
    for (const n of o.sizes) {
      const org = shape(n);
      const server = await startServer({ port: 0, db: ":memory:", webView: true });
      try {
        const t = Date.now();
        await seed(server, org);
        const seeded = Date.now() - t;
        const m = await measure(browser, server, o.runs, n);
        const row = { n, ...org, seeded, ...m, median: median(m.ms) };
        rows.push(row);
        console.log(
          `${String(n).padStart(4)} workspaces in ${org.projects} projects, ${org.triggers.length} triggers, ${org.consumers.length} consumers (seeded in ${(seeded / 1000).toFixed(1)} s): ` +
            `render median ${row.median.toFixed(0)} ms (min ${Math.min(...m.ms).toFixed(0)}, max ${Math.max(...m.ms).toFixed(0)}` +
            `${m.read.length ? `; reading the API ${median(m.read)} ms of it` : ""}), ` +
            (m.nodes.workspaces === n
              ? "opened expanded, "
              : `expand all ${median(m.expanded).toFixed(0)} ms (min ${Math.min(...m.expanded).toFixed(0)}, max ${Math.max(...m.expanded).toFixed(0)}), `) +
            `${median(m.requests)} API requests (${median(m.throttled)} answered 429), ` +
            `JS heap ${mb(median(m.heap))} MB (expanded ${mb(median(m.expandedHeap))} MB); ` +
            `first drawn ${m.nodes.workspaces} workspace nodes, ${m.nodes.projects} project nodes, ${m.nodes.edges} edges; ` +
            `expanded ${m.expandedNodes.workspaces} workspace nodes, ${m.expandedNodes.edges} edges`,
        );
      } finally {
        await server.close();
      }
    }
  } finally {
    await browser.close();
  }
  const small = rows[0];
  for (const row of rows) {
    console.log(
      `${String(row.n).padStart(4)}: ${(row.median / row.n).toFixed(2)} ms per workspace, ${(row.median / small.median).toFixed(2)}x the time of ${small.n} ` +
        `for ${(row.n / small.n).toFixed(1)}x the workspaces; ${(median(row.requests) / row.n).toFixed(2)} requests per workspace`,
    );
  }
})().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
