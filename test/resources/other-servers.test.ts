/**
 * The resources against a server they did not write, answering as OTF does (see
 * test/client/otf-like.ts): a whole Workspace cycle with no spurious diff, no lost
 * creates, a taken name answered 409 or 422, and one message per resource for each
 * feature the server lacks, never a silent force delete and never a dropped record.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetLimiters } from "../../src/client";
import { implementationOf } from "../../src/resources/entry";
import { resetClients } from "../../src/resources/providers/client";
import { NotVisibleError } from "../../src/resources/providers/gone";
import type { ProviderImpl, Props } from "../../src/resources/providers/types";
import { configureFromStack, setConfiguredSettings } from "../../src/resources/provider-settings";
import { type FakeService, TOKEN, reply, startFakeService } from "../client/fake-service";
import { type OtfLike, startOtfLike } from "../client/otf-like";
import { failure } from "./provider-io";

let otf: OtfLike;
beforeAll(async () => {
  otf = await startOtfLike();
});
afterAll(async () => {
  setConfiguredSettings({});
  resetClients();
  await otf.close();
});
afterEach(() => {
  otf.nextCreateAnswer = undefined;
});

/** Points the providers at `service`, as the engine's configure call does. */
function useServer(service: FakeService): void {
  const config: Record<string, string> = {
    "workspaces:address": service.url,
    "workspaces:token": TOKEN,
    "workspaces:organization": "acme",
  };
  configureFromStack({ config: { get: (k: string) => config[k] } });
  resetClients();
  resetLimiters();
}

const workspace = () => implementationOf("Workspace");

async function checked(p: ProviderImpl, news: Props): Promise<Props> {
  const result = await p.check({}, news);
  expect(result.failures).toEqual([]);
  return result.inputs;
}

let n = 0;
const fresh = (prefix: string) => `${prefix}-${++n}`;

