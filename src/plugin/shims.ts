/**
 * Two small adjustments to the provider server of `@pulumi/pulumi/provider`, applied before
 * it starts (see main.ts). Each is named for what it works around and is tested on its own.
 */
import { createRequire } from "node:module";

/** Loads a module as `@pulumi/pulumi` itself loads it, so that patches reach the instances its server uses. */
const fromSdk = createRequire(require.resolve("@pulumi/pulumi"));

interface StructClass {
  fromJavaScript(value: Record<string, unknown>): unknown;
}
interface MessagePrototype {
  getProperties: (this: MessagePrototype) => unknown;
  getInputs: (this: MessagePrototype) => unknown;
}

/**
 * `pulumi import` reads the resource with an empty `ReadRequest`: no properties and no
 * inputs. The SDK's server calls `.toJavaScript()` on them unconditionally, so an import
 * fails with "Cannot read properties of undefined (reading 'toJavaScript')" before the
 * provider is asked (the same at @pulumi/pulumi 3.248 and 3.276). Unset, both now answer an
 * empty `Struct`, which is what the request means: no properties known yet.
 */
export function emptyStructsForImportReads(): void {
  const { Struct } = fromSdk("google-protobuf/google/protobuf/struct_pb") as { Struct: StructClass };
  const { ReadRequest } = fromSdk("@pulumi/pulumi/proto/provider_pb") as {
    ReadRequest: { prototype: MessagePrototype & { [PATCHED]?: true } };
  };
  const proto = ReadRequest.prototype;
  if (proto[PATCHED]) return;
  const { getProperties, getInputs } = proto;
  proto.getProperties = function (this: MessagePrototype) {
    return getProperties.call(this) ?? Struct.fromJavaScript({});
  };
  proto.getInputs = function (this: MessagePrototype) {
    return getInputs.call(this) ?? Struct.fromJavaScript({});
  };
  proto[PATCHED] = true;
}

const PATCHED = Symbol.for("pulumi-workspaces.emptyStructsForImportReads");

/** The parts of a `ConfigureRequest` the provider reads. */
export interface ConfigureRequestLike {
  getVariablesMap(): { toObject(): [string, string][] };
  getArgs(): { toJavaScript(): Record<string, unknown> } | undefined;
}

type Handler = (call: { request: unknown }, callback: (...args: unknown[]) => void) => unknown;

/**
 * The SDK's server answers `Configure` without handing its request to the provider (the
 * `Provider` interface has no `configure`), so the provider's configuration (`address`,
 * `token`, `organization`) would never reach it. The service implementation the server
 * registers gets a `configure` that shows the request to `onConfigure` first and then
 * answers as before (secrets, resources and outputs accepted).
 */
export function seeConfigureRequests(onConfigure: (request: ConfigureRequestLike) => void): void {
  const grpc = fromSdk("@grpc/grpc-js") as {
    Server: { prototype: { addService: (this: unknown, service: unknown, impl: Record<string, Handler>) => void } };
  };
  const proto = grpc.Server.prototype;
  const addService = proto.addService;
  proto.addService = function (this: unknown, service: unknown, impl: Record<string, Handler>) {
    const configure = impl.configure;
    if (typeof configure === "function") {
      impl.configure = function (this: unknown, call, callback) {
        try {
          onConfigure(call.request as ConfigureRequestLike);
        } catch (err) {
          callback(err, undefined);
          return;
        }
        return configure.call(this, call, callback);
      };
    }
    return addService.call(this, service, impl);
  };
}
