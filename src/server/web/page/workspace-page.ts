/**
 * A workspace's page: its settings, tags and variables here, and the relations (variable
 * sets, team access, run triggers, notifications, state readers) drawn by
 * ./workspace-sections.ts. Every read goes through the API the clients use; the reads
 * after the workspace's own run a few at a time.
 */
import { variableCategoryOf } from "../../../api/variable-categories";
import { ApiError, getJson, inParallel, listAll } from "./api";
import { badge, card, type Child, facts, h, none, replace, table } from "./dom";
import { overriddenBy, precedenceSetOf, type Resource } from "./format";
import { homeHash } from "./router";
import {
  notificationsSection,
  stateReadersSection,
  teamAccessSection,
  triggersSection,
  variableSetsSection,
  notReadable,
  type WorkspaceData,
} from "./workspace-sections";

/** Reads at a time for one page (the session's rate limit allows far more; this keeps the server's log readable). */
const PARALLEL_READS = 6;

/** Whether a failed read means the token may not see what it asked for (or the server has no such route). */
const unreadable = (err: unknown) => err instanceof ApiError && (err.status === 403 || err.status === 404);

/** `read()`, or null when the session's token may not read it: that section says so, the rest of the page shows. */
async function ifReadable<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (unreadable(err)) return null;
    throw err;
  }
}

/** Everything the page shows, read in parallel once the workspace (and so its project) is known. */
async function load(org: string, id: string): Promise<WorkspaceData> {
  const enc = encodeURIComponent;
  const ws: Resource = (await getJson(`/workspaces/${enc(id)}`)).data;
  const path = `/workspaces/${enc(ws.id)}`;
  const projectId: string | null = ws.relationships?.project?.data?.id ?? null;
  const poolId: string | null = ws.relationships?.["agent-pool"]?.data?.id ?? null;
  const filter = (kind: string, value: string) => `filter%5B${kind}%5D%5Bid%5D=${enc(value)}`;
  const triggers = (type: string) => `${path}/run-triggers?filter%5Brun-trigger%5D%5Btype%5D=${type}`;
  const reads: Record<string, () => Promise<any>> = {
    project: async () => (projectId ? (await getJson(`/projects/${enc(projectId)}`)).data : null),
    pool: async () => (poolId ? (await getJson(`/agent-pools/${enc(poolId)}`)).data : null),
    ownTags: () => listAll(`${path}/tag-bindings`),
    effectiveTags: () => listAll(`${path}/effective-tag-bindings`),
    variables: () => listAll(`${path}/vars`),
    variableSets: () => listAll(`${path}/varsets`),
    workspaceGrants: () => listAll(`/team-workspaces?${filter("workspace", ws.id)}`),
    projectGrants: async () => (projectId ? listAll(`/team-projects?${filter("project", projectId)}`) : []),
    teams: () => listAll(`/organizations/${enc(org)}/teams`),
    inbound: () => listAll(triggers("inbound")),
    outbound: () => listAll(triggers("outbound")),
    notifications: () => listAll(`${path}/notification-configurations`),
    consumers: () => listAll(`${path}/relationships/remote-state-consumers`),
  };
  const names = Object.keys(reads);
  const values = await inParallel(names, PARALLEL_READS, (name) => ifReadable(reads[name]));
  const got = Object.fromEntries(names.map((n, i) => [n, values[i]]));
  // Each set's variables (their keys; a sensitive value is never sent).
  const setVariables = new Map<string, Resource[]>();
  const sets: Resource[] = got.variableSets ?? [];
  await inParallel(sets, PARALLEL_READS, async (s) => {
    setVariables.set(s.id, (await ifReadable(() => listAll(`/varsets/${enc(s.id)}/relationships/vars`))) ?? []);
  });
  const precedence = sets.map((s) => precedenceSetOf(s, ws.id, projectId));
  const overridden = overriddenBy(
    got.variables ?? [],
    precedence.map((set) => ({ set, variables: setVariables.get(set.id) ?? [] })),
  );
  const computed = { setVariables, precedence, overridden };
  return {
    org,
    ws,
    projectId,
    ...(got as Omit<WorkspaceData, "org" | "ws" | "projectId" | keyof typeof computed>),
    ...computed,
  };
}

const yesNo = (value: unknown) => (value === true ? "yes" : "no");

