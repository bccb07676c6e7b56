/**
 * `Policy` against the real local server, through the entry point as the engine calls it:
 * check failures with their property paths (code or codeFile, levels per kind, the OPA
 * query), a diff of digests that sends no request, create and upload, code and level drift
 * read back and restored (#1407), adoption with no write, a create kept when its upload
 * fails, a lost create answer recovered, the 404 rule, and import by both id forms.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/resources/providers/unknowns";
import { startFakeService, type FakeService } from "../client/fake-service";
import { entryCalls } from "./entry-calls";
import { pointProviders, providersAs, startHarness, teamTokenWith, uniqueName, type Harness } from "./helpers";

type Props = Record<string, any>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => providersAs(h, h.server.token));

const { call, check, create } = entryCalls("Policy");
const sha = (code: string) => createHash("sha256").update(code, "utf8").digest("hex");
/** Writes the server answered so far, uploads (PUT) included. */
const writes = () =>
  Object.entries(h.server.stats().byRoute)
    .filter(([route]) => /^(POST|PATCH|PUT|DELETE) /.test(route))
    .reduce((n, [, count]) => n + count, 0);

const CODE = "main = rule { true }\n";

async function update(id: string, olds: Props, news: Props): Promise<Props> {
  const checked = await check(news, olds);
  expect(checked.failures).toEqual([]);
  return (await call("update", id, olds, checked.inputs)).outs;
}

async function diff(id: string, olds: Props, news: Props) {
  return call("diff", id, olds, (await check(news, olds)).inputs);
}

