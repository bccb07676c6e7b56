/**
 * Provider of `OrganizationToken` (`/organizations/:org/authentication-token`, the
 * audit-trail token with `?token=audit-trails`), id `at-...`: the organization's single
 * token of its type. It is read through the organization, so a token whose id is no
 * longer the organization's one of that type was replaced outside the program: gone.
 * What every minted token shares is ./minted-token.ts.
 */
import { isId } from "../../api/common";
import type { OrganizationToken as ApiOrganizationToken, OrganizationTokenType } from "../../client";
import { defaultOrganization } from "../provider-settings";
import { isNotFound } from "./client";
import { checkedOrganization } from "./inputs";
import { mintedTokenProvider, type TokenKind } from "./minted-token";
import { ProviderError } from "./user-errors";
import { isUnknown } from "./unknowns";
import type { CheckFailure, Props } from "./types";

const TYPES: readonly OrganizationTokenType[] = ["organization", "audit-trails"];

const typeOf = (props: Props): OrganizationTokenType =>
  props.tokenType === "audit-trails" ? "audit-trails" : "organization";

function tokenLabel(id: string | undefined, props: Props): string {
  const what = typeOf(props) === "audit-trails" ? "audit-trail token" : "organization token";
  const org =
    typeof props.organization === "string" && props.organization !== ""
      ? ` of organization "${props.organization}"`
      : "";
  return `${what}${id ? ` ${id}` : ""}${org}`;
}

function checkOwner(olds: Props, news: Props, inputs: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  checkedOrganization(olds, news, inputs, failures);
  const t = news.tokenType;
  if (t !== undefined && t !== null && !isUnknown(t) && !(TYPES as readonly unknown[]).includes(t))
    failures.push({
      property: "tokenType",
      reason: `tokenType must be "organization" or "audit-trails", not ${JSON.stringify(t)}`,
    });
  return failures;
}

/** The organization and type an id names: `at-...` (with the recorded ones), `<org>` or `<org>/audit-trails`. */
function idsOf(id: string, props: Props): { tokenId?: string; organization: string; tokenType: OrganizationTokenType } {
  if (isId("authenticationToken", id)) {
    const organization = typeof props.organization === "string" ? props.organization : defaultOrganization();
    if (organization) return { tokenId: id, organization, tokenType: typeOf(props) };
  } else {
    const [organization = "", type, ...rest] = String(id).split("/");
    if (organization !== "" && rest.length === 0 && (type === undefined || type === "audit-trails"))
      return { organization, tokenType: type === "audit-trails" ? "audit-trails" : "organization" };
  }
  throw new ProviderError(
    `${JSON.stringify(id)} is not the id of an OrganizationToken: give the organization's name (acme) for its organization token, or <organization>/audit-trails for its audit-trail token`,
  );
}

const organizationTokens: TokenKind<ApiOrganizationToken> = {
  noun: "organization token",
  ownerFields: [
    { name: "organization", replaces: true },
    {
      name: "tokenType",
      replaces: true,
      absentIsValue: true,
      same: (a, b) => typeOf({ tokenType: a }) === typeOf({ tokenType: b }),
    },
  ],
  expires: true,
  description: "none",
  checkOwner,
  label: tokenLabel,
  holder: (props) => `organization "${String(props.organization)}"`,
  holderNoun: "organization",
  whoMay: "managing organization tokens takes an owners token",
  organization: async (_client, props) =>
    typeof props.organization === "string" && props.organization !== "" ? props.organization : defaultOrganization(),
  missing: async (_client, id, props) => ({
    label: tokenLabel(id, props),
    kind: "organization token",
    organization: typeof props.organization === "string" ? props.organization : defaultOrganization(),
  }),
  list: async () => [],
  async current(client, inputs) {
    try {
      return await client.organizationTokens.read(String(inputs.organization), { tokenType: typeOf(inputs) });
    } catch (err) {
      // None, or not visible: the create that follows says which.
      if (isNotFound(err)) return undefined;
      throw err;
    }
  },
  create: (client, inputs, { expiredAt }) =>
    client.organizationTokens.create(String(inputs.organization), {
      tokenType: typeOf(inputs),
      ...(expiredAt ? { expiredAt } : {}),
    }),
  tokenIdOf: (id) => id,
  async read(client, id, props) {
    const ids = idsOf(id, props);
    const t = await client.organizationTokens.read(ids.organization, { tokenType: ids.tokenType });
    if (ids.tokenId && t.id !== ids.tokenId) return undefined;
    return { token: t, owner: { organization: ids.organization, tokenType: ids.tokenType } };
  },
  async delete(client, id, props) {
    const ids = idsOf(id, props);
    const t = await client.organizationTokens.read(ids.organization, { tokenType: ids.tokenType });
    // Another token of the type is its successor (a replacement or another program): never deleted here.
    if (ids.tokenId && t.id !== ids.tokenId) return;
    await client.organizationTokens.delete(ids.organization, { tokenType: ids.tokenType });
  },
  outputs: (t, from) => ({ tokenType: typeOf(from), tokenId: t.id }),
};

/** The provider, with the preview's line for a token marked `adopt: true`. */
export const organizationTokenProvider = mintedTokenProvider(organizationTokens);