function settingsSection(d: WorkspaceData): HTMLElement {
  const a = d.ws.attributes ?? {};
  const list = (values: unknown): Child =>
    Array.isArray(values) && values.length ? values.map((v) => h("code", { class: "chip" }, String(v))) : "none";
  const vcs = a["vcs-repo"] as { identifier?: string; branch?: string } | null | undefined;
  const engine = a["terraform-version"] ?? a["engine-version"];
  return card(
    { "data-section": "settings" },
    "Settings",
    facts(
      [
        ["Project", d.project ? String(d.project.attributes?.name ?? d.projectId) : (d.projectId ?? "none")],
        ["Execution mode", badge(String(a["execution-mode"] ?? "remote"), "mode")],
        ["Auto-apply", yesNo(a["auto-apply"])],
        ["Auto-apply run triggers", yesNo(a["auto-apply-run-trigger"])],
        ["Engine version", engine ? String(engine) : "latest"],
        ["Working directory", a["working-directory"] ? h("code", null, String(a["working-directory"])) : "the root"],
        ["Trigger prefixes", list(a["trigger-prefixes"])],
        ["Trigger patterns", list(a["trigger-patterns"])],
        [
          "VCS repository",
          vcs?.identifier ? [h("code", null, vcs.identifier), vcs.branch ? ` (branch ${vcs.branch})` : ""] : "none",
        ],
        ["Agent pool", d.pool ? String(d.pool.attributes?.name ?? d.pool.id) : "none"],
        [
          "Locked",
          a.locked === true ? badge(`locked${a["locked-reason"] ? `: ${a["locked-reason"]}` : ""}`, "warn") : "no",
        ],
        ["Global remote state", yesNo(a["global-remote-state"])],
        ["Resources in state", String(a["resource-count"] ?? 0)],
      ],
      true,
    ),
  );
}

function tagsSection(d: WorkspaceData): HTMLElement {
  const flat: string[] = d.ws.attributes?.["tag-names"] ?? [];
  const own = new Set((d.ownTags ?? []).map((t) => `${t.attributes?.key}\u0000${t.attributes?.value ?? ""}`));
  // The effective bindings (the project's too), else the workspace's own: both where the server serves them.
  const bindings = d.effectiveTags?.length ? d.effectiveTags : (d.ownTags ?? []);
  return card(
    { "data-section": "tags" },
    "Tags",
    h("h3", null, "Flat tags"),
    flat.length
      ? h(
          "p",
          { class: "badges" },
          flat.map((t) => h("span", { "data-tag": t }, badge(t, "tag"))),
        )
      : none("No tags."),
    h("h3", null, "Key-value tags"),
    bindings.length
      ? table(
          ["Key", "Value", "From"],
          bindings.map((b) => {
            const key = String(b.attributes?.key ?? "");
            const value = String(b.attributes?.value ?? "");
            const from = d.ownTags === null ? "" : own.has(`${key}\u0000${value}`) ? "this workspace" : "its project";
            return h(
              "tr",
              { "data-tag-binding": key },
              h("td", null, h("code", null, key)),
              h("td", null, value),
              h("td", null, from === "its project" ? badge(from, "muted") : from),
            );
          }),
        )
      : d.effectiveTags === null && d.ownTags === null
        ? notReadable("its key-value tags")
        : none("No key-value tags."),
  );
}

function variablesSection(d: WorkspaceData): HTMLElement {
  if (d.variables === null) return card({ "data-section": "variables" }, "Variables", notReadable("its variables"));
  const rows = [...d.variables].sort((x, y) => String(x.attributes?.key).localeCompare(String(y.attributes?.key)));
  return card(
    { "data-section": "variables" },
    `Variables (${rows.length})`,
    rows.length
      ? table(
          ["Key", "Value", "Category", "", "Description"],
          rows.map((v) => {
            const a = v.attributes ?? {};
            const sensitive = a.sensitive === true;
            const category = String(a.category ?? "");
            return h(
              "tr",
              { "data-variable": String(a.key) },
              h("td", null, h("code", null, String(a.key))),
              h(
                "td",
                { class: "value" },
                sensitive ? badge("sensitive", "secret") : h("code", null, String(a.value ?? "")),
                d.overridden.has(v.id) ? [" ", badge(`overridden by ${d.overridden.get(v.id)}`, "warn")] : null,
              ),
              h("td", null, variableCategoryOf(category) ?? category),
              h("td", null, a.hcl === true ? badge("HCL", "muted") : null),
              h("td", { class: "muted" }, a.description ? String(a.description) : ""),
            );
          }),
        )
      : none("This workspace has no variables of its own."),
  );
}

/** Renders workspace `id` of `org` into `container`. */
export async function renderWorkspace(container: HTMLElement, org: string, id: string): Promise<void> {
  const d = await load(org, id);
  const a = d.ws.attributes ?? {};
  const name = String(a.name ?? id);
  document.title = `${name} · ${org}`;
  replace(
    container,
    h(
      "nav",
      { class: "crumbs" },
      h("a", { href: homeHash(org) }, org),
      " / ",
      d.project ? String(d.project.attributes?.name ?? "") : "",
      " / ",
      name,
    ),
    h(
      "header",
      { class: "page-head" },
      h("h1", { "data-workspace-name": name }, name),
      h(
        "p",
        { class: "badges" },
        badge(String(a["execution-mode"] ?? "remote"), "mode"),
        a.locked === true ? badge("locked", "warn") : null,
        a["global-remote-state"] === true ? badge("state shared with every workspace", "info") : null,
      ),
      a.description ? h("p", { class: "muted" }, String(a.description)) : null,
    ),
    h(
      "div",
      { class: "grid" },
      settingsSection(d),
      variableSetsSection(d),
      teamAccessSection(d),
      variablesSection(d),
      tagsSection(d),
      triggersSection(d),
      stateReadersSection(d),
      notificationsSection(d),
    ),
  );
}
