/**
 * `NotificationConfiguration`: where a workspace's run events are delivered
 * (`/workspaces/:id/notification-configurations`).
 */
import * as pulumi from "@pulumi/pulumi";
import type { NotificationDestinationType, NotificationTrigger } from "../api/notifications";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, withSecretInputs, withSecretOutputs, dynamicProps, quietStacks } from "./base";
import { CLAIMANT_KEY } from "./process/claims";
import { secretsOf } from "./secret-values";
import { withOriginInput } from "./origin";

/** Inputs of a {@link NotificationConfiguration}. */
export interface NotificationConfigurationArgs {
  /** Workspace (`ws-...`) whose events are delivered. A change replaces the configuration. */
  workspaceId: pulumi.Input<string>;
  /** Name of the configuration, unique among the workspace's configurations this package manages. A change is made in place. */
  name: pulumi.Input<string>;
  /**
   * Where it delivers: `generic` (a webhook of your own), `slack`, `microsoft-teams` or
   * `email` (users of the organization). A change replaces the configuration: the service
   * never changes it in place.
   */
  destinationType: pulumi.Input<NotificationDestinationType>;
  /**
   * The URL deliveries are posted to: required for `generic`, `slack` and
   * `microsoft-teams`, refused for `email`. A secret when it carries credentials (a user
   * name or password, a credential in the query such as `?token=`, a Slack webhook path),
   * even when given as a plain literal.
   */
  url?: pulumi.Input<string>;
  /**
   * Signs each delivery of a `generic` destination (an HMAC of the body in the
   * `X-TFE-Notification-Signature` header). Always a secret, and write-only: the service
   * never shows it, so a change made outside the program cannot be detected; a change in
   * the program is.
   */
  token?: pulumi.Input<string>;
  /** Whether it delivers. Default true. */
  enabled?: pulumi.Input<boolean>;
  /**
   * The events it delivers: `run:created`, `run:planning`, `run:needs_attention`,
   * `run:applying`, `run:completed`, `run:errored`, `assessment:drifted`,
   * `assessment:failed`, `assessment:check_failure`, `workspace:auto_destroy_reminder`,
   * `workspace:auto_destroy_run_results`, `change_request:created`. Another value is sent
   * as it is, with a warning, for a newer service to judge. Default none (the service then
   * delivers only verifications).
   */
  triggers?: pulumi.Input<pulumi.Input<NotificationTrigger | (string & {})>[]>;
  /** Addresses an `email` configuration writes to (the service's `email-addresses`); `email` only. */
  emailAddresses?: pulumi.Input<pulumi.Input<string>[]>;
  /** Users (`user-...`) of the organization an `email` configuration writes to; `email` only. */
  emailUserIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Take over the workspace's configuration of this name if it has one: `create` reads it
   * and changes only what the program declares differently (a token, which the service
   * never shows, is taken to be the declared one). Without it, a name taken fails the
   * create with an error that names the configuration's id. Default false; no effect once
   * the resource is in the stack.
   */
  adopt?: pulumi.Input<boolean>;
}

export const NOTIFICATION_CONFIGURATION_OUTPUTS = [
  "workspaceId",
  "name",
  "destinationType",
  "url",
  "token",
  "enabled",
  "triggers",
  "emailAddresses",
  "emailUserIds",
] as const;

/** Outputs stored only as secrets (see ./secret-values.ts). */
const SECRET_OUTPUTS: readonly string[] = secretsOf("NotificationConfiguration").outputs;

/**
 * A notification configuration of a workspace. A change of `workspaceId` or
 * `destinationType` replaces it; every other change is an update in place. Delete removes
 * this configuration alone.
 *
 * The service lets a workspace hold several configurations of one name; this resource
 * does not create a second one: a name taken fails the create with the `adopt: true`
 * error, two resources of one stack with one name on one workspace are refused at preview,
 * and a create whose answer was lost is looked up, never sent again.
 *
 * Drift: a refresh reads the configuration back, so a name, URL, `enabled` flag, trigger or
 * email recipient changed outside the program shows in the next preview and `pulumi up`
 * restores it; a deleted configuration is dropped by refresh and created again by `up`.
 * The token cannot be read back: a change of it outside the program is not detected; a
 * change of it in the program is, against the value the stack recorded (encrypted).
 *
 * After an interrupted `pulumi up`: a configuration with a URL is created with the
 * stack's origin in the URL's fragment (`#` and the page about interrupted updates, which
 * no delivery sends), so the next `up` takes over the one that update created, with one
 * info line. An `email` configuration has no field to carry it: one the killed update made
 * fails the next `up` with the `adopt: true` error, never a duplicate.
 */
export class NotificationConfiguration extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.NotificationConfiguration;

  /** Reads a configuration without managing it; `id` is its `nc-...` id. */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): NotificationConfiguration {
    return new NotificationConfiguration(
      name,
      undefined as unknown as NotificationConfigurationArgs,
      adoptOptions(id, opts),
    );
  }

  static isInstance(obj: unknown): obj is NotificationConfiguration {
    return (
      pulumi.Resource.isInstance(obj) &&
      (obj as { __pulumiType?: string }).__pulumiType === TOKENS.NotificationConfiguration
    );
  }

  /** Workspace (`ws-...`) whose events are delivered. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** Name of the configuration. */
  declare readonly name: pulumi.Output<string>;
  /** `generic`, `slack`, `microsoft-teams` or `email`. */
  declare readonly destinationType: pulumi.Output<string>;
  /** The URL deliveries are posted to (a secret when it carries credentials); absent for `email`. */
  declare readonly url: pulumi.Output<string | null>;
  /** The token as the program last declared it (secret); absent when none, or unknown (adopted, imported). */
  declare readonly token: pulumi.Output<string | null>;
  /** Whether it delivers. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** The events it delivers. */
  declare readonly triggers: pulumi.Output<string[]>;
  /** Addresses an `email` configuration writes to. */
  declare readonly emailAddresses: pulumi.Output<string[]>;
  /** Users an `email` configuration writes to. */
  declare readonly emailUserIds: pulumi.Output<string[]>;

  /** Declares a notification configuration of a workspace; `name` is the Pulumi resource name. */
  constructor(name: string, args: NotificationConfigurationArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs = args ? { ...withSecretInputs("NotificationConfiguration", args), [CLAIMANT_KEY]: name } : undefined;
    const limit = quietStacks();
    try {
      super(
        TOKENS.NotificationConfiguration,
        name,
        dynamicProps(
          "NotificationConfiguration",
          name,
          withOutputs(withOriginInput("NotificationConfiguration", name, inputs), NOTIFICATION_CONFIGURATION_OUTPUTS),
        ),
        withSecretOutputs(opts, SECRET_OUTPUTS),
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
