/**
 * `TeamToken`: a token that carries a team's rights, what its automation (CI) runs with:
 * one of the team's described tokens, or its single legacy token.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, withSecretOutputs, dynamicProps, quietStacks } from "./base";
import { withOriginInput } from "./origin";
import { secretsOf } from "./secret-values";
import type { ExpiringTokenArgs } from "./token-args";

/** Inputs of a {@link TeamToken}. */
export interface TeamTokenArgs extends ExpiringTokenArgs {
  /** The team (`team-...`) whose rights the token carries. A change replaces the token (a new secret). */
  teamId: pulumi.Input<string>;
  /**
   * Given: the token is one of the team's several described tokens, listed by this
   * description (not blank). Absent: it is the team's single legacy token. The service
   * cannot change a token, so a change replaces it (a new secret).
   */
  description?: pulumi.Input<string>;
  /**
   * Legacy token only (no `description`): a team holds at most one, so a create that finds
   * one is refused, naming when it was made and by whom, unless this is true: the existing
   * token is then revoked (whoever uses it is refused from then on) and a new one made.
   * Default false. Changing it alone writes nothing.
   */
  replaceExisting?: pulumi.Input<boolean>;
  /**
   * Take over an existing token without regenerating it: the team's described token of
   * exactly this description (several of it are refused with their ids), or its legacy
   * token. `create` then writes nothing, and from then on this resource owns it (delete
   * revokes it). An adopted token has no `token` output, since the service never shows a
   * secret again: rotate it (set or change `rotation`) to get one. When there is none,
   * the create makes a new token. Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const TEAM_TOKEN_OUTPUTS = [
  "teamId",
  "description",
  "rotation",
  "token",
  "tokenId",
  "createdAt",
  "lastUsedAt",
  "expiredAt",
] as const;

/** Outputs stored only as secrets (see ./secret-values.ts). */
const SECRET_OUTPUTS: readonly string[] = secretsOf("TeamToken").outputs;

/**
 * A team token (since 0.7.0): the secret a team's automation authenticates with, with
 * the team's rights and no more. The service answers it once, on create; the resource
 * keeps it as the secret output `token`, encrypted in the state and never in plain text
 * in a log, an error or a preview.
 *
 * Rotation happens only when the program says so: a change of `rotation`, or an expiry
 * that is due (`expiresAt`/`expiresInDays`, within `rotateBeforeDays`). The preview shows
 * it as a replacement, with one line that says why ("rotation requested", "expired on
 * ...", "expires on ..., within rotateBeforeDays"); an unchanged program never rotates.
 * Any other change of `teamId`, `description` or the expiry replaces the token too.
 * A described token's replacement makes the new token first, then deletes the old one;
 * a legacy token's deletes the old one first (the team holds one), so whoever uses it is
 * refused until the new one is in place. Tokens are deleted by id, never a successor.
 *
 * Drift: a refresh reads the token; one deleted outside the program is dropped from the
 * state when the token in use could have seen it (an owners token), and the next
 * `pulumi up` makes a new one. `lastUsedAt` is shown, never a change. The secret itself
 * cannot be read back, so its value never shows drift.
 *
 * After an interrupted `pulumi up`: a described token's create appends the stack's origin
 * to its description (the `description` output is what the program declared), so the
 * next create of the same resource recognises the token the interrupted one made (its
 * secret was lost), deletes it and makes a new one, with one info line. A legacy token
 * carries no description and says nothing of its origin: that create is refused like any
 * other existing token's, and `replaceExisting: true` replaces it.
 */
export class TeamToken extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.TeamToken;

  /** Reads a token without managing it; `id` is its `at-...` id, or `team-...` for the team's legacy token. It has no `token` output. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): TeamToken {
    return new TeamToken(name, undefined as unknown as TeamTokenArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is TeamToken {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.TeamToken;
  }

  /** The team of the token. */
  declare readonly teamId: pulumi.Output<string>;
  /** Description, as the program declared it; absent for the legacy token. */
  declare readonly description: pulumi.Output<string | undefined>;
  /** The declared rotation; absent when none. */
  declare readonly rotation: pulumi.Output<string | undefined>;
  /** The secret (a secret output); absent for an adopted or imported token, whose secret the service never shows again. */
  declare readonly token: pulumi.Output<string | undefined>;
  /** The token's id (`at-...`). */
  declare readonly tokenId: pulumi.Output<string>;
  /** When the token was created (ISO 8601); absent when the service does not say. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** When it was last used (ISO 8601), as of the last create or refresh; absent when never. */
  declare readonly lastUsedAt: pulumi.Output<string | null>;
  /** When it stops working (ISO 8601); absent when it does not expire. */
  declare readonly expiredAt: pulumi.Output<string | null>;

  /** Declares a team token; `name` is the Pulumi resource name. */
  constructor(name: string, args: TeamTokenArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.TeamToken,
        name,
        dynamicProps("TeamToken", name, withOutputs(withOriginInput("TeamToken", name, args), TEAM_TOKEN_OUTPUTS)),
        withSecretOutputs(opts, SECRET_OUTPUTS),
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
