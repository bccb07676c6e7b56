import type { Domain } from "./context";
import { organizationDomain } from "./organization";
import { projectDomain } from "./project";
import { workspaceDomain } from "./workspace";
import { runDomain } from "./run";
import { pingDomain } from "./ping";
import { adminDomain } from "./auth";
import { tagDomain } from "./tags";
import { consumerDomain } from "./consumers";
import { sshKeyDomain } from "./ssh-key";
import { stateVersionDomain } from "./state-version";
import { agentPoolDomain } from "./agent-pool";
import { agentTokenDomain } from "./agent-token";
import { oauthDomain } from "./oauth";
import { retentionDomain } from "./retention";
import { registryDomain } from "./registry";
import { noCodeDomain } from "./no-code";
import { runTriggerDomain } from "./run-trigger";
import { notificationDomain } from "./notification";
import { variableDomain } from "./variable";
import { policyDomain } from "./policy";
import { siteAdminDomain } from "./site-admin";

/** Every domain of the service, in the order their schemas are created and routes registered. */
export const DOMAINS: ReadonlyArray<Domain> = [
  pingDomain,
  organizationDomain,
  projectDomain,
  workspaceDomain,
  runDomain,
  adminDomain,
  tagDomain,
  consumerDomain,
  sshKeyDomain,
  stateVersionDomain,
  agentPoolDomain,
  agentTokenDomain,
  oauthDomain,
  retentionDomain,
  registryDomain,
  noCodeDomain,
  variableDomain,
  runTriggerDomain,
  notificationDomain,
  policyDomain,
  siteAdminDomain,
];
