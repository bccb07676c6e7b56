/**
 * The 404 rule against the real server: a 404 drops a record from state (read) or counts
 * as deleted (delete) only when the token could have seen the record; otherwise the call
 * fails with a message that names the record and both ways out, and nothing is lost.
 * Also: what read gives back as inputs, the organization a check keeps, update refused
 * for a read-only token, and check failures as the engine prints them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { configureFromStack } from "../../src/resources/provider-settings";
import { resetClients } from "../../src/resources/providers/client";
import { NotVisibleError, confirmGone } from "../../src/resources/providers/gone";
import { organizationInput } from "../../src/resources/providers/inputs";
import { dispatch, failuresForEngine } from "../../src/resources/entry";
import { workspaceProvider } from "../../src/resources/providers/workspace";
import { workspaceTagsProvider } from "../../src/resources/providers/workspace-tags";
import { remoteStateConsumersProvider } from "../../src/resources/providers/remote-state-consumers";
import { workspaceLockProvider } from "../../src/resources/providers/workspace-lock";
import { noCodeModuleProvider } from "../../src/resources/providers/no-code-module";
import { WorkspacesClient } from "../../src/client";
import { api, startHarness, uniqueName, type Harness } from "./helpers";
import { partialState } from "./provider-io";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** Points the providers at the same server with another token. */
function as(token: string): void {
  const config: Record<string, string> = {
    "workspaces:address": h.server.url,
    "workspaces:token": token,
    "workspaces:organization": h.org,
  };
  configureFromStack({ config: { get: (k: string) => config[k] } });
  resetClients();
}
afterEach(() => as(h.server.token));

async function workspace(
  extra: Record<string, unknown> = {},
): Promise<{ id: string; outs: Record<string, any>; inputs: Record<string, any> }> {
  const checked = await workspaceProvider.check({}, { name: uniqueName("vis"), ...extra });
  expect(checked.failures).toEqual([]);
  const { id, outs } = await workspaceProvider.create(checked.inputs);
  return { id, outs, inputs: checked.inputs };
}

async function teamToken(access: {
  workspaceId?: string;
  level?: string;
  manageWorkspaces?: boolean;
}): Promise<string> {
  const team = await api(h, "POST", `/organizations/${h.org}/teams`, {
    data: {
      type: "teams",
      attributes: {
        name: uniqueName("team"),
        "organization-access": { "manage-workspaces": Boolean(access.manageWorkspaces) },
      },
    },
  });
  expect(team.status).toBe(201);
  if (access.workspaceId) {
    const grant = await api(h, "POST", "/team-workspaces", {
      data: {
        type: "team-workspaces",
        attributes: { access: access.level ?? "read" },
        relationships: {
          team: { data: { type: "teams", id: team.json.data.id } },
          workspace: { data: { type: "workspaces", id: access.workspaceId } },
        },
      },
    });
    expect(grant.status).toBe(201);
  }
  return (await api(h, "POST", `/teams/${team.json.data.id}/authentication-token`)).json.data.attributes
    .token as string;
}

function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: Error) => e,
  );
}

/** The message says what could not be done to which record, why, and both ways out. */
function expectNotVisible(err: Error, action: string, label: string | RegExp): void {
  expect(err).toBeInstanceOf(NotVisibleError);
  expect(err.message).toMatch(new RegExp(`^cannot ${action} `));
  if (typeof label === "string") expect(err.message).toContain(label);
  else expect(err.message).toMatch(label);
  expect(err.message).toContain("404");
  expect(err.message).toMatch(/token that can see it/);
  expect(err.message).toContain("pulumi state delete <urn>");
}

