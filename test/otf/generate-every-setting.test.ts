/**
 * The generator round trip with every setting, against OTF: each settable line of the
 * field table is set on an OTF workspace one request at a time, and the lines OTF stores
 * (it reads them back as sent) are generated into a program, type-checked against this
 * package (dist/) and adopted by `pulumi up` through the real engine without changing the
 * workspace (OTF moves `updated-at` on every update that changes a value), with a
 * no-change preview after. A setting OTF stores and
 * the generator leaves out fails here, like a setting the local server stores
 * (test/e2e/generate-every-setting.test.ts).
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspacesClient } from "../../src/client";
import { generate } from "../../src/generate";
import { TestStack } from "../e2e/harness";
import { everySettingValues, settableLines } from "../e2e/every-setting";
import { typeErrors } from "../generate/check";
import {
  createOrganization,
  createWorkspace,
  otfEnv,
  otfServer,
  runOrganization,
  workspace,
  type OtfServer,
} from "./otf";

const ORGANIZATION = runOrganization("every-setting");

/**
 * Lines OTF's workspace API keeps (internal/workspace/tfe_types.go of the snapshot): the
 * test fails if OTF stops storing one. OTF takes the origin on create only, an engine
 * version only as major.minor.patch, and always reports file triggers as enabled.
 */
const OTF_STORES = [
  "description",
  "autoApply",
  "autoApplyRunTrigger",
  "allowDestroyPlan",
  "globalRemoteState",
  "queueAllRuns",
  "sourceName",
  "sourceUrl",
  "speculativeEnabled",
  "engineVersion",
  "triggerPatterns",
  "triggerPrefixes",
  "workingDirectory",
];

describe("generating and adopting an OTF workspace with every setting OTF stores", () => {
  let otf: OtfServer;
  let client: WorkspacesClient;
  let stack: TestStack;
  let id: string;
  let newest: string;
  let stored: string[];
  const refused: Record<string, string> = {};
  let programPath: string;
  let program: string;

  beforeAll(async () => {
    otf = otfServer();
    await createOrganization(otf, ORGANIZATION);
    client = new WorkspacesClient({ env: otfEnv(otf, ORGANIZATION) });
    const values: Record<string, unknown> = { ...everySettingValues(), engineVersion: "1.6.2" };
    id = await createWorkspace(otf, ORGANIZATION, {
      name: "every-setting",
      "source-name": values.sourceName,
      "source-url": values.sourceUrl,
    });
    newest = await createWorkspace(otf, ORGANIZATION, { name: "newest", "terraform-version": "1.9.8" });
    for (const name of settableLines()) {
      if (!(name in values) || name === "sourceName" || name === "sourceUrl") continue;
      try {
        await client.workspaces.update(id, { [name]: values[name] });
      } catch (err) {
        refused[name] = (err as Error).message;
      }
    }
    const ws = (await client.workspaces.read(id)) as unknown as Record<string, unknown>;
    stored = Object.keys(values).filter((name) => JSON.stringify(ws[name]) === JSON.stringify(values[name]));
    stack = await TestStack.create({
      project: "every-setting-otf",
      files: { "index.ts": "// replaced by the generator\n" },
      env: otfEnv(otf, ORGANIZATION),
    });
    programPath = path.join(stack.dir, "index.ts");
    program = (await generate({ client, out: programPath, force: true })).program;
  }, 120_000);

  afterAll(async () => {
    stack?.dispose();
  });

  it("OTF stores the settings its API has", () => {
    expect(stored, JSON.stringify(refused, null, 2)).toEqual(expect.arrayContaining(OTF_STORES));
  });

  it("writes every setting OTF stores, and type-checks against this package", () => {
    for (const name of stored) expect(program, name).toContain(`${name}: `);
    expect(typeErrors([programPath])).toEqual([]);
  }, 60_000);

  it("pulumi up adopts it without a change, and a following preview shows no change", async () => {
    const before = (await workspace(otf, id)).attributes["updated-at"];
    const r = await stack.up();
    expect(r.code, r.output.slice(-4000)).toBe(0);
    expect(
      stack
        .resources("workspaces:Workspace")
        .map((res) => res.id)
        .sort(),
    ).toEqual([id, newest].sort());
    expect((await workspace(otf, id)).attributes["updated-at"]).toBe(before);
    const again = await stack.previewJson();
    expect(Object.keys(again.changeSummary ?? {}).filter((k) => k !== "same")).toEqual([]);
  }, 300_000);
});
