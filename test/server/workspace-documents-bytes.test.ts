/**
 * The workspace endpoints' answers, byte for byte, over a scripted scenario: creates with
 * defaults and with every setting, a VCS connection, agent execution, updates (the engine
 * version under both spellings, vcs-repo merges, setting overwrites, a PATCH that changes
 * nothing) and the refusals of the settings rules. Ids, times and random webhook ids are
 * replaced by stable placeholders (in order of appearance); everything else, key order
 * included, must match the recording in fixtures/workspace-documents.txt.
 *
 * Re-record after an intended change of the documents with UPDATE_WORKSPACE_DOCUMENTS=1.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, start, wsBody, type Reply, type TestServer } from "./helpers";

const FIXTURE = join(__dirname, "fixtures/workspace-documents.txt");

/** Replaces ids, times and webhook ids with placeholders numbered in order of first appearance. */
function normalizer(): (text: string) => string {
  const seen = new Map<string, string>();
  const stable = (kind: string) => (m: string) => {
    if (!seen.has(m)) seen.set(m, `<${kind}${seen.size}>`);
    return seen.get(m)!;
  };
  return (text) =>
    text
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, "<time>")
      .replace(/webhooks\/vcs\/[A-Za-z0-9]+/g, stable("hook"))
      .replace(/(?<![-\w])(?:ws|prj|apool|ot|oc|user|team|org|sv|run|sshkey|cv|tag|at)-[A-Za-z0-9]{6,}/g, stable("id"))
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, "<url>");
}