describe("a 404 for a token that sees only some workspaces", () => {
  it("read and delete fail naming the workspace, and the workspace stays on the server", async () => {
    const visible = await workspace();
    const hidden = await workspace();
    const token = await teamToken({ workspaceId: visible.id });
    as(token);

    // The workspace the team may read refreshes normally.
    expect((await workspaceProvider.read(visible.id, visible.outs)).id).toBe(visible.id);

    const readErr = await rejection(workspaceProvider.read(hidden.id, hidden.outs));
    expectNotVisible(readErr, "refresh", `workspace "${hidden.outs.name}" (${hidden.id})`);
    expect(readErr.message).toContain(`organization "${h.org}"`);
    expect(readErr.message).not.toContain(token);

    const deleteErr = await rejection(workspaceProvider.delete(hidden.id, hidden.outs));
    expectNotVisible(deleteErr, "delete", `workspace "${hidden.outs.name}" (${hidden.id})`);

    as(h.server.token);
    expect((await h.client.workspaces.read(hidden.id)).id).toBe(hidden.id);
  });

  it("the tags, consumers and lock of a hidden workspace are not dropped either", async () => {
    const visible = await workspace();
    const hidden = await workspace();
    const org = h.org;
    as(await teamToken({ workspaceId: visible.id }));
    const cases: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
      [
        "the tags of",
        () =>
          workspaceTagsProvider.read(
            `${hidden.id}/tags`,
            partialState(workspaceTagsProvider, {
              workspaceId: hidden.id,
              mode: "authoritative",
              tagNames: [],
              organization: org,
            }),
          ),
        () =>
          workspaceTagsProvider.delete(
            `${hidden.id}/tags`,
            partialState(workspaceTagsProvider, {
              workspaceId: hidden.id,
              mode: "authoritative",
              tagNames: ["a"],
              organization: org,
            }),
          ),
      ],
      [
        "the remote state consumers of",
        () =>
          remoteStateConsumersProvider.read(
            `${hidden.id}/remote-state-consumers`,
            partialState(remoteStateConsumersProvider, {
              workspaceId: hidden.id,
              mode: "authoritative",
              consumerIds: [],
              organization: org,
            }),
          ),
        () =>
          remoteStateConsumersProvider.delete(
            `${hidden.id}/remote-state-consumers`,
            partialState(remoteStateConsumersProvider, {
              workspaceId: hidden.id,
              mode: "authoritative",
              organization: org,
            }),
          ),
      ],
      [
        "the lock of",
        () =>
          workspaceLockProvider.read(
            `${hidden.id}/lock`,
            partialState(workspaceLockProvider, { workspaceId: hidden.id, organization: org }),
          ),
        () =>
          workspaceLockProvider.delete(
            `${hidden.id}/lock`,
            partialState(workspaceLockProvider, { workspaceId: hidden.id, organization: org }),
          ),
      ],
    ];
    for (const [what, read, del] of cases) {
      expectNotVisible(await rejection(read()), "refresh", `${what} workspace ${hidden.id}`);
      expectNotVisible(await rejection(del()), "delete", `${what} workspace ${hidden.id}`);
    }
  });

  it("a token of another organization learns nothing either", async () => {
    const hidden = await workspace();
    const other = uniqueName("otherorg");
    const created = await api(h, "POST", "/organizations", {
      data: { type: "organizations", attributes: { name: other, email: "ops@example.com" } },
    });
    expect(created.status).toBe(201);
    const owners = (await api(h, "GET", `/organizations/${other}/teams`)).json.data.find(
      (t: any) => t.attributes.name === "owners",
    );
    const token = (await api(h, "POST", `/teams/${owners.id}/authentication-token`)).json.data.attributes
      .token as string;
    as(token);
    const err = await rejection(workspaceProvider.read(hidden.id, hidden.outs));
    expectNotVisible(err, "refresh", hidden.id);
    expect(err.message).toContain(`not a member of organization "${h.org}"`);
  });

  it("a record whose organization the state does not hold cannot be judged, even by the owners", async () => {
    const err = await rejection(workspaceProvider.read("ws-neverexisted", { name: "ghost" }));
    expectNotVisible(err, "read", `workspace "ghost" (ws-neverexisted)`);
    expect(err.message).toContain("nothing recorded with the resource tells which");
  });
});

describe("a 404 for a token that sees every workspace", () => {
  it("owners, manage-workspaces teams and the organization token drop a deleted workspace", async () => {
    const manage = await teamToken({ manageWorkspaces: true });
    const orgToken = (await api(h, "POST", `/organizations/${h.org}/authentication-token`)).json.data.attributes
      .token as string;
    for (const token of [h.server.token, manage, orgToken]) {
      const gone = await workspace();
      await h.client.workspaces.forceDelete(gone.id);
      as(token);
      expect(await workspaceProvider.read(gone.id, gone.outs)).toEqual({});
      await expect(workspaceProvider.delete(gone.id, gone.outs)).resolves.toBeUndefined();
      as(h.server.token);
    }
  });

  it("no-code modules: only the owners see them all (organization tokens see none)", async () => {
    const props = partialState(noCodeModuleProvider, { organization: h.org });
    expect(await noCodeModuleProvider.read("nocode-gone", props)).toEqual({});
    const orgToken = (await api(h, "POST", `/organizations/${h.org}/authentication-token`)).json.data.attributes
      .token as string;
    as(orgToken);
    expectNotVisible(
      await rejection(noCodeModuleProvider.read("nocode-gone", props)),
      "refresh",
      "no-code module nocode-gone",
    );
    expectNotVisible(
      await rejection(noCodeModuleProvider.delete("nocode-gone", props)),
      "delete",
      "no-code module nocode-gone",
    );
  });

  it("confirmGone asks for the organization once per token", async () => {
    let orgReads = 0;
    const client = new WorkspacesClient({ address: h.server.url, token: h.server.token, rateLimit: false });
    const read = client.organizations.read.bind(client.organizations);
    client.organizations.read = (name: string) => {
      orgReads += 1;
      return read(name);
    };
    for (let i = 0; i < 5; i++)
      await confirmGone(client, { label: `workspace ws-${i}`, organization: h.org, kind: "workspace" }, "refresh");
    expect(orgReads).toBe(1);
  });
});

