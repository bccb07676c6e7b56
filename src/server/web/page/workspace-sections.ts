/**
 * The workspace page's sections about relations: the variable sets that reach it (in
 * precedence order), the teams with access, run triggers in and out, notification
 * configurations (no token: the service never sends one) and the workspaces that read its
 * state. Each is a `section[data-section]` with a data attribute per row (the browser
 * test's contract).
 */
import { badge, card, h, none, table } from "./dom";
import type { PrecedenceSet } from "../../../api/precedence";
import { accessRows, count, precedenceRows, scopeText, type AccessRow, type Resource } from "./format";
import { workspaceHash } from "./router";

/** What the workspace page read; null where the session's token may not read it. */
export interface WorkspaceData {
  org: string;
  ws: Resource;
  projectId: string | null;
  project: Resource | null;
  pool: Resource | null;
  ownTags: Resource[] | null;
  effectiveTags: Resource[] | null;
  variables: Resource[] | null;
  variableSets: Resource[] | null;
  /** Each set's variables, by set id. */
  setVariables: Map<string, Resource[]>;
  /** The sets as precedence sees them, in the order listed. */
  precedence: PrecedenceSet[];
  /** Variables (own or of a set) that another wins over, by id: the winner's name. */
  overridden: Map<string, string>;
  workspaceGrants: Resource[] | null;
  projectGrants: Resource[] | null;
  teams: Resource[] | null;
  inbound: Resource[] | null;
  outbound: Resource[] | null;
  notifications: Resource[] | null;
  consumers: Resource[] | null;
}

/** What a section shows in place of what the session's token may not read. */
export function notReadable(what: string): HTMLElement {
  return h("p", { class: "muted", "data-unreadable": "" }, `This session's token may not read ${what}.`);
}

const ACCESS_FROM = {
  workspace: "a grant on this workspace",
  project: "a grant on its project",
  organization: "the organization's permissions",
} as const;

export function variableSetsSection(d: WorkspaceData): HTMLElement {
  const rows = precedenceRows(d.precedence);
  if (d.variableSets === null)
    return card({ "data-section": "variable-sets" }, "Variable sets", notReadable("the variable sets that reach it"));
  const byId = new Map(d.variableSets.map((s) => [s.id, s]));
  return card(
    { "data-section": "variable-sets" },
    "Variable sets",
    h(
      "p",
      { class: "muted" },
      "Strongest first: for a key that several define, the first listed wins. Priority sets override the workspace's own variables.",
    ),
    d.variableSets.length ? null : none("No variable set reaches this workspace."),
    h(
      "ol",
      { class: "precedence" },
      rows.map((row) => {
        if (row.kind === "own")
          return h(
            "li",
            { class: "own", "data-own-variables": "" },
            h("strong", null, "This workspace's own variables"),
            " ",
            h("span", { class: "muted" }, d.variables ? count(d.variables.length, "variable") : ""),
          );
        const doc = byId.get(row.set.id);
        const keys = (d.setVariables.get(row.set.id) ?? []).map((v) => {
          const winner = d.overridden.get(v.id);
          const key = String(v.attributes?.key ?? "");
          return winner
            ? h("code", { class: "chip overridden", title: `overridden by ${winner}` }, key)
            : h("code", { class: "chip" }, key);
        });
        return h(
          "li",
          { "data-variable-set": row.set.name, "data-scope": row.scope, "data-priority": String(row.set.priority) },
          h("strong", null, row.set.name),
          " ",
          row.set.priority ? badge("priority", "warn") : null,
          " ",
          badge(scopeText(row.scope, row.set.ownedByProject), row.scope === "global" ? "info" : "muted"),
          doc?.attributes?.description ? h("div", { class: "muted" }, String(doc.attributes.description)) : null,
          keys.length
            ? h(
                "div",
                { class: "keys" },
                keys.map((k) => h("code", { class: "chip" }, k)),
              )
            : null,
        );
      }),
    ),
  );
}

