/**
 * `WorkspaceTags`: the tags of a workspace managed apart from the workspace
 * itself (spec 2.6, 4.10), for a workspace declared elsewhere or adopted.
 */
import * as pulumi from "@pulumi/pulumi";
import { typeTokens as TOKENS } from "./tokens";
import { adoptOptions, withOutputs, dynamicProps, quietStacks } from "./base";

/** How a resource owns a set: `authoritative` (exactly the listed items) or `additive` (only the items it added). */
export type OwnershipMode = "authoritative" | "additive";

/** Inputs of a {@link WorkspaceTags}. */
export interface WorkspaceTagsArgs {
  /** Workspace id (`ws-...`). A change replaces this resource. */
  workspaceId: pulumi.Input<string>;
  /**
   * Flat tags. Compared without regard to case or order (the service stores them
   * lower-cased). Omitted: flat tags are not managed.
   */
  tagNames?: pulumi.Input<pulumi.Input<string>[]>;
  /** Key-value tags bound directly to the workspace. Omitted: key-value tags are not managed. */
  tags?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * `authoritative` (default): the workspace ends up with exactly the listed tags;
   * others are removed, and delete removes the listed ones.
   * `additive`: only adds the listed tags; delete removes only the tags this
   * resource added (not those the workspace already had).
   * Do not combine with `tags`/`tagNames` on the `Workspace` itself.
   */
  mode?: pulumi.Input<OwnershipMode>;
}

export const WORKSPACE_TAGS_OUTPUTS = [
  "workspaceId",
  "tagNames",
  "tags",
  "mode",
  "effectiveTags",
  "allTagNames",
  "addedTagNames",
  "addedTags",
] as const;

/** Flat and key-value tags of a workspace managed elsewhere (or by another team), in `authoritative` or `additive` mode. A change of `workspaceId` replaces it; delete removes its tags (in additive mode only those it added). */
export class WorkspaceTags extends pulumi.CustomResource {
  static readonly __pulumiType = TOKENS.WorkspaceTags;

  /** Adopts the tags of a workspace; `id` is the workspace id (`ws-...`) or `ws-.../tags`. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): WorkspaceTags {
    return new WorkspaceTags(name, undefined as unknown as WorkspaceTagsArgs, adoptOptions(id, opts));
  }

  static isInstance(obj: unknown): obj is WorkspaceTags {
    return pulumi.Resource.isInstance(obj) && (obj as { __pulumiType?: string }).__pulumiType === TOKENS.WorkspaceTags;
  }

  /** Workspace (`ws-...`) whose tags this resource manages. */
  declare readonly workspaceId: pulumi.Output<string>;
  /** The managed flat tags present on the workspace (all of them in authoritative mode). */
  declare readonly tagNames: pulumi.Output<string[]>;
  /** The managed key-value tags present on the workspace (all direct bindings in authoritative mode). */
  declare readonly tags: pulumi.Output<Record<string, string>>;
  /** Ownership mode: `authoritative` or `additive`. */
  declare readonly mode: pulumi.Output<OwnershipMode>;
  /** Key-value tags in effect: direct bindings plus those inherited from the project. */
  declare readonly effectiveTags: pulumi.Output<Record<string, string>>;
  /** Every flat tag of the workspace, managed here or not. */
  declare readonly allTagNames: pulumi.Output<string[]>;
  /** Additive mode: the flat tags this resource added (removed again on delete). */
  declare readonly addedTagNames: pulumi.Output<string[]>;
  /** Additive mode: the key-value tags this resource added (removed again on delete). */
  declare readonly addedTags: pulumi.Output<Record<string, string>>;

  /** Declares the tags of a workspace; `name` is the Pulumi resource name. */
  constructor(name: string, args: WorkspaceTagsArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = quietStacks();
    try {
      super(
        TOKENS.WorkspaceTags,
        name,
        dynamicProps(
          "WorkspaceTags",
          name,
          withOutputs(args as unknown as Record<string, unknown>, WORKSPACE_TAGS_OUTPUTS),
        ),
        opts,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
