/** Teams of an organization (`client.teams`). */
import {
  teamDocumentSchema,
  teamListDocumentSchema,
  type OrganizationAccessFlag,
  type TeamResource,
  type TEAM_VISIBILITIES,
} from "../api/teams";
import { type PagedList, pagedGet } from "./pagination";
import { type Transport, urlPath } from "./transport";
import { camelKeys, relId, relIds, toWire } from "./wire";

/** `manage-workspaces` read as `manageWorkspaces`, and so on for every flag. */
type CamelFlag<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelFlag<T>>}` : S;
/** The organization access flags in the client's spelling. */
export type OrganizationAccess = { [K in OrganizationAccessFlag as CamelFlag<K>]: boolean };

/** A team. */
export interface Team {
  /** Team id (`team-...`). */
  id: string;
  /** Team name, unique in the organization. */
  name: string;
  /** Organization name, or null when the service does not say. */
  organization: string | null;
  /** `secret` or `organization`, or null when the service does not say. */
  visibility: string | null;
  /** The team's id in the SAML identity provider (`sso-team-id`, matched against the `MemberOf` attribute), or null when none is set. */
  ssoTeamId: string | null;
  /** Whether members may manage the team's API token (`allow-member-token-management`), or null when the service does not say. */
  allowMemberTokenManagement: boolean | null;
  /** The organization-wide permissions the team holds; a flag the service leaves out is absent. */
  organizationAccess: Partial<OrganizationAccess>;
  /** The team's members (user ids). */
  userIds: string[];
  /** Every attribute exactly as received. */
  attributes: Record<string, unknown>;
}

/** A team to create: its name and, optionally, its settings. */
export interface TeamCreateOptions {
  /** Team name, unique in the organization. */
  name: string;
  /** The flags to set; those left out are false. */
  organizationAccess?: Partial<OrganizationAccess>;
  /** Who sees the team: `secret` (its members and the owners; the default) or `organization` (every member). */
  visibility?: (typeof TEAM_VISIBILITIES)[number];
  /** The team's id in the SAML identity provider (`sso-team-id`, matched against the `MemberOf` attribute); null clears it. */
  ssoTeamId?: string | null;
  /** Whether members may manage the team's API token (`allow-member-token-management`; default true). */
  allowMemberTokenManagement?: boolean;
}

/** What to change: only the settings and flags given change. */
export type TeamUpdateOptions = Partial<TeamCreateOptions>;

/** Filters of the team list. */
export interface TeamListOptions {
  /** Exact names (`filter[names]`). */
  names?: string[];
  /** A part of the name, any case (`q`). */
  query?: string;
}

function toTeam(r: TeamResource): Team {
  const a = r.attributes;
  return {
    id: r.id,
    name: a.name,
    organization: relId(r, "organization"),
    visibility: a.visibility ?? null,
    ssoTeamId: a["sso-team-id"] ?? null,
    allowMemberTokenManagement: a["allow-member-token-management"] ?? null,
    organizationAccess: camelKeys(a["organization-access"] as Record<string, boolean> | undefined),
    userIds: relIds(r, "users"),
    attributes: a,
  };
}

function teamBody(options: TeamUpdateOptions) {
  const attributes = toWire(options, ["name", "visibility", "ssoTeamId", "allowMemberTokenManagement"]);
  if (options.organizationAccess)
    attributes["organization-access"] = toWire(
      options.organizationAccess,
      Object.keys(options.organizationAccess) as (keyof OrganizationAccess)[],
    );
  return { data: { type: "teams", attributes } };
}

/** Team calls of a {@link WorkspacesClient} (`client.teams`). */
export class Teams {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET /organizations/:org/teams`, 100 per page. The filters are applied to what comes
   * back as well, for servers that ignore them (OTF lists every team).
   */
  list(organization: string, options: TeamListOptions = {}): PagedList<Team> {
    const names = options.names && new Set(options.names);
    const query = options.query?.toLowerCase();
    return pagedGet(
      this.transport,
      urlPath("organizations", organization, "teams"),
      { "filter[names]": options.names?.join(","), q: options.query },
      teamListDocumentSchema,
      toTeam,
      undefined,
      names || query
        ? (t) => (!names || names.has(t.name)) && (!query || t.name.toLowerCase().includes(query))
        : undefined,
    );
  }

  /** `GET /teams/:id`. */
  async read(teamId: string): Promise<Team> {
    const doc = await this.transport.requestParsed(
      { method: "GET", path: urlPath("teams", teamId), repeat: "idempotent" },
      teamDocumentSchema,
    );
    return toTeam(doc.data);
  }

  /** `POST /organizations/:org/teams`; never repeated after it reached the service (a second would be refused by name). */
  async create(organization: string, options: TeamCreateOptions): Promise<Team> {
    const doc = await this.transport.requestParsed(
      {
        method: "POST",
        path: urlPath("organizations", organization, "teams"),
        body: teamBody(options),
        repeat: "once",
        conflict: "create",
      },
      teamDocumentSchema,
    );
    return toTeam(doc.data);
  }

  /** `PATCH /teams/:id`: setting the same values twice leaves the same team, so it is retried like a read. */
  async update(teamId: string, options: TeamUpdateOptions): Promise<Team> {
    const doc = await this.transport.requestParsed(
      { method: "PATCH", path: urlPath("teams", teamId), body: teamBody(options), repeat: "idempotent" },
      teamDocumentSchema,
    );
    return toTeam(doc.data);
  }

  /** `DELETE /teams/:id`; a retry that finds the team gone means the first attempt deleted it. */
  async delete(teamId: string): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: urlPath("teams", teamId),
      repeat: "idempotent",
      goneMeansDone: true,
    });
  }
}
