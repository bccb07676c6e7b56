/**
 * Secrets at rest: the encryption key (given, in a file, or generated beside the
 * database with mode 0600), sealed sensitive values in `vars` and `no_code_upgrades`,
 * clear values of an earlier release sealed on start, a key that does not open the
 * sealed values refused, chosen
 * tokens stored under a salted scrypt digest (a SHA-256 one of an earlier release moved),
 * agent tokens kept only as their SHA-256 digest, and sensitive policy set parameters sealed.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadKey, parseKey, secretBox } from "../../src/server/secrets";
import { databaseBytes, expectStatus, start } from "./helpers";
import { createFromModule, enableModule, pollUpgrade, publishModule, upgradePath } from "./no-code-support";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ws-secrets-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fresh = (name: string) => join(dir, `${name}-${randomBytes(4).toString("hex")}.db`);

/** A server on `file` with a module, a workspace created from it with `vars`, and an upgrade applied with `upgradeVars`. */
async function provision(
  file: string,
  vars: { key: string; value: string; sensitive?: boolean }[],
  upgradeVars: { key: string; value: string; sensitive?: boolean }[],
) {
  const t = await start({ db: file, runSpeed: Number.POSITIVE_INFINITY });
  const moduleId = await publishModule(t.api, t.org, `sealed-${randomBytes(3).toString("hex")}`, ["1.0.0"]);
  const noCode = await enableModule(t.api, t.org, moduleId, { "version-pin": "1.0.0" });
  const ws = await createFromModule(t.api, noCode.id, `sealed-${randomBytes(3).toString("hex")}`, vars);
  const up = await expectStatus(
    t.api.post(upgradePath(noCode.id, ws.id), {
      data: {
        type: "workspaces",
        relationships: {
          vars: { data: upgradeVars.map((v) => ({ type: "vars", attributes: { category: "engine", ...v } })) },
        },
      },
    }),
    200,
  );
  await pollUpgrade(t.api, noCode.id, ws.id, up.body.data.id as string, ["planned"]);
  await expectStatus(t.api.post(upgradePath(noCode.id, ws.id, up.body.data.id as string)), 200);
  await pollUpgrade(t.api, noCode.id, ws.id, up.body.data.id as string, ["applied"]);
  return { t, ws, noCode, runId: up.body.data.id as string };
}

describe("the encryption key", () => {
  it("is generated beside the database with mode 0600, kept across restarts, and another key is refused", async () => {
    const file = fresh("key");
    // Before any value is sealed, any key will do: there is nothing it could fail to open.
    await (await start({ db: file, encryptionKey: randomBytes(32) })).server.close();
    rmSync(`${file}.key`, { force: true });
    const first = await start({ db: file });
    await first.server.close();
    const { t } = await provision(
      file,
      [{ key: "s", value: "sealed-value", sensitive: true }],
      [{ key: "s", value: "sealed-next" }],
    );
    await t.server.close();
    const keyFile = `${file}.key`;
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, "utf8");
    expect(parseKey(key, "in the test")).toHaveLength(32);
    const again = await start({ db: file });
    await again.server.close();
    expect(readFileSync(keyFile, "utf8")).toBe(key);
    const other = randomBytes(32).toString("hex");
    const refused = await start({ db: file, encryptionKey: other }).then(
      () => null,
      (e: Error) => e,
    );
    expect(refused?.message).toMatch(/another key/);
    expect(refused?.message).toMatch(/--encryption-key-file/);
    expect(refused?.message).not.toContain(other);
    expect(refused?.message).not.toContain(key.trim());
    // The same key given as base64 or from a file opens it.
    const b64 = Buffer.from(key.trim(), "hex").toString("base64");
    await (await start({ db: file, encryptionKey: b64 })).server.close();
    const given = join(dir, "given.key");
    writeFileSync(given, `${key.trim()}\n`, { mode: 0o600 });
    await (await start({ db: file, encryptionKeyFile: given })).server.close();
  });

  it("refuses a key that is not 32 bytes, saying the forms it takes and not the text given", async () => {
    for (const bad of ["short", "ab".repeat(31), "zz".repeat(32), Buffer.alloc(16)]) {
      const err = await start({ db: ":memory:", encryptionKey: bad }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/64 hexadecimal digits or as base64/);
      if (typeof bad === "string") expect(err?.message).not.toContain(bad);
    }
  });

  it("two servers starting on one new database at once end up with one key", () => {
    const file = fresh("race");
    const keys = Array.from({ length: 8 }, () => loadKey({ db: file }).toString("hex"));
    expect(new Set(keys).size).toBe(1);
  });
});

