/**
 * Signing the browser in: the server keeps the session and gives the page only an
 * HttpOnly cookie, so no token is ever held by the page, put in a URL or answered in a
 * body. A one-time code (`#code=` of the address the server prints) or a pasted token is
 * sent once in a POST body.
 */
import { errorMessage } from "./api";
import { h, replace } from "./dom";

const SESSION = "/app/session";

async function send(method: "GET" | "POST" | "DELETE", body?: unknown): Promise<Response> {
  return fetch(SESSION, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Whether the browser holds a session. */
export async function signedIn(): Promise<boolean> {
  const res = await send("GET");
  if (!res.ok) return false;
  const body = (await res.json()) as { signedIn?: unknown };
  return body.signedIn === true;
}

/** Opens a session with a one-time code or a token; throws the service's reason when refused. */
export async function signIn(credential: { code: string } | { token: string }): Promise<void> {
  const res = await send("POST", credential);
  if (res.ok) return;
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // no body: the status says it
  }
  throw new Error(errorMessage(res.status, body));
}

/** Ends the session. */
export async function signOut(): Promise<void> {
  await send("DELETE");
}

/**
 * The sign-in form: a token pasted here is sent once to open a session and then dropped
 * from the page. `reason` (a refused code, an expired session) is shown above it.
 */
export function renderSignIn(container: HTMLElement, reason: string | null, done: () => void): void {
  const input = h("input", {
    type: "password",
    name: "token",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "API token",
    "aria-label": "API token",
    required: true,
  });
  const error = h("p", { class: "error", role: "alert", "data-error": "" }, reason ?? "");
  error.hidden = !reason;
  const button = h("button", { type: "submit", class: "primary" }, "Sign in");
  const form = h(
    "form",
    { class: "card sign-in", "data-sign-in": "" },
    h("h1", null, "Sign in to the web view"),
    h(
      "p",
      { class: "muted" },
      "Open the address the server printed (it signs you in once), or paste an API token. The token stays on the server: this page keeps only a session cookie.",
    ),
    error,
    input,
    button,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (!token) return;
    button.disabled = true;
    signIn({ token })
      .then(() => {
        input.value = "";
        done();
      })
      .catch((err: unknown) => {
        error.textContent = err instanceof Error ? err.message : String(err);
        error.hidden = false;
        button.disabled = false;
      });
  });
  replace(container, form);
  input.focus();
}
