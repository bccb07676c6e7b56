/** Provider of `OrganizationMembership` (`/organizations/:org/organization-memberships`, `/organization-memberships/:id`), id `ou-...`. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isId } from "../../api/common";
import {
  MembershipExistsError,
  type OrganizationMembership as ApiMembership,
  type WorkspacesClient,
} from "../../client";
import { reportInfo } from "../process/engine-status";
import { adoptable, type Adopter } from "./adoption";
import { getClient, isNotFound } from "./client";
import { diffFields, type FieldRule } from "./compare";
import { confirmGone, unlessGone, type MissingRecord } from "./gone";
import { checkedOrganization } from "./inputs";
import { answerLost } from "./lost-create";
import { ProviderError, explainingMissingFeatures } from "./user-errors";
import { isUnknown } from "./unknowns";
import type { CheckFailure, ProviderImpl, Props } from "./types";
import type { OrganizationMembershipArgs } from "../organization-membership";

/** Inputs as the engine hands them over. */
type MembershipInputs = pulumi.Unwrap<OrganizationMembershipArgs>;

/** Outputs as stored in state. */
type MembershipOutputs = {
  email: string;
  organization: string | null;
  status: string;
  userId: string | null;
  username: string | null;
};

const sameEmail = (a: unknown, b: unknown) =>
  typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

const FIELDS: FieldRule[] = [
  { name: "organization", replaces: true },
  // The service may store an email in another case: the same address is no change.
  { name: "email", replaces: true, same: sameEmail },
];

const emailSchema = z.email();

function label(id: string, email: unknown): string {
  return typeof email === "string" && email !== ""
    ? `organization membership of ${email} (${id})`
    : `organization membership ${id}`;
}

function missing(id: string, props: Props): MissingRecord {
  return { label: label(id, props.email), organization: props.organization, kind: "organization membership" };
}

function outputsOf(m: ApiMembership, organization: unknown): MembershipOutputs {
  return {
    email: m.email,
    organization: m.organization ?? (typeof organization === "string" ? organization : null),
    status: m.status,
    userId: m.userId,
    username: m.username ?? null,
  };
}

function notAMembershipId(id: string): ProviderError {
  return new ProviderError(
    `${JSON.stringify(id)} is not the id of an OrganizationMembership: give its ou-<id> (ou-5nQ2rWzXkP8vLtYb) or <organization>/<email> (acme/ada@example.com)`,
  );
}

/**
 * The membership an invitation of `email` found in place of its answer: the one the email
 * already has (a 422), or, when the answer was lost on the way, the one the service made.
 * Undefined when neither applies.
 */
async function existingAfter(
  err: unknown,
  client: WorkspacesClient,
  organization: string,
  email: string,
): Promise<ApiMembership | undefined> {
  if (err instanceof MembershipExistsError) return err.existing;
  if (!answerLost(err)) return undefined;
  return (await client.organizationMemberships.findByEmail(organization, email).catch(() => null)) ?? undefined;
}

/** Reads a membership by `ou-` id, or by `<organization>/<email>` (an import). */
async function readMembership(id: string, props: Props): Promise<{ id?: string; props?: MembershipOutputs }> {
  const client = getClient();
  const slash = id.indexOf("/");
  if (slash > 0) {
    const organization = id.slice(0, slash);
    const found = await client.organizationMemberships.findByEmail(organization, id.slice(slash + 1));
    return found ? { id: found.id, props: outputsOf(found, organization) } : {};
  }
  if (!isId("organizationMembership", id)) throw notAMembershipId(id);
  return unlessGone(
    client,
    missing(id, props),
    "refresh",
    async () => ({ id, props: outputsOf(await client.organizationMemberships.read(id), props.organization) }),
    () => ({}),
  );
}

const provider: ProviderImpl<MembershipInputs & Props, MembershipOutputs> = {
  async check(olds, news) {
    const failures: CheckFailure[] = [];
    const inputs: Props = { ...news };
    checkedOrganization(olds, news, inputs, failures);
    const email = news.email;
    if (email === undefined || email === null || email === "")
      failures.push({ property: "email", reason: "email is required: the address the invitation goes to" });
    else if (!isUnknown(email) && (typeof email !== "string" || !emailSchema.safeParse(email.trim()).success))
      failures.push({
        property: "email",
        reason: `email must be an email address (ada@example.com), not ${JSON.stringify(email)}`,
      });
    else if (typeof email === "string") inputs.email = email.trim();
    return { inputs: inputs as MembershipInputs & Props, failures };
  },

  async diff(_id, olds, news) {
    const { changed, replaces } = diffFields(olds, news, FIELDS);
    return { changes: changed.length > 0, replaces };
  },

  async create(inputs) {
    const client = getClient();
    const organization = String(inputs.organization);
    const email = String(inputs.email);
    try {
      const made = await client.organizationMemberships.create(organization, { email });
      return { id: made.id, outs: outputsOf(made, organization) };
    } catch (err) {
      const existing = await existingAfter(err, client, organization, email);
      // A pending invitation of this email is the one an interrupted create sent (a runner
      // killed after the invitation, an answer lost): taken over, never sent twice.
      if (existing?.status !== "invited") throw err;
      reportInfo(
        `took over the pending invitation of ${existing.email} to organization "${organization}" (${existing.id}) instead of sending a second one`,
      );
      return { id: existing.id, outs: outputsOf(existing, organization) };
    }
  },

  read: readMembership,

  async update(id, olds) {
    // Email and organization replace, so there is nothing to send: read to keep the status current.
    const read = await readMembership(id, olds);
    if (!read.props)
      throw new ProviderError(
        `cannot update ${label(id, olds.email)}: it was deleted outside the program. Run \`pulumi refresh\`, then \`pulumi up\` invites the email again.`,
      );
    return { outs: read.props };
  },

  async delete(id, props) {
    const client = getClient();
    try {
      await client.organizationMemberships.delete(id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(client, missing(id, props), "delete");
    }
  },
};

const membershipAdopter: Adopter = {
  noun: "organization membership",
  key(inputs) {
    const { organization, email } = inputs;
    return typeof organization === "string" && typeof email === "string" && !isUnknown(email)
      ? `of ${email} in organization "${organization}"`
      : undefined;
  },
  async find(client, inputs) {
    const organization = String(inputs.organization);
    const m = await client.organizationMemberships.findByEmail(organization, String(inputs.email));
    if (!m) return undefined;
    return {
      id: m.id,
      label: `organization membership of ${m.email} (${m.id}, ${m.status}) in organization "${organization}"`,
      seed: { organization },
    };
  },
  isTaken: (err) => err instanceof MembershipExistsError,
  async describeExisting(client, inputs) {
    return (await this.find(client, inputs))?.label;
  },
  otherwise:
    "Programs on the provider plugin can instead `pulumi import workspaces:index:OrganizationMembership` it by that ou- id or by <organization>/<email>.",
};

export const organizationMembershipProvider = adoptable(
  explainingMissingFeatures(provider, "organization membership"),
  membershipAdopter,
);
