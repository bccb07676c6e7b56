/** The inputs that say when a minted token (team, organization) expires and is rotated. */
import type * as pulumi from "@pulumi/pulumi";
import type { Integer } from "../api/common";

/** Expiry and rotation of a {@link TeamToken} or an {@link OrganizationToken}. */
export interface ExpiringTokenArgs {
  /**
   * When the token stops working: an RFC 3339 time with its zone (`2027-01-31T00:00:00Z`),
   * in the future. Exclusive with `expiresInDays`. Absent (and no `expiresInDays`): the
   * service's default. A change replaces the token.
   */
  expiresAt?: pulumi.Input<string>;
  /**
   * The token stops working this many days (1 or more) after its create. Exclusive with
   * `expiresAt`. A change replaces the token; the same number on later runs does not.
   */
  expiresInDays?: pulumi.Input<Integer>;
  /**
   * How many days before its expiry a token is due for rotation (default 0: once it has
   * expired; 7: a week before). A `pulumi preview` or `pulumi up` from then on plans its
   * replacement and says why in one line. Changing it alone writes nothing.
   */
  rotateBeforeDays?: pulumi.Input<Integer>;
  /**
   * Any text (`"2026-12"`, a counter): a change replaces the token, which is how a program
   * rotates it; the preview says "rotation requested". Besides a due expiry, nothing else
   * ever makes a new secret: a refresh, an update of another resource or an adoption
   * never does. Omitted: no rotation (setting it later is a change, and rotates).
   */
  rotation?: pulumi.Input<string>;
}
