/**
 * The page's few DOM helpers. Text goes in as text nodes only (never as HTML), so a name or
 * a value read from the API can never become markup; no inline style or script is made (the
 * view's content security policy forbids both).
 */

/** What `h` takes as a child: a node, text, or nothing (skipped); arrays are flattened. */
export type Child = Node | string | number | null | undefined | false | Child[];

/** Attribute values: a string or number is set, `true` sets an empty attribute, anything else is left out. */
type AttrValue = string | number | boolean | null | undefined;

/** Attributes of `h`: plain ones, and `on<event>` listeners. */
export type Attrs = Record<string, AttrValue | ((event: Event) => void)>;

/** An element with `attrs` and `children` (text as text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, "");
    else if (typeof value === "string" || typeof value === "number") el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Replaces everything inside `el` with `children`. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A small label: a tag, an access level, a mode. `kind` picks its colour (app.css `.badge-<kind>`). */
export function badge(text: string, kind = "neutral", title?: string): HTMLElement {
  return h("span", { class: `badge badge-${kind}`, title }, text);
}

/** A card: a titled section of the page. */
export function card(attrs: Attrs, title: Child, ...children: Child[]): HTMLElement {
  return h(
    "section",
    { ...attrs, class: `card ${typeof attrs.class === "string" ? attrs.class : ""}`.trim() },
    h("h2", null, title),
    ...children,
  );
}

/** A table with a header row; each row is an array of cells or a ready `tr`. */
export function table(
  headers: string[],
  rows: (HTMLTableRowElement | Child[])[],
  attrs: Attrs | null = null,
): HTMLTableElement {
  return h(
    "table",
    attrs,
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        headers.map((t) => h("th", null, t)),
      ),
    ),
    h(
      "tbody",
      null,
      rows.map((r) =>
        Array.isArray(r)
          ? h(
              "tr",
              null,
              r.map((c) => h("td", null, c)),
            )
          : r,
      ),
    ),
  );
}

/** A muted line saying a list is empty. */
export function none(text: string): HTMLElement {
  return h("p", { class: "muted" }, text);
}

/** A definition list of label and value pairs (settings). */
export function facts(pairs: [string, Child][], wide = false): HTMLElement {
  return h(
    "dl",
    { class: wide ? "facts wide" : "facts" },
    pairs.map(([label, value]) => [h("dt", null, label), h("dd", null, value)]),
  );
}
