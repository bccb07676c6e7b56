/**
 * The local server's web view in a real browser: Debian's Chromium driven by playwright-core
 * (test/e2e/browser.ts), on the organisation the demo deploys through the engine
 * (`scripts/demo.js --serve`). The page signs in with the one-time address the demo prints,
 * then shows the demo's projects and workspaces, billing-prod's variable sets in precedence
 * order and its team grant, and the map's trigger chain and state sharing. Every request
 * the browser makes and every response body it receives is recorded: none leaves the
 * server's loopback address, and none carries a sensitive value or a token.
 *
 * Writes docs/images/web-view-workspace.png and docs/images/web-view-map.png (1280x800),
 * the README's screenshots, on each run.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserRequired,
  chromiumExecutable,
  launchChromium,
  offServer,
  recordTraffic,
  serveDemo,
  type ServedDemo,
} from "./browser";
import { repoRoot, requireBuiltPackage } from "./harness";

const chromiumAt = chromiumExecutable();
const skipped = !chromiumAt.path && !browserRequired;
if (skipped) console.warn(`test/e2e/web-view.test.ts skipped: ${chromiumAt.missing}`);

const IMAGES = path.join(repoRoot, "docs", "images");
const VIEWPORT = { width: 1280, height: 800 };
/** Present in the document, whatever its size: an SVG group or the body may have none to see. */
const ATTACHED = { state: "attached" } as const;

/** What this run's demo must never let reach the page: each chosen here. */
const secrets = {
  "the sensitive variable's value": `gw-${randomBytes(12).toString("hex")}`,
  "the notification token": `nt-${randomBytes(18).toString("base64url")}`,
  "the server's owners token": `st-${randomBytes(18).toString("base64url")}`,
};
const [gatewayKey, notificationToken, serverToken] = Object.values(secrets);
/** The demo's stack here; its config file is Pulumi.<stack>.yaml in the checkout while it deploys. */
const STACK = `web-view-${randomBytes(4).toString("hex")}`;

/**
 * Sets that reach billing-prod beside the demo's payments-defaults (applied to its project),
 * so that their order on the page is the precedence rule's and neither the names' nor the
 * creation's: a priority global set first, then one applied to the workspace, then the
 * project's, then a plain global set.
 */
const EXTRA_SETS = [
  { name: "org-defaults", global: true, priority: false },
  { name: "billing-only", global: false, priority: false, workspace: "billing-prod" },
  { name: "org-overrides", global: true, priority: true },
] as const;
const PRECEDENCE = ["org-overrides", "billing-only", "payments-defaults", "org-defaults"];

