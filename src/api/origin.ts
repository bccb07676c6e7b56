/**
 * The origin this package writes on every workspace it creates (`source-name` and
 * `source-url`, the service's "created via" fields), so that a create interrupted after
 * the service acknowledged it can be recognised by the next `pulumi up` of the same
 * stack (docs/interrupted-updates.md).
 *
 * The address names the stack and the resource for people who read it, and carries a
 * digest of a random key kept in the stack's own state with them: two stacks of the same
 * project, stack and resource names in different state backends never share it, and
 * the key itself never leaves the state. A create made while the engine skips its
 * checkpoints (`PULUMI_SKIP_CHECKPOINTS`) may outlive the key, which that engine records
 * only at the end: such a create also carries a digest of the stack's state backend
 * (`backend`), which the same stack in the same backend computes again without the key.
 */

/** `source-name` of a record this package created: shown as `Created via pulumi-workspaces`. */
export const ORIGIN_SOURCE_NAME = "pulumi-workspaces";

/** Every `source-url` this package writes starts with this address (the page that explains it), then `?`. */
const ORIGIN_URL_BASE = "https://github.com/pulumi-workspaces/pulumi-workspaces/blob/main/docs/interrupted-updates.md";

/** The parts of an origin: what a person reads, and the digest that tells stacks apart. */
export interface OriginParts {
  project: string;
  stack: string;
  /** The resource's logical name in the program. */
  resource: string;
  /** Hex digest of the stack's origin key with project, stack, type and resource name. */
  digest: string;
  /** Hex digest of the stack's state backend and organization with project, stack, type and resource name. */
  backend?: string;
  /**
   * Hex digest of the stack's origin key with project and stack alone: the same for every
   * resource of the stack, so that one resource can tell a record another resource of the
   * same stack made (a variable set's applications know their own stack's set by it).
   */
  owner?: string;
}

/** The `source-url` of a record created by one resource of one stack. */
export function originUrl(parts: OriginParts): string {
  const query = new URLSearchParams({
    stack: `${parts.project}/${parts.stack}`,
    resource: parts.resource,
    origin: parts.digest,
  });
  if (parts.backend) query.set("backend", parts.backend);
  if (parts.owner) query.set("owner", parts.owner);
  return `${ORIGIN_URL_BASE}?${query.toString()}`;
}

/** The query of a `source-url` this package wrote, or undefined for any other value. */
export function originQuery(sourceUrl: unknown): URLSearchParams | undefined {
  if (typeof sourceUrl !== "string" || !sourceUrl.startsWith(`${ORIGIN_URL_BASE}?`)) return undefined;
  const query = new URLSearchParams(sourceUrl.slice(ORIGIN_URL_BASE.length + 1));
  return query.has("origin") ? query : undefined;
}

/**
 * Whether a record's `source-name` and `source-url` are an origin this package wrote
 * (rather than a value a program or another tool set). A program generated from such a
 * record must not copy them: the copy would turn the recovery of interrupted creates off.
 */
export function isPackageOrigin(sourceName: unknown, sourceUrl: unknown): boolean {
  return sourceName === ORIGIN_SOURCE_NAME && originQuery(sourceUrl) !== undefined;
}