describe("sensitive values are sealed at rest", () => {
  it("in vars and in upgrades: the file holds no clear sensitive value, the server still opens them", async () => {
    const file = fresh("sealed");
    const secret = `first-${randomBytes(8).toString("hex")}`;
    const next = `next-${randomBytes(8).toString("hex")}`;
    const stays = `stays-${randomBytes(8).toString("hex")}`;
    const plain = `plain-${randomBytes(8).toString("hex")}`;
    // `stays` is sensitive as stored and given again without saying so: it stays sealed.
    const { t, ws } = await provision(
      file,
      [
        { key: "secret", value: secret, sensitive: true },
        { key: "stays", value: "x", sensitive: true },
        { key: "plain", value: plain },
      ],
      [
        { key: "secret", value: next, sensitive: true },
        { key: "stays", value: stays },
      ],
    );
    try {
      const bytes = databaseBytes(file);
      for (const s of [secret, next, stays]) expect(bytes.includes(s), `the database files hold ${s}`).toBe(false);
      expect(bytes.includes(plain), "the read sees what is stored").toBe(true);
      const db = new Database(file, { readonly: true });
      const box = secretBox(loadKey({ db: file }));
      const rows = db
        .prepare(`SELECT key, value, sensitive FROM vars WHERE workspace_id = ? ORDER BY key`)
        .all(ws.id) as { key: string; value: string; sensitive: number }[];
      expect(rows.map((r) => [r.key, r.sensitive, r.sensitive ? box.open(r.value, "vars.value") : r.value])).toEqual([
        ["plain", 0, plain],
        ["secret", 1, next],
        ["stays", 1, stays],
      ]);
      const upgrade = db.prepare(`SELECT vars FROM no_code_upgrades WHERE workspace_id = ?`).get(ws.id) as {
        vars: string;
      };
      expect((JSON.parse(upgrade.vars) as { sealed?: boolean }[]).map((v) => v.sealed ?? false)).toEqual([true, true]);
      db.close();
      // Rendered as the hosted service does: a sensitive value never.
      const list = await expectStatus(t.api.get(`/workspaces/${ws.id}/vars`), 200);
      expect(list.text.includes(next) || list.text.includes(stays)).toBe(false);
    } finally {
      await t.server.close();
    }
  });

  it("values an earlier release stored in clear are sealed on start, and an upgrade it planned still applies", async () => {
    const file = fresh("legacy");
    const planned = `planned-${randomBytes(8).toString("hex")}`;
    const stored = `stored-${randomBytes(8).toString("hex")}`;
    const t = await start({ db: file, runSpeed: 0.001 });
    const moduleId = await publishModule(t.api, t.org, "legacy", ["1.0.0"]);
    const noCode = await enableModule(t.api, t.org, moduleId, { "version-pin": "1.0.0" });
    const ws = await createFromModule(t.api, noCode.id, "legacy", [{ key: "secret", value: "x", sensitive: true }]);
    const up = await expectStatus(
      t.api.post(upgradePath(noCode.id, ws.id), {
        data: {
          type: "workspaces",
          relationships: {
            vars: {
              data: [{ type: "vars", attributes: { key: "secret", value: "y", category: "engine", sensitive: true } }],
            },
          },
        },
      }),
      200,
    );
    await t.server.close();
    // What a release before sealing wrote: clear values, and no key beside the database.
    const raw = new Database(file);
    raw.prepare(`UPDATE vars SET value = ? WHERE workspace_id = ?`).run(stored, ws.id);
    raw.prepare(`UPDATE no_code_upgrades SET vars = ?, phase_started_ms = 0 WHERE run_id = ?`).run(
      JSON.stringify([
        {
          key: "secret",
          value: planned,
          description: null,
          category: "engine",
          categorySpelling: null,
          hcl: false,
          sensitive: true,
        },
      ]),
      up.body.data.id,
    );
    raw.close();
    rmSync(`${file}.key`);
    expect(databaseBytes(file).includes(stored)).toBe(true);

    const again = await start({ db: file, runSpeed: Number.POSITIVE_INFINITY });
    try {
      const bytes = databaseBytes(file);
      expect(bytes.includes(stored), "the clear value of vars is gone from the files").toBe(false);
      expect(bytes.includes(planned), "the clear value of the upgrade is gone from the files").toBe(false);
      const box = secretBox(loadKey({ db: file }));
      const read = new Database(file, { readonly: true });
      const value = (read.prepare(`SELECT value FROM vars WHERE workspace_id = ?`).get(ws.id) as { value: string })
        .value;
      expect(box.open(value, "vars.value")).toBe(stored);
      read.close();
      // The upgrade planned before the restart applies its (sealed) value.
      await expectStatus(again.api.post(upgradePath(noCode.id, ws.id, up.body.data.id as string)), 200);
      await pollUpgrade(again.api, noCode.id, ws.id, up.body.data.id as string, ["applied"]);
      const after = new Database(file, { readonly: true });
      expect(
        box.open(
          (after.prepare(`SELECT value FROM vars WHERE workspace_id = ?`).get(ws.id) as { value: string }).value,
          "vars.value",
        ),
      ).toBe(planned);
      after.close();
    } finally {
      await again.server.close();
    }
  });
});

