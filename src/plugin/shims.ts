/**
 * Two small adjustments to the provider server of `@pulumi/pulumi/provider`, applied before
 * it starts (see main.ts). Each is named for what it works around and is tested on its own.
 */
import { sdkModule as fromSdk } from "../resources/process/sdk-modules";

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
  const { Struct } = fromSdk<{ Struct: StructClass }>("google-protobuf/google/protobuf/struct_pb");
  const { ReadRequest } = fromSdk<{
    ReadRequest: { prototype: MessagePrototype & { [PATCHED]?: true } };
  }>("@pulumi/pulumi/proto/provider_pb");
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

/** The parts of a `CheckRequest` (as `CheckConfig` gets it) the provider reads. */
interface CheckRequestLike {
  getOlds(): { toJavaScript(): Record<string, unknown> } | undefined;
  getNews(): { toJavaScript(): Record<string, unknown> } | undefined;
}

/** What the provider does with its own configuration. */
export interface ConfigHandlers {
  /** The checked configuration (`CheckConfig`): the inputs the engine records with the provider. */
  checkConfig(olds: Record<string, unknown>, news: Record<string, unknown>): Record<string, unknown>;
  /** Shown every `Configure` request before the server answers it. */
  configure(request: ConfigureRequestLike): void;
}

/**
 * The SDK's server answers `CheckConfig` as unimplemented (the engine then records the
 * program's configuration as it is) and `Configure` without handing its request to the
 * provider (the `Provider` interface has neither), so the provider could neither add to its
 * recorded configuration nor see it (`address`, `token`, `organization`). The service
 * implementation the server registers gets a `checkConfig` that answers with
 * `handlers.checkConfig`, and a `configure` that shows the request to
 * `handlers.configure` first and then answers as before (secrets, resources and outputs
 * accepted).
 */
export function serveProviderConfig(handlers: ConfigHandlers): void {
  const { CheckResponse } = fromSdk<{
    CheckResponse: new () => { setInputs(inputs: unknown): void };
  }>("@pulumi/pulumi/proto/provider_pb");
  const { Struct } = fromSdk<{ Struct: StructClass }>("google-protobuf/google/protobuf/struct_pb");
  beforeServing((impl) => {
    const configure = impl.configure;
    if (typeof impl.checkConfig !== "function") return;
    impl.checkConfig = function (call, callback) {
      try {
        const request = call.request as CheckRequestLike;
        const inputs = handlers.checkConfig(
          request.getOlds()?.toJavaScript() ?? {},
          request.getNews()?.toJavaScript() ?? {},
        );
        const response = new CheckResponse();
        response.setInputs(Struct.fromJavaScript(inputs));
        callback(undefined, response);
      } catch (err) {
        callback(err, undefined);
      }
    };
    impl.configure = function (this: unknown, call, callback) {
      try {
        handlers.configure(call.request as ConfigureRequestLike);
      } catch (err) {
        callback(err, undefined);
        return;
      }
      return configure.call(this, call, callback);
    };
  });
}

/**
 * Lets `edit` change the handlers of the provider service (the one with `configure`)
 * when the SDK's server registers it.
 */
function beforeServing(edit: (impl: Record<string, Handler>) => void): void {
  const grpc = fromSdk<{
    Server: { prototype: { addService: (this: unknown, service: unknown, impl: Record<string, Handler>) => void } };
  }>("@grpc/grpc-js");
  const proto = grpc.Server.prototype;
  const addService = proto.addService;
  proto.addService = function (this: unknown, service: unknown, impl: Record<string, Handler>) {
    if (typeof impl.configure === "function") edit(impl);
    return addService.call(this, service, impl);
  };
}

/** The parts of a `ReadRequest` the provider reads beside what the SDK's server hands over. */
interface ReadRequestLike {
  getUrn(): string;
  getInputs(): { toJavaScript(): Record<string, unknown> } | undefined;
}

/**
 * A refresh's `ReadRequest` carries the inputs the engine recorded for the resource, and
 * the SDK's server hands the provider's `read` only its id, URN and outputs. The inputs
 * name what the program manages, which the read gives back (with the service's values)
 * so that drift shows in the next diff; without them the provider would have to keep
 * their names among the outputs. The service implementation's `read` shows each request's
 * URN and inputs to `record` first, then answers as before.
 */
export function passReadInputs(record: (urn: string, inputs: Record<string, unknown>) => void): void {
  beforeServing((impl) => {
    const read = impl.read;
    if (typeof read !== "function") return;
    impl.read = function (this: unknown, call, callback) {
      const request = call.request as ReadRequestLike;
      record(request.getUrn(), request.getInputs()?.toJavaScript() ?? {});
      return read.call(this, call, callback);
    };
  });
}
