/**
 * Which URLs are credentials themselves: the rule the resources mark such a URL secret by
 * (src/resources/secret-values.ts), the generator declares it by, and the local server's web
 * view cuts it by. Plain code with no imports, shared by the package and the local server.
 */

/** Query parameters whose value is a credential by their name (`?token=`, `?sig=`, `?api_key=`, ...). */
const CREDENTIAL_PARAMETER = /token|secret|passw|pwd|key|sig|auth|credential|code/i;

/**
 * Whether a URL carries credentials: a user name or password (`https://user:pass@host`), a
 * query parameter named as a credential (`?token=...`, `?sig=...`), or the path of a Slack
 * or Microsoft Teams incoming webhook (`hooks.slack.com/services/...`,
 * `<tenant>.webhook.office.com/...`), which is itself the credential.
 */
export function carriesCredentials(value: unknown): boolean {
  if (typeof value !== "string") return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username !== "" || url.password !== "") return true;
  if (url.hostname === "hooks.slack.com" && url.pathname.startsWith("/services/")) return true;
  // A Microsoft Teams incoming webhook's path is its secret too.
  if (
    url.hostname.endsWith(".webhook.office.com") ||
    (url.hostname === "outlook.office.com" && url.pathname.startsWith("/webhook"))
  )
    return true;
  for (const name of url.searchParams.keys()) if (CREDENTIAL_PARAMETER.test(name)) return true;
  return false;
}
