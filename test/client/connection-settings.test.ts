import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SettingsError, WorkspacesClient, normalizeAddress, resolveSettings } from "../../src/client";

let home: string;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "ws-client-home-"));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

function writeCredentials(credentials: Record<string, { token: string }>): string {
  const dir = path.join(home, ".terraform.d");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "credentials.tfrc.json");
  fs.writeFileSync(file, JSON.stringify({ credentials }));
  return file;
}

describe("resolveSettings", () => {
  it("prefers explicit options over every environment variable", () => {
    const s = resolveSettings({
      address: "http://127.0.0.1:9999",
      token: "opt-token",
      organization: "opt-org",
      env: {
        WORKSPACES_ADDRESS: "https://w.example",
        WORKSPACES_TOKEN: "w-token",
        WORKSPACES_ORGANIZATION: "w-org",
        TFE_TOKEN: "t",
        TFE_HOSTNAME: "t.example",
      },
      homeDir: home,
    });
    expect(s.baseUrl).toBe("http://127.0.0.1:9999/api/v2");
    expect(s.token).toBe("opt-token");
    expect(s.organization).toBe("opt-org");
    expect(s.sources).toEqual({ address: "options", token: "options", organization: "options" });
  });

  it("falls back to WORKSPACES_* before TFE_*", () => {
    const s = resolveSettings({
      env: {
        WORKSPACES_ADDRESS: "https://w.example/",
        WORKSPACES_TOKEN: "w-token",
        WORKSPACES_ORGANIZATION: "w-org",
        TFE_HOSTNAME: "t.example",
        TFE_TOKEN: "t-token",
        TFE_ORGANIZATION: "t-org",
      },
      homeDir: home,
    });
    expect(s.baseUrl).toBe("https://w.example/api/v2");
    expect(s.token).toBe("w-token");
    expect(s.organization).toBe("w-org");
    expect(s.sources).toEqual({ address: "WORKSPACES_*", token: "WORKSPACES_*", organization: "WORKSPACES_*" });
  });

  it("uses TFE_HOSTNAME, TFE_TOKEN and TFE_ORGANIZATION when nothing else is set", () => {
    const s = resolveSettings({
      env: { TFE_HOSTNAME: "tfe.example.com", TFE_TOKEN: "t-token", TFE_ORGANIZATION: "t-org" },
      homeDir: home,
    });
    expect(s.baseUrl).toBe("https://tfe.example.com/api/v2");
    expect(s.hostname).toBe("tfe.example.com");
    expect(s.token).toBe("t-token");
    expect(s.organization).toBe("t-org");
    expect(s.sources.token).toBe("TFE_*");
  });

  it("reads the token of the address's hostname from the credentials file", () => {
    writeCredentials({ "other.example": { token: "wrong" }, "tfe.example.com": { token: "file-token" } });
    const s = resolveSettings({ env: { TFE_HOSTNAME: "tfe.example.com" }, homeDir: home });
    expect(s.token).toBe("file-token");
    expect(s.sources.token).toBe("credentials file");
    expect(s.organization).toBeUndefined();
  });

  it("keys the credentials file by host and port for a local address", () => {
    writeCredentials({ "127.0.0.1:8123": { token: "local-token" } });
    const s = resolveSettings({ env: { WORKSPACES_ADDRESS: "http://127.0.0.1:8123" }, homeDir: home });
    expect(s.token).toBe("local-token");
  });

  it("finds the credentials file in $HOME when no homeDir is given", () => {
    writeCredentials({ "tfe.example.com": { token: "home-token" } });
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      const s = resolveSettings({ env: { TFE_HOSTNAME: "tfe.example.com" } });
      expect(s.token).toBe("home-token");
    } finally {
      process.env.HOME = saved;
    }
  });

  it("names all three places when no token is found", () => {
    writeCredentials({ "other.example": { token: "x" } });
    let err: unknown;
    try {
      resolveSettings({ env: { WORKSPACES_ADDRESS: "https://tfe.example.com" }, homeDir: home });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsError);
    const msg = (err as Error).message;
    expect(msg).toContain("`token` in the options");
    expect(msg).toContain("WORKSPACES_TOKEN");
    expect(msg).toContain("TFE_TOKEN");
    expect(msg).toContain(path.join(home, ".terraform.d", "credentials.tfrc.json"));
    expect(msg).toContain('"tfe.example.com"');
  });

  it("names the places when no address is found", () => {
    expect(() => resolveSettings({ token: "t", env: {}, homeDir: home })).toThrow(/WORKSPACES_ADDRESS.*TFE_HOSTNAME/);
  });

  it("reports an unreadable credentials file without echoing its content", () => {
    const dir = path.join(home, ".terraform.d");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "credentials.tfrc.json"),
      '{"credentials": {"h": {"token": "secret-in-broken-file"',
    );
    let err: unknown;
    try {
      resolveSettings({ env: { TFE_HOSTNAME: "h" }, homeDir: home });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsError);
    expect((err as Error).message).toMatch(/not valid JSON/);
    expect((err as Error).message).not.toContain("secret-in-broken-file");
  });

  it("never shows the token when settings are logged or serialized", () => {
    const s = resolveSettings({
      address: "https://h.example",
      token: "very-secret-token-value",
      env: {},
      homeDir: home,
    });
    expect(JSON.stringify(s)).not.toContain("very-secret-token-value");
    expect(inspect(s, { depth: 5 })).not.toContain("very-secret-token-value");
    expect(inspect(s)).toContain("[redacted]");
    expect(Object.keys(s)).not.toContain("token");
    expect(s.token).toBe("very-secret-token-value");
  });

  it("never shows the token when a client is inspected", () => {
    const client = new WorkspacesClient({
      address: "https://h.example",
      token: "client-secret-token",
      env: {},
      homeDir: home,
    });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain("client-secret-token");
  });
});

describe("normalizeAddress", () => {
  it.each([
    ["app.example.com", "https://app.example.com/api/v2", "app.example.com"],
    ["https://app.example.com", "https://app.example.com/api/v2", "app.example.com"],
    ["https://app.example.com/", "https://app.example.com/api/v2", "app.example.com"],
    ["https://app.example.com/api/v2", "https://app.example.com/api/v2", "app.example.com"],
    ["https://app.example.com/api/v2/", "https://app.example.com/api/v2", "app.example.com"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080/api/v2", "127.0.0.1:8080"],
    ["localhost:8080", "https://localhost:8080/api/v2", "localhost:8080"],
    ["https://proxy.example/tfe", "https://proxy.example/tfe/api/v2", "proxy.example"],
  ])("%s -> %s", (input, baseUrl, hostname) => {
    expect(normalizeAddress(input)).toEqual({ baseUrl, hostname });
  });

  it("refuses other schemes and credentials in the URL", () => {
    expect(() => normalizeAddress("ftp://h.example")).toThrow(SettingsError);
    expect(() => normalizeAddress("https://user:pw@h.example")).toThrow(/credentials in the URL/);
  });
});
