/** Records found by organization and name, for adoption and lookups. */
import { NotFoundError } from "../../client";
import { isUnknown } from "./unknowns";
import type { Props } from "./types";

/** How messages name a record by its organization and name; undefined while either is unknown. */
export function nameKey(inputs: Props): string | undefined {
  const { organization, name } = inputs;
  if (typeof organization !== "string" || typeof name !== "string" || isUnknown(organization) || isUnknown(name))
    return undefined;
  return `"${name}" in organization "${organization}"`;
}

/** The first record of `list` named `name`, or undefined (also when the list is a 404). */
export async function firstNamed<T extends { name: string }>(
  list: AsyncIterable<T>,
  name: string,
): Promise<T | undefined> {
  try {
    for await (const item of list) if (item.name === name) return item;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  return undefined;
}
