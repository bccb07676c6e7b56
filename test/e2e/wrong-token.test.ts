/**
 * A wrong token through the real engine: a program of adopting workspaces previewed with
 * a `workspaces:token` the server does not know, under the server's default rate limit
 * (whose throttle of invalid tokens answers 429 after a burst of them). The preview
 * fails at the first look-up with one message that names the token's source and the
 * address, and the server sees a handful of requests, not one (then a 429) per resource.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { startTestServer, TestStack } from "./harness";

const COUNT = 40;
const WRONG_TOKEN = "wrong-e2e-token-0123456789abcdefghijklmnop";
const REFUSED = "refused the API token from stack config workspaces:token";

describe("a preview with a wrong token", () => {
  let server: RunningServer;
  let stack: TestStack;

  beforeAll(async () => {
    // The default rate limit stays on, and with it the throttle of invalid tokens.
    server = await startTestServer();
    const workspaces = Array.from(
      { length: COUNT },
      (_, i) =>
        `new Workspace("ws-${i}", { organization: ${JSON.stringify(server.organization)}, name: "adopted-${i}", adopt: true });`,
    );
    stack = await TestStack.create({
      project: "wrong-token-e2e",
      files: { "index.ts": `import { Workspace } from "pulumi-workspaces";\n\n${workspaces.join("\n")}\n` },
      // The address from the environment, the token from stack config: the message must tell them apart.
      env: { WORKSPACES_ADDRESS: server.url, WORKSPACES_ORGANIZATION: server.organization },
      secretConfig: { "workspaces:token": WRONG_TOKEN },
    });
  });

  afterAll(async () => {
    stack?.dispose();
    await server?.close();
  });

  it("fails at the first refusal with one message naming the token's source and the address, after a handful of requests", async () => {
    const before = server.stats();
    const r = await stack.pulumi(["preview", "--non-interactive"]);
    const after = server.stats();

    expect(r.code).not.toBe(0);
    const message = new RegExp(
      `the service at ${server.url.replace(/[./]/g, "\\$&")} \\(from WORKSPACES_ADDRESS\\) ${REFUSED} \\(401 - A valid API token is required\\.\\); ` +
        "no request with this token can succeed: set a valid one with `pulumi config set --secret workspaces:token`, then run again",
    );
    expect(r.output).toMatch(message);
    // One resource's error, said once: no other resource reports the token, and none was only warned about.
    const diagnostics = r.output.slice(r.output.indexOf("Diagnostics:"));
    expect(diagnostics.split(REFUSED).length - 1, r.output).toBe(1);
    expect(r.output).toMatch(/\b1 errored\b/);
    expect(r.output).not.toMatch(/could not look up the workspace/);
    expect(r.output).not.toContain(WRONG_TOKEN);

    const sent = after.total - before.total;
    const refused = (after.byStatus["401"] ?? 0) - (before.byStatus["401"] ?? 0);
    const throttled = (after.byStatus["429"] ?? 0) - (before.byStatus["429"] ?? 0);
    console.log(
      `[wrong-token figures] ${COUNT} adopting workspaces: ${sent} requests (${refused} answered 401, ${throttled} 429)`,
    );
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(5);
    expect(throttled).toBe(0);
  });
});
