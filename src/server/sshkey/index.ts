import type { Domain } from "../context";
import { sshKeyCreateRequestSchema } from "../../api/organizations";
import { requireCaller } from "../app";
import { assertMember, type Caller } from "../auth/service";
import type { Db } from "../store/db";
import { inTransaction, now, prepare } from "../store/db";
import { newId } from "../ids";
import { notFound } from "../http/errors";
import { API_PREFIX, noContent, paginationEnvelope, parseBody, parsePage, ref, send, type Resource } from "../http/jsonapi";

interface SshKeyRecord {
  id: string;
  organization: string;
  name: string;
  created_at: string;
}

/** The key material is write-only: it is stored for runs and never rendered. */
function renderSshKey(k: SshKeyRecord): Resource {
  return {
    id: k.id,
    type: "ssh-keys",
    attributes: { name: k.name, "created-at": k.created_at },
    relationships: { organization: ref("organizations", k.organization) },
    links: { self: `${API_PREFIX}/ssh-keys/${k.id}` },
  };
}

function loadKey(db: Db, caller: Caller, id: string, manage: boolean): SshKeyRecord {
  const k = prepare(db, `SELECT id, organization, name, created_at FROM ssh_keys WHERE id = ?`).get(id) as SshKeyRecord | undefined;
  if (!k) throw notFound("SSH key not found");
  const role = assertMember(db, caller, k.organization);
  if (manage && !role.manageWorkspaces) throw notFound("SSH key not found");
  return k;
}

export const sshKeyDomain: Domain = {
  name: "ssh-keys",
  routes(app, { db }) {
    app.post<{ Params: { organization_name: string } }>("/organizations/:organization_name/ssh-keys", async (request, reply) => {
      const caller = requireCaller(request);
      const org = request.params.organization_name;
      if (!assertMember(db, caller, org).manageWorkspaces) throw notFound(`organization "${org}" not found`);
      const body = parseBody(sshKeyCreateRequestSchema, request.body);
      const id = newId("sshKey");
      inTransaction(db, () => {
        prepare(db, `INSERT INTO ssh_keys (id, organization, name, value, created_at) VALUES (?, ?, ?, ?, ?)`).run(id, org, body.data.attributes.name, body.data.attributes.value, now());
      });
      return send(reply, 201, { data: renderSshKey(loadKey(db, caller, id, false)) });
    });

    app.get<{ Params: { organization_name: string }; Querystring: Record<string, unknown> }>("/organizations/:organization_name/ssh-keys", async (request, reply) => {
      const caller = requireCaller(request);
      const org = request.params.organization_name;
      assertMember(db, caller, org);
      const page = parsePage(request.query);
      const total = (prepare(db, `SELECT COUNT(*) AS n FROM ssh_keys WHERE organization = ?`).get(org) as { n: number }).n;
      const rows = db
        .prepare(`SELECT id, organization, name, created_at FROM ssh_keys WHERE organization = ? ORDER BY name, id LIMIT ? OFFSET ?`)
        .all(org, page.size, (page.number - 1) * page.size) as SshKeyRecord[];
      return send(reply, 200, { data: rows.map(renderSshKey), ...paginationEnvelope(request, page, total) });
    });

    app.get<{ Params: { id: string } }>("/ssh-keys/:id", async (request, reply) => {
      return send(reply, 200, { data: renderSshKey(loadKey(db, requireCaller(request), request.params.id, false)) });
    });

    app.delete<{ Params: { id: string } }>("/ssh-keys/:id", async (request, reply) => {
      const k = loadKey(db, requireCaller(request), request.params.id, true);
      inTransaction(db, () => prepare(db, `DELETE FROM ssh_keys WHERE id = ?`).run(k.id));
      return noContent(reply);
    });
  },
};
