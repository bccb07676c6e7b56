import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { emptyStructsForImportReads, passReadInputs } from "../../src/plugin/shims";

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

describe("passReadInputs", () => {
  it("shows each read request's URN and recorded inputs before the SDK's server answers it", async () => {
    const seen: [string, Record<string, unknown>][] = [];
    passReadInputs((urn, inputs) => seen.push([urn, inputs]));
    const grpc = fromSdk("@grpc/grpc-js");
    const { ResourceProviderService } = fromSdk("@pulumi/pulumi/proto/provider_grpc_pb");
    const answered: string[] = [];
    const impl = {
      configure: () => undefined,
      read(call: { request: { getId(): string } }, callback: (err: unknown, value: unknown) => void) {
        answered.push(call.request.getId());
        callback(null, {});
      },
    };
    new grpc.Server().addService(ResourceProviderService, impl);
    const refresh = new ReadRequest();
    refresh.setId("ws-1");
    refresh.setUrn("urn:pulumi:dev::p::workspaces:index:Workspace::web");
    refresh.setInputs(Struct.fromJavaScript({ name: "web", description: null }));
    await new Promise((done) => impl.read({ request: refresh }, done));
    expect(seen).toEqual([["urn:pulumi:dev::p::workspaces:index:Workspace::web", { name: "web", description: null }]]);
    expect(answered).toEqual(["ws-1"]);
  });
});
