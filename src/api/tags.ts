/**
 * Flat tags, key-value tag bindings and effective tag bindings (spec 2.6, 4.10),
 * and the relationship bodies of tags and remote state consumers (spec 4.9, 4.10).
 */
import { z } from "zod";
import {
  anyResourceSchema,
  attributesSchema,
  identifiersBodySchema,
  listDocumentSchema,
  maybe,
  optionalTimestampSchema,
  orAbsent,
  resourceSchema,
} from "./common";

/** A flat tag (`tags`). */
export const tagResourceSchema = resourceSchema(
  "tags",
  z
    .object({
      name: orAbsent(z.string(), ""),
      "created-at": optionalTimestampSchema,
      "instance-count": maybe(z.number().int()),
    })
    .loose(),
);
/** A flat tag (`tags`, id `tag-`). */
export type TagResource = z.infer<typeof tagResourceSchema>;
/** Body of one page of flat tags (an organization's, or a workspace's). */
export const tagListDocumentSchema = listDocumentSchema(tagResourceSchema);

/** A key-value tag's `key` and `value`; `null` or missing reads as `""`. */
const tagBindingAttributesSchema = z.object({ key: orAbsent(z.string(), ""), value: orAbsent(z.string(), "") }).loose();

/** A key-value tag bound directly to a workspace or project (`tag-bindings`). */
export const tagBindingResourceSchema = resourceSchema("tag-bindings", tagBindingAttributesSchema);
/** A key-value tag bound directly to a workspace or project (`tag-bindings`). */
export type TagBindingResource = z.infer<typeof tagBindingResourceSchema>;
/** Body of the list of a workspace's or project's own tag bindings. */
export const tagBindingListDocumentSchema = listDocumentSchema(tagBindingResourceSchema);

/** A key-value tag in effect on a workspace, inherited ones included; it has no `id`. */
export const effectiveTagBindingResourceSchema = anyResourceSchema.extend({
  /** Always `effective-tag-bindings`. */
  type: z.literal("effective-tag-bindings"),
  /** The tag's `key` and `value`; missing or `null` attributes read as none. */
  attributes: attributesSchema(tagBindingAttributesSchema),
});
/** A key-value tag in effect on a workspace (`effective-tag-bindings`), inherited ones included. */
export type EffectiveTagBindingResource = z.infer<typeof effectiveTagBindingResourceSchema>;
/** Body of the list of a workspace's or project's effective tag bindings. */
export const effectiveTagBindingListDocumentSchema = listDocumentSchema(effectiveTagBindingResourceSchema);

/** Flat tag names are stored lower-cased by the service. */
export const TAG_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9:_-]*$/;
/** Longest flat tag name the service accepts, in characters. */
export const TAG_NAME_MAX_LENGTH = 255;

/**
 * Body of `POST` and `DELETE /workspaces/:workspace_id/relationships/tags`:
 * each item has `type: tags` and one of `id` or `attributes.name`.
 */
export const tagsRelationshipRequestSchema = z
  .object({
    /** The tags to add or remove. */
    data: z.array(
      z
        .object({
          type: z.literal("tags"),
          id: z.string().min(1).optional(),
          attributes: z
            .object({
              name: z
                .string()
                .min(1)
                .max(TAG_NAME_MAX_LENGTH)
                .regex(
                  TAG_NAME_PATTERN,
                  "must start with a letter or digit and contain only letters, digits, :, - and _",
                )
                .optional(),
            })
            .loose()
            .optional(),
        })
        .loose()
        .refine((item) => item.id !== undefined || item.attributes?.name !== undefined, {
          message: "each tag needs an id or attributes.name",
        }),
    ),
  })
  .loose();
/** Body of a request that adds flat tags to, or removes them from, a workspace. */
export type TagsRelationshipRequest = z.infer<typeof tagsRelationshipRequestSchema>;

/** Body of the remote state consumer endpoints (spec 4.9): only `type` and `id` of each item are read. */
export const remoteStateConsumersRequestSchema = identifiersBodySchema("workspaces");
/** Body of a request that adds, replaces or removes a workspace's remote state consumers. */
export type RemoteStateConsumersRequest = z.infer<typeof remoteStateConsumersRequestSchema>;

/** Body of `DELETE /organizations/:org/tags` and `POST /tags/:id/relationships/workspaces`: tags (or workspaces) by id. */
export const tagIdsRequestSchema = z
  .object({ data: z.array(z.object({ type: z.literal("tags"), id: z.string().min(1) }).loose()) })
  .loose();

/** Body of `PATCH /workspaces/:id/tag-bindings` and `PATCH /projects/:id/tag-bindings`: bindings to add or change. */
export const tagBindingsPatchRequestSchema = z
  .object({
    data: z.array(
      z
        .object({
          type: z.literal("tag-bindings"),
          attributes: z
            .object({ key: z.string().min(1, "key must not be empty"), value: z.string().optional() })
            .loose(),
        })
        .loose(),
    ),
  })
  .loose();