describe("update refused for a token that can read the workspace", () => {
  it("says the token may lack write permission", async () => {
    const ws = await workspace({ description: "before" });
    as(await teamToken({ workspaceId: ws.id, level: "read" }));
    const news = { ...ws.inputs, description: "after" };
    const err = await rejection(workspaceProvider.update(ws.id, ws.outs, news));
    expect(err.message).toContain(`cannot update workspace "${ws.outs.name}" (${ws.id})`);
    expect(err.message).toContain("may lack write permission");
    expect(err.message).toContain("can-update: false");
    expect(err.message).not.toMatch(/^workspace not found$/);
    as(h.server.token);
    expect((await h.client.workspaces.read(ws.id)).description).toBe("before");
  });
});

describe("read gives back the inputs the resource was given", () => {
  it("with the service's values, so drift shows in the next diff, and nothing the program did not give", async () => {
    const checked = (await dispatch(1, "Workspace", "check", [
      {},
      { name: uniqueName("drift"), description: "declared", executionMode: "remote" },
    ])) as any;
    const created = (await dispatch(1, "Workspace", "create", [checked.inputs])) as any;
    expect(created.outs.__inputNames).toEqual(["description", "executionMode", "name", "organization"]);
    await h.client.workspaces.update(created.id, { description: "changed out of band" });
    const read = (await dispatch(1, "Workspace", "read", [created.id, created.outs])) as any;
    expect(read.inputs).toEqual({
      description: "changed out of band",
      executionMode: "remote",
      name: checked.inputs.name,
      organization: h.org,
    });
    expect(read.props.__inputNames).toEqual(created.outs.__inputNames);
    // Adopted through `get` (no names recorded): the engine keeps the inputs it has.
    const adopted = (await dispatch(1, "Workspace", "read", [created.id, {}])) as any;
    expect(adopted.inputs).toBeUndefined();
  });
});

describe("an organization the program does not give", () => {
  it("stays the one recorded in state, whatever the ambient default says", async () => {
    expect(organizationInput({ organization: "recorded" }, {}, () => "ambient")).toBe("recorded");
    expect(organizationInput({ organization: "recorded" }, { organization: "program" }, () => "ambient")).toBe(
      "program",
    );
    expect(organizationInput({}, {}, () => "ambient")).toBe("ambient");
    const checked = await workspaceProvider.check({ organization: "recorded-org", name: "x" }, { name: "x" });
    expect(checked.inputs.organization).toBe("recorded-org");
    const fresh = await workspaceProvider.check({}, { name: "x" });
    expect(fresh.inputs.organization).toBe(h.org);
  });
});

describe("check failures as the engine prints them", () => {
  it("name the program's property once, an absent input's too", async () => {
    const checked = (await dispatch(1, "Workspace", "check", [
      {},
      { name: uniqueName("agent"), executionMode: "agent" },
    ])) as any;
    const texts = checked.failures.map((f: { property: string; reason: string }) => `${f.property}|${f.reason}`);
    expect(texts).toContain("agentPoolId|is required when executionMode is agent");
    for (const f of checked.failures) {
      expect(f.reason).not.toMatch(/agent-pool-id|execution-mode/);
      expect(f.property).not.toBe("");
      expect(f.reason.startsWith(f.property)).toBe(false);
    }
  });

  it("keeps every property path, without repeating it in the reason", () => {
    expect(failuresForEngine([{ property: "name", reason: "name must contain only letters" }])).toEqual([
      { property: "name", reason: "must contain only letters" },
    ]);
    expect(failuresForEngine([{ property: "vcsRepo.identifier", reason: "vcsRepo.identifier: is required" }])).toEqual([
      { property: "vcsRepo.identifier", reason: "is required" },
    ]);
    expect(failuresForEngine([{ property: "tags", reason: "tagsRegex is not a tag" }])).toEqual([
      { property: "tags", reason: "tagsRegex is not a tag" },
    ]);
  });
});
