import type { PolicyConfigSchema, ResourceValidationPolicy } from "@pulumi/policy";
import { OrganizationToken, TeamToken, UNKNOWN, configOf, isAbsent, show, subject, validateKnownProps } from "./common";

// ---------------------------------------------------------------------------------------------
// Team and organization tokens declare an expiry, not too far ahead
// ---------------------------------------------------------------------------------------------

const DAY_MS = 24 * 60 * 60 * 1000;

const expirySchema: PolicyConfigSchema = {
  properties: {
    maxDays: {
      type: "integer",
      minimum: 1,
      default: 90,
      description:
        "The furthest a token's expiry may be: expiresInDays at most this, or an expiresAt at most this many days ahead of the preview.",
    },
  },
};

/** Why a declared expiry is too far ahead (or absent), or undefined when it is within `maxDays` or not known yet. */
function expiryProblem(props: Readonly<Record<string, unknown>>, maxDays: number, now: number): string | undefined {
  const inDays = props.expiresInDays;
  const at = props.expiresAt;
  if (inDays === UNKNOWN || at === UNKNOWN) return undefined;
  if (typeof inDays === "number") {
    return inDays > maxDays ? `expiresInDays is ${show(inDays)}, more than ${maxDays} days` : undefined;
  }
  if (typeof at === "string") {
    const when = Date.parse(at);
    // A date the provider cannot read is refused by its check, with the property's path.
    if (Number.isNaN(when)) return undefined;
    const ahead = (when - now) / DAY_MS;
    return ahead > maxDays
      ? `expiresAt ${show(at)} is ${Math.ceil(ahead)} days ahead, more than ${maxDays}`
      : undefined;
  }
  if (isAbsent(inDays) && isAbsent(at)) {
    return "declares no expiry (expiresInDays or expiresAt), so the token stays valid until it is deleted";
  }
  return undefined;
}

export const tokenExpiry: ResourceValidationPolicy = {
  name: "token-expiry",
  description:
    "Every TeamToken and OrganizationToken declares an expiry (expiresInDays, or expiresAt) no further than maxDays ahead, so that a leaked token stops working and the token is rotated when it expires (or rotateBeforeDays before).",
  // An organisation's convention, not the service's rule: advised unless the pack's config makes it mandatory.
  enforcementLevel: "advisory",
  configSchema: expirySchema,
  validateResource: validateKnownProps([TeamToken, OrganizationToken], (props, args, reportViolation) => {
    const { maxDays } = configOf<{ maxDays: number }>(expirySchema, args);
    const problem = expiryProblem(props, maxDays, Date.now());
    if (problem === undefined) return;
    reportViolation(
      `${subject(args)}: ${problem}. ` +
        `Fix: set expiresInDays to ${maxDays} or fewer (or expiresAt at most ${maxDays} days ahead); the preview plans the token's rotation once it expires, or rotateBeforeDays before.`,
    );
  }),
};

// ---------------------------------------------------------------------------------------------
// Team tokens with a description (not the team's single legacy token)
// ---------------------------------------------------------------------------------------------

export const teamTokenDescribed: ResourceValidationPolicy = {
  name: "team-token-described",
  description:
    "A TeamToken declares a description: one without is the team's single legacy token, which any other create of a legacy token for that team (another program, the UI, the API) revokes.",
  enforcementLevel: "advisory",
  configSchema: { properties: {} },
  validateResource: validateKnownProps([TeamToken], (props, args, reportViolation) => {
    if (!isAbsent(props.description)) return;
    reportViolation(
      `${subject(args)}: description is not set, so this is the team's single legacy token, which any other create of a legacy token for the team revokes. ` +
        "Fix: set description; a team has several described tokens, and each is revoked only on its own.",
    );
  }),
};
