import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { emptyStructsForImportReads } from "../../src/plugin/shims";

// The request classes as the SDK's provider server loads them.
const fromSdk = createRequire(require.resolve("@pulumi/pulumi"));
const { ReadRequest } = fromSdk("@pulumi/pulumi/proto/provider_pb");
const { Struct } = fromSdk("google-protobuf/google/protobuf/struct_pb");

describe("emptyStructsForImportReads", () => {
  it("answers an empty Struct for the properties and inputs an import's ReadRequest leaves unset", () => {
    const importRead = new ReadRequest();
    importRead.setId("ws-123");
    // What the SDK's server does with the request: without the shim, this throws.
    expect(importRead.getProperties()).toBeUndefined();
    emptyStructsForImportReads();
    expect(importRead.getProperties().toJavaScript()).toEqual({});
    expect(importRead.getInputs().toJavaScript()).toEqual({});
  });

  it("leaves properties and inputs that are set as they are, and patches once", () => {
    emptyStructsForImportReads();
    emptyStructsForImportReads();
    const refresh = new ReadRequest();
    refresh.setProperties(Struct.fromJavaScript({ name: "app", tagNames: ["a"] }));
    refresh.setInputs(Struct.fromJavaScript({ name: "app" }));
    expect(refresh.getProperties().toJavaScript()).toEqual({ name: "app", tagNames: ["a"] });
    expect(refresh.getInputs().toJavaScript()).toEqual({ name: "app" });
  });
});
