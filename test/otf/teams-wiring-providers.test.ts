/**
 * The providers of `Team`, `RunTrigger` and `NotificationConfiguration` against OTF,
 * through the entry point as the engine calls them: create, read, a diff of the same
 * program that finds no change, update (or replace, for a trigger), delete, each read
 * back from OTF over its API. What OTF answers differently is absorbed (a team without
 * its organization, an email configuration's empty URL); what it lacks (team access,
 * Microsoft Teams destinations) fails with one message naming the feature and the way
 * out. Notifications point at a loopback receiver, the only place OTF could deliver to.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspacesClient, resetLimiters } from "../../src/client";
import { dispatch, PROTOCOL } from "../../src/resources/entry";
import { configureFromStack, setConfiguredSettings } from "../../src/resources/provider-settings";
import { resetClients } from "../../src/resources/providers/client";
import { createOrganization, otfApi, otfServer, runOrganization, type OtfServer } from "./otf";

type Props = Record<string, any>;

const org = runOrganization("wiring");
let otf: OtfServer;
let client: WorkspacesClient;
let receiver: http.Server;
let hookUrl: string;
const delivered: string[] = [];

beforeAll(async () => {
  otf = otfServer();
  await createOrganization(otf, org);
  client = new WorkspacesClient({ address: otf.url, token: otf.token, organization: org, env: {} });
  const config: Record<string, string> = {
    "workspaces:address": otf.url,
    "workspaces:token": otf.token,
    "workspaces:organization": org,
  };
  configureFromStack({ config: { get: (k: string) => config[k] } });
  resetClients();
  resetLimiters();
  receiver = http.createServer((req, res) => {
    delivered.push(`${req.method} ${req.url}`);
    req.resume();
    res.end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  setConfiguredSettings({});
  resetClients();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const call = (kind: string, method: string, ...args: unknown[]) =>
  dispatch(PROTOCOL, kind, method, args) as Promise<any>;

async function check(kind: string, news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await call(kind, "check", olds, news);
  expect(failures).toEqual([]);
  return inputs;
}

/** create, read and a diff of the same program: what the engine does on `up` and the next preview. */
async function createAndRead(kind: string, news: Props): Promise<{ id: string; outs: Props; inputs: Props }> {
  const inputs = await check(kind, news);
  const { id, outs } = await call(kind, "create", inputs);
  const read = await call(kind, "read", id, outs, inputs);
  expect(read.id).toBe(id);
  expect(read.props).toEqual(outs);
  const again = await call(kind, "diff", id, read.props, await check(kind, news, inputs));
  expect(again.changes, `${kind}: a second preview of the same program`).toBe(false);
  return { id, outs: read.props, inputs };
}

