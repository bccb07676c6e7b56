/**
 * No lost creates for `NoCodeWorkspace` (issue 24, item 3): a create the service
 * acknowledged ends in the stack whatever its answer looks like. Over real HTTP: a fake
 * service (test/client/fake-service.ts) in front of the real local server passes every
 * request through and spoils the answers a test names, after the server has acted.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { implementationOf } from "../../src/resources/entry";
import { noCodeModuleProvider } from "../../src/resources/providers/no-code-module";
import type { Props } from "../../src/resources/providers/types";
import { type FakeService, JSONAPI, reply, startFakeService } from "../client/fake-service";
import {
  createProject,
  pointProviders,
  provision,
  registryModuleWith,
  startHarness,
  uniqueName,
  type Harness,
} from "./helpers";
import { failure } from "./provider-io";

/** The answer the proxy gives instead of the server's `status` and `body` for `request` (`METHOD /api/v2/...`), if any. */
type Spoiler = (request: string, status: number, body: string) => { status: number; body: unknown } | undefined;

let h: Harness;
let proxy: FakeService;
let spoil: Spoiler = () => undefined;
let moduleId: string;
let registryModuleId: string;
let project: string;

beforeAll(async () => {
  h = await startHarness();
  const origin = new URL(h.server.url).origin;
  proxy = await startFakeService((req, res, body) => {
    void (async () => {
      const headers: Record<string, string> = { "content-type": JSONAPI };
      if (req.headers.authorization) headers.authorization = req.headers.authorization;
      const up = await fetch(origin + req.url, { method: req.method, headers, body: body === "" ? undefined : body });
      const text = await up.text();
      const spoiled = spoil(`${req.method} ${req.url}`, up.status, text);
      if (spoiled) return reply(res, spoiled.status, spoiled.body);
      res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? JSONAPI });
      res.end(text);
    })();
  });
  // The providers talk to the proxy, as the engine's configure call would point them.
  pointProviders(h.server, proxy.url);
  project = await createProject(h, uniqueName("nc-lost"));
  registryModuleId = await registryModuleWith(h, ["1.0.0"]);
  moduleId = (await provision(noCodeModuleProvider, { registryModuleId, versionPin: "1.0.0" })).id;
});
afterAll(async () => {
  await proxy.close();
  await h.close();
});
afterEach(() => {
  spoil = () => undefined;
});

const noCodeWorkspace = () => implementationOf("NoCodeWorkspace");

async function checked(news: Props): Promise<Props> {
  const result = await noCodeWorkspace().check({}, { noCodeModuleId: moduleId, project, ...news });
  expect(result.failures).toEqual([]);
  return result.inputs;
}

/** The ids of the server's workspaces named `name`, asked of the server directly. */
async function onServer(name: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const ws of h.client.workspaces.list(h.org, { search: name })) if (ws.name === name) ids.push(ws.id);
  return ids;
}

const isCreate = (request: string) => request === `POST /api/v2/no-code-modules/${moduleId}/workspaces`;

/** A 2xx: the server made the workspace (it answers this create 200, others 201). */
const ok = (status: number) => status >= 200 && status < 300;

/** The id in the server's answer to the create. */
const madeId = (body: string): string => (JSON.parse(body) as { data: { id: string } }).data.id;

/** An answer no schema reads. */
const MAINTENANCE = { status: 200, body: "<html>maintenance</html>" };

/**
 * Answers the create the server made with `answer(id)` instead, and each request of
 * `unreadable(id)` (`METHOD /api/v2/...`) with {@link MAINTENANCE}; `made.id` is the id the
 * server gave.
 */
function spoilCreate(
  answer: (id: string) => { status: number; body: unknown },
  unreadable: (id: string) => string[] = () => [],
): { id: string } {
  const made = { id: "" };
  spoil = (request, status, body) => {
    if (isCreate(request) && ok(status)) {
      made.id = madeId(body);
      return answer(made.id);
    }
    return made.id && unreadable(made.id).includes(request) ? MAINTENANCE : undefined;
  };
  return made;
}

/** A 201 whose `data.id` is `id`, and whose attributes no schema reads. */
const unreadable201 = (id?: string) => ({ status: 201, body: { data: { id, type: "workspaces", attributes: 7 } } });

