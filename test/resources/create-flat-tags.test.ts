/**
 * Flat tags travel in the create request (`relationships.tags`, as go-tfe sends them).
 * The spec does not list that key, so the provider checks the answer and adds what a
 * service ignored: one request where the key is honoured, two where it is not.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { startServer, type RunningServer, type Domain } from "../../src/server";
import { DOMAINS } from "../../src/server/domains";
import { resetLimiters } from "../../src/client";
import { resetClients } from "../../src/resources/providers/client";
import { configureFromStack, setConfiguredSettings } from "../../src/resources/provider-settings";
import { workspaceProvider } from "../../src/resources/providers/workspace";

let server: RunningServer;
let ignoreFlatTagsOnCreate = false;

/** In front of the real routes: drops `relationships.tags` from creates when asked to. */
const stripFlatTags: Domain = {
  name: "strip-flat-tags",
  routes(api) {
    api.addHook("preHandler", async (request) => {
      const body = request.body as { data?: { relationships?: Record<string, unknown> } } | undefined;
      if (
        ignoreFlatTagsOnCreate &&
        request.method === "POST" &&
        /\/organizations\/[^/]+\/workspaces$/.test(request.url)
      ) {
        delete body?.data?.relationships?.tags;
      }
    });
  },
};

beforeAll(async () => {
  server = await startServer({ port: 0, db: ":memory:", rateLimit: false }, [stripFlatTags, ...DOMAINS]);
  resetLimiters();
  resetClients();
  const config: Record<string, string> = {
    "workspaces:address": server.url,
    "workspaces:token": server.token,
    "workspaces:organization": server.organization,
  };
  configureFromStack({ config: { get: (k: string) => config[k] } });
});
afterAll(async () => {
  setConfiguredSettings({});
  resetClients();
  await server.close();
});

function requestsBesidesPing(): number {
  const s = server.stats();
  return (
    s.total -
    Object.entries(s.byRoute)
      .filter(([k]) => k.includes("/ping"))
      .reduce((n, [, v]) => n + v, 0)
  );
}

async function createWithTags(name: string) {
  const checked = await workspaceProvider.check({}, { name, tags: { env: "dev" }, tagNames: ["Web", "edge"] });
  const before = requestsBesidesPing();
  const created = await workspaceProvider.create(checked.inputs);
  return { created, requests: requestsBesidesPing() - before };
}

describe("Workspace create with flat tags", () => {
  it("costs one request where the service takes the tags with the create", async () => {
    ignoreFlatTagsOnCreate = false;
    const { created, requests } = await createWithTags("tags-in-body");
    expect(requests).toBe(1);
    expect(created.outs.tagNames).toEqual(["edge", "web"]);
  });

  it("adds the tags a service ignored with one more request", async () => {
    ignoreFlatTagsOnCreate = true;
    const { created, requests } = await createWithTags("tags-added-after");
    expect(requests).toBe(2);
    expect(created.outs.tagNames).toEqual(["edge", "web"]);
    const read = await workspaceProvider.read(created.id, created.outs);
    expect(read.props!.tagNames).toEqual(["edge", "web"]);
  });
});
