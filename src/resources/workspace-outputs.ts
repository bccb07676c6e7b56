/**
 * Another workspace's outputs (`/workspaces/:id/current-state-version-outputs`), as the
 * `getWorkspaceOutputs` lookup (./lookups.ts) and the provider plugin's function read them.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ForbiddenError, NotFoundError, type StateVersionOutput, type WorkspacesClient } from "../client";
import { fail, invalid, lookupClient } from "./lookup-client";

/** Arguments of {@link getWorkspaceOutputs}. */
export interface GetWorkspaceOutputsArgs {
  /** Workspace id (`ws-...`) whose current outputs are read; the token needs no more than access to its outputs. */
  workspaceId: string;
}

/** Arguments of {@link getWorkspaceOutputsOutput}: those of {@link GetWorkspaceOutputsArgs}, each a `pulumi.Input`. */
export interface GetWorkspaceOutputsOutputArgs {
  /** Workspace id (`ws-...`). */
  workspaceId: pulumi.Input<string>;
}

/** Result of {@link getWorkspaceOutputs}. */
export interface GetWorkspaceOutputsResult {
  /** The workspace read. */
  workspaceId: string;
  /**
   * Each output of the workspace's current state by its name. An output the service marks
   * sensitive is a secret (with its value when the token may read the workspace's state,
   * and without one when it may read the outputs only); every other output is a plain value.
   */
  outputs: Record<string, unknown>;
  /** Names of the outputs the service marks sensitive, sorted. */
  sensitiveNames: string[];
}

/** The arguments, checked as every lookup checks its own (an unknown one refused). */
export const workspaceOutputsArgsSchema = z
  .object({ workspaceId: z.string().refine((v) => v.startsWith("ws-"), { error: "must be a workspace id (ws-...)" }) })
  .strict();

/**
 * A sensitive output's value: the current outputs never show it, the output read by id
 * does to a token that may read the workspace's state; with outputs-only access it stays
 * null (still a secret).
 */
async function sensitiveValue(client: WorkspacesClient, o: StateVersionOutput): Promise<unknown> {
  if (o.value !== null) return o.value;
  try {
    return (await client.stateVersionOutputs.read(o.id)).value;
  } catch (err) {
    if (err instanceof NotFoundError || err instanceof ForbiddenError) return null;
    throw err;
  }
}

/**
 * Which cause a 404 for the current outputs had: the service answers the same for a
 * workspace that does not exist, one the token may not see, and one with no state yet;
 * a workspace the token can read tells the third apart.
 */
async function whyNoOutputs(client: WorkspacesClient, workspaceId: string): Promise<string> {
  let ws;
  try {
    ws = await client.workspaces.read(workspaceId);
  } catch (err) {
    if (!(err instanceof NotFoundError || err instanceof ForbiddenError)) throw err;
    return `cannot read the outputs of workspace ${workspaceId}: the service answered 404 for its outputs and for the workspace, so there is no such workspace or the token in use may not see it. Check workspaceId, or use a token that may read the workspace's outputs.`;
  }
  return `cannot read the outputs of workspace "${ws.name}" (${workspaceId}): it has no state yet, so it has no outputs. Run the workspace once (apply the program that writes its state), then read its outputs; or check that workspaceId names the workspace you mean.`;
}

/**
 * The current outputs of a workspace with plain values, and the names of the sensitive
 * ones: each door marks those secret its own way.
 */
export async function readWorkspaceOutputs(
  fn: string,
  args: GetWorkspaceOutputsArgs,
): Promise<GetWorkspaceOutputsResult> {
  const parsed = workspaceOutputsArgsSchema.safeParse(args ?? {});
  if (!parsed.success) throw invalid(fn, parsed.error.issues);
  const { workspaceId } = parsed.data;
  const client = lookupClient(fn);
  let current: StateVersionOutput[];
  try {
    current = await client.stateVersionOutputs.readCurrent(workspaceId);
  } catch (err) {
    if (err instanceof NotFoundError) throw fail(fn, await whyNoOutputs(client, workspaceId));
    throw fail(fn, (err as Error).message);
  }
  const outputs: Record<string, unknown> = {};
  const sensitiveNames: string[] = [];
  for (const o of current) {
    if (o.sensitive) sensitiveNames.push(o.name);
    outputs[o.name] = o.sensitive ? await sensitiveValue(client, o) : o.value;
  }
  return { workspaceId, outputs, sensitiveNames: sensitiveNames.sort() };
}
