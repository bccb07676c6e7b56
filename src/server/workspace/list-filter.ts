import { Invalid } from "../domain-errors";
import { MAX_LIST_VALUES, commaList } from "../http/jsonapi";

/** The filters and order of a workspace list (spec 4.4), as read from its query. */
export interface WorkspaceListFilter {
  /** `search[name]`: a substring of the name. */
  name?: string;
  /** `search[wildcard-name]`: `*` matches any run of characters. */
  wildcard?: string;
  /** `search[tags]`: flat tags every workspace carries. */
  tags: string[];
  /** `search[exclude-tags]`: flat tags no workspace carries. */
  excludeTags: string[];
  projectId?: string;
  /** `filter[current-run][status]`. */
  runStatuses: string[];
  /** `filter[tagged]`: key-value tags on effective bindings. */
  tagged: { key: string; value?: string }[];
  sort?: { key: WorkspaceSortKey; desc: boolean };
}

const WORKSPACE_SORT_KEYS = ["name", "latest-change-at", "current-run.created-at"] as const;
export type WorkspaceSortKey = (typeof WORKSPACE_SORT_KEYS)[number];

/**
 * `filter[tagged][i][key]` and `[value]` (spec 4.4), in index order; every filter needs
 * a key. An empty value is no value filter: clients such as go-tfe always send the
 * parameter. Project lists take the same filter.
 */
export function taggedFilters(query: Record<string, unknown>): { key: string; value?: string }[] {
  const tagged = new Map<number, { key?: string; value?: string }>();
  for (const [k, v] of Object.entries(query)) {
    const m = /^filter\[tagged\]\[(\d+)\]\[(key|value)\]$/.exec(k);
    if (!m || typeof v !== "string") continue;
    const entry = tagged.get(Number(m[1])) ?? {};
    entry[m[2] as "key" | "value"] = v;
    tagged.set(Number(m[1]), entry);
  }
  if (tagged.size > MAX_LIST_VALUES) {
    throw new Invalid(`filter[tagged] accepts at most ${MAX_LIST_VALUES} entries; ${tagged.size} were given`, {
      parameter: "filter[tagged]",
    });
  }
  return [...tagged.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([i, f]) => {
      if (f.key === undefined || f.key === "") {
        throw new Invalid(`filter[tagged][${i}][key] is required with filter[tagged][${i}][value]`, {
          parameter: `filter[tagged][${i}][key]`,
        });
      }
      return { key: f.key, value: f.value === "" ? undefined : f.value };
    });
}

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/** Reads the list query of spec 4.4; a parameter it cannot read is invalid. */
export function parseWorkspaceListQuery(query: Record<string, unknown>): WorkspaceListFilter {
  const filter: WorkspaceListFilter = {
    name: text(query["search[name]"]),
    wildcard: text(query["search[wildcard-name]"]),
    tags: commaList(query["search[tags]"], "search[tags]"),
    excludeTags: commaList(query["search[exclude-tags]"], "search[exclude-tags]"),
    projectId: text(query["filter[project][id]"]),
    runStatuses: commaList(query["filter[current-run][status]"], "filter[current-run][status]"),
    tagged: taggedFilters(query),
  };
  const sort = text(query["sort"]);
  if (sort !== undefined) {
    const desc = sort.startsWith("-");
    const key = desc ? sort.slice(1) : sort;
    if (!(WORKSPACE_SORT_KEYS as ReadonlyArray<string>).includes(key))
      throw new Invalid(`Invalid sort parameter: ${sort}`, { parameter: "sort" });
    filter.sort = { key: key as WorkspaceSortKey, desc };
  }
  return filter;
}