/** The one message a create fails with. */
async function createFailure(kind: string, news: Props): Promise<string> {
  const inputs = await check(kind, news);
  try {
    await call(kind, "create", inputs);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error(`${kind}: the create succeeded`);
}

async function workspace(name: string): Promise<string> {
  return (await client.workspaces.create(org, { name })).id;
}

describe("Team on OTF", () => {
  it("creates, reads without a change, updates and deletes a team", async () => {
    const news = {
      name: "platform",
      visibility: "organization",
      organizationAccess: { manageWorkspaces: true },
      ssoTeamId: "sso-platform",
      // OTF keeps no such setting and never reports it: nothing to compare, no perpetual diff.
      allowMemberTokenManagement: false,
    };
    const { id, outs, inputs } = await createAndRead("Team", news);
    expect(id).toMatch(/^team-/);
    // OTF's team names no organization: the provider's configured one is kept.
    expect(outs).toMatchObject({
      name: "platform",
      organization: org,
      visibility: "organization",
      ssoTeamId: "sso-platform",
      allowMemberTokenManagement: null,
    });
    expect(outs.organizationAccess).toMatchObject({ manageWorkspaces: true, manageModules: false });

    const edited = { ...news, name: "platform-2", visibility: "secret", organizationAccess: { manageModules: true } };
    const editedInputs = await check("Team", edited, inputs);
    const d = await call("Team", "diff", id, outs, editedInputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const { outs: updated } = await call("Team", "update", id, outs, editedInputs);
    expect(updated).toMatchObject({ name: "platform-2", visibility: "secret" });
    const onOtf = (await otfApi<any>(otf, `/teams/${id}`)).body.data.attributes;
    expect(onOtf).toMatchObject({ name: "platform-2", visibility: "secret" });
    // The flag the program no longer declares is turned off.
    expect(onOtf["organization-access"]).toMatchObject({ "manage-workspaces": false, "manage-modules": true });
    expect((await call("Team", "diff", id, updated, editedInputs)).changes).toBe(false);

    await call("Team", "delete", id, updated);
    expect((await otfApi(otf, `/teams/${id}`)).status).toBe(404);
    // Deleted outside the program: a refresh drops it.
    expect(await call("Team", "read", id, updated, editedInputs)).toEqual({});
  });

  it("adopts a team of the name with adopt: true, and refuses it otherwise naming its id", async () => {
    const made = await client.teams.create(org, { name: "existing" });
    const message = await createFailure("Team", { name: "existing" });
    expect(message).toContain(made.id);
    expect(message).toContain("adopt");
    const { id } = await call("Team", "create", await check("Team", { name: "existing", adopt: true }));
    expect(id).toBe(made.id);
    expect((await client.teams.list(org, { names: ["existing"] }).all()).map((t) => t.id)).toEqual([made.id]);
  });
});

describe("TeamWorkspaceAccess on OTF", () => {
  it("fails with one message naming the feature and the way out, and grants nothing", async () => {
    const team = await client.teams.create(org, { name: "no-grants" });
    const ws = await workspace("no-grants");
    const message = await createFailure("TeamWorkspaceAccess", { teamId: team.id, workspaceId: ws, access: "read" });
    expect(message).toContain("does not offer team workspace access");
    expect(message).toContain("remove the TeamWorkspaceAccess resource");
  });
});

describe("RunTrigger on OTF", () => {
  it("creates, reads without a change, replaces on a new source and deletes a trigger", async () => {
    const target = await workspace("rt-target");
    const source = await workspace("rt-source");
    const { id, outs, inputs } = await createAndRead("RunTrigger", { workspaceId: target, sourceWorkspaceId: source });
    expect(id).toMatch(/^rt-/);
    // OTF sends no workspace names.
    expect(outs).toMatchObject({
      workspaceId: target,
      sourceWorkspaceId: source,
      workspaceName: null,
      sourceWorkspaceName: null,
    });

    const other = await workspace("rt-other");
    const replaced = await call(
      "RunTrigger",
      "diff",
      id,
      outs,
      await check("RunTrigger", { workspaceId: target, sourceWorkspaceId: other }, inputs),
    );
    expect(replaced).toMatchObject({ changes: true, replaces: ["sourceWorkspaceId"] });

    await call("RunTrigger", "delete", id, outs);
    expect((await otfApi(otf, `/run-triggers/${id}`)).status).toBe(404);
    expect(await client.runTriggers.list(target, "inbound").all()).toEqual([]);
  });

  it("reads a trigger whose source workspace was deleted as gone, and adopts an existing pair", async () => {
    const target = await workspace("rt-orphan");
    const source = await workspace("rt-doomed");
    const { id, outs, inputs } = await createAndRead("RunTrigger", { workspaceId: target, sourceWorkspaceId: source });
    await client.workspaces.forceDelete(source);
    expect(await call("RunTrigger", "read", id, outs, inputs)).toEqual({});
    // The delete of a record already gone is done.
    await call("RunTrigger", "delete", id, outs);

    const kept = await workspace("rt-kept");
    const existing = await client.runTriggers.create(target, kept);
    const adopted = await call(
      "RunTrigger",
      "create",
      await check("RunTrigger", { workspaceId: target, sourceWorkspaceId: kept, adopt: true }),
    );
    expect(adopted.id).toBe(existing.id);
    expect((await client.runTriggers.list(target, "inbound").all()).map((t) => t.id)).toEqual([existing.id]);
  });
});

describe("NotificationConfiguration on OTF", () => {
  it("creates, reads without a change, updates and deletes a generic configuration; the token stays the program's", async () => {
    const ws = await workspace("notified");
    const news = {
      workspaceId: ws,
      name: "failures",
      destinationType: "generic",
      url: hookUrl,
      token: "hook-token-kept-as-secret",
      triggers: ["run:errored"],
    };
    const { id, outs, inputs } = await createAndRead("NotificationConfiguration", news);
    expect(id).toMatch(/^nc-/);
    expect(outs).toMatchObject({
      workspaceId: ws,
      name: "failures",
      destinationType: "generic",
      url: hookUrl,
      enabled: true,
      triggers: ["run:errored"],
      token: "hook-token-kept-as-secret",
    });
    expect(JSON.stringify((await otfApi(otf, `/notification-configurations/${id}`)).body)).not.toContain(
      "hook-token-kept-as-secret",
    );

    const edited = { ...news, name: "everything", enabled: false, triggers: ["run:completed", "run:errored"] };
    const editedInputs = await check("NotificationConfiguration", edited, inputs);
    expect(await call("NotificationConfiguration", "diff", id, outs, editedInputs)).toMatchObject({
      changes: true,
      replaces: [],
    });
    const { outs: updated } = await call("NotificationConfiguration", "update", id, outs, editedInputs);
    expect(updated).toMatchObject({ name: "everything", enabled: false });
    const onOtf = (await otfApi<any>(otf, `/notification-configurations/${id}`)).body.data.attributes;
    expect(onOtf).toMatchObject({ name: "everything", enabled: false, url: hookUrl });
    expect([...onOtf.triggers].sort()).toEqual(["run:completed", "run:errored"]);
    const reread = await call("NotificationConfiguration", "read", id, updated, editedInputs);
    expect((await call("NotificationConfiguration", "diff", id, reread.props, editedInputs)).changes).toBe(false);

    await call("NotificationConfiguration", "delete", id, updated);
    expect((await otfApi(otf, `/notification-configurations/${id}`)).status).toBe(404);
    expect(await call("NotificationConfiguration", "read", id, updated, editedInputs)).toEqual({});
    // No run was queued: OTF delivered nothing.
    expect(delivered).toEqual([]);
  });

  it("reads an email configuration's empty URL as none: no change on the next preview", async () => {
    const ws = await workspace("mailed");
    const { outs } = await createAndRead("NotificationConfiguration", {
      workspaceId: ws,
      name: "mail",
      destinationType: "email",
    });
    expect(outs).toMatchObject({ destinationType: "email", url: null, emailAddresses: [] });
  });

  it("fails a Microsoft Teams destination with one message naming the feature, and makes nothing", async () => {
    const ws = await workspace("teams-hook");
    const message = await createFailure("NotificationConfiguration", {
      workspaceId: ws,
      name: "teams",
      destinationType: "microsoft-teams",
      url: hookUrl,
    });
    expect(message).toContain("does not offer Microsoft Teams notifications");
    expect(message).toContain('declare another destinationType ("generic", "slack" or "email")');
    expect(await client.notificationConfigurations.list(ws).all()).toEqual([]);
  });

  it("refuses a second configuration of the name, and adopts it with adopt: true", async () => {
    const ws = await workspace("named-twice");
    const made = await client.notificationConfigurations.create(ws, {
      name: "taken",
      destinationType: "slack",
      enabled: true,
      url: hookUrl,
    });
    const news = { workspaceId: ws, name: "taken", destinationType: "slack", url: hookUrl };
    const message = await createFailure("NotificationConfiguration", news);
    expect(message).toContain(made.id);
    const adopted = await call(
      "NotificationConfiguration",
      "create",
      await check("NotificationConfiguration", { ...news, adopt: true }),
    );
    expect(adopted.id).toBe(made.id);
    expect((await client.notificationConfigurations.list(ws).all()).map((c) => c.id)).toEqual([made.id]);
  });
});