describe("NoCodeWorkspace: a create the service acknowledged is never lost", () => {
  it("a 201 whose body the client cannot read: read back by the answer's id, in the stack with its outputs", async () => {
    const name = uniqueName("nc-unreadable");
    const made = spoilCreate(unreadable201);
    const inputs = await checked({ name, description: "kept" });
    const { id, outs } = await noCodeWorkspace().create(inputs);
    expect(id).toBe(made.id);
    expect(outs).toMatchObject({
      name,
      description: "kept",
      organization: h.org,
      noCodeModuleId: moduleId,
      moduleVersion: "1.0.0",
      sourceModuleId: registryModuleId,
    });
    expect(await onServer(name)).toEqual([id]);
    expect((await noCodeWorkspace().diff(id, outs, inputs)).changes).toBe(false);
  });

  it("an unreadable 201 whose read-back is unreadable too: recorded by the id the answer gave, and the next up converges", async () => {
    const name = uniqueName("nc-partial");
    const made = spoilCreate(unreadable201, (id) => [`GET /api/v2/workspaces/${id}`]);
    const inputs = await checked({ name, description: "wanted" });
    const err = await failure(noCodeWorkspace().create(inputs));
    expect(err.message).toMatch(
      new RegExp(
        `^workspace "${name}" \\(${made.id}\\) was created, but neither the service's answer nor a read of it`,
      ),
    );
    expect(err.id).toBe(made.id);
    expect(err.properties).toMatchObject({
      name,
      organization: h.org,
      noCodeModuleId: moduleId,
      moduleVersion: "1.0.0",
      description: null,
    });
    expect(await onServer(name)).toEqual([made.id]);

    // The next `pulumi up`: the recorded workspace differs from the program, and is updated in place.
    spoil = () => undefined;
    const diff = await noCodeWorkspace().diff(made.id, err.properties!, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const updated = await noCodeWorkspace().update(made.id, err.properties!, inputs);
    expect(updated.outs).toMatchObject({ name, description: "wanted" });
    expect((await noCodeWorkspace().diff(made.id, updated.outs, inputs)).changes).toBe(false);
  });

  it("a 2xx without a readable id: found by name in the module's organization", async () => {
    const name = uniqueName("nc-noid");
    const made = spoilCreate(() => ({ status: 200, body: "<html>created</html>" }));
    const { id, outs } = await noCodeWorkspace().create(await checked({ name, description: "by name" }));
    expect(made.id).toMatch(/^ws-/);
    expect(id).toBe(made.id);
    expect(outs).toMatchObject({ name, description: "by name", noCodeModuleId: moduleId, moduleVersion: "1.0.0" });
    expect(await onServer(name)).toEqual([made.id]);
  });

  it("no id and no readable record by name: one message naming the workspace and adopt: true, which takes it over", async () => {
    const name = uniqueName("nc-lost");
    const made = spoilCreate(
      () => unreadable201(),
      () => [`GET /api/v2/organizations/${h.org}/workspaces/${name}`],
    );
    const err = await failure(noCodeWorkspace().create(await checked({ name })));
    expect(err.name).toBe("ProviderError");
    expect(err.message).toMatch(
      new RegExp(
        `^workspace "${name}" in organization "${h.org}" was created, but neither the service's answer nor a read of it by name could be understood .*Set adopt: true on the resource`,
      ),
    );
    expect(err.id).toBeUndefined();

    spoil = () => undefined;
    const adopted = await noCodeWorkspace().create(await checked({ name, adopt: true }));
    expect(adopted.id).toBe(made.id);
    expect(await onServer(name)).toEqual([made.id]);
  });

  for (const status of [409, 422] as const) {
    it(`a taken name answered ${status}: one message naming the existing workspace and pointing to adopt: true`, async () => {
      const name = uniqueName(`nc-taken-${status}`);
      const first = await noCodeWorkspace().create(await checked({ name }));
      spoil = (request) => {
        if (!isCreate(request)) return undefined;
        // OTF and others answer 409; the hosted service answers 422.
        return status === 409
          ? { status, body: { errors: [{ status: "409", title: "conflict", detail: "resource already exists" }] } }
          : {
              status,
              body: {
                errors: [
                  {
                    status: "422",
                    title: "invalid attribute",
                    detail: "Name has already been taken",
                    source: { pointer: "/data/attributes/name" },
                  },
                ],
              },
            };
      };
      const err = await failure(noCodeWorkspace().create(await checked({ name, description: "mine" })));
      expect(err.message).toMatch(
        new RegExp(
          `^workspace "${name}" \\(${first.id}\\) in organization "${h.org}" already exists\\. To manage it from this stack, set adopt: true`,
        ),
      );
      expect(await onServer(name)).toEqual([first.id]);
    });
  }
});
