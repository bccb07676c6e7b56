/** Errors shown to the user: complete messages, and the way out when a server lacks a feature. */
import { FeatureUnavailableError, type Feature } from "../../client/typed-errors";
import type { ProviderImpl, Props } from "./types";

/** An error whose message is complete on its own; the stack adds nothing for users. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderError";
  }
}

/** What a program can do about a feature its server lacks. */
const WAY_OUT: Record<Feature, string> = {
  "safe delete":
    "set forceDelete: true on the resource and run `pulumi up` before destroying, to delete it with the plain DELETE (which does not check for managed resources), or delete it on the server",
  "key-value tags":
    "remove tags (key-value) from the program, or use a server that offers them; flat tags (tagNames) work without them",
  projects:
    "remove project from the program (the server keeps workspaces without one), or use a server that offers projects",
  "remote state consumers":
    "remove the RemoteStateConsumers resource from the program, or use a server that offers them; globalRemoteState: true on the workspace lets every workspace of the organization read its state",
  "no-code provisioning":
    "servers such as OTF have none, and the hosted service refuses it to organization tokens: use a user or team token, or declare plain Workspace resources instead of NoCodeModule and NoCodeWorkspace",
  "variable sets":
    "declare the variables on each workspace instead of in a variable set, or use a server that offers variable sets",
  "team workspace access":
    "remove the TeamWorkspaceAccess resource and grant the access in the server's own way (OTF: the workspace's permissions page), or use a server that offers team access",
  "team project access":
    "remove the TeamProjectAccess resource and grant access on each workspace instead (TeamWorkspaceAccess), or use a server that offers it",
  "notification verification":
    "the configuration itself is kept: send a test delivery from the server's own interface, or use a server that offers verification",
  "Microsoft Teams notifications":
    'declare another destinationType ("generic", "slack" or "email"), or use a server that offers Microsoft Teams destinations',
  policies:
    "remove the Policy resources from the program, or use a server that offers policies; the CrossGuard policy pack checks previews on any server",
  "policy sets":
    "remove the PolicySet resources (and their parameters and applications) from the program, or use a server that offers policy sets; the CrossGuard policy pack checks previews on any server",
  "organization memberships":
    "remove the OrganizationMembership resources (and the organizationMembershipIds of TeamMembers) from the program and invite people in the server's own way, or use a server that offers organization memberships",
  "team members by organization membership":
    "name the team's members by username (TeamMembers usernames) instead of organizationMembershipIds, or use a server that offers them",
  "multiple team tokens":
    "leave out the description of the TeamToken to manage the team's single legacy token, or use a server that offers several tokens per team",
};

/**
 * The error a user sees for a feature the server lacks: what could not be done, the
 * feature, the server's answer and the way out, in one message. Any other error is
 * returned as it is.
 *
 * @param doing what was being done, for the message (`delete workspace "app" (ws-1)`)
 */
export function withWayOut(err: unknown, doing?: string): unknown {
  if (!(err instanceof FeatureUnavailableError)) return err;
  return new ProviderError(`${doing ? `cannot ${doing}: ` : ""}${err.message}; ${WAY_OUT[err.feature]}.`);
}

/**
 * `impl` whose create, read, update and delete turn a FeatureUnavailableError into the
 * one message of {@link withWayOut}, naming `noun` and the id where there is one.
 */
export function explainingMissingFeatures<I extends Props, O extends Props>(
  impl: ProviderImpl<I, O>,
  noun: string,
): ProviderImpl<I, O> {
  const explain =
    (doing: string) =>
    (err: unknown): never => {
      throw withWayOut(err, doing);
    };
  return {
    ...impl,
    create: (inputs) => impl.create(inputs).catch(explain(`create the ${noun}`)),
    read: (id, props) => impl.read(id, props).catch(explain(`read the ${noun} ${id}`)),
    update: (id, olds, news) => impl.update(id, olds, news).catch(explain(`update the ${noun} ${id}`)),
    delete: (id, props) => impl.delete(id, props).catch(explain(`delete the ${noun} ${id}`)),
  };
}

export function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
