/**
 * Records a workspace refers to: organizations, projects, SSH keys, registry modules
 * and their versions, state versions and VCS OAuth tokens (agent pools: ./agent-pools.ts). The spec shows
 * only their identifiers; these shapes follow the hosted service.
 *
 * Response attributes are read liberally (see ./common.ts): `null` or a missing key reads
 * as the attribute's absent value (`""` for a name, `undefined` where the client picks
 * its own); only `id` and `type` are required. Request schemas stay strict.
 */
import { z } from "zod";
import { documentSchema, listDocumentSchema, maybe, optionalTimestampSchema, orAbsent, resourceSchema } from "./common";
import { tagBindingRequestSchema } from "./workspaces";
import { EXECUTION_MODES } from "./workspace-field-kinds";

/** Organization names: letters, digits, `-` and `_`. */
export const ORGANIZATION_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** An organization (`organizations`); its id is its name. */
export const organizationResourceSchema = resourceSchema(
  "organizations",
  z
    .object({
      name: orAbsent(z.string(), ""),
      email: maybe(z.string()),
      "created-at": optionalTimestampSchema,
      /** Whether workspace admins may force delete their own workspaces (spec section 5, item 7). */
      "allow-force-delete-workspaces": maybe(z.boolean()),
    })
    .loose(),
);
/** An organization (`organizations`); its id is its name. */
export type OrganizationResource = z.infer<typeof organizationResourceSchema>;
/** Body of a response holding one organization. */
export const organizationDocumentSchema = documentSchema(organizationResourceSchema);

