import { describe, expect, it } from "vitest";
import {
  VariableSet,
  VariableSetApplication,
  Workspace,
  WorkspaceVariable,
  WorkspaceVariables,
  variableSecretKeySensitive,
  variableSetGlobal,
} from "../rules";
import { DOORS, secret, through, unknown } from "./harness";

describe.each(DOORS)("the %s door", (door) => {
  const { validate } = through(door);

  describe("variable-secret-key-sensitive", () => {
    const secretKeys = [
      "AWS_SECRET_ACCESS_KEY",
      "GITHUB_TOKEN",
      "TOKEN",
      "vault_token",
      "DB_PASSWORD",
      "db_password",
      "PASSWORDS_FILE",
      "MYSQLPASSWORD",
      "SSH_PRIVATE_KEY",
      "tls_private_key_pem",
      "ARM_CLIENT_SECRET",
      "client-secret",
      "DATADOG_API_KEY",
      "GOOGLE_CREDENTIALS",
      "GPG_PASSPHRASE",
    ];
    const plainKeys = ["AWS_REGION", "AWS_ACCESS_KEY_ID", "TOKEN_TTL", "region", "instance_count", "KEY_NAME"];

    it("reports a WorkspaceVariable whose key names a secret and that is not sensitive, with the fix", async () => {
      for (const key of secretKeys) {
        for (const props of [
          { key, value: "x", category: "env" },
          { key, value: "x", category: "env", sensitive: false },
        ]) {
          const out = await validate(variableSecretKeySensitive, WorkspaceVariable, props, { name: "creds" });
          expect(out.violations, JSON.stringify(props)).toEqual([
            `WorkspaceVariable "creds": key ${JSON.stringify(key)} names a secret, but sensitive is not true, so its value is readable ` +
              "on the service, in previews and in the state. Fix: set sensitive true (the value then becomes write-only and " +
              "a secret in the state), or list the key in exceptKeys if it holds no secret.",
          ]);
        }
      }
    });

    it("passes a sensitive one, one whose flag is not known yet, and keys that name no secret", async () => {
      for (const key of secretKeys) {
        for (const sensitive of [true, unknown.boolean]) {
          const props = { key, value: secret("x"), category: "env", sensitive };
          expect((await validate(variableSecretKeySensitive, WorkspaceVariable, props)).violations, key).toEqual([]);
        }
      }
      for (const key of plainKeys) {
        const props = { key, value: "x", category: "engine" };
        expect((await validate(variableSecretKeySensitive, WorkspaceVariable, props)).violations, key).toEqual([]);
      }
      expect(
        (await validate(variableSecretKeySensitive, WorkspaceVariable, { key: unknown.string, category: "env" }))
          .violations,
      ).toEqual([]);
    });

    it("names each offending item of a WorkspaceVariables or a VariableSet by its path", async () => {
      const variables = [
        { key: "AWS_REGION", value: "eu-west-1", category: "env" },
        { key: "AWS_SECRET_ACCESS_KEY", value: "x", category: "env" },
        { key: "AWS_ACCESS_KEY_ID", value: "AKIA", category: "env" },
        { key: "api_token", value: secret("y"), category: "engine", sensitive: true },
        { key: "db_password", value: "z", category: "engine", sensitive: false },
        unknown.object,
      ];
      for (const kind of [WorkspaceVariables, VariableSet]) {
        const out = await validate(
          variableSecretKeySensitive,
          kind,
          { workspaceId: "ws-1", name: "set", variables },
          { name: "vars" },
        );
        expect(out.violations.map((v) => v.slice(0, v.indexOf(" names a secret")))).toEqual([
          `${kind.name} "vars": variables[1].key "AWS_SECRET_ACCESS_KEY"`,
          `${kind.name} "vars": variables[4].key "db_password"`,
        ]);
        expect(out.violations[0]).toContain("Fix: set variables[1].sensitive true");
      }
      for (const list of [unknown.array, [], undefined]) {
        const out = await validate(variableSecretKeySensitive, WorkspaceVariables, { variables: list });
        expect(out.violations).toEqual([]);
      }
    });

    it("follows a configured pattern and its exceptions", async () => {
      const config = { keyPattern: "^(DB_|SECRET)", exceptKeys: ["DB_HOST"] };
      const check = async (key: string) =>
        (await validate(variableSecretKeySensitive, WorkspaceVariable, { key, category: "env" }, { config })).violations
          .length;
      expect(await check("DB_USER")).toBe(1);
      expect(await check("db_user")).toBe(1);
      expect(await check("DB_HOST")).toBe(0);
      expect(await check("GITHUB_TOKEN")).toBe(0);
      const out = validate(
        variableSecretKeySensitive,
        WorkspaceVariable,
        { key: "A", category: "env" },
        { config: { keyPattern: "(" } },
      );
      await expect(out).rejects.toThrow(/policy variable-secret-key-sensitive: config keyPattern "\(" is not a valid/);
    });

    it("does not apply to other resource types", async () => {
      for (const kind of [Workspace, VariableSetApplication]) {
        const out = await validate(variableSecretKeySensitive, kind, { key: "GITHUB_TOKEN", variables: [] });
        expect(out.notApplicable).toBeDefined();
        expect(out.violations).toEqual([]);
      }
    });
  });

  describe("variable-set-global", () => {
    it("reports a global set by default, and passes one that is not global", async () => {
      const out = await validate(variableSetGlobal, VariableSet, { name: "defaults", global: true }, { name: "d" });
      expect(out.violations).toEqual([
        'VariableSet "d": global true applies set "defaults" to every workspace of the organization, including those made later. ' +
          "Fix: remove global and apply the set where it belongs with VariableSetApplication resources (a project or workspaces).",
      ]);
      for (const global of [false, undefined, unknown.boolean]) {
        expect((await validate(variableSetGlobal, VariableSet, { name: "defaults", global })).violations).toEqual([]);
      }
    });

    it("allows every global set with allowGlobal, or the listed names only", async () => {
      const allowAll = { allowGlobal: true };
      expect(
        (await validate(variableSetGlobal, VariableSet, { name: "x", global: true }, { config: allowAll })).violations,
      ).toEqual([]);
      const config = { allowedNames: ["org-defaults"] };
      const ok = await validate(variableSetGlobal, VariableSet, { name: "org-defaults", global: true }, { config });
      expect(ok.violations).toEqual([]);
      const pending = await validate(
        variableSetGlobal,
        VariableSet,
        { name: unknown.string, global: true },
        { config },
      );
      expect(pending.violations).toEqual([]);
      const other = await validate(variableSetGlobal, VariableSet, { name: "creds", global: true }, { config });
      expect(other.violations).toHaveLength(1);
      expect(other.violations[0]).toMatch(
        /set "creds" to every workspace.*the sets allowed to be global are "org-defaults"\.$/,
      );
    });

    it("does not apply to other resource types", async () => {
      for (const kind of [WorkspaceVariables, VariableSetApplication, Workspace]) {
        const out = await validate(variableSetGlobal, kind, { global: true });
        expect(out.notApplicable).toBeDefined();
      }
    });
  });
});
