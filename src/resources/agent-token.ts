/**
 * `AgentToken`: a token of an agent pool (`/agent-pools/:id/authentication-tokens`), what
 * the pool's agents start with.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, withSecretOutputs, dynamicProps, quietStacks } from "./base";
import { withOriginInput } from "./origin";
import { secretsOf } from "./secret-values";

/** Inputs of an {@link AgentToken}. */
export interface AgentTokenArgs {
  /** The agent pool (`apool-...`) whose agents use the token. A change replaces the token (a new secret). */
  agentPoolId: pulumi.Input<string>;
  /**
   * What the token is for, as the service lists it (required, not blank). The service
   * cannot change a token, so a change replaces it (a new secret).
   */
  description: pulumi.Input<string>;
  /**
   * Any text (`"2026-12"`, a counter): a change replaces the token, which is how a program
   * rotates it; the preview shows the replacement with `rotation` as its reason. Nothing
   * else ever makes a new secret: a refresh, an update of another resource or an adoption
   * never does. Omitted: no rotation (setting it later is a change, and rotates).
   */
  rotation?: pulumi.Input<string>;
  /**
   * Take over the pool's token with exactly this description: `create` then writes
   * nothing, and from then on this resource owns it (delete removes it). An adopted token
   * has no `token` output, since the service never shows a secret again: rotate it (set or
   * change `rotation`) to get one. Two tokens of that description fail the create with an
   * error that names both. Without it, or when none has that description, the create makes
   * a new token. Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const AGENT_TOKEN_OUTPUTS = [
  "agentPoolId",
  "description",
  "rotation",
  "token",
  "createdAt",
  "lastUsedAt",
] as const;

/** Outputs stored only as secrets (see ./secret-values.ts). */
const SECRET_OUTPUTS: readonly string[] = secretsOf("AgentToken").outputs;

/**
 * An agent token (since 0.7.0): the secret an agent of the pool starts with. The service
 * answers it once, on create; the resource keeps it as the secret output `token`,
 * encrypted in the state and never in plain text in a log, an error or a preview. Any
 * change (`agentPoolId`, `description`, `rotation`) replaces the token: the new one is
 * made first, then the old one deleted, and the preview names the property that causes
 * it. Delete revokes the token: agents using it are refused from then on.
 *
 * Drift: a refresh reads the token; one deleted outside the program is dropped from the
 * state when the token in use could have seen it (an owners token), and the next
 * `pulumi up` shows the new token as a create. The secret itself cannot be read back, so
 * its value never shows drift.
 *
 * After an interrupted `pulumi up`: a token has no unique name, so the create appends
 * the stack's origin to the description (` [https://github.com/pulumi-workspaces/...]`,
 * the address of docs/interrupted-updates.md with the stack, the resource and a digest),
 * and the `description` output is what the program declared. A token that an interrupted
 * create made (its secret was lost with the runner) is recognised by that origin on the
 * next create of the same resource, deleted and replaced, with one info line; a token of
 * any other origin is never touched.
 */
export class AgentToken extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.AgentToken;

  /** Reads a token without managing it; `id` is its `at-...` id (or `apool-.../at-...`). It has no `token` output. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): AgentToken {
    return new AgentToken(name, undefined as unknown as AgentTokenArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is AgentToken {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.AgentToken;
  }

  /** The agent pool of the token. */
  declare readonly agentPoolId: pulumi.Output<string>;
  /** Description, as the program declared it. */
  declare readonly description: pulumi.Output<string>;
  /** The declared rotation; absent when none. */
  declare readonly rotation: pulumi.Output<string | undefined>;
  /** The secret the agents start with (a secret output); absent for an adopted or imported token, whose secret the service never shows again. */
  declare readonly token: pulumi.Output<string | undefined>;
  /** When the token was created (ISO 8601); absent when the service does not say. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** When an agent last used it (ISO 8601), as of the last create or refresh; absent when never. */
  declare readonly lastUsedAt: pulumi.Output<string | null>;

  /** Declares an agent token; `name` is the Pulumi resource name. */
  constructor(name: string, args: AgentTokenArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.AgentToken,
        name,
        dynamicProps("AgentToken", name, withOutputs(withOriginInput("AgentToken", name, args), AGENT_TOKEN_OUTPUTS)),
        withSecretOutputs(opts, SECRET_OUTPUTS),
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