/** A JSON:API call to the demo's server with its owners token (the test's own seeding only). */
async function call(demo: ServedDemo, method: string, route: string, body?: unknown): Promise<any> {
  const r = await fetch(`${demo.origin}/api/v2${route}`, {
    method,
    headers: { authorization: `Bearer ${serverToken}`, "content-type": "application/vnd.api+json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${route} answered ${r.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function seedSets(demo: ServedDemo): Promise<void> {
  const workspace = await call(demo, "GET", `/organizations/${demo.organization}/workspaces/billing-prod`);
  for (const set of EXTRA_SETS) {
    await call(demo, "POST", `/organizations/${demo.organization}/varsets`, {
      data: {
        type: "varsets",
        attributes: { name: set.name, global: set.global, priority: set.priority },
        relationships:
          "workspace" in set ? { workspaces: { data: [{ type: "workspaces", id: workspace.data.id }] } } : undefined,
      },
    });
  }
}

/** Waits until the page has rendered `route` (the page's own test hooks). */
async function rendered(page: Page, route: string): Promise<void> {
  await page.waitForSelector(`body[data-route="${route}"][data-ready="true"]`, ATTACHED);
}

describe.skipIf(skipped)("the web view in Chromium, on the demo's organisation", () => {
  let demo: ServedDemo;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let traffic: ReturnType<typeof recordTraffic>;
  let code: string;

  beforeAll(async () => {
    if (!chromiumAt.path) throw new Error(`the browser test must run in CI: ${chromiumAt.missing}`);
    requireBuiltPackage();
    demo = await serveDemo({
      DEMO_PAYMENT_GATEWAY_KEY: gatewayKey,
      DEMO_NOTIFICATION_TOKEN: notificationToken,
      DEMO_SERVER_TOKEN: serverToken,
      // A stack of its own: test/e2e/demo.test.ts may run the demo's "demo" stack at the same time.
      DEMO_STACK: STACK,
    });
    code = new URL(demo.viewUrl).hash.replace(/^#code=/, "");
    await seedSets(demo);
    browser = await launchChromium(chromiumAt.path);
    context = await browser.newContext({ viewport: VIEWPORT });
    traffic = recordTraffic(context);
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  it("signs in with the demo's one-time address and shows its projects and workspaces", async () => {
    await page.goto(demo.viewUrl);
    await rendered(page, "home");
    // The code left the address bar at once, and the session is a cookie scripts cannot read.
    expect(page.url()).not.toContain(code);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: "workspaces-view", httpOnly: true, sameSite: "Strict", path: "/" });
    for (const [project, workspaces] of Object.entries({
      platform: ["network-prod", "identity-dev", "sandbox-network-eu-west-1"],
      payments: ["billing-prod", "checkout-staging"],
    })) {
      const card = page.locator(`[data-project="${project}"]`);
      await expect(card.count()).resolves.toBe(1);
      for (const ws of workspaces) await expect(card.locator(`a[data-workspace="${ws}"]`).count()).resolves.toBe(1);
    }
  });

  it("shows billing-prod's variable sets in precedence order and its team grant", async () => {
    await page.click(`a[data-workspace="billing-prod"]`);
    await rendered(page, "workspace");
    const sets = page.locator(`section[data-section="variable-sets"] li[data-variable-set]`);
    await expect(sets.evaluateAll((els) => els.map((e) => e.getAttribute("data-variable-set")))).resolves.toEqual(
      PRECEDENCE,
    );
    await expect(sets.first().textContent()).resolves.toMatch(/priority/i);
    await expect(sets.nth(2).textContent()).resolves.toMatch(/project/i);
    const team = page.locator(`section[data-section="team-access"] [data-team="payments"]`);
    await expect(team.textContent()).resolves.toMatch(/write/);
    await expect(team.textContent()).resolves.toMatch(/project/i);
    // The sensitive variable is listed, its value replaced by a word.
    const key = page.locator(`section[data-section="variables"] [data-variable="PAYMENT_GATEWAY_KEY"]`);
    await expect(key.textContent()).resolves.toMatch(/sensitive/);
    await page.screenshot({ path: path.join(IMAGES, "web-view-workspace.png") });
  });

  it("shows network-prod's notification, its trigger out and the workspaces that read its state", async () => {
    await page.goto(`${demo.origin}/app/#/o/${demo.organization}`);
    await rendered(page, "home");
    await page.click(`a[data-workspace="network-prod"]`);
    await rendered(page, "workspace");
    const notification = await page
      .locator(`section[data-section="notifications"] [data-notification="network-prod runs"]`)
      .textContent();
    expect(notification).toMatch(/generic/);
    expect(notification).toMatch(/http:\/\/127\.0\.0\.1:\d+\/hooks\/network-prod/);
    expect(notification).toMatch(/run:completed/);
    const section = (name: string) => page.locator(`section[data-section="${name}"]`);
    await expect(section("run-triggers").locator(`[data-trigger-out="identity-prod"]`).count()).resolves.toBe(1);
    await expect(
      section("state-readers")
        .locator("[data-state-reader]")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-state-reader")).sort()),
    ).resolves.toEqual(["billing-prod", "checkout-prod", "identity-prod"]);
  });

  it("draws the demo's trigger chain and state sharing on the map, collapses a project and searches", async () => {
    await page.goto(`${demo.origin}/app/#/o/${demo.organization}/map`);
    await rendered(page, "map");
    // The demo's 14 workspaces are few enough for the map to open with every project expanded.
    await page.waitForSelector(`svg[data-map] path[data-edge="run-trigger:network-prod->identity-prod"]`, ATTACHED);
    await page.waitForSelector(`svg[data-map] path[data-edge="run-trigger:identity-prod->billing-prod"]`, ATTACHED);
    await page.waitForSelector(`svg[data-map] path[data-edge="remote-state:network-prod->billing-prod"]`, ATTACHED);
    // Away from every node, so that no edge is faded by pointing at one.
    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(IMAGES, "web-view-map.png") });

    await page.click(`button[data-collapse="payments"]`);
    await page.waitForSelector(`svg[data-map] g[data-project-node="payments"]`, ATTACHED);
    await expect(page.locator(`svg[data-map] g[data-node="billing-prod"]`).count()).resolves.toBe(0);
    await page.waitForSelector(`svg[data-map] path[data-edge="remote-state:network-prod->payments"]`, ATTACHED);

    await page.click(`button[data-collapse="payments"]`);
    await page.waitForSelector(`svg[data-map] g[data-node="billing-prod"]`, ATTACHED);
    await page.fill(`input[data-map-search]`, "identity");
    await page.waitForSelector(`svg[data-map] g[data-node="identity-prod"][data-match="true"]`, ATTACHED);
    await expect(
      page.locator(`svg[data-map] g[data-node="network-prod"]`).getAttribute("data-match"),
    ).resolves.not.toBe("true");
  });

  it("is refused a write from the page's own origin with its cookie", async () => {
    const org = demo.organization;
    const status = await page.evaluate(async (o) => {
      const r = await fetch(`/api/v2/organizations/${o}/workspaces`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/vnd.api+json" },
        body: JSON.stringify({ data: { type: "workspaces", attributes: { name: "made-from-the-page" } } }),
      });
      return r.status;
    }, org);
    expect(status).toBe(403);
    await expect(call(demo, "GET", `/organizations/${org}/workspaces/made-from-the-page`)).rejects.toThrow(/404/);
  });

  it("sent nothing off the server's loopback address and received no secret or token", async () => {
    await traffic.settle();
    expect(traffic.requests.length).toBeGreaterThan(10);
    expect(offServer(traffic.requests, demo.origin)).toEqual([]);
    expect(traffic.bodies.some((b) => b.url.endsWith("/app/app.js") && b.body.length > 1000)).toBe(true);
    // The positive control: the responses that hold the secrets' records were recorded.
    const received = (route: RegExp, text: string) =>
      traffic.bodies.some((b) => route.test(new URL(b.url).pathname) && b.body.includes(text));
    expect(received(/\/workspaces\/[^/]+\/vars$/, '"PAYMENT_GATEWAY_KEY"')).toBe(true);
    expect(received(/\/notification-configurations$/, "/hooks/network-prod")).toBe(true);
    const found: string[] = [];
    for (const { url, body } of traffic.bodies) {
      for (const [what, value] of Object.entries({ ...secrets, "the one-time code": code }))
        if (body.includes(value)) found.push(`${what} in ${url}`);
      // Every token the server generates has this shape (src/server/ids.ts newToken).
      if (/\.atlasv1\./.test(body)) found.push(`a generated token's shape in ${url}`);
    }
    expect(found).toEqual([]);
  });

  it("stops on Ctrl-C, exits 0 and leaves nothing behind", async () => {
    const { code: exit, output } = await demo.stop();
    expect(exit, output).toBe(0);
    expect(output).toContain(`Updating (${STACK})`);
    expect(fs.existsSync(path.join(repoRoot, `Pulumi.${STACK}.yaml`))).toBe(false);
    await expect(fetch(`${demo.origin}/api/v2/ping`)).rejects.toThrow();
  });
});