/** One row per team (its `data-team` unique), a line per grant: the level, where it comes from, what a custom one allows. */
export function teamAccessSection(d: WorkspaceData): HTMLElement {
  const byTeam = new Map<string, AccessRow[]>();
  for (const r of accessRows(d.workspaceGrants ?? [], d.projectGrants ?? [], d.teams ?? []))
    byTeam.set(r.team, [...(byTeam.get(r.team) ?? []), r]);
  const unread = [
    d.workspaceGrants === null ? "grants on this workspace" : null,
    d.projectGrants === null ? "grants on its project" : null,
    d.teams === null ? "the organization's teams" : null,
  ].filter((w) => w !== null);
  return card(
    { "data-section": "team-access" },
    "Team access",
    byTeam.size
      ? table(
          ["Team", "Access"],
          [...byTeam].map(([team, grants]) =>
            h(
              "tr",
              { "data-team": team },
              h("td", null, h("strong", null, team)),
              h(
                "td",
                null,
                grants.map((g) =>
                  h(
                    "div",
                    { class: "grant", "data-grant": g.source, "data-access": g.access },
                    badge(g.access, `access-${g.access}`),
                    h("span", { class: "muted" }, ` from ${ACCESS_FROM[g.source]} `),
                    g.details.map((p) => h("span", { class: "chip" }, p)),
                  ),
                ),
              ),
            ),
          ),
          { class: "access" },
        )
      : unread.length
        ? null
        : none("No team has access to this workspace."),
    unread.length ? notReadable(`${unread.join(", ")}: the list may be incomplete`) : null,
  );
}

function workspaceLink(org: string, id: string | undefined, name: string): HTMLElement {
  return id ? h("a", { href: workspaceHash(org, id) }, name) : h("span", null, name);
}

export function triggersSection(d: WorkspaceData): HTMLElement {
  const name = String(d.ws.attributes?.name ?? d.ws.id);
  const inbound = (d.inbound ?? []).map((t) => {
    const source = String(t.attributes?.["sourceable-name"] ?? "");
    return h(
      "li",
      { "data-trigger-in": source },
      workspaceLink(d.org, t.relationships?.sourceable?.data?.id, source),
      h("span", { class: "muted" }, ` → ${name}`),
    );
  });
  const outbound = (d.outbound ?? []).map((t) => {
    const target = String(t.attributes?.["workspace-name"] ?? "");
    return h(
      "li",
      { "data-trigger-out": target },
      h("span", { class: "muted" }, `${name} → `),
      workspaceLink(d.org, t.relationships?.workspace?.data?.id, target),
    );
  });
  return card(
    { "data-section": "run-triggers" },
    "Run triggers",
    h("h3", null, "Runs after an apply in"),
    d.inbound === null
      ? notReadable("its inbound run triggers")
      : inbound.length
        ? h("ul", { class: "links" }, inbound)
        : none("No workspace triggers this one."),
    h("h3", null, "Queues a run in"),
    d.outbound === null
      ? notReadable("its outbound run triggers")
      : outbound.length
        ? h("ul", { class: "links" }, outbound)
        : none("This workspace triggers no other."),
  );
}

export function notificationsSection(d: WorkspaceData): HTMLElement {
  return card(
    { "data-section": "notifications" },
    "Notifications",
    d.notifications === null
      ? notReadable("its notification configurations")
      : d.notifications.length
        ? table(
            ["Name", "Destination", "Address", "Triggers", "Enabled"],
            d.notifications.map((n) => {
              const a = n.attributes ?? {};
              const emails: unknown[] = Array.isArray(a["email-addresses"]) ? a["email-addresses"] : [];
              const address = a.url ? String(a.url) : emails.map(String).join(", ");
              const triggers: unknown[] = Array.isArray(a.triggers) ? a.triggers : [];
              return h(
                "tr",
                { "data-notification": String(a.name ?? n.id) },
                h("td", null, h("strong", null, String(a.name ?? n.id))),
                h("td", null, badge(String(a["destination-type"] ?? ""), "muted")),
                h("td", { class: "address" }, address ? h("code", null, address) : ""),
                h(
                  "td",
                  { class: "details" },
                  triggers.map((t) => h("span", { class: "chip" }, String(t))),
                ),
                h("td", null, a.enabled === true ? badge("enabled", "ok") : badge("disabled", "muted")),
              );
            }),
          )
        : none("No notification configuration."),
  );
}

export function stateReadersSection(d: WorkspaceData): HTMLElement {
  const global = d.ws.attributes?.["global-remote-state"] === true;
  const readers = [...(d.consumers ?? [])].sort((x, y) =>
    String(x.attributes?.name).localeCompare(String(y.attributes?.name)),
  );
  return card(
    { "data-section": "state-readers" },
    "Who reads its state",
    global
      ? h("p", { "data-state-readers": "global" }, badge("every workspace of the organization", "info"))
      : d.consumers === null
        ? notReadable("which workspaces may read its state")
        : readers.length
          ? h(
              "ul",
              { class: "links" },
              readers.map((r) => {
                const n = String(r.attributes?.name ?? r.id);
                return h("li", { "data-state-reader": n }, workspaceLink(d.org, r.id, n));
              }),
            )
          : none("No workspace this session sees may read its state."),
  );
}
