/**
 * Tag bindings now live in the tags domain (../tags/service.ts, ../tags/render.ts); these
 * names remain for the project domain until it calls that domain directly.
 */
import type { Db } from "./db";
import type { Resource } from "../http/jsonapi";
import { mergeTagBindings as merge, type BindingOwner, type KeyValue } from "../tags/service";
import { renderTagBinding } from "../tags/render";

export { checkTagBindings, replaceTagBindings, type KeyValue } from "../tags/service";
export { parseTagBindingsPatch } from "../tags/render";

export function mergeTagBindings(db: Db, owner: BindingOwner, ownerId: string, bindings: ReadonlyArray<KeyValue>): Resource[] {
  return merge(db, owner, ownerId, bindings).map(renderTagBinding);
}
