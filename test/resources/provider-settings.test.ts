import { inspect } from "node:util";
import { describe, it, expect, afterEach } from "vitest";
import {
  configureFromStack,
  currentSettings,
  defaultOrganization,
  setConfiguredSettings,
} from "../../src/resources/provider-settings";
import { dispatch } from "../../src/resources/entry";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  setConfiguredSettings({});
});

function stack(values: Record<string, string>) {
  return { config: { get: (k: string) => values[k] } };
}

describe("provider settings at call time", () => {
  it("stack config from configure beats the environment", async () => {
    process.env.WORKSPACES_ADDRESS = "http://env.example:1";
    process.env.WORKSPACES_TOKEN = "env-token";
    process.env.WORKSPACES_ORGANIZATION = "env-org";
    await dispatch(1, "Workspace", "configure", [
      stack({
        "workspaces:address": "http://stack.example:2",
        "workspaces:token": "stack-token",
        "workspaces:organization": "stack-org",
      }),
    ]);
    const s = currentSettings();
    expect(s.baseUrl).toBe("http://stack.example:2/api/v2");
    expect(s.token).toBe("stack-token");
    expect(s.organization).toBe("stack-org");
    expect(defaultOrganization()).toBe("stack-org");
  });

  it("falls back to WORKSPACES_* and then TFE_* when the stack sets nothing", () => {
    configureFromStack(stack({}));
    process.env.TFE_HOSTNAME = "tfe.example";
    process.env.TFE_TOKEN = "tfe-token";
    delete process.env.WORKSPACES_ADDRESS;
    delete process.env.WORKSPACES_TOKEN;
    expect(currentSettings().baseUrl).toBe("https://tfe.example/api/v2");
    process.env.WORKSPACES_ADDRESS = "http://ws.example";
    process.env.WORKSPACES_TOKEN = "ws-token";
    expect(currentSettings().baseUrl).toBe("http://ws.example/api/v2");
    expect(currentSettings().token).toBe("ws-token");
  });

  it("reads settings when called, not when configured: a later environment change is seen", () => {
    configureFromStack(stack({ "workspaces:token": "t" }));
    process.env.WORKSPACES_ADDRESS = "http://first.example";
    expect(currentSettings().baseUrl).toBe("http://first.example/api/v2");
    process.env.WORKSPACES_ADDRESS = "http://second.example";
    expect(currentSettings().baseUrl).toBe("http://second.example/api/v2");
  });

  it("the token never shows in a settings object's JSON or inspection", () => {
    configureFromStack(stack({ "workspaces:address": "http://a.example", "workspaces:token": "very-secret-token" }));
    const s = currentSettings();
    expect(JSON.stringify(s)).not.toContain("very-secret-token");
    expect(inspect(s)).not.toContain("very-secret-token");
  });
});
