/** The generator leaves out an origin this package wrote, and keeps any other source. */
import { describe, expect, it } from "vitest";
import { settingsOf } from "../../src/generate/written-settings";
import { toWorkspace } from "../../src/client/workspace-shapes";
import { originUrl } from "../../src/api/origin";

const workspace = (attributes: Record<string, unknown>) =>
  toWorkspace({ id: "ws-1", type: "workspaces", attributes: { name: "web", ...attributes } });

describe("settingsOf and the source fields", () => {
  it("leaves out the origin of a record this package created", () => {
    const url = originUrl({ project: "p", stack: "dev", resource: "web", digest: "ab".repeat(16) });
    const out = settingsOf(workspace({ "source-name": "pulumi-workspaces", "source-url": url }), undefined);
    expect(out).not.toHaveProperty("sourceName");
    expect(out).not.toHaveProperty("sourceUrl");
  });

  it("keeps a source another tool or a program set, even one that borrows the package's name", () => {
    const other = settingsOf(
      workspace({ "source-name": "portal", "source-url": "https://portal.example.com" }),
      undefined,
    );
    expect(other).toMatchObject({ sourceName: "portal", sourceUrl: "https://portal.example.com" });
    const named = settingsOf(
      workspace({ "source-name": "pulumi-workspaces", "source-url": "https://example.com/mine" }),
      undefined,
    );
    expect(named).toMatchObject({ sourceName: "pulumi-workspaces", sourceUrl: "https://example.com/mine" });
  });
});
