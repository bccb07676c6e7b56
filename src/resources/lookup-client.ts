/**
 * The client every lookup uses and how a lookup fails: the settings of the resources
 * (stack config `workspaces:*` read in the program, or the provider plugin's configuration),
 * then the environment and the credentials file.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { SettingsError, WorkspacesClient } from "../client";
import { CONFIG_KEYS } from "./provider-settings";
import { failuresFromIssues } from "./providers/check-failures";

/** A failure the program stops on with this message alone (no stack, no source dump). */
export function fail(fn: string, message: string): pulumi.RunError {
  return new pulumi.RunError(`${fn}: ${message}`);
}

/** The failure of a lookup `fn` whose read of `what` (`workspace ws-1`) the service answered 404: no such `kind`, or hidden. */
export function answered404(fn: string, what: string, kind: string): pulumi.RunError {
  return fail(
    fn,
    `cannot read ${what}: the service answered 404: there is no such ${kind}, or the token in use may not see it (the service answers the same for both)`,
  );
}

export function invalid(
  fn: string,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): pulumi.RunError {
  return fail(
    fn,
    failuresFromIssues(issues)
      .map((f) => f.reason)
      .join("; "),
  );
}

/** The organization a lookup `fn` reads: the one given, else the client's configured one; fails when neither is set. */
export function organizationOf(fn: string, client: WorkspacesClient, given: string | undefined): string {
  const org = given ?? client.organization;
  if (!org) {
    throw fail(
      fn,
      "organization is required: set it in the arguments, or set the stack config workspaces:organization (or WORKSPACES_ORGANIZATION)",
    );
  }
  return org;
}

/** A client with the resources' settings: stack config `workspaces:*` (read in the program), then the environment and the credentials file. */
/**
 * One client per configured address, token and organization in the program's process, so
 * that lookups by name share the organization's listing (process/snapshot.ts): looking up
 * many workspaces costs a request per hundred of them.
 */
const lookupClients = new Map<string, WorkspacesClient>();

interface GivenSettings {
  address?: string;
  token?: string;
  organization?: string;
}

/** The program's stack config `workspaces:*` (the TypeScript door: lookups run in the program). */
function programSettings(): GivenSettings {
  const config = new pulumi.Config(CONFIG_KEYS.address.split(":")[0]);
  const key = (full: string) => full.split(":")[1];
  return {
    address: config.get(key(CONFIG_KEYS.address)),
    token: config.get(key(CONFIG_KEYS.token)),
    organization: config.get(key(CONFIG_KEYS.organization)),
  };
}

let givenSettings: () => GivenSettings = programSettings;

/**
 * Where lookups read the `workspaces:*` settings that come before the environment: the
 * program's stack config by default; the provider plugin, where lookups run in the
 * provider, hands them the provider's configuration instead.
 */
export function lookupSettingsFrom(source: () => GivenSettings): void {
  givenSettings = source;
}

export function lookupClient(fn: string): WorkspacesClient {
  const given = givenSettings();
  const cacheKey = JSON.stringify([given.address, given.token, given.organization]);
  try {
    let client = lookupClients.get(cacheKey);
    if (!client) lookupClients.set(cacheKey, (client = new WorkspacesClient(given)));
    return client;
  } catch (err) {
    throw err instanceof SettingsError ? fail(fn, err.message) : err;
  }
}

/** A lookup `fn` of one record by name in an organization: its arguments validated, then `read`; every failure one line. */
export async function byName<R>(
  fn: string,
  schema: z.ZodType<{ name: string; organization?: string }>,
  args: unknown,
  read: (fn: string, client: WorkspacesClient, organization: string, name: string) => Promise<R>,
): Promise<R> {
  const parsed = schema.safeParse(args ?? {});
  if (!parsed.success) throw invalid(fn, parsed.error.issues);
  const client = lookupClient(fn);
  const organization = organizationOf(fn, client, parsed.data.organization);
  try {
    return await read(fn, client, organization, parsed.data.name);
  } catch (err) {
    if (err instanceof pulumi.RunError) throw err;
    throw fail(fn, (err as Error).message);
  }
}