describe("check and diff", () => {
  it("one clear failure per bad input, with its property path", async () => {
    const f = async (news: Props) => (await check({ organization: h.org, name: "p", ...news })).failures;
    expect(await f({ code: CODE })).toEqual([]);
    expect(await f({})).toEqual([
      {
        property: "code",
        reason: "or codeFile is required: the policy's code as text, or a file of the program that holds it",
      },
    ]);
    expect((await f({ code: CODE, codeFile: "a.sentinel" }))[0]).toMatchObject({ property: "codeFile" });
    expect(await f({ name: "has space", code: CODE })).toEqual([
      { property: "name", reason: "is invalid: use letters, digits, '-', '_' and '.'" },
    ]);
    expect(await f({ code: CODE, enforcementLevel: "mandatory" })).toEqual([
      {
        property: "enforcementLevel",
        reason: '"mandatory" is not valid for a policy of kind sentinel (advisory, soft-mandatory, hard-mandatory)',
      },
    ]);
    expect(await f({ kind: "opa", code: "package a", enforcementLevel: "hard-mandatory", query: "data.a.b" })).toEqual([
      {
        property: "enforcementLevel",
        reason: '"hard-mandatory" is not valid for a policy of kind opa (advisory, mandatory)',
      },
    ]);
    expect((await f({ kind: "opa", code: "package a" }))[0]).toMatchObject({ property: "query" });
    expect((await f({ code: CODE, query: "data.a.b" }))[0]).toMatchObject({ property: "query" });
    // Values known only during `pulumi up` are not judged.
    expect(await f({ name: UNKNOWN, code: UNKNOWN, enforcementLevel: UNKNOWN })).toEqual([]);
    // A kind this release does not know passes, for the service to decide.
    expect(await f({ kind: "tfpolicy", code: CODE, enforcementLevel: "anything" })).toEqual([]);
  });

  it("a codeFile that cannot be read names the path it was read from", async () => {
    const failures = (await check({ organization: h.org, name: "p", codeFile: "no/such/policy.sentinel" })).failures;
    expect(failures).toHaveLength(1);
    expect(failures[0].property).toBe("codeFile");
    expect(failures[0].reason).toContain("no such file");
    expect(failures[0].reason).toContain(path.resolve("no/such/policy.sentinel"));
  });

  it("the inputs carry the code's digest; a code change is an update, a kind or name change a replacement; no request", async () => {
    const checked = await check({ organization: h.org, name: "p", code: CODE });
    expect(checked.inputs).toMatchObject({ kind: "sentinel", codeSha256: sha(CODE) });
    const olds = {
      name: "p",
      organization: h.org,
      kind: "sentinel",
      codeSha256: sha(CODE),
      enforcementLevel: "advisory",
    };
    const before = h.server.stats().total;
    expect((await diff("pol-1", olds, { name: "p", organization: h.org, code: CODE })).changes).toBe(false);
    expect(await diff("pol-1", olds, { name: "p", organization: h.org, code: CODE + "#" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await diff("pol-1", olds, { name: "q", organization: h.org, code: CODE })).toMatchObject({
      replaces: ["name"],
    });
    expect(
      await diff("pol-1", olds, { name: "p", organization: h.org, kind: "opa", query: "data.a.b", code: CODE }),
    ).toMatchObject({ replaces: ["kind"], deleteBeforeReplace: true });
    expect(h.server.stats().total).toBe(before);
  });
});

describe("Policy", () => {
  it("creates and uploads; code drift is read back as a digest and uploaded again", async () => {
    const name = uniqueName("pol");
    const news = { name, organization: h.org, code: CODE, enforcementLevel: "soft-mandatory" };
    const { id, outs } = await create(news);
    expect(id).toMatch(/^pol-/);
    expect(outs).toMatchObject({
      name,
      organization: h.org,
      kind: "sentinel",
      enforcementLevel: "soft-mandatory",
      codeSha256: sha(CODE),
      policySetCount: 0,
    });
    expect(await h.client.policies.download(id)).toBe(CODE);
    expect((await diff(id, outs, news)).changes).toBe(false);

    await h.client.policies.upload(id, "main = rule { false }\n");
    const read = await call("read", id, outs);
    expect(read.props.codeSha256).toBe(sha("main = rule { false }\n"));
    expect(await diff(id, read.props, news)).toMatchObject({ changes: true, replaces: [] });
    const restored = await update(id, read.props, news);
    expect(restored.codeSha256).toBe(sha(CODE));
    expect(await h.client.policies.download(id)).toBe(CODE);
  });

  it("an OPA level changed outside the program is read back and restored (#1407)", async () => {
    const news = {
      name: uniqueName("opa"),
      organization: h.org,
      kind: "opa",
      query: "data.terraform.deny",
      code: "package terraform\n",
      enforcementLevel: "mandatory",
    };
    const { id, outs } = await create(news);
    await h.client.policies.update(id, { enforcementLevel: "advisory" });
    const read = await call("read", id, outs);
    expect(read.props.enforcementLevel).toBe("advisory");
    expect((await diff(id, read.props, news)).changes).toBe(true);
    const restored = await update(id, read.props, news);
    expect(restored.enforcementLevel).toBe("mandatory");
    expect((await h.client.policies.read(id)).enforcementLevel).toBe("mandatory");
  });

  it("reads codeFile relative to the program's directory, and an edit of the file uploads it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "policy-file-"));
    const file = path.join(dir, "require-tags.sentinel");
    fs.writeFileSync(file, CODE);
    const codeFile = path.relative(process.cwd(), file);
    const news = { name: uniqueName("file"), organization: h.org, codeFile };
    const { id, outs } = await create(news);
    expect(outs).toMatchObject({ codeSha256: sha(CODE), codeFile });
    fs.writeFileSync(file, CODE + "# edited\n");
    expect((await diff(id, outs, news)).changes).toBe(true);
    const after = await update(id, outs, news);
    expect(after.codeSha256).toBe(sha(CODE + "# edited\n"));
    expect(await h.client.policies.download(id)).toBe(CODE + "# edited\n");
  });

  it("adopt takes a policy over with no write when its code matches; other code is one upload", async () => {
    const name = uniqueName("adopted");
    const existing = await h.client.policies.create(h.org, { name, enforcementLevel: "advisory" });
    await h.client.policies.upload(existing.id, CODE);
    const news = { name, organization: h.org, code: CODE, enforcementLevel: "advisory" };

    const refused = await call("create", (await check(news)).inputs).catch((e: Error) => e);
    expect(refused.message).toContain(`policy "${name}" (${existing.id}) in organization "${h.org}" already exists`);
    expect(refused.message).toContain("adopt: true");

    const start = writes();
    const adopted = await create({ ...news, adopt: true });
    expect(writes() - start).toBe(0);
    expect(adopted.id).toBe(existing.id);
    expect(adopted.outs).toMatchObject({ codeSha256: sha(CODE), adopt: true });

    const changed = await create({ ...news, code: CODE + "#", adopt: true });
    expect(changed.id).toBe(existing.id);
    expect(writes() - start).toBe(1);
    expect(await h.client.policies.download(existing.id)).toBe(CODE + "#");
  });

  it("a create whose answer is lost keeps the policy it made: one policy, its code uploaded", async () => {
    const name = uniqueName("lost");
    const checked = await check({ name, organization: h.org, code: CODE });
    h.server.setFaults({ failureRate: 1, failureMode: "drop", failureStage: "after", methods: ["POST"] });
    try {
      const created = await call("create", checked.inputs);
      h.server.setFaults({});
      const named = (await h.client.policies.list(h.org, { search: name }).all()).filter((p) => p.name === name);
      expect(named.map((p) => p.id)).toEqual([created.id]);
      expect(await h.client.policies.download(created.id)).toBe(CODE);
    } finally {
      h.server.setFaults({});
    }
  });

  it("deleting a policy a set holds takes it out of the set; a 404 then drops it only for a token that sees every policy", async () => {
    const { id, outs } = await create({ name: uniqueName("held"), organization: h.org, code: CODE });
    const set = await h.client.policySets.create(h.org, { name: uniqueName("holder"), policyIds: [id] });
    await call("delete", id, outs);
    expect((await h.client.policySets.read(set.id)).policyIds).toEqual([]);
    // Gone, and the owners' token could have seen it: a refresh drops it, a second delete succeeds.
    expect(await call("read", id, outs)).toEqual({});
    await call("delete", id, outs);
    providersAs(h, await teamTokenWith(h, { "manage-policies": true }));
    await expect(call("read", id, outs)).rejects.toThrow(
      /cannot refresh policy .*: the service answered 404.*cannot see every policy.*pulumi state delete/s,
    );
  });

  it("imports by pol-<id> and by <organization>/<name>; another id is refused with the forms", async () => {
    const name = uniqueName("imp");
    const p = await h.client.policies.create(h.org, { name, enforcementLevel: "hard-mandatory" });
    await h.client.policies.upload(p.id, CODE);
    expect((await call("read", p.id, {})).props).toMatchObject({
      name,
      organization: h.org,
      kind: "sentinel",
      enforcementLevel: "hard-mandatory",
      codeSha256: sha(CODE),
    });
    const byName = await call("read", `${h.org}/${name}`, {});
    expect(byName.id).toBe(p.id);
    expect(await call("read", `${h.org}/no-such-policy`, {})).toEqual({});
    await expect(call("read", "polset-1", {})).rejects.toThrow(/pol-<id>.*<organization>\/<name>/);
  });
});

describe("a create whose upload fails", () => {
  let proxy: FakeService;
  afterAll(async () => proxy?.close());

  it("is kept in the stack without code, and the next update uploads it", async () => {
    // The real server behind a proxy that refuses every upload.
    proxy = await startFakeService((req, res, body) => {
      if (req.method === "PUT") {
        res.writeHead(400, { "content-type": "application/vnd.api+json" });
        res.end(JSON.stringify({ errors: [{ status: "400", title: "bad request", detail: "upload refused" }] }));
        return;
      }
      const hop = new Set(["host", "connection", "content-length", "transfer-encoding", "content-encoding"]);
      const pass = (headers: Iterable<[string, string | string[] | undefined]>) =>
        Object.fromEntries([...headers].filter(([k]) => !hop.has(k.toLowerCase())).map(([k, v]) => [k, String(v)]));
      void fetch(h.server.url.replace(/\/api\/v2$/, "") + req.url, {
        method: req.method,
        headers: pass(Object.entries(req.headers)),
        body: body === "" ? undefined : body,
      }).then(async (answer) => {
        res.writeHead(answer.status, pass(answer.headers));
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    pointProviders(h.server, proxy.url + "/api/v2");
    const news = { name: uniqueName("partial"), organization: h.org, code: CODE };
    try {
      const err = (await call("create", (await check(news)).inputs).catch((e: unknown) => e)) as Error & Props;
      expect(err.message).toMatch(
        /policy ".*" \(pol-.*\) was created, but uploading its code failed: .*upload refused/,
      );
      expect(err.id).toMatch(/^pol-/);
      expect(err.properties).toMatchObject({ name: news.name, codeSha256: null });
      pointProviders(h.server, h.server.url);
      expect((await diff(err.id, err.properties, news)).changes).toBe(true);
      const outs = await update(err.id, err.properties, news);
      expect(outs.codeSha256).toBe(sha(CODE));
      expect(await h.client.policies.download(err.id)).toBe(CODE);
    } finally {
      pointProviders(h.server, h.server.url);
    }
  });
});
