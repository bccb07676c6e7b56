/**
 * Adoption by `org/name`: the engine keeps the id a program passes to `get`, so a
 * workspace named by organization and name is looked up in the program first and
 * adopted under its real `ws-` id. The lookup uses the same settings as the
 * providers (stack config `workspaces:*`, then the environment and credentials file).
 */
import * as pulumi from "@pulumi/pulumi";
import { NotFoundError, WorkspacesClient } from "../client";
import { CONFIG_KEYS } from "./provider-settings";

function splitRef(ref: string): [string, string] | undefined {
  if (ref.startsWith("ws-")) return undefined;
  const slash = ref.indexOf("/");
  return slash > 0 && slash < ref.length - 1 ? [ref.slice(0, slash), ref.slice(slash + 1)] : undefined;
}

/** `ws-...` stays as is; `org/name` becomes the workspace's id. */
export function resolveWorkspaceRef(id: pulumi.Input<pulumi.ID>): pulumi.Output<pulumi.ID> {
  const config = new pulumi.Config(CONFIG_KEYS.address.split(":")[0]);
  const key = (full: string) => full.split(":")[1];
  const token = config.getSecret(key(CONFIG_KEYS.token));
  const resolved = pulumi.all([id, token]).apply(async ([ref, tok]) => {
    const parts = splitRef(String(ref));
    if (!parts) return String(ref);
    const client = new WorkspacesClient({
      address: config.get(key(CONFIG_KEYS.address)),
      token: tok,
      organization: config.get(key(CONFIG_KEYS.organization)),
    });
    try {
      return (await client.workspaces.readByName(parts[0], parts[1])).id;
    } catch (err) {
      // RunError: the program stops with this message alone, without the stack and source dump of an unhandled error.
      const why =
        err instanceof NotFoundError
          ? "the service answered 404: there is no such workspace, or the token in use may not see it (the service answers the same for both)"
          : (err as Error).message;
      throw new pulumi.RunError(`cannot adopt workspace ${String(ref)}: ${why}`);
    }
  });
  // The token took part in the lookup; the id itself is not a secret.
  return pulumi.unsecret(resolved);
}
