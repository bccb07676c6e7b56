/**
 * What the OTF suites do on OTF directly, over its API with the site token: reach the
 * server the global setup started, make organizations and workspaces a test needs, and
 * read back what a program or the client made.
 */
import { expect, inject } from "vitest";
import { WorkspacesError } from "../../src/client";
import type { DiagnosticEvent, PulumiResult } from "../e2e/harness";

/** Where the OTF of this run listens (the global setup provides it). */
export interface OtfServer {
  /** `http://127.0.0.1:<port>`, without `/api/v2`. */
  url: string;
  /** The site token: every permission. */
  token: string;
  /** Organization made at start. */
  organization: string;
  /** A random word that names this run's organizations (`<base>-<run>`), so that runs never collide on a server that outlives them. */
  run: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    otf: OtfServer;
  }
}

export function otfServer(): OtfServer {
  return inject("otf");
}

/**
 * The name of an organization of this run: `base` with the run's own suffix. The server is
 * the user's and outlives the run; the global teardown deletes every organization of the run.
 */
export function runOrganization(base: string): string {
  return `${base}-${inject("otf").run}`;
}

/** Settings a program's providers (or a client) read from the environment to reach OTF. */
export function otfEnv(otf: OtfServer, organization = otf.organization): Record<string, string> {
  return { WORKSPACES_ADDRESS: otf.url, WORKSPACES_TOKEN: otf.token, WORKSPACES_ORGANIZATION: organization };
}

/** A request to OTF's API (`path` below `/api/v2`); returns the status and the parsed body, if any. */
export async function otfApi<T = any>(
  otf: OtfServer,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${otf.url}/api/v2${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${otf.token}`,
      "content-type": "application/vnd.api+json",
      accept: "application/vnd.api+json",
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, body: body as T };
}

async function expectOk<T>(p: Promise<{ status: number; body: T }>, ok: number[], what: string): Promise<T> {
  const r = await p;
  if (!ok.includes(r.status)) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function createOrganization(otf: OtfServer, name: string): Promise<void> {
  await expectOk(
    otfApi(otf, "/organizations", {
      method: "POST",
      body: { data: { type: "organizations", attributes: { name, email: `${name}@example.com` } } },
    }),
    [201],
    `create organization ${name}`,
  );
}

/** Creates a workspace over the API; returns its id. */
export async function createWorkspace(
  otf: OtfServer,
  organization: string,
  attributes: Record<string, unknown>,
): Promise<string> {
  const body = await expectOk(
    otfApi<any>(otf, `/organizations/${organization}/workspaces`, {
      method: "POST",
      body: { data: { type: "workspaces", attributes } },
    }),
    [201],
    `create workspace ${String(attributes.name)}`,
  );
  return body.data.id;
}

/** Creates an SSH key of the organization; returns its id. */
export async function createSshKey(otf: OtfServer, organization: string, name: string): Promise<string> {
  const body = await expectOk(
    otfApi<any>(otf, `/organizations/${organization}/ssh-keys`, {
      method: "POST",
      body: {
        data: {
          type: "ssh-keys",
          attributes: {
            name,
            value: "-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n-----END OPENSSH PRIVATE KEY-----\n",
          },
        },
      },
    }),
    [200, 201],
    `create SSH key ${name}`,
  );
  return body.data.id;
}

/** The workspace as OTF reports it (`data` of the document), or null when OTF answers 404. */
export async function workspace(otf: OtfServer, idOrOrgAndName: string): Promise<any> {
  const path = idOrOrgAndName.startsWith("ws-")
    ? `/workspaces/${idOrOrgAndName}`
    : `/organizations/${idOrOrgAndName.replace("/", "/workspaces/")}`;
  const r = await otfApi<any>(otf, path);
  if (r.status === 404) return null;
  if (r.status !== 200) throw new Error(`read workspace ${idOrOrgAndName}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** Ids of every workspace of the organization, sorted. */
export async function workspaceIds(otf: OtfServer, organization: string): Promise<string[]> {
  const body = await expectOk(
    otfApi<any>(otf, `/organizations/${organization}/workspaces?page%5Bsize%5D=100`),
    [200],
    "list workspaces",
  );
  return body.data.map((w: any) => w.id as string).sort();
}

/** A workspace's flat tag names as OTF lists them, sorted. */
export async function tagNames(otf: OtfServer, workspaceId: string): Promise<string[]> {
  const body = await expectOk(otfApi<any>(otf, `/workspaces/${workspaceId}/relationships/tags`), [200], "list tags");
  return body.data.map((t: any) => t.attributes.name as string).sort();
}

/** Error diagnostics of one resource (by the last part of its URN). */
export function errorsOf(diagnostics: DiagnosticEvent[], name: string): string[] {
  return diagnostics.filter((d) => d.severity === "error" && d.urn?.endsWith(`::${name}`)).map((d) => d.message);
}

/** No stack frame of the provider process in what the user reads. */
export function expectNoStackTrace(r: PulumiResult): void {
  expect(r.output).not.toMatch(/\n\s+at [\w.<>]+ \(.*:\d+:\d+\)/);
  expect(r.output).not.toMatch(/\n\s+at .*node_modules.*:\d+:\d+/);
}

/** Each resource named fails with exactly one error that names its feature, and no stack frame shows. */
export function expectOneMessageEach(
  r: PulumiResult & { diagnostics: DiagnosticEvent[] },
  features: Array<[string, RegExp]>,
): void {
  for (const [name, feature] of features) {
    const messages = errorsOf(r.diagnostics, name);
    expect(messages, `${name}:\n${r.output}`).toHaveLength(1);
    expect(messages[0], name).toMatch(feature);
  }
  expectNoStackTrace(r);
}

/** The error a call rejects with (fails the test when it resolves). */
export async function failure(p: Promise<unknown>): Promise<WorkspacesError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(WorkspacesError);
    return err as WorkspacesError;
  }
  throw new Error("the call succeeded");
}