describe("a Workspace on a server that answers as OTF does", () => {
  beforeAll(() => useServer(otf.service));

  it("creates with every setting the server stores, shows no diff after create or refresh, edits, and deletes", async () => {
    const name = fresh("app");
    const inputs = await checked(workspace(), {
      name,
      description: "the app",
      executionMode: "local",
      autoApply: true,
      workingDirectory: "infra",
      engineVersion: "1.6.0",
      tagNames: ["Web", "team-a"],
      forceDelete: true,
    });
    const { id, outs } = await workspace().create(inputs);
    const stored = otf.workspaces.get(id)!;
    expect(stored).toMatchObject({
      name,
      description: "the app",
      "execution-mode": "local",
      "auto-apply": true,
      "working-directory": "infra",
      "terraform-version": "1.6.0",
    });
    expect(stored.tags.sort()).toEqual(["team-a", "web"]);
    expect(outs).toMatchObject({
      engineVersion: "1.6.0",
      tagNames: ["team-a", "web"],
      triggerPatterns: [],
      triggerPrefixes: [],
      project: null,
      tags: {},
      effectiveTags: {},
    });
    expect((await workspace().diff(id, outs, inputs)).changes).toBe(false);
    const read = await workspace().read(id, outs);
    expect((await workspace().diff(id, read.props!, inputs)).changes).toBe(false);

    const edited = { ...inputs, description: "edited", engineVersion: "1.7.0" };
    const diff = await workspace().diff(id, read.props!, edited);
    expect(diff.changes).toBe(true);
    const updated = await workspace().update(id, read.props!, edited);
    expect(updated.outs).toMatchObject({ description: "edited", engineVersion: "1.7.0" });
    expect(otf.workspaces.get(id)!["terraform-version"]).toBe("1.7.0");

    await workspace().delete(id, updated.outs);
    expect(otf.workspaces.has(id)).toBe(false);
  });

  it("keeps a create whose 201 it cannot read: the workspace is in the outputs, made once", async () => {
    const name = fresh("unreadable");
    otf.nextCreateAnswer = {
      status: 201,
      body: JSON.stringify({
        data: { id: "WS_ID", type: "workspaces", attributes: { name, "tag-names": "not a list" } },
      }),
    };
    const { id, outs } = await workspace().create(await checked(workspace(), { name, description: "kept" }));
    expect(otf.workspaces.has(id)).toBe(true);
    expect(outs).toMatchObject({ name, description: "kept" });
    expect([...otf.workspaces.values()].filter((w) => w.name === name)).toHaveLength(1);
  });

  it("a taken name (409) fails with one message that points to adopt: true, and adopt takes it over", async () => {
    const name = fresh("taken");
    await workspace().create(await checked(workspace(), { name }));
    const err = await failure(workspace().create(await checked(workspace(), { name, description: "mine" })));
    expect(err.message).toMatch(
      new RegExp(
        `^workspace "${name}" \\(ws-otf\\d+\\) in organization "acme" already exists\\. To manage it from this stack, set adopt: true`,
      ),
    );
    const adopted = await workspace().create(await checked(workspace(), { name, description: "mine", adopt: true }));
    expect(adopted.outs.description).toBe("mine");
    expect([...otf.workspaces.values()].filter((w) => w.name === name)).toHaveLength(1);
  });

  it("without safe delete: one message naming the feature, the answer and forceDelete; nothing deleted, nothing dropped", async () => {
    const name = fresh("safe");
    const { id, outs } = await workspace().create(await checked(workspace(), { name }));
    const before = otf.service.requests.length;
    const err = await failure(workspace().delete(id, outs));
    expect(err).not.toBeInstanceOf(NotVisibleError);
    expect(err.message).toBe(
      `cannot delete workspace "${name}" (${id}): the server at ${otf.service.url}/api/v2 does not offer safe delete ` +
        `(POST /workspaces/${id}/actions/safe-delete answered 404); set forceDelete: true on the resource and run \`pulumi up\` before destroying, ` +
        `to delete it with the plain DELETE (which does not check for managed resources), or delete it on the server.`,
    );
    // A message complete on its own, shown without a stack.
    expect(err.name).toBe("ProviderError");
    expect(otf.workspaces.has(id)).toBe(true);
    expect(otf.service.requests.slice(before).filter((r) => r.startsWith("DELETE"))).toEqual([]);
  });

  it("key-value tags: the workspace is kept in the stack, with a message naming the feature; the next update says it again", async () => {
    const name = fresh("kv");
    const inputs = await checked(workspace(), { name, tags: { env: "prod" } });
    const err = await failure(workspace().create(inputs));
    expect(err.message).toMatch(
      /was created but setting it up failed: the server at \S+ does not offer key-value tags \(GET \/workspaces\/ws-otf\d+\/tag-bindings answered 404\); remove tags/,
    );
    expect(otf.workspaces.has(err.id!)).toBe(true);
    // Recorded with what the server holds, so the next diff shows the tags again.
    expect(err.properties?.tags).toEqual({});
    expect((await workspace().diff(err.id!, err.properties!, inputs)).changes).toBe(true);
    const again = await failure(workspace().update(err.id!, err.properties!, inputs));
    expect(again.message).toMatch(
      new RegExp(
        `^cannot update workspace "${name}" \\(${err.id}\\): the server at \\S+ does not offer key-value tags`,
      ),
    );
  });

  it("projects: the workspace is kept, with a message naming the feature and the answer", async () => {
    const err = await failure(
      workspace().create(await checked(workspace(), { name: fresh("prj"), project: "prj-abc" })),
    );
    expect(err.message).toMatch(
      /does not offer projects \(POST \/organizations\/acme\/workspaces answered without a project relationship\); remove project/,
    );
    expect(otf.workspaces.has(err.id!)).toBe(true);
    expect(err.properties?.project).toBeNull();
  });

  it("remote state consumers, workspace tags and no-code modules: one message each, naming the feature and the way out", async () => {
    const { id } = await workspace().create(await checked(workspace(), { name: fresh("owner") }));
    const cases: [string, Props, RegExp][] = [
      [
        "RemoteStateConsumers",
        { workspaceId: id, consumerIds: [] },
        /^cannot create the remote state consumers: .* does not offer remote state consumers \(.*answered 404\); remove the RemoteStateConsumers resource/,
      ],
      [
        "WorkspaceTags",
        { workspaceId: id, tags: { env: "prod" } },
        /^cannot create the workspace tags: .* does not offer key-value tags \(GET \/workspaces\/.*\/tag-bindings answered 404\); remove tags/,
      ],
      [
        "NoCodeModule",
        { organization: "acme", registryModuleId: "mod-abc" },
        /^cannot create the no-code module: .* does not offer no-code provisioning \(POST \/organizations\/acme\/no-code-modules answered 404\); servers such as OTF have none/,
      ],
    ];
    for (const [kind, news, message] of cases) {
      const p = implementationOf(kind);
      const err = await failure(p.create(await checked(p, news)));
      expect(err.message, kind).toMatch(message);
    }
  });
});

