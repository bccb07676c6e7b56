/**
 * Organization memberships (`client.organizationMemberships`): who is invited to an
 * organization and who has joined it. A membership is `invited` until the person accepts,
 * then `active`; both are normal states.
 */
import type { AnyResource } from "../api/common";
import {
  organizationMembershipCreateSchema,
  organizationMembershipDocumentSchema,
  organizationMembershipListDocumentSchema,
  type OrganizationMembershipResource,
  type OrganizationMembershipStatus,
} from "../api/memberships";
import { orUnavailable, organizationOwner, unavailableFromAnswer } from "./features";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { ValidationError } from "./typed-errors";
import { checkedBody, relId, relIds } from "./wire";

export type { OrganizationMembershipStatus };

/** A person's membership of an organization. */
export interface OrganizationMembership {
  /** Membership id (`ou-...`). */
  id: string;
  /** The email the person was invited with. */
  email: string;
  /** `invited` until the person accepts the invitation, then `active`. */
  status: OrganizationMembershipStatus;
  /** Organization name, or null when the service does not say. */
  organization: string | null;
  /** The person's user id (`user-...`), or null when the service does not say. */
  userId: string | null;
  /** The person's username, when the answer included the user and the person has one (an invited person may not yet). */
  username?: string;
  /** The teams the person is in (`team-...`). */
  teamIds: string[];
}

/** What to invite: an email and, optionally, the teams the person joins. */
export interface OrganizationMembershipCreateOptions {
  /** The email to invite. */
  email: string;
  /** Teams (`team-...`) the person is put in on invitation. */
  teamIds?: string[];
}

/** Filters of the membership list. */
export interface OrganizationMembershipListOptions {
  /** Exact emails (`filter[email]`), any case. */
  emails?: string[];
  /** Only invited or only active memberships (`filter[status]`). */
  status?: OrganizationMembershipStatus;
  /** A part of the email or the username, any case (`q`). */
  query?: string;
}

/**
 * 422 on an invitation: the organization already has a membership of that email (a
 * second invitation of one email is refused). `existing` is that membership, read back.
 */
export class MembershipExistsError extends ValidationError {
  /** The membership the email already has. */
  readonly existing: OrganizationMembership;
  constructor(refusal: ValidationError, existing: OrganizationMembership) {
    super({
      method: refusal.method,
      path: refusal.path,
      status: refusal.status,
      errors: refusal.errors,
      attempts: refusal.attempts,
      elapsedMs: refusal.elapsedMs,
    });
    this.existing = existing;
    this.message = `${refusal.message} (${existing.email} already has membership ${existing.id}, ${existing.status})`;
  }
}

/** The membership in `r`, the username taken from `included` when the service sent the user. */
function toMembership(
  r: OrganizationMembershipResource,
  included: AnyResource[] | undefined,
  organization: string | null,
): OrganizationMembership {
  const userId = relId(r, "user");
  const user = userId ? included?.find((i) => i.type === "users" && i.id === userId) : undefined;
  const username = user?.attributes?.username;
  const out: OrganizationMembership = {
    id: r.id,
    email: r.attributes.email,
    status: r.attributes.status === "invited" ? "invited" : "active",
    organization: relId(r, "organization") ?? organization,
    userId,
    teamIds: relIds(r, "teams"),
  };
  if (typeof username === "string" && username !== "") out.username = username;
  return out;
}

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Organization membership calls of a {@link WorkspacesClient} (`client.organizationMemberships`). */
export class OrganizationMemberships {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET /organizations/:org/organization-memberships?include=user`, 100 per page. The
   * filters are applied to what comes back as well, for servers that ignore them. A
   * server without memberships (OTF) raises {@link FeatureUnavailableError}.
   */
  list(organization: string, options: OrganizationMembershipListOptions = {}): PagedList<OrganizationMembership> {
    const emails = options.emails?.map((e) => e.toLowerCase());
    const query = options.query?.toLowerCase();
    const keep = (m: OrganizationMembership) =>
      (!emails || emails.includes(m.email.toLowerCase())) &&
      (!options.status || m.status === options.status) &&
      (!query || m.email.toLowerCase().includes(query) || (m.username ?? "").toLowerCase().includes(query));
    // Each membership keeps its page's `included` users: they give it its username.
    const schema = organizationMembershipListDocumentSchema.transform((doc) => ({
      ...doc,
      data: doc.data.map((r) => ({ r, included: doc.included })),
    }));
    return pagedGet(
      this.transport,
      urlPath("organizations", organization, "organization-memberships"),
      {
        include: "user",
        "filter[email]": options.emails?.join(","),
        "filter[status]": options.status,
        q: options.query,
      },
      schema,
      ({ r, included }) => toMembership(r, included, organization),
      (request) => orUnavailable(this.transport, "organization memberships", organizationOwner(organization), request),
      emails || options.status || query ? keep : undefined,
    );
  }

  /** `GET /organization-memberships/:id?include=user`. */
  async read(organizationMembershipId: string): Promise<OrganizationMembership> {
    const doc = await this.transport.requestParsed(
      {
        method: "GET",
        path: urlPath("organization-memberships", organizationMembershipId),
        query: { include: "user" },
        repeat: "idempotent",
      },
      organizationMembershipDocumentSchema,
    );
    return toMembership(doc.data, doc.included, null);
  }

  /** The membership of `email` in `organization` (any case), or null when it has none. */
  async findByEmail(organization: string, email: string): Promise<OrganizationMembership | null> {
    for await (const m of this.list(organization, { emails: [email] })) if (sameEmail(m.email, email)) return m;
    return null;
  }

  /**
   * `POST /organizations/:org/organization-memberships`: invites `email` (the service
   * sends the invitation). Never repeated after it reached the service (a second
   * invitation of one email is refused). A refusal because the email already has a
   * membership raises {@link MembershipExistsError} with that membership; a server that
   * answers without the email it was asked to invite (OTF's stand-in) raises
   * {@link FeatureUnavailableError}.
   */
  async create(organization: string, options: OrganizationMembershipCreateOptions): Promise<OrganizationMembership> {
    const path = urlPath("organizations", organization, "organization-memberships");
    const data: Record<string, unknown> = { type: "organization-memberships", attributes: { email: options.email } };
    if (options.teamIds?.length)
      data.relationships = { teams: { data: options.teamIds.map((id) => ({ type: "teams", id })) } };
    const body = checkedBody(organizationMembershipCreateSchema, "POST", path, { data });
    let doc;
    try {
      doc = await this.transport.requestParsed(
        { method: "POST", path, body, repeat: "once", conflict: "create" },
        organizationMembershipDocumentSchema,
      );
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const existing = await this.findByEmail(organization, options.email).catch(() => null);
      throw existing ? new MembershipExistsError(err, existing) : err;
    }
    const made = toMembership(doc.data, doc.included, organization);
    if (!sameEmail(made.email, options.email))
      throw unavailableFromAnswer(
        this.transport.baseUrl,
        "organization memberships",
        { method: "POST", path, status: 201 },
        `answered without the email it was asked to invite`,
      );
    return made;
  }

  /**
   * `DELETE /organization-memberships/:id`: removes the person from the organization and
   * its teams, or withdraws an invitation not yet accepted. A retry that finds it gone
   * means the first attempt deleted it.
   */
  async delete(organizationMembershipId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("organization-memberships", organizationMembershipId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }
}