/** Body of `POST /organizations`: the name, and optionally the email and the force-delete setting. */
export const organizationCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("organizations"),
        attributes: z
          .object({
            name: z.string().regex(ORGANIZATION_NAME_PATTERN, "must contain only letters, digits, - and _"),
            email: z.string().optional(),
            "allow-force-delete-workspaces": z.boolean().optional(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();

/** A project of an organization (`projects`, id `prj-`). */
export const projectResourceSchema = resourceSchema(
  "projects",
  z
    .object({
      name: orAbsent(z.string(), ""),
      description: maybe(z.string()),
      "created-at": optionalTimestampSchema,
    })
    .loose(),
);
/** A project of an organization (`projects`, id `prj-`). */
export type ProjectResource = z.infer<typeof projectResourceSchema>;
/** Body of a response holding one project. */
export const projectDocumentSchema = documentSchema(projectResourceSchema);
/** Body of one page of an organization's projects. */
export const projectListDocumentSchema = listDocumentSchema(projectResourceSchema);

/** The longest project name the service takes. */
export const PROJECT_NAME_MAX = 40;
/** Project names as the hosted service allows them: letters, digits, spaces, `-` and `_`. */
export const PROJECT_NAME_PATTERN = /^[A-Za-z0-9 _-]+$/;

/** Body of a project create or update request: name (at most 40 characters), description and key-value tags. */
export const projectRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("projects"),
        attributes: z
          .object({
            name: z.string().min(1).max(PROJECT_NAME_MAX).optional(),
            description: z.string().nullable().optional(),
          })
          .loose()
          .optional(),
        relationships: z
          .object({
            "tag-bindings": z
              .object({ data: z.array(tagBindingRequestSchema) })
              .loose()
              .optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();

/** An SSH key of an organization (`ssh-keys`, id `sshkey-`); only its name is ever returned. */
export const sshKeyResourceSchema = resourceSchema("ssh-keys", z.object({ name: orAbsent(z.string(), "") }).loose());
/** An SSH key of an organization (`ssh-keys`, id `sshkey-`). */
export type SshKeyResource = z.infer<typeof sshKeyResourceSchema>;
/** Body of a response holding one SSH key. */
export const sshKeyDocumentSchema = documentSchema(sshKeyResourceSchema);

/** Body of a request that adds an SSH key to an organization: its name and private key text. */
export const sshKeyCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("ssh-keys"),
        attributes: z.object({ name: z.string().min(1), value: z.string().min(1) }).loose(),
      })
      .loose(),
  })
  .loose();

/** A module of an organization's registry (`registry-modules`, id `mod-`). */
export const registryModuleResourceSchema = resourceSchema(
  "registry-modules",
  z
    .object({
      name: orAbsent(z.string(), ""),
      provider: orAbsent(z.string(), ""),
      namespace: maybe(z.string()),
      "registry-name": maybe(z.string()),
      status: maybe(z.string()),
      "no-code": maybe(z.boolean()),
      "version-statuses": maybe(
        z.array(z.object({ version: orAbsent(z.string(), ""), status: orAbsent(z.string(), "") }).loose()),
      ),
      "created-at": optionalTimestampSchema,
      "updated-at": optionalTimestampSchema,
    })
    .loose(),
);
/** A module of an organization's registry (`registry-modules`, id `mod-`). */
export type RegistryModuleResource = z.infer<typeof registryModuleResourceSchema>;
/** Body of a response holding one registry module. */
export const registryModuleDocumentSchema = documentSchema(registryModuleResourceSchema);

/** Body of a request that adds a module to an organization's registry: name, provider and, optionally, namespace and no-code flag. */
export const registryModuleCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("registry-modules"),
        attributes: z
          .object({
            name: z.string().regex(/^[A-Za-z0-9_-]+$/, "must contain only letters, digits, - and _"),
            provider: z.string().regex(/^[a-z0-9]+$/, "must contain only lower-case letters and digits"),
            "registry-name": z.enum(["private", "public"]).optional(),
            namespace: z.string().optional(),
            "no-code": z.boolean().optional(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();

/** A version of a registry module (`registry-module-versions`, id `modver-`). */
export const registryModuleVersionResourceSchema = resourceSchema(
  "registry-module-versions",
  z
    .object({ version: orAbsent(z.string(), ""), status: maybe(z.string()), "created-at": optionalTimestampSchema })
    .loose(),
);
/** Body of a response holding one registry module version. */
export const registryModuleVersionDocumentSchema = documentSchema(registryModuleVersionResourceSchema);

/** Body of a request that adds a version to a registry module: a semantic version such as `1.2.3`. */
export const registryModuleVersionCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("registry-module-versions"),
        attributes: z
          .object({
            version: z.string().regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, "must be a semantic version such as 1.2.3"),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();

/** A state version of a workspace (`state-versions`, id `sv-`). */
export const stateVersionResourceSchema = resourceSchema(
  "state-versions",
  z
    .object({
      serial: orAbsent(z.number().int(), 0),
      "created-at": optionalTimestampSchema,
      "resource-count": maybe(z.number().int()),
      status: maybe(z.string()),
      intermediate: maybe(z.boolean()),
    })
    .loose(),
);
/** Body of a response holding one state version. */
export const stateVersionDocumentSchema = documentSchema(stateVersionResourceSchema);

/** State version upload in the hosted shape: `state` is the base64 of a state file whose `resources` array is counted. */
export const stateVersionCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("state-versions"),
        attributes: z
          .object({
            serial: z.number().int().min(0),
            md5: z.string().min(1),
            lineage: z.string().optional(),
            state: z.string().optional(),
            "json-state": z.string().optional(),
            /** An intermediate snapshot uploaded while a run holds the lock. */
            intermediate: z.boolean().optional(),
            /** False keeps the version pending (not finalized); the hosted service finalizes after upload. */
            finalized: z.boolean().optional(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();

/** A VCS OAuth token (`oauth-tokens`, id `ot-`), which a workspace's VCS connection names. */
export const oauthTokenResourceSchema = resourceSchema(
  "oauth-tokens",
  z.object({ "service-provider-user": maybe(z.string()), "created-at": optionalTimestampSchema }).loose(),
);
/** Body of a response holding one VCS OAuth token. */
export const oauthTokenDocumentSchema = documentSchema(oauthTokenResourceSchema);

/** Body of `PATCH /organizations/:org` (its defaults are read by {@link organizationDefaultsRequestSchema}). */
export const organizationUpdateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("organizations"),
        attributes: z
          .object({ email: z.string().nullable().optional(), "allow-force-delete-workspaces": z.boolean().optional() })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();

/** The defaults in an organization create or update body: `default-execution-mode` and the `default-agent-pool` relationship. */
export const organizationDefaultsRequestSchema = z
  .object({
    data: z
      .object({
        attributes: z
          .object({ "default-execution-mode": z.enum(EXECUTION_MODES).optional() })
          .loose()
          .optional(),
        relationships: z
          .object({
            "default-agent-pool": z
              .object({ data: z.object({ id: z.string() }).loose().nullable() })
              .loose()
              .optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();

/** The execution defaults in a project create or update body (the mode is checked against the execution modes by the server, which names them). */
export const projectExecutionRequestSchema = z
  .object({
    data: z
      .object({
        attributes: z
          .object({
            "default-execution-mode": z.string().optional(),
            "default-agent-pool-id": z.string().nullable().optional(),
            "setting-overwrites": z
              .object({
                "default-execution-mode": z.boolean().optional(),
                "default-agent-pool": z.boolean().optional(),
              })
              .loose()
              .optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