describe("tokens at rest", () => {
  const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
  const digests = (file: string) => {
    const db = new Database(file, { readonly: true });
    const rows = db.prepare(`SELECT digest, description FROM tokens`).all() as {
      digest: string;
      description: string | null;
    }[];
    db.close();
    return rows;
  };

  it("a chosen token is stored under a salted scrypt digest, a generated one under SHA-256; both authenticate", async () => {
    const file = fresh("tokens");
    const chosen = "owner-password-1";
    const t = await start({ db: file, token: chosen });
    try {
      await expectStatus(t.api.get(`/organizations/${t.org}/workspaces`), 200);
      const team = await expectStatus(t.api.post(`/organizations/${t.org}/authentication-token`), 201);
      const generated = team.body.data.attributes.token as string;
      const rows = digests(file);
      const bootstrap = rows.find((r) => r.description === "bootstrap")!;
      expect(bootstrap.digest).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
      expect(rows.some((r) => r.digest === sha256(chosen))).toBe(false);
      expect(rows.some((r) => r.digest === sha256(generated))).toBe(true);
      await expectStatus(t.api.as(generated).get(`/organizations/${t.org}/workspaces`), 200);
      // Near misses of the chosen token are refused.
      for (const wrong of [chosen.toUpperCase(), chosen + "1", chosen.slice(1)])
        expect((await t.api.as(wrong).get(`/organizations/${t.org}/workspaces`)).status).toBe(401);
    } finally {
      await t.server.close();
    }
    // Another database salts the same token differently.
    const other = fresh("tokens-other");
    await (await start({ db: other, token: chosen })).server.close();
    expect(digests(other).find((r) => r.description === "bootstrap")!.digest).not.toBe(
      digests(file).find((r) => r.description === "bootstrap")!.digest,
    );
  });

  it("an agent token is kept as its SHA-256 digest only: no byte of the file shows it", async () => {
    const file = fresh("agent-token");
    const t = await start({ db: file });
    let secret: string;
    try {
      const pool = await expectStatus(
        t.api.post(`/organizations/${t.org}/agent-pools`, { data: { type: "agent-pools", attributes: { name: "p" } } }),
        201,
      );
      const created = await expectStatus(
        t.api.post(`/agent-pools/${pool.body.data.id}/authentication-tokens`, {
          data: { type: "agent-tokens", attributes: { description: "at rest" } },
        }),
        201,
      );
      secret = created.body.data.attributes.token as string;
    } finally {
      await t.server.close();
    }
    expect(databaseBytes(file).includes(Buffer.from(secret))).toBe(false);
    // Nor any long run of it (a prefix or the part after the marker).
    for (const part of secret.split(".atlasv1.")) expect(databaseBytes(file).includes(Buffer.from(part))).toBe(false);
    const db = new Database(file, { readonly: true });
    const rows = db.prepare(`SELECT digest FROM agent_tokens`).all() as { digest: string }[];
    db.close();
    expect(rows).toEqual([{ digest: sha256(secret) }]);
  });

  it("a chosen token an earlier release stored under SHA-256 is moved to scrypt when the server starts with it", async () => {
    const file = fresh("legacy-token");
    const chosen = "legacy-owner-token";
    await (await start({ db: file, token: chosen })).server.close();
    const raw = new Database(file);
    raw.prepare(`UPDATE tokens SET digest = ? WHERE description = 'bootstrap'`).run(sha256(chosen));
    raw.close();
    const t = await start({ db: file, token: chosen });
    try {
      await expectStatus(t.api.get(`/organizations/${t.org}/workspaces`), 200);
      const rows = digests(file).filter((r) => r.description === "bootstrap");
      expect(rows).toHaveLength(1);
      expect(rows[0].digest).toMatch(/^scrypt\$/);
    } finally {
      await t.server.close();
    }
  });
  it("a sensitive policy set parameter: the file holds no clear value, made sensitive later either", async () => {
    const file = fresh("policy-set-params");
    const t = await start({ db: file });
    const born = `born-sensitive-${randomBytes(8).toString("hex")}`;
    const later = `made-sensitive-${randomBytes(8).toString("hex")}`;
    try {
      const set = await expectStatus(
        t.api.post(`/organizations/${t.org}/policy-sets`, { data: { type: "policy-sets", attributes: { name: "s" } } }),
        201,
      );
      const path = `/policy-sets/${set.body.data.id}/parameters`;
      const param = (attributes: Record<string, unknown>) => ({ data: { type: "vars", attributes } });
      await expectStatus(
        t.api.post(path, param({ key: "a", value: born, category: "policy-set", sensitive: true })),
        201,
      );
      const plain = await expectStatus(
        t.api.post(path, param({ key: "b", value: later, category: "policy-set" })),
        201,
      );
      await expectStatus(t.api.patch(`${path}/${plain.body.data.id}`, param({ sensitive: true })), 200);
    } finally {
      await t.server.close();
    }
    const bytes = databaseBytes(file);
    expect(bytes.includes(Buffer.from(born))).toBe(false);
    expect(bytes.includes(Buffer.from(later))).toBe(false);
    const db = new Database(file, { readonly: true });
    const rows = db.prepare(`SELECT value FROM policy_set_params ORDER BY key`).all() as { value: string }[];
    db.close();
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.value).not.toContain("sensitive");
  });
});
