/**
 * The web view's map in a real browser (Debian's Chromium, test/e2e/browser.ts) on an
 * organisation seeded over HTTP past the size at which the map opens collapsed: merged edges
 * between collapsed projects, expanding one, a search that opens the project of its few
 * matches and one that only marks the projects of its many, the global remote state badge,
 * and a workspace node that opens the workspace's page. test/e2e/web-view.test.ts covers the
 * demo's map; test/server/web-map-layout.test.ts the layout and the collapse rule in Node.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { COLLAPSE_ABOVE } from "../../src/server/web/page/map-state";
import { browserRequired, chromiumExecutable, launchChromium } from "./browser";
import { startTestServer } from "./harness";

const chromiumAt = chromiumExecutable();
const skipped = !chromiumAt.path && !browserRequired;
if (skipped) console.warn(`test/e2e/web-map.test.ts skipped: ${chromiumAt.missing}`);

const ATTACHED = { state: "attached" } as const;
/** core and apps have 20 workspaces each, edge 5: 45 in all, past the collapse threshold. */
const SIZES = { core: 20, apps: 20, edge: 5 };

describe.skipIf(skipped)("the web view's map of a larger organisation", () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const ids = new Map<string, string>();

  async function call(method: string, route: string, body?: unknown): Promise<any> {
    const res = await fetch(`${server.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/vnd.api+json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }

  const ref = (name: string) => ({ type: "workspaces", id: ids.get(name)! });
  const edges = () =>
    page.locator("svg[data-map] path[data-edge]").evaluateAll((els) => els.map((e) => e.getAttribute("data-edge")));
  const shown = async () => ({
    workspaces: await page.locator("svg[data-map] g[data-node]").count(),
    projects: await page
      .locator("svg[data-map] g[data-project-node]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-project-node"))),
  });

  beforeAll(async () => {
    server = await startTestServer({ webView: true, rateLimit: false });
    const org = server.organization;
    for (const [project, count] of Object.entries(SIZES)) {
      const prj = await call("POST", `/organizations/${org}/projects`, {
        data: { type: "projects", attributes: { name: project } },
      });
      for (let i = 0; i < count; i++) {
        const name = `${project}-${i}`;
        const ws = await call("POST", `/organizations/${org}/workspaces`, {
          data: {
            type: "workspaces",
            attributes: { name, "global-remote-state": name === "edge-0" },
            relationships: { project: { data: { type: "projects", id: prj.data.id } } },
          },
        });
        ids.set(name, ws.data.id);
      }
    }
    const trigger = (source: string, target: string) =>
      call("POST", `/workspaces/${ids.get(target)}/run-triggers`, {
        data: { relationships: { sourceable: { data: ref(source) } } },
      });
    await trigger("core-0", "apps-0");
    await trigger("core-1", "apps-1");
    await trigger("core-0", "core-1");
    await call("POST", `/workspaces/${ids.get("core-0")}/relationships/remote-state-consumers`, {
      data: [ref("apps-2"), ref("apps-3")],
    });

    browser = await launchChromium(chromiumAt.path!);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.viewUrl());
    await page.waitForSelector(`body[data-ready="true"]:not([data-route="sign-in"])`, ATTACHED);
    await page.goto(`${new URL(server.viewUrl()).origin}/app/#/o/${org}/map`);
    await page.waitForSelector(`body[data-route="map"][data-ready="true"]`, ATTACHED);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it(`opens with every project collapsed past ${COLLAPSE_ABOVE} workspaces, edges between projects merged`, async () => {
    expect(Object.values(SIZES).reduce((a, b) => a + b)).toBeGreaterThan(COLLAPSE_ABOVE);
    const { workspaces, projects } = await shown();
    expect(workspaces).toBe(0);
    expect(projects).toEqual(expect.arrayContaining(["core", "apps", "edge"]));
    expect((await edges()).sort()).toEqual(["remote-state:core->apps", "run-trigger:core->apps"]);
    // Two triggers and two consumers, each merged into one edge that says how many it stands for.
    const counts = await page.locator("svg[data-map] .map-edge-count").allTextContents();
    expect(counts).toEqual(["×2", "×2"]);
  });

  it("expands one project: its workspaces, its inner trigger, and its edges to the collapsed project", async () => {
    await page.click(`button[data-collapse="core"]`);
    await page.waitForSelector(`svg[data-map] g[data-node="core-0"]`, ATTACHED);
    expect((await shown()).workspaces).toBe(SIZES.core);
    expect((await edges()).sort()).toEqual([
      "remote-state:core-0->apps",
      "run-trigger:core-0->apps",
      "run-trigger:core-0->core-1",
      "run-trigger:core-1->apps",
    ]);
    await page.click(`button[data-collapse="core"]`);
    await page.waitForSelector(`svg[data-map] g[data-project-node="core"]`, ATTACHED);
    expect((await shown()).workspaces).toBe(0);
  });

  it("opens the project of a search's few matches while the search lasts, and dims the rest", async () => {
    await page.fill("input[data-map-search]", "APPS-3");
    await page.waitForSelector(`svg[data-map] g[data-node="apps-3"][data-match="true"]`, ATTACHED);
    expect(await page.locator(`svg[data-map] [data-match="true"]`).count()).toBe(1);
    expect(await page.locator(`svg[data-map] g[data-node="apps-4"]`).getAttribute("class")).toMatch(/map-dim/);
    expect((await shown()).projects).not.toContain("apps");
    expect(await edges()).toContain("remote-state:core->apps-3");
    await page.fill("input[data-map-search]", "");
    await page.waitForSelector(`svg[data-map] g[data-project-node="apps"]`, ATTACHED);
    expect(await page.locator("svg[data-map] .map-dim").count()).toBe(0);
  });

  it("only marks the collapsed projects that hold a search's many matches", async () => {
    await page.fill("input[data-map-search]", "-1");
    await page.waitForFunction(`document.querySelectorAll('svg[data-map] [data-match="true"]').length > 0`);
    // core-1, core-10…19, apps-1, apps-10…19, edge-1: 23 matches, few enough to open their projects.
    expect((await shown()).workspaces).toBe(45);
    await page.fill("input[data-map-search]", "-");
    await page.waitForSelector(`svg[data-map] g[data-project-node="core"][data-match="true"]`, ATTACHED);
    expect((await shown()).workspaces).toBe(0);
    const marked = await page
      .locator(`svg[data-map] g[data-project-node][data-match="true"]`)
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-project-node")).sort());
    expect(marked).toEqual(["apps", "core", "edge"]);
    await page.fill("input[data-map-search]", "");
  });

  it("shows global remote state as a badge, not as edges to every workspace", async () => {
    await page.click("button[data-expand-all]");
    await page.waitForSelector(`svg[data-map] g[data-node="edge-0"]`, ATTACHED);
    expect(await page.locator(`svg[data-map] g[data-node="edge-0"] .map-badge`).count()).toBe(1);
    expect(await page.locator(`svg[data-map] g[data-node="edge-1"] .map-badge`).count()).toBe(0);
    expect((await edges()).filter((e) => e!.includes("edge-0"))).toEqual([]);
    expect(await edges()).toHaveLength(5);
    await page.click("button[data-collapse-all]");
    await page.waitForSelector(`svg[data-map] g[data-project-node="edge"]`, ATTACHED);
    expect((await shown()).workspaces).toBe(0);
  });

  it("zooms with the wheel, pans with a drag, and fits again", async () => {
    const viewport = page.locator("svg[data-map] g.map-viewport");
    const transform = async () => {
      const t = (await viewport.getAttribute("transform")) ?? "";
      const [, x, y, k] = /translate\(([-\d.]+) ([-\d.]+)\) scale\(([-\d.]+)\)/.exec(t)!.map(Number);
      return { x, y, k };
    };
    const fitted = await transform();
    const box = (await page.locator("svg[data-map]").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -400);
    await expect.poll(async () => (await transform()).k).toBeGreaterThan(fitted.k);
    const zoomed = await transform();
    await page.mouse.move(box.x + 40, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + 140, box.y + 90, { steps: 5 });
    await page.mouse.up();
    const panned = await transform();
    expect(panned.x - zoomed.x).toBeCloseTo(100, 0);
    expect(panned.y - zoomed.y).toBeCloseTo(50, 0);
    await page.click("button[data-map-fit]");
    expect(await transform()).toEqual(fitted);
  });

  it("opens a workspace's page from its node", async () => {
    await page.click(`button[data-collapse="apps"]`);
    await page.click(`svg[data-map] g[data-node="apps-0"]`);
    await page.waitForSelector(`body[data-route="workspace"][data-ready="true"]`, ATTACHED);
    expect(decodeURIComponent(new URL(page.url()).hash)).toBe(
      `#/o/${server.organization}/workspaces/${ids.get("apps-0")}`,
    );
  });
});
