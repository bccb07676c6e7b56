/**
 * The web view's page: signs the browser in (a one-time `#code=` or a pasted token), then
 * shows the route the URL's fragment names (./router.ts). `document.body.dataset.route`
 * names what is shown (`home`, `workspace`, `map`, `sign-in`) and `dataset.ready` turns
 * `"true"` once it has rendered (`"false"` while it loads): the browser test waits on both.
 */
import { ApiError, listAll } from "./api";
import { h, replace } from "./dom";
import { renderHome, renderOrganizations } from "./home";
import { renderMap } from "./map-view";
import { codeOf, homeHash, mapHash, parseRoute, type Route } from "./router";
import { renderSignIn, signedIn, signIn, signOut } from "./sign-in";
import { renderWorkspace } from "./workspace-page";

const body = document.body;
const orgName = h("span", { class: "org" });
const homeLink = h("a", { href: "#/", "data-nav": "home" }, "Home");
const mapLink = h("a", { href: "#/", "data-nav": "map" }, "Map");
const signOutButton = h("button", { type: "button", class: "link", "data-sign-out": "" }, "Sign out");
const nav = h("nav", { class: "top-nav" }, homeLink, mapLink, signOutButton);
const view = h("main", { id: "view" });
body.replaceChildren(
  h("header", { class: "top" }, h("a", { class: "brand", href: "#/" }, "Workspaces"), orgName, nav),
  view,
);

/** Counts route renders, so that a slow one finishing after the user moved on draws nothing. */
let generation = 0;

function setState(route: string, ready: boolean): void {
  body.dataset.route = route;
  body.dataset.ready = String(ready);
}

function showSignIn(reason: string | null): void {
  generation++;
  setState("sign-in", false);
  nav.hidden = true;
  orgName.textContent = "";
  renderSignIn(view, reason, () => {
    if (location.hash !== "#/") location.hash = "#/";
    else void show();
  });
  setState("sign-in", true);
}

const ROUTE_NAMES: Record<Route["kind"], string> = {
  organizations: "home",
  home: "home",
  workspace: "workspace",
  map: "map",
  unknown: "home",
};

/** Shows the route of the current fragment. */
async function show(): Promise<void> {
  const mine = ++generation;
  const route = parseRoute(location.hash);
  setState(ROUTE_NAMES[route.kind], false);
  nav.hidden = false;
  const org = "org" in route ? route.org : null;
  orgName.textContent = org ?? "";
  homeLink.href = org ? homeHash(org) : "#/";
  mapLink.href = org ? mapHash(org) : "#/";
  mapLink.hidden = !org;
  for (const [link, kind] of [
    [homeLink, "home"],
    [mapLink, "map"],
  ] as const) {
    link.classList.toggle("active", route.kind === kind);
    if (route.kind === kind) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  replace(view, h("p", { class: "muted loading" }, "Loading…"));
  try {
    switch (route.kind) {
      case "organizations": {
        const organizations = await listAll("/organizations");
        if (mine !== generation) return;
        if (organizations.length === 1) {
          location.replace(homeHash(String(organizations[0].id)));
          return;
        }
        renderOrganizations(view, organizations);
        break;
      }
      case "home":
        await renderHome(view, route.org);
        break;
      case "workspace":
        await renderWorkspace(view, route.org, route.id);
        break;
      case "map":
        await renderMap(view, route.org, (hash) => {
          location.hash = hash;
        });
        break;
      case "unknown":
        throw new Error(`Nothing is at ${route.hash}: go back to the home page.`);
    }
  } catch (err) {
    if (mine !== generation) return;
    if (err instanceof ApiError && err.status === 401) {
      showSignIn("The session has ended: sign in again.");
      return;
    }
    replace(
      view,
      h(
        "div",
        { class: "card error", role: "alert", "data-error": "" },
        h("h2", null, "This page could not be shown"),
        h("p", null, err instanceof Error ? err.message : String(err)),
        h("p", null, h("a", { href: org ? homeHash(org) : "#/" }, "Back to the home page")),
      ),
    );
  }
  if (mine === generation) setState(body.dataset.route ?? "home", true);
}

signOutButton.addEventListener("click", () => {
  void signOut().then(() => showSignIn(null));
});

async function start(): Promise<void> {
  setState("sign-in", false);
  const code = codeOf(location.hash);
  let refused: string | null = null;
  if (code !== null) {
    // The code leaves the address bar (and the history) before anything else happens.
    history.replaceState(null, "", `${location.pathname}${location.search}#/`);
    try {
      await signIn({ code });
    } catch (err) {
      refused = err instanceof Error ? err.message : String(err);
    }
  }
  window.addEventListener("hashchange", () => void show());
  if (await signedIn()) await show();
  else showSignIn(refused);
}

void start();