describe("workspace documents, byte for byte", () => {
  let t: TestServer;
  const lines: string[] = [];
  let norm: (text: string) => string;

  beforeAll(async () => {
    t = await start();
    norm = normalizer();
  });
  afterAll(async () => {
    await t.server.close();
  });

  async function record(label: string, reply: Promise<Reply>): Promise<Reply> {
    const r = await reply;
    lines.push(`## ${label}\n${r.status} ${norm(r.text)}`);
    return r;
  }

  it("answers as recorded", async () => {
    const org = t.org;
    const ws = `/organizations/${org}/workspaces`;
    const client = await expectStatus(
      t.api.post(`/organizations/${org}/oauth-clients`, {
        data: {
          type: "oauth-clients",
          attributes: {
            "service-provider": "github",
            "http-url": "https://github.example",
            "api-url": "https://api.github.example",
            name: "gh",
          },
        },
      }),
      201,
    );
    const token = client.body.data.relationships["oauth-tokens"].data[0].id as string;
    const pool = await expectStatus(
      t.api.post(`/organizations/${org}/agent-pools`, { data: { type: "agent-pools", attributes: { name: "p1" } } }),
      201,
    );
    const poolId = pool.body.data.id as string;

    await record("create with defaults", t.api.post(ws, wsBody("plain")));
    await record(
      "create with every setting",
      t.api.post(
        ws,
        wsBody("full", {
          description: "d",
          "execution-mode": "local",
          "auto-apply": true,
          "auto-apply-run-trigger": true,
          "allow-destroy-plan": false,
          "assessments-enabled": true,
          "auto-destroy-at": "2031-01-02T03:04:05Z",
          "auto-destroy-activity-duration": "14d",
          "file-triggers-enabled": false,
          "global-remote-state": true,
          "queue-all-runs": true,
          "source-name": "src",
          "source-url": "https://src.example",
          "speculative-enabled": false,
          "structured-run-output-enabled": false,
          "terraform-version": "~> 1.5",
          "trigger-patterns": ["a/**"],
          "trigger-prefixes": ["b/"],
          "working-directory": "infra",
        }),
      ),
    );
    await record("create with engine-version", t.api.post(ws, wsBody("neutral", { "engine-version": "1.6.0" })));
    await record("create with drift-detection", t.api.post(ws, wsBody("drift", { "drift-detection": true })));
    await record("create with operations false", t.api.post(ws, wsBody("ops", { operations: false })));
    await record(
      "create with overwrites off",
      t.api.post(
        ws,
        wsBody("inherit", { "execution-mode": "local", "setting-overwrites": { "execution-mode": false } }),
      ),
    );
    await record(
      "create in agent mode",
      t.api.post(ws, wsBody("agent", { "execution-mode": "agent", "agent-pool-id": poolId })),
    );
    await record("create with empty agent pool", t.api.post(ws, wsBody("nopool", { "agent-pool-id": "" })));
    const vcs = await record(
      "create with vcs-repo",
      t.api.post(
        ws,
        wsBody("vcs", {
          "vcs-repo": { identifier: "o/r", "oauth-token-id": token, branch: "main", "tags-regex": "v.*" },
        }),
      ),
    );
    const vcsId = vcs.body.data.id as string;
    const plain = `${ws}/plain`;
    await record(
      "update many",
      t.api.patch(plain, {
        data: {
          type: "workspaces",
          attributes: { description: "x", "auto-apply": true, "trigger-prefixes": ["p/"], "working-directory": "w" },
        },
      }),
    );
    await record(
      "update nothing",
      t.api.patch(plain, { data: { type: "workspaces", attributes: { description: "x" } } }),
    );
    await record(
      "update engine-version",
      t.api.patch(plain, { data: { type: "workspaces", attributes: { "engine-version": "1.7.0" } } }),
    );
    await record(
      "update terraform-version",
      t.api.patch(plain, { data: { type: "workspaces", attributes: { "terraform-version": "latest" } } }),
    );
    await record(
      "update nulls",
      t.api.patch(plain, {
        data: { type: "workspaces", attributes: { description: null, "working-directory": null } },
      }),
    );
    await record(
      "update drift-detection",
      t.api.patch(plain, { data: { type: "workspaces", attributes: { "drift-detection": true } } }),
    );
    await record(
      "update operations",
      t.api.patch(plain, { data: { type: "workspaces", attributes: { operations: false } } }),
    );
    await record(
      "update operations back",
      t.api.patch(plain, { data: { type: "workspaces", attributes: { operations: true } } }),
    );
    await record(
      "update overwrites off",
      t.api.patch(plain, {
        data: { type: "workspaces", attributes: { "setting-overwrites": { "execution-mode": false } } },
      }),
    );
    await record(
      "update to agent",
      t.api.patch(plain, {
        data: { type: "workspaces", attributes: { "execution-mode": "agent", "agent-pool-id": poolId } },
      }),
    );
    await record(
      "update agent without pool",
      t.api.patch(`${ws}/ops`, { data: { type: "workspaces", attributes: { "execution-mode": "agent" } } }),
    );
    await record(
      "update vcs-repo merge",
      t.api.patch(`/workspaces/${vcsId}`, {
        data: { type: "workspaces", attributes: { "vcs-repo": { branch: "dev", "tags-regex": null } } },
      }),
    );
    await record(
      "update vcs-repo removed",
      t.api.patch(`/workspaces/${vcsId}`, { data: { type: "workspaces", attributes: { "vcs-repo": null } } }),
    );
    await record(
      "update vcs-repo new",
      t.api.patch(`/workspaces/${vcsId}`, {
        data: { type: "workspaces", attributes: { "vcs-repo": { identifier: "o/s", "oauth-token-id": token } } },
      }),
    );
    await record("bad engine version", t.api.post(ws, wsBody("bad-engine", { "terraform-version": "not a version" })));
    await record(
      "differing engine spellings",
      t.api.post(ws, wsBody("two-engines", { "terraform-version": "1.5.0", "engine-version": "1.6.0" })),
    );
    await record("bad agent pool", t.api.post(ws, wsBody("bad-pool", { "agent-pool-id": "apool-nonexistent" })));
    await record(
      "unknown agent pool",
      t.api.post(ws, wsBody("bad-pool2", { "execution-mode": "agent", "agent-pool-id": "apool-nonexistent" })),
    );
    await record(
      "rename and move nothing else",
      t.api.patch(`${ws}/nopool`, { data: { type: "workspaces", attributes: { name: "renamed" } } }),
    );
    await record("bad execution mode", t.api.post(ws, wsBody("bad-mode", { "execution-mode": "moon" })));
    await record("name taken", t.api.post(ws, wsBody("plain")));
    await record("read by name", t.api.get(`${ws}/full`));
    await record("list", t.api.get(`${ws}?page[size]=20`));

    const text = lines.join("\n\n") + "\n";
    if (process.env.UPDATE_WORKSPACE_DOCUMENTS || !existsSync(FIXTURE)) writeFileSync(FIXTURE, text);
    expect(text).toBe(readFileSync(FIXTURE, "utf8"));
  });
});
