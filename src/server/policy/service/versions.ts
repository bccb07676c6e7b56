/**
 * Policy set versions: a set's policies as a folder uploaded in one `.tar.gz` to the
 * version's upload link. The link carries a secret of its own (the upload sends no
 * token, as go-tfe's does to the service's archive store), kept sealed and answered to
 * those who may read the version while it waits for its upload. The
 * tarball is read once, for its status (`errored` when it is not a gzip tarball) and its
 * count of policies (`*.sentinel` and `*.rego` files), and not kept: nothing evaluates it.
 */
import { timingSafeEqual } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { orgRole } from "../../auth/service/authz";
import type { Caller } from "../../auth/service/caller";
import { Invalid, NotFound, visible } from "../../domain-errors";
import { newId, randomString } from "../../ids";
import type { ServerContext } from "../../context";
import { now } from "../../store/db";
import { loadPolicySet } from "./sets";
import * as store from "../store/sets";
import type { PolicySetVersionRecord } from "../store/sets";

const PURPOSE = "policy_set_versions.upload_secret";

/**
 * A version as its document shows it: with the secret of its upload link while it waits
 * for its tarball, and only to a caller who manages the set (a reader may not upload).
 */
export interface PolicySetVersionView {
  version: PolicySetVersionRecord;
  uploadSecret?: string;
}

function viewOf(ctx: ServerContext, v: PolicySetVersionRecord, manage: boolean): PolicySetVersionView {
  return {
    version: v,
    uploadSecret: manage && v.status === "pending" ? ctx.secrets.open(v.upload_secret, PURPOSE) : undefined,
  };
}

/** A new pending version of a set the caller manages. */
export function createPolicySetVersion(ctx: ServerContext, caller: Caller, setId: string): PolicySetVersionView {
  const s = loadPolicySet(ctx.db, caller, setId, true);
  const secret = randomString(40);
  const at = now();
  const version: PolicySetVersionRecord = {
    id: newId("policySetVersion"),
    policy_set_id: s.id,
    source: "tfe-api",
    status: "pending",
    error_message: null,
    upload_secret: ctx.secrets.seal(secret, PURPOSE),
    policy_count: 0,
    pending_at: at,
    ready_at: null,
    errored_at: null,
    created_at: at,
    updated_at: at,
  };
  store.insertVersion(ctx.db, version);
  return viewOf(ctx, version, true);
}

/** A version of a set the caller may see. */
export function readPolicySetVersion(ctx: ServerContext, caller: Caller, id: string): PolicySetVersionView {
  let manage = false;
  const v = visible("policy set version", store.findVersion(ctx.db, id), (found) => {
    const set = loadPolicySet(ctx.db, caller, found.policy_set_id, false);
    manage = orgRole(ctx.db, caller, set.organization).managePolicies;
  });
  return viewOf(ctx, v, manage);
}

/**
 * Receives a version's tarball through its upload link: an unknown version or a wrong
 * secret is not found; a version already uploaded refuses another upload.
 */
export function uploadPolicySetVersion(
  ctx: ServerContext,
  id: string,
  secret: string,
  body: Buffer,
): PolicySetVersionRecord {
  const { db } = ctx;
  const v = store.findVersion(db, id);
  const expected = v && Buffer.from(ctx.secrets.open(v.upload_secret, PURPOSE));
  const given = Buffer.from(secret);
  if (!v || !expected || expected.length !== given.length || !timingSafeEqual(expected, given))
    throw new NotFound("policy set version not found");
  if (v.status !== "pending")
    throw new Invalid(`policy set version ${v.id} was uploaded already (${v.status}): create a new version`);
  const read = countPolicies(body);
  store.settleVersion(
    db,
    v.id,
    typeof read === "number" ? { status: "ready", policyCount: read } : { status: "errored", message: read.error },
    now(),
  );
  return store.findVersion(db, v.id)!;
}

const BLOCK = 512;
/** The most a tarball may unpack to: a policies folder is text, and a bomb must not fill the server's memory. */
const MAX_UNPACKED = 64 * 1024 * 1024;

/** The `*.sentinel` and `*.rego` files of a gzip tarball, or why it is not one. */
function countPolicies(body: Buffer): number | { error: string } {
  let tar: Buffer;
  try {
    tar = gunzipSync(body, { maxOutputLength: MAX_UNPACKED });
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      return {
        error: `the tarball unpacks to more than ${MAX_UNPACKED / 1024 / 1024} MiB; upload the policies folder only`,
      };
    return { error: "the upload is not a gzip-compressed tarball (.tar.gz) of the policies folder" };
  }
  let count = 0;
  let longName: string | undefined;
  for (let at = 0; at + BLOCK <= tar.length;) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) return count;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString("utf8")
        .replace(/\0.*$/s, "");
    const size = parseInt(field(124, 12).trim() || "0", 8);
    const type = field(156, 1);
    if (!Number.isFinite(size) || field(257, 5) !== "ustar")
      return { error: "the upload is gzip-compressed but not a tarball of the policies folder" };
    const data = tar.subarray(at + BLOCK, at + BLOCK + size);
    const prefix = field(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    longName = undefined;
    if (type === "L") longName = data.toString("utf8").replace(/\0.*$/s, "");
    else if (type === "x") longName = /\d+ path=([^\n]*)\n/.exec(data.toString("utf8"))?.[1];
    else if ((type === "0" || type === "") && /\.(sentinel|rego)$/.test(name)) count++;
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return count;
}
