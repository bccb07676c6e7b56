/**
 * The README's first jobs, followed as written, through the real engine and the real local
 * server under its default rate limit. Each starts from a folder as `pulumi new typescript`
 * leaves it (with this package installed) and the lines of "Point it at the service" (the
 * address and the organization in the stack's config, the token in the environment), then:
 * "A first program" and "pulumi up" (create, refresh, safe delete); "Adopt an existing
 * organization" (the generator takes its settings from the stack, and `pulumi up` adopts an
 * organization made by hand without one write); "Split an organization by project" (the
 * generated stacks adopt it, run by the generated driver, without one write).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server";
import { pulumiNewTypescript } from "../generate/pulumi-new";
import { seedOrganization, type Seeded } from "../generate/seed";
import { shellCommands } from "../docs/snippets";
import { blockUnder, Reader, runGenerator, stepsUnder, writesSince } from "./doc-steps";
import { api, startTestServer, TestStack } from "./harness";

const COUNT = 24;
const NO_CODE = 2;
const README = "README.md";
const setup = stepsUnder(README, "Point it at the service");

/** What a job starts from: the local server (organization acme), and a reader at the shell of a new program. */
interface Job {
  server: RunningServer;
  seeded: Seeded;
  stack: TestStack;
  reader: Reader;
}

/**
 * Registers the hooks of a job: the server (with an organization made by hand when `seed`),
 * a folder as `pulumi new typescript` leaves it (its stack created, the package installed)
 * and a reader at its shell, who fills in the server's address and token.
 */
function job(project: string, seed: boolean): Job {
  const j = {} as Job;
  beforeAll(async () => {
    j.server = await startTestServer({ organization: "acme" });
    if (seed) j.seeded = await seedOrganization(j.server, COUNT, NO_CODE);
    j.stack = await TestStack.create({ project, files: pulumiNewTypescript(project) });
    j.reader = new Reader(j.stack, j.server, { "app.terraform.io": j.server.url, '"..."': `"${j.server.token}"` });
  });
  afterAll(async () => {
    j.stack?.dispose();
    await j.server?.close();
  });
  return j;
}

/**
 * The commands of a generated README that set its secret config keys, each value filled in
 * from `seeded` (the table beside them names each key's workspace).
 */
function secretSteps(readme: string, title: string, seeded: Seeded): string[] {
  const text = fs.readFileSync(readme, "utf8");
  const rows = text
    .split("\n")
    .filter((l) => l.trim().startsWith("|"))
    .map((l) => l.split("|").map((c) => c.trim()));
  const workspaceOf = (key: string) => {
    const row = rows.find((cells) => cells.includes(`\`${key}\``));
    // The cell names the variable's owner: `workspace <name>` (or `variable set <name>`).
    return row ? row[row.indexOf(`\`${key}\``) + 1].replace(/^workspace /, "") : undefined;
  };
  const lines = shellCommands(blockUnder(readme, title, "sh"));
  const filled = lines.map((line) => {
    if (!line.includes("'<value of ")) return line;
    const key = /--secret (?:--stack \S+ )?(\S+) /.exec(line)?.[1] ?? "";
    const password = seeded.passwords.get(workspaceOf(key) ?? "");
    if (!password) throw new Error(`${readme}: no seeded value for the secret of ${JSON.stringify(line)}`);
    return line.replace(/'<value of [^>]+>'/, `'${password}'`);
  });
  expect(filled.filter((l) => /--secret/.test(l))).toHaveLength(seeded.passwords.size);
  return filled;
}

it("the README names the hosted service's address, organization acme and the token the reader fills in", () => {
  expect(setup.join("\n")).toContain("workspaces:address app.terraform.io");
  expect(setup.join("\n")).toContain("workspaces:organization acme");
  expect(setup.some((c) => c.startsWith("export WORKSPACES_TOKEN="))).toBe(true);
});

describe("the README's first job: point it at the service, a first program, pulumi up", () => {
  const j = job("readme-deploy", false);

  it("previews without a request, creates, refreshes and safely deletes the first program's workspace", async () => {
    await j.reader.follow(setup);
    j.stack.writeFiles({ "index.ts": blockUnder(README, "A first program", "ts") });
    const steps = stepsUnder(README, "pulumi up");
    const results = await j.reader.follow(steps);
    const by = (verb: string) => results.find((r) => r.command.split(/\s+/)[1] === verb)!;
    expect(results.map((r) => r.command.split(/\s+/)[1])).toEqual(["preview", "up", "refresh", "destroy"]);
    expect(by("preview").requests).toBe(0);
    expect(by("up").writes).toEqual([expect.stringMatching(/^POST \/api\/v2\/organizations\/:\w+\/workspaces x1$/)]);
    expect(by("refresh").writes).toEqual([]);
    expect(by("destroy").writes).toEqual([expect.stringMatching(/safe-delete x1$/)]);
    expect((await api(j.server, "/organizations/acme/workspaces/app-prod")).status).toBe(404);
  });
});

