/**
 * Steps several end-to-end tests take the same way: counting the writes a run sent,
 * waiting until requests a killed run had sent are all answered, and `pulumi import`
 * through the provider plugin.
 */
import * as path from "node:path";
import type { RunningServer } from "../../src/server";
import type { StateResource, TestStack } from "./harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engine = require("../../scripts/lib/engine.js") as { pluginLauncher(dir: string): string };

/** Write requests (POST, PATCH, PUT, DELETE) by route since `since` (a copy of `server.stats().byRoute`). */
export function writesSince(server: RunningServer, since: Record<string, number>): string[] {
  return Object.entries(server.stats().byRoute)
    .filter(([route, n]) => /^(POST|PATCH|PUT|DELETE) /.test(route) && n > (since[route] ?? 0))
    .map(([route, n]) => `${route} x${n - (since[route] ?? 0)}`);
}

/**
 * What `list` answers once the server settled: creates in flight when a CLI died still
 * land, so it lists until two listings half a second apart are as long. A failed listing
 * (the rate limit) is asked again.
 */
export async function settledList<T>(list: () => Promise<T[]>): Promise<T[]> {
  const once = async (): Promise<T[]> => {
    for (;;) {
      try {
        return await list();
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  };
  let last = await once();
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await once();
    if (now.length === last.length) return now;
    last = now;
  }
}

/**
 * `pulumi import workspaces:index:<type> <name> <id>` through the provider plugin (dynamic
 * resources cannot be imported: pulumi/pulumi#16175), then the record leaves the stack
 * again (`pulumi state delete`: the program does not declare it) and stays on the server.
 * Returns the resource as the import recorded it.
 */
export async function importAndForget(
  stack: TestStack,
  type: string,
  name: string,
  id: string,
): Promise<StateResource | undefined> {
  const plugins = engine.pluginLauncher(path.join(stack.root, "plugins"));
  const env = {
    PATH: [String(stack.env.PATH).split(path.delimiter)[0], plugins, stack.env.PATH].join(path.delimiter),
  };
  const token = `workspaces:index:${type}`;
  await stack.ok(
    ["import", token, name, id, "--generate-code=false", "--protect=false", "--yes", "--non-interactive"],
    env,
  );
  const [imported] = stack.resources(token).filter((r) => r.id === id);
  if (imported) await stack.ok(["state", "delete", imported.urn, "--yes"], env);
  return imported;
}
