import * as pulumi from "@pulumi/pulumi";
import { getWorkspaces, WorkspaceTags } from "pulumi-workspaces";

const config = new pulumi.Config();
// The workspaces to tag are those carrying the key-value tag `team=<team>`.
const team = config.get("team") ?? "search";
const costCenter = config.get("costCenter") ?? "cc-1000";

export = async () => {
  // A lookup, not a resource: it runs on every preview and update, so a workspace the
  // other team adds later is tagged by the next `pulumi up`. Nothing of it is in the state.
  const owned = await getWorkspaces({ tags: { team } });

  const tagged = owned.names.map((name) => {
    // Additive mode adds these tags and leaves every other tag alone. On destroy it
    // removes only the tags it added, not those the workspace already carried.
    const tags = new WorkspaceTags(`${name}-finance-tags`, {
      workspaceId: owned.idsByName[name],
      mode: "additive",
      tags: { "cost-center": costCenter },
      tagNames: ["finops"],
    });
    return { name, tags };
  });

  return {
    workspaces: Object.fromEntries(
      tagged.map(({ name, tags }) => [
        name,
        {
          id: owned.idsByName[name],
          // Everything in effect, including tags the owning team set and project tags.
          effectiveTags: tags.effectiveTags,
          allTagNames: tags.allTagNames,
          // What this stack added (and would remove on destroy).
          addedTags: tags.addedTags,
          addedTagNames: tags.addedTagNames,
        },
      ]),
    ),
  };
};