describe("the README's job: adopt an existing organization", () => {
  const adopt = stepsUnder(README, "Adopt an existing organization");
  const j = job("readme-adopt", true);

  it("the setup lines put the address and organization in the stack's config, and the token nowhere in it", async () => {
    await j.reader.follow(setup);
    const config = fs.readFileSync(path.join(j.stack.dir, `Pulumi.${j.stack.stack}.yaml`), "utf8");
    expect(config).toContain(`workspaces:address: ${j.server.url}`);
    expect(config).toContain("workspaces:organization: acme");
    expect(config).not.toContain(j.server.token);
    expect(j.stack.env.WORKSPACES_ADDRESS).toBeUndefined();
  });

  it("generate, as the README writes it, reads the stack's settings, replaces pulumi new's index.ts and writes nothing to the service", async () => {
    const [generate] = adopt;
    expect(generate).toMatch(/^npx pulumi-workspaces generate\b/);
    // Without --force the file `pulumi new` wrote stops it: the reason the README passes it.
    const args = generate.split(/\s+/).slice(2);
    const refused = await runGenerator(
      args.filter((a) => a !== "--force"),
      { cwd: j.stack.dir, env: j.stack.env },
    );
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `${path.join(j.stack.dir, "index.ts")} exists; choose another --out, or pass --force`,
    );

    const [r] = await j.reader.follow([generate]);
    expect(r.writes).toEqual([]);
    expect(r.output).toContain(
      `settings: address ${j.server.url} from Pulumi.${j.stack.stack}.yaml, organization acme from Pulumi.${j.stack.stack}.yaml, token from WORKSPACES_TOKEN`,
    );
    expect(r.output).not.toContain(j.server.token);
    expect(fs.readFileSync(path.join(j.stack.dir, "index.ts"), "utf8")).toContain("adopt: true");
  });

  it("the generated README's secret keys, set as it says", async () => {
    await j.reader.follow(secretSteps(path.join(j.stack.dir, "README.md"), "Before the first `pulumi up`", j.seeded));
  });

  it("pulumi preview and pulumi up adopt every record without one write, and a preview after shows no change", async () => {
    const results = await j.reader.follow(adopt.slice(1));
    expect(results.map((r) => r.command.split(/\s+/).slice(0, 2).join(" "))).toEqual(["pulumi preview", "pulumi up"]);
    expect(results.flatMap((r) => r.writes)).toEqual([]);

    const held = new Map<string, string>();
    for (const res of [
      ...j.stack.resources("workspaces:Workspace"),
      ...j.stack.resources("workspaces:NoCodeWorkspace"),
    ])
      held.set(String(res.outputs?.name), String(res.id));
    expect(held.size).toBe(COUNT);
    for (const [name, id] of j.seeded.ids) expect(held.get(name), name).toBe(id);

    const before = { ...j.server.stats().byRoute };
    const p = await j.stack.previewJson(["--expect-no-changes"]);
    expect(p.code, p.raw.output.slice(-4000)).toBe(0);
    expect(p.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(writesSince(j.server, before)).toEqual([]);
  });
});

describe("the README's job: split an organization by project", () => {
  const generate = stepsUnder(README, "Split an organization by project", 0);
  const run = stepsUnder(README, "Split an organization by project", 1);
  const j = job("readme-split", true);

  it("writes the split program from the program's folder, reading only", async () => {
    await j.reader.follow(setup);
    const results = await j.reader.follow(generate);
    expect(results.flatMap((r) => r.writes)).toEqual([]);
    expect(results[0].output).toContain(`settings: address ${j.server.url} from Pulumi.${j.stack.stack}.yaml`);
    expect(j.reader.cwd).toBe(path.join(j.stack.dir, "infra"));
  });

  it("with the secret keys its README lists, the driver's preview and up adopt every stack's records without one write", async () => {
    await j.reader.follow(secretSteps(path.join(j.reader.cwd, "README.md"), "Before the first run", j.seeded));
    const results = await j.reader.follow(run);
    expect(results.flatMap((r) => r.writes)).toEqual([]);
    const stacks = fs
      .readdirSync(j.reader.cwd)
      .map((f) => /^Pulumi\.(.+)\.yaml$/.exec(f)?.[1])
      .filter((n): n is string => n !== undefined);
    expect(stacks.length).toBe(j.seeded.projects.length + 1);
    for (const name of stacks) expect(results[1].output).toMatch(new RegExp(`^${name}: up ok`, "m"));

    const [check] = await j.reader.follow(["node run-stacks.js preview --expect-no-changes"]);
    expect(check.writes).toEqual([]);
  });
});
