import type { z } from "zod";
import type { toolVersionCreateSchema } from "../../../api/admin";
import { assertSiteAdmin } from "../../auth/service/authz";
import type { Caller } from "../../auth/service/caller";
import { NameTaken, visible } from "../../domain-errors";
import { newInternalId } from "../../ids";
import type { Db, Page } from "../../store/db";
import { inTransaction, now, onDuplicate } from "../../store/db";
import { deleteToolVersion, findToolVersion, listToolVersions, saveToolVersion, type ToolVersionRow } from "../store";

/**
 * The policy tool versions (Sentinel, OPA) a site administrator offers, as the hosted
 * service's admin API keeps them: records a policy set's `policy-tool-version` may name.
 * The local server downloads and runs none of them (it evaluates no policy).
 */

export type Tool = ToolVersionRow["tool"];
export type ToolVersionInput = Partial<z.infer<typeof toolVersionCreateSchema>["data"]["attributes"]>;

export function listVersions(
  db: Db,
  caller: Caller,
  tool: Tool,
  where: { exact?: string; like?: string },
  page: Page,
): { rows: ToolVersionRow[]; total: number } {
  assertSiteAdmin(caller);
  return listToolVersions(db, tool, where, page);
}

export function loadVersion(db: Db, caller: Caller, tool: Tool, id: string): ToolVersionRow {
  return visible(`${tool} version`, findToolVersion(db, tool, id), () => assertSiteAdmin(caller));
}

function apply(row: ToolVersionRow, a: ToolVersionInput): ToolVersionRow {
  const flag = (v: boolean | undefined, was: number) => (v === undefined ? was : v ? 1 : 0);
  return {
    ...row,
    version: a.version ?? row.version,
    url: a.url ?? row.url,
    sha: a.sha ?? row.sha,
    official: flag(a.official, row.official),
    deprecated: flag(a.deprecated, row.deprecated),
    deprecated_reason: a["deprecated-reason"] === undefined ? row.deprecated_reason : a["deprecated-reason"],
    enabled: flag(a.enabled, row.enabled),
    beta: flag(a.beta, row.beta),
    archs: a.archs === undefined ? row.archs : JSON.stringify(a.archs),
  };
}

function save(db: Db, row: ToolVersionRow): ToolVersionRow {
  onDuplicate(
    () => inTransaction(db, () => saveToolVersion(db, row)),
    () => new NameTaken({ attribute: "version" }),
  );
  return row;
}

/** Creates a version; the body is read (`read`) only for the site administrator. */
export function createVersion(db: Db, caller: Caller, tool: Tool, read: () => ToolVersionInput): ToolVersionRow {
  assertSiteAdmin(caller);
  const blank: ToolVersionRow = {
    id: newInternalId("tool-"),
    tool,
    version: "",
    url: null,
    sha: null,
    official: 0,
    deprecated: 0,
    deprecated_reason: null,
    enabled: 1,
    beta: 0,
    archs: "[]",
    created_at: now(),
  };
  return save(db, apply(blank, read()));
}

export function updateVersion(
  db: Db,
  caller: Caller,
  tool: Tool,
  id: string,
  read: () => ToolVersionInput,
): ToolVersionRow {
  const row = loadVersion(db, caller, tool, id);
  return save(db, apply(row, read()));
}

export function removeVersion(db: Db, caller: Caller, tool: Tool, id: string): void {
  loadVersion(db, caller, tool, id);
  inTransaction(db, () => deleteToolVersion(db, id));
}
