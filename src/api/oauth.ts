/** Request bodies of VCS connections (OAuth clients, in the hosted service's shape). */
import { z } from "zod";

/** Body of `POST /organizations/:org/oauth-clients`: a VCS connection. */
export const oauthClientCreateRequestSchema = z
  .object({
    data: z
      .object({
        type: z.literal("oauth-clients"),
        attributes: z
          .object({
            name: z.string().nullable().optional(),
            "service-provider": z.string().min(1),
            "http-url": z.string().url(),
            "api-url": z.string().url(),
            "oauth-token-string": z.string().optional(),
          })
          .loose(),
      })
      .loose(),
  })
  .loose();
