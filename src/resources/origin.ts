/**
 * The origin a `Workspace` or `NoCodeWorkspace` writes on the records it creates
 * (src/api/origin.ts, docs/interrupted-updates.md).
 *
 * A dynamic provider's `create` is told only the inputs, so the resource hands its
 * origin over as one (`__origin`). Project, stack and resource name alone would be the
 * same for a copy of the program run against another state backend, so the origin also
 * holds a digest of a random key that the stack keeps in its own state: the one
 * `StackOrigin` resource, registered on the first resource that needs it. Its create
 * makes the key and sends nothing anywhere; it is recorded before any record is
 * created (every origin depends on it), moves with the state on export and import,
 * and is different in every other backend. The key itself never leaves the state.
 */
import * as pulumi from "@pulumi/pulumi";
import { dynamicProps } from "./base";
import { ORIGIN_KEY } from "./providers/inputs";
import { originFor } from "./providers/origin";
import { stateBackend } from "./state-backend";
import { typeTokens as TOKENS, type ResourceTypeName } from "./tokens";

/** Logical name of the stack's one origin resource. */
const ORIGIN_RESOURCE_NAME = "pulumi-workspaces-origin";

/** The stack's origin key: a random value made by its create, kept in state, never sent to a service. */
class StackOrigin extends pulumi.CustomResource {
  declare readonly key: pulumi.Output<string>;

  constructor() {
    super(
      TOKENS.StackOrigin,
      ORIGIN_RESOURCE_NAME,
      dynamicProps("StackOrigin", ORIGIN_RESOURCE_NAME, { key: undefined }),
    );
  }
}

/** Shared by every copy of this package a program loads, so that a stack registers one origin resource. */
const ORIGINS = Symbol.for("pulumi-workspaces.stack-origins");

function stackOrigin(project: string, stack: string): StackOrigin {
  const g = globalThis as unknown as Record<symbol, Map<string, StackOrigin> | undefined>;
  const origins = (g[ORIGINS] ??= new Map());
  const key = `${project}/${stack}`;
  let origin = origins.get(key);
  if (!origin) {
    origin = new StackOrigin();
    origins.set(key, origin);
  }
  return origin;
}

/** The stack's state backend and organization, found once per program run. */
let stackBackend: string | undefined;

/**
 * The engine's organization, or "" where the runtime has none to give (a program run
 * under `pulumi.runtime.setMocks` without one): the backend names the stack either way.
 */
function organizationOrNone(): string {
  try {
    return pulumi.getOrganization();
  } catch {
    return "";
  }
}

/**
 * `args` with the origin input of the resource `kind` named `name`; undefined args
 * (a `get`) stay undefined: a record read through `get` is never created.
 *
 * The origin is handed over as a promise of the key's digest, not as an output of the
 * `StackOrigin`: an output would make every workspace depend on it, and a stack that
 * does not hold it yet (one written by an earlier release) would fail a
 * `pulumi up --target` of any workspace ("depends on ... which was not specified in
 * --target list"). The promise still settles only once the engine answered the origin's
 * registration, so no create runs before the key is in the state. A preview creates
 * nothing and needs no origin; an update where the key is not there (its create was left
 * out by `--target`) writes none, and that resource gets no recovery in that run.
 */
export function withOriginInput<T extends object>(
  kind: ResourceTypeName,
  name: string,
  args: T | undefined,
): Record<string, unknown> | undefined {
  if (args === undefined || args === null) return undefined;
  const project = pulumi.getProject();
  const stack = pulumi.getStack();
  const key = stackOrigin(project, stack).key;
  if (pulumi.runtime.isDryRun()) return { ...(args as Record<string, unknown>) };
  const backend = (stackBackend ??= `${stateBackend(pulumi.getRootDirectory())} ${organizationOrNone()}`);
  const origin = new Promise<string | undefined>((resolve) => {
    key.apply((k) => resolve(originFor(k, project, stack, kind, name, backend)));
  });
  return { ...(args as Record<string, unknown>), [ORIGIN_KEY]: origin };
}
