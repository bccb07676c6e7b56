import * as pulumi from "@pulumi/pulumi";
import { Workspace, WorkspaceTags } from "pulumi-workspaces";

const config = new pulumi.Config();
// Each entry is `organization/name` (or a `ws-` id) of a workspace someone else manages.
const refs = config.requireObject<string[]>("workspaces");
const costCenter = config.get("costCenter") ?? "cc-1000";

const tagged = refs.map((ref) => {
  const name = ref.includes("/") ? ref.split("/")[1] : ref;
  // Adopted read-only: this stack never changes or deletes the workspace itself.
  const ws = Workspace.get(name, ref);
  // Additive mode adds these tags and leaves every other tag alone. On destroy it
  // removes only the tags it added, not those the workspace already carried.
  const tags = new WorkspaceTags(`${name}-finance-tags`, {
    workspaceId: ws.id,
    mode: "additive",
    tags: { "cost-center": costCenter },
    tagNames: ["finops"],
  });
  return { name, ws, tags };
});

export const workspaces = Object.fromEntries(
  tagged.map(({ name, ws, tags }) => [
    name,
    {
      id: ws.id,
      // Everything in effect, including tags the owning team set and project tags.
      effectiveTags: tags.effectiveTags,
      allTagNames: tags.allTagNames,
      // What this stack added (and would remove on destroy).
      addedTags: tags.addedTags,
      addedTagNames: tags.addedTagNames,
    },
  ]),
);