describe("check speaks the program's names, whatever the wire spells", () => {
  it("an invalid engineVersion or app installation is reported under the program's property", async () => {
    const result = await workspace().check(
      {},
      {
        organization: "acme",
        name: "x",
        engineVersion: "",
        vcsRepo: { identifier: "a/b", oauthTokenId: "ot-1", vcsAppInstallationId: "ghain-1" },
      },
    );
    expect(result.failures.map((f) => f.property).sort()).toEqual(["engineVersion", "vcsRepo.vcsAppInstallationId"]);
    expect(result.failures.map((f) => f.reason).join(" ")).not.toMatch(/terraform|github-app/);
  });
});

describe("a taken name answered 422 (the hosted service) and a create whose answer and read-back are both unreadable", () => {
  let svc: FakeService;
  let mode: "taken" | "garbage" = "taken";
  beforeAll(async () => {
    svc = await startFakeService((req, res) => {
      if (req.url === "/api/v2/ping") return reply(res, 204, undefined);
      if (req.method === "POST" && mode === "taken") {
        return reply(res, 422, {
          errors: [
            {
              status: "422",
              title: "invalid attribute",
              detail: "Name has already been taken",
              source: { pointer: "/data/attributes/name" },
            },
          ],
        });
      }
      if (req.method === "POST") return reply(res, 201, { data: { id: "ws-made", type: "workspaces", attributes: 7 } });
      if (req.url === "/api/v2/organizations/acme/workspaces/dup") {
        return reply(res, 200, {
          data: { id: "ws-dup", type: "workspaces", attributes: { name: "dup", "created-at": "2020-01-01T00:00:00Z" } },
        });
      }
      reply(res, 200, "<html>maintenance</html>");
    });
    useServer(svc);
  });
  afterAll(async () => svc.close());

  it("422: the same message as a 409, naming the existing workspace", async () => {
    mode = "taken";
    const err = await failure(workspace().create(await checked(workspace(), { name: "dup" })));
    expect(err.message).toMatch(
      /^workspace "dup" \(ws-dup\) in organization "acme" already exists\. To manage it from this stack, set adopt: true/,
    );
  });

  it("an unreadable 201 whose read-back is unreadable too: recorded by the id the answer gave", async () => {
    mode = "garbage";
    const err = await failure(workspace().create(await checked(workspace(), { name: "made", description: "wanted" })));
    expect(err.id).toBe("ws-made");
    expect(err.properties).toMatchObject({ name: "made", organization: "acme", description: null });
    expect(err.message).toMatch(
      /^workspace "made" \(ws-made\) was created, but neither the service's answer nor a read of it could be understood/,
    );
    // The next `pulumi up` sends the declared settings again.
    expect((await workspace().diff("ws-made", err.properties!, { name: "made", description: "wanted" })).changes).toBe(
      true,
    );
  });
});
