/**
 * `OrganizationToken`: an organization's token (the organization's rights) or its
 * audit-trail token (reads the audit trail only), one of each per organization.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, withSecretOutputs, dynamicProps, quietStacks } from "./base";
import { secretsOf } from "./secret-values";
import type { ExpiringTokenArgs } from "./token-args";

/** Inputs of an {@link OrganizationToken}. */
export interface OrganizationTokenArgs extends ExpiringTokenArgs {
  /** The organization; default: the provider's (`workspaces:organization`). A change replaces the token. */
  organization?: pulumi.Input<string>;
  /**
   * `organization` (the default: the token with the organization token's rights) or
   * `audit-trails` (the token that reads only the audit trail). A change replaces the token.
   */
  tokenType?: pulumi.Input<"organization" | "audit-trails">;
  /**
   * An organization holds one token of each type, so a create that finds one is refused,
   * naming when it was made and by whom, unless this is true: the existing token is then
   * revoked (whoever uses it is refused from then on) and a new one made. Default false.
   * Changing it alone writes nothing.
   */
  replaceExisting?: pulumi.Input<boolean>;
  /**
   * Take over the organization's existing token of this type without regenerating it:
   * `create` then writes nothing, and from then on this resource owns it (delete revokes
   * it). An adopted token has no `token` output, since the service never shows a secret
   * again: rotate it (set or change `rotation`) to get one. When there is none, the create
   * makes a new token. Default false; no effect once the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const ORGANIZATION_TOKEN_OUTPUTS = [
  "organization",
  "tokenType",
  "rotation",
  "token",
  "tokenId",
  "createdAt",
  "lastUsedAt",
  "expiredAt",
] as const;

/** Outputs stored only as secrets (see ./secret-values.ts). */
const SECRET_OUTPUTS: readonly string[] = secretsOf("OrganizationToken").outputs;

/**
 * An organization token or audit-trail token (since 0.7.0). The service answers the
 * secret once, on create; the resource keeps it as the secret output `token`, encrypted
 * in the state and never in plain text in a log, an error or a preview.
 *
 * Rotation happens only when the program says so: a change of `rotation`, or an expiry
 * that is due (`expiresAt`/`expiresInDays`, within `rotateBeforeDays`). The preview shows
 * it as a replacement with one line that says why; an unchanged program never rotates.
 * The organization holds one token of each type, so a replacement deletes the old token
 * first, then makes the new one: whoever uses it is refused until the new one is in place.
 * Managing these tokens takes an owners token.
 *
 * Drift: a refresh reads the organization's token of the type; when it is gone, or is
 * another token (replaced outside the program), the resource is dropped from the state
 * and the next `pulumi up` refuses to replace that other token unless `replaceExisting`
 * or `adopt` says what to do. Delete revokes the token only while it is still the one
 * this resource made.
 *
 * After an interrupted `pulumi up`: the token carries no description and says nothing of
 * its origin, so the next create finds it like any other existing token and is refused;
 * its secret was lost with the runner, and `replaceExisting: true` replaces it.
 */
export class OrganizationToken extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.OrganizationToken;

  /** Reads a token without managing it; `id` is the organization's name, or `<organization>/audit-trails`. It has no `token` output. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): OrganizationToken {
    return new OrganizationToken(name, undefined as unknown as OrganizationTokenArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is OrganizationToken {
    return (
      pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.OrganizationToken
    );
  }

  /** The organization of the token. */
  declare readonly organization: pulumi.Output<string>;
  /** `organization` or `audit-trails`. */
  declare readonly tokenType: pulumi.Output<string>;
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

  /** Declares an organization token; `name` is the Pulumi resource name. */
  constructor(name: string, args: OrganizationTokenArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.OrganizationToken,
        name,
        dynamicProps(
          "OrganizationToken",
          name,
          withOutputs(args as Record<string, unknown> | undefined, ORGANIZATION_TOKEN_OUTPUTS),
        ),
        withSecretOutputs(opts, SECRET_OUTPUTS),
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
