import type { FastifyInstance } from "fastify";
import { membersSchema } from "../../api/admin";
import { organizationMembershipCreateSchema, teamOrganizationMembershipsBodySchema } from "../../api/memberships";
import { requireCaller } from "../app";
import type { ServerContext } from "../context";
import { Invalid, NotFound } from "../domain-errors";
import {
  commaList,
  noContent,
  paginationEnvelope,
  parseBody,
  parseInclude,
  parsePage,
  queryText,
  send,
  type Resource,
} from "../http/jsonapi";
import type { Db } from "../store/db";
import { renderMembership, renderTeam, renderUser } from "./render";
import type { Caller } from "./service/caller";
import { loadTeam, teamPermissions } from "./service/teams";
import {
  acceptMembership,
  createMembership,
  deleteMembership,
  listMemberships,
  loadMembership,
  membershipTeamIds,
  membershipUser,
  type MembershipRecord,
} from "./service/memberships";
import { addTeamMemberships, addTeamUsers, removeTeamMemberships, removeTeamUsers } from "./service/team-members";

/**
 * People of an organization in the hosted service's shapes: memberships
 * (`/organizations/:org/organization-memberships`, `/organization-memberships/:id`, and
 * for a local server only `POST /organization-memberships/:id/actions/accept`) and who
 * is on a team (`/teams/:id/relationships/users`, `.../organization-memberships`).
 */

/** The user a membership or a team includes, with the email the caller may see as a member of its organization. */
export function includedUser(db: Db, userId: string): Resource[] {
  const u = membershipUser(db, userId);
  const user = u && renderUser(db, u.id, u.service_account === 1 ? undefined : u.email);
  return user ? [user] : [];
}

/** The teams a membership list includes: those the caller sees (a secret team it may not see is left out). */
function includedTeams(db: Db, caller: Caller, teamIds: ReadonlyArray<string>): Resource[] {
  return teamIds.flatMap((id) => {
    try {
      const team = loadTeam(db, caller, id, false);
      return [renderTeam(db, team, teamPermissions(db, caller, team))];
    } catch (e) {
      if (e instanceof NotFound) return [];
      throw e;
    }
  });
}

function membershipDocument(db: Db, m: MembershipRecord, include: ReadonlySet<string>) {
  return {
    data: renderMembership(m, membershipTeamIds(db, m)),
    ...(include.has("user") ? { included: includedUser(db, m.user_id) } : {}),
  };
}

const MEMBERSHIP_STATUSES = ["invited", "active"] as const;

function statusFilter(raw: unknown): MembershipRecord["status"] | undefined {
  const value = queryText(raw ?? "");
  if (!value) return undefined;
  if (!(MEMBERSHIP_STATUSES as readonly string[]).includes(value))
    throw new Invalid(`filter[status] must be "invited" or "active"`, { parameter: "filter[status]" });
  return value as MembershipRecord["status"];
}

export function peopleRoutes(app: FastifyInstance, { db }: ServerContext): void {
  app.post<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/organization-memberships",
    async (request, reply) => {
      const m = createMembership(db, requireCaller(request), request.params.organization_name, () => {
        const d = parseBody(organizationMembershipCreateSchema, request.body).data;
        return { email: d.attributes.email, teamIds: d.relationships?.teams?.data.map((t) => t.id) ?? [] };
      });
      // The service's answer to a create includes the user.
      return send(reply, 201, membershipDocument(db, m, new Set(["user"])));
    },
  );

  app.get<{ Params: { organization_name: string } }>(
    "/organizations/:organization_name/organization-memberships",
    async (request, reply) => {
      const q = request.query as Record<string, unknown>;
      let include = new Set<string>();
      const caller = requireCaller(request);
      const { rows, total, page } = listMemberships(db, caller, request.params.organization_name, () => {
        include = parseInclude(q, ["user", "teams"]);
        return {
          filter: {
            emails: commaList(q["filter[email]"], "filter[email]"),
            status: statusFilter(q["filter[status]"]),
            query: queryText(q["q"] ?? "") || undefined,
          },
          page: parsePage(q),
        };
      });
      const data = rows.map((m) => ({ m, teams: membershipTeamIds(db, m) }));
      const included: Resource[] = [];
      if (include.has("user")) for (const { m } of data) included.push(...includedUser(db, m.user_id));
      if (include.has("teams"))
        included.push(...includedTeams(db, caller, [...new Set(data.flatMap(({ teams }) => teams))]));
      return send(reply, 200, {
        data: data.map(({ m, teams }) => renderMembership(m, teams)),
        ...(include.size ? { included } : {}),
        ...paginationEnvelope(request, page, total),
      });
    },
  );

  app.get<{ Params: { id: string } }>("/organization-memberships/:id", async (request, reply) => {
    const m = loadMembership(db, requireCaller(request), request.params.id);
    return send(
      reply,
      200,
      membershipDocument(db, m, parseInclude(request.query as Record<string, unknown>, ["user"])),
    );
  });

  app.delete<{ Params: { id: string } }>("/organization-memberships/:id", async (request, reply) => {
    deleteMembership(db, requireCaller(request), request.params.id);
    return noContent(reply);
  });

  app.post<{ Params: { id: string } }>("/organization-memberships/:id/actions/accept", async (request, reply) => {
    const m = acceptMembership(db, requireCaller(request), request.params.id);
    return send(reply, 200, membershipDocument(db, m, new Set()));
  });

  const usernames = (body: unknown) => () => parseBody(membersSchema, body).data.map((item) => item.id);
  const membershipIds = (body: unknown) => () =>
    parseBody(teamOrganizationMembershipsBodySchema, body).data.map((item) => item.id);

  app.post<{ Params: { id: string } }>("/teams/:id/relationships/users", async (request, reply) => {
    addTeamUsers(db, requireCaller(request), request.params.id, usernames(request.body));
    return noContent(reply);
  });

  app.delete<{ Params: { id: string } }>("/teams/:id/relationships/users", async (request, reply) => {
    removeTeamUsers(db, requireCaller(request), request.params.id, usernames(request.body));
    return noContent(reply);
  });

  app.post<{ Params: { id: string } }>("/teams/:id/relationships/organization-memberships", async (request, reply) => {
    addTeamMemberships(db, requireCaller(request), request.params.id, membershipIds(request.body));
    return noContent(reply);
  });

  app.delete<{ Params: { id: string } }>(
    "/teams/:id/relationships/organization-memberships",
    async (request, reply) => {
      removeTeamMemberships(db, requireCaller(request), request.params.id, membershipIds(request.body));
      return noContent(reply);
    },
  );
}
