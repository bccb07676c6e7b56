import * as pulumi from "@pulumi/pulumi";
import { Workspace, WorkspaceLock } from "pulumi-workspaces";

const config = new pulumi.Config();
const maintenance = config.getBoolean("maintenance") ?? false;
const engineVersion = config.get("engineVersion") ?? "1.8.0";
const reason = config.get("reason") ?? "maintenance window";

const orders = new Workspace("orders-prod", {
  name: "orders-prod",
  description: "order service, production",
  executionMode: "remote",
  engineVersion,
  tags: { env: "prod", team: "orders" },
});

// While the window is open the workspace stays locked: nobody can queue a run or
// take the lock, so the change below lands on a workspace that is standing still.
// Closing the window (maintenance=false) deletes this resource, which unlocks.
// Set `force: true` to force-unlock on close if someone else may take the lock over.
const lock = maintenance ? new WorkspaceLock("orders-prod-maintenance", { workspaceId: orders.id, reason }) : undefined;

export const workspaceId = orders.id;
export const engineVersionInEffect = orders.engineVersion;
export const locked = lock ? lock.locked : false;
export const lockedBy = lock ? lock.lockedBy : null;
