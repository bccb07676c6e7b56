/**
 * A wrong token ends the operation at its first refusal, with one message that says where
 * the token came from and which service refused it, and no more requests are sent with
 * it. Through the providers' entry point, against the real server.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PROTOCOL, dispatch } from "../../src/resources/entry";
import { configureFromStack } from "../../src/resources/provider-settings";
import { startHarness, uniqueName, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** Variables a test changes, restored in place (os.homedir() reads the real environment, not a replaced object). */
const CHANGED = ["WORKSPACES_TOKEN", "TFE_TOKEN", "HOME"] as const;
const saved = Object.fromEntries(CHANGED.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of CHANGED) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

/** Points the providers at the harness's server with `token` from stack config (or none). */
function configure(token: string | undefined): void {
  const config: Record<string, string | undefined> = {
    "workspaces:address": h.server.url,
    "workspaces:token": token,
    "workspaces:organization": h.org,
  };
  configureFromStack({ config: { get: (k: string) => config[k] } });
  delete process.env.WORKSPACES_TOKEN;
  delete process.env.TFE_TOKEN;
}

/** The failure of a provider call through the entry point, as the engine receives it. */
async function failureOf(method: string, args: unknown[]): Promise<Error> {
  try {
    await dispatch(PROTOCOL, "Workspace", method, args);
  } catch (err) {
    return err as Error;
  }
  throw new Error(`expected ${method} to fail`);
}

const adopting = () => [{}, { organization: h.org, name: uniqueName("adopt"), adopt: true }];
const refusals = () => h.server.stats().byStatus["401"] ?? 0;
const address = () => h.server.url.replace(/[./]/g, "\\$&");

describe("a token the service refuses", () => {
  it("ends a preview of adopting workspaces at the first look-up, naming stack config and the address", async () => {
    const token = "wrong-stack-token-0123456789";
    configure(token);
    const before = refusals();
    const errors = [];
    for (let i = 0; i < 5; i++) errors.push(await failureOf("check", adopting()));
    expect(errors[0].message).toMatch(
      new RegExp(
        `^the service at ${address()} \\(from stack config workspaces:address\\) refused the API token from stack config workspaces:token ` +
          `\\(401 - A valid API token is required\\.\\); no request with this token can succeed: set a valid one with ` +
          "`pulumi config set --secret workspaces:token`, then run again$",
      ),
    );
    // Not a warning that says pulumi up tries again: an error, the same for every later look-up.
    for (const err of errors) {
      expect(err.message).toMatch(/refused the API token from stack config workspaces:token/);
      expect(err.message).not.toContain(token);
    }
    expect(refusals() - before).toBe(1);
  });

  it("names the environment variable the token came from, for a refresh and a create too", async () => {
    const token = "wrong-env-token-0123456789";
    configure(undefined);
    process.env.WORKSPACES_TOKEN = token;
    const before = refusals();
    const read = await failureOf("read", ["ws-abc", { organization: h.org, name: "web" }]);
    const create = await failureOf("create", [{ organization: h.org, name: uniqueName("new") }]);
    for (const err of [read, create]) {
      expect(err.message).toMatch(
        new RegExp(
          `^the service at ${address()} \\(from stack config workspaces:address\\) refused the API token from the environment variable WORKSPACES_TOKEN \\(401 - .*\\); .*: set WORKSPACES_TOKEN to a valid token, then run again$`,
        ),
      );
      expect(err.message).not.toContain(token);
    }
    expect(refusals() - before).toBe(1);
  });

  it("names the credentials file the token came from", async () => {
    const token = "wrong-file-token-0123456789";
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "ws-refused-home-"));
    const file = path.join(home, ".terraform.d", "credentials.tfrc.json");
    fs.mkdirSync(path.dirname(file));
    const host = new URL(h.server.url).host;
    fs.writeFileSync(file, JSON.stringify({ credentials: { [host]: { token } } }));
    configure(undefined);
    process.env.HOME = home;
    try {
      const err = await failureOf("check", adopting());
      expect(err.message).toContain(`refused the API token from the credentials file ${file} (entry "${host}")`);
      expect(err.message).toContain(`replace the token of "${host}" in ${file}, then run again`);
      expect(err.message).not.toContain(token);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
