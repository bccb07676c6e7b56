/**
 * The organisation's home: its projects, each a card listing its workspaces with their tags,
 * execution mode and counts, and a filter box over names, tags and projects. Also the
 * organisation picker of a token that reaches several.
 */
import { listAll } from "./api";
import { badge, h, none, replace, table } from "./dom";
import { count, matchesFilter, type Resource } from "./format";
import { homeHash, mapHash, workspaceHash } from "./router";

const byName = (a: Resource, b: Resource) =>
  String(a.attributes?.name ?? "").localeCompare(String(b.attributes?.name ?? ""));

function workspaceRow(org: string, project: string, ws: Resource): HTMLTableRowElement {
  const a = ws.attributes ?? {};
  const name = String(a.name ?? ws.id);
  const tags: string[] = Array.isArray(a["tag-names"]) ? a["tag-names"].map(String) : [];
  const vars: unknown = ws.relationships?.vars?.data;
  const row = h(
    "tr",
    null,
    h(
      "td",
      null,
      h("a", { href: workspaceHash(org, ws.id), "data-workspace": name }, name),
      a.description ? h("div", { class: "muted small" }, String(a.description)) : null,
    ),
    h(
      "td",
      { class: "badges" },
      tags.map((t) => badge(t, "tag")),
    ),
    h(
      "td",
      null,
      badge(String(a["execution-mode"] ?? "remote"), "mode"),
      a.locked === true ? [" ", badge("locked", "warn")] : null,
    ),
    h("td", { class: "num" }, String(a["resource-count"] ?? 0)),
    h("td", { class: "num" }, Array.isArray(vars) ? String(vars.length) : "–"),
  );
  row.dataset.words = JSON.stringify([name, project, ...tags]);
  return row;
}

/** Renders the projects and workspaces of `org` into `container`. */
export async function renderHome(container: HTMLElement, org: string): Promise<void> {
  const enc = encodeURIComponent(org);
  const [projects, workspaces] = await Promise.all([
    listAll(`/organizations/${enc}/projects`),
    listAll(`/organizations/${enc}/workspaces`),
  ]);
  document.title = `${org} · workspaces`;
  const inProject = new Map<string, Resource[]>();
  for (const ws of workspaces) {
    const pid = String(ws.relationships?.project?.data?.id ?? "");
    inProject.set(pid, [...(inProject.get(pid) ?? []), ws]);
  }
  const cards = [...projects].sort(byName).map((p: Resource) => {
    const name = String(p.attributes?.name ?? p.id);
    const list = (inProject.get(p.id) ?? []).sort(byName);
    return h(
      "section",
      { class: "card project", "data-project": name },
      h(
        "h2",
        null,
        name,
        " ",
        badge(count(list.length, "workspace"), "muted"),
        p.attributes?.["is-default"] === true ? [" ", badge("default", "info")] : null,
      ),
      p.attributes?.description ? h("p", { class: "muted" }, String(p.attributes.description)) : null,
      list.length
        ? table(
            ["Workspace", "Tags", "Execution", "Resources", "Variables"],
            list.map((ws) => workspaceRow(org, name, ws)),
            { class: "workspaces" },
          )
        : none("No workspaces."),
    );
  });
  const nothing = none("No workspace matches the filter.");
  nothing.hidden = true;
  const filter = h("input", {
    type: "search",
    class: "filter",
    placeholder: "Filter by name, tag or project",
    "aria-label": "Filter workspaces",
    "data-filter": "",
  });
  filter.addEventListener("input", () => {
    const query = filter.value.trim();
    let shown = 0;
    for (const card of cards) {
      let inCard = 0;
      for (const row of card.querySelectorAll<HTMLTableRowElement>("tbody tr")) {
        row.hidden = !matchesFilter(query, JSON.parse(row.dataset.words ?? "[]") as string[]);
        if (!row.hidden) inCard++;
      }
      card.hidden = query !== "" && inCard === 0;
      shown += inCard;
    }
    nothing.hidden = shown > 0 || query === "";
  });
  replace(
    container,
    h(
      "header",
      { class: "page-head" },
      h("h1", null, org),
      h(
        "p",
        { class: "muted" },
        `${count(projects.length, "project")} · ${count(workspaces.length, "workspace")} · `,
        h("a", { href: mapHash(org) }, "see the map"),
      ),
      filter,
    ),
    nothing,
    h("div", { class: "projects" }, cards),
  );
}

/** The organisations the session reaches, each a link to its home. */
export function renderOrganizations(container: HTMLElement, organizations: Resource[]): void {
  document.title = "Organizations · workspaces";
  replace(
    container,
    h("header", { class: "page-head" }, h("h1", null, "Organizations")),
    organizations.length
      ? h(
          "ul",
          { class: "org-list" },
          [...organizations]
            .sort(byName)
            .map((o) =>
              h(
                "li",
                { class: "card", "data-organization": o.id },
                h("a", { href: homeHash(o.id) }, String(o.attributes?.name ?? o.id)),
              ),
            ),
        )
      : none("This token reaches no organization."),
  );
}
