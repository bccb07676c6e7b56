import type { Policies } from "@pulumi/policy";
import { agentPoolOrganizationScoped, agentTokenRotation, productionAgentPool } from "./agentPools";
import { executionModeAllowed, executionModeValid, operationsDeprecated, tagSelectorSettings } from "./executionMode";
import { namePattern } from "./naming";
import { productionNotified, runTriggerWithinProject } from "./notifications";
import { forceDelete, globalRemoteState } from "./safety";
import { policySetParameterAllowed, productionPolicyAdvisory, productionPolicySet } from "./policySets";
import { nameUnique, remoteStateConsumersValid, singleOwner } from "./stack";
import { flatTagLowercase, requiredTags, tagAllowedValues, tagFormat } from "./tags";
import { variableSecretKeySensitive, variableSetGlobal } from "./variables";
import { teamAdminProduction } from "./teamAccess";
import { ownersTeamNotAuthoritative } from "./teamMembers";
import { teamTokenDescribed, tokenExpiry } from "./apiTokens";

export * from "./common";
export {
  agentPoolOrganizationScoped,
  agentTokenRotation,
  productionAgentPool,
  teamAdminProduction,
  ownersTeamNotAuthoritative,
  teamTokenDescribed,
  tokenExpiry,
  executionModeAllowed,
  executionModeValid,
  flatTagLowercase,
  forceDelete,
  globalRemoteState,
  namePattern,
  nameUnique,
  operationsDeprecated,
  policySetParameterAllowed,
  productionNotified,
  productionPolicyAdvisory,
  productionPolicySet,
  remoteStateConsumersValid,
  requiredTags,
  runTriggerWithinProject,
  singleOwner,
  tagAllowedValues,
  tagFormat,
  tagSelectorSettings,
  variableSecretKeySensitive,
  variableSetGlobal,
};

/** Every rule of the pack, in the order the engine reports them. */
export const policies: Policies = [
  // tags
  flatTagLowercase,
  tagFormat,
  tagAllowedValues,
  requiredTags,
  // execution mode
  executionModeValid,
  operationsDeprecated,
  executionModeAllowed,
  tagSelectorSettings,
  // naming
  namePattern,
  // safety
  forceDelete,
  globalRemoteState,
  // variables
  variableSecretKeySensitive,
  // team access
  teamAdminProduction,
  variableSetGlobal,
  // the stack as a whole
  nameUnique,
  singleOwner,
  remoteStateConsumersValid,
  // run triggers and notifications
  productionNotified,
  runTriggerWithinProject,
  // agent pools
  productionAgentPool,
  agentPoolOrganizationScoped,
  agentTokenRotation,
  // the service's policy sets
  productionPolicySet,
  productionPolicyAdvisory,
  policySetParameterAllowed,
  // team members and the tokens of teams and the organization
  ownersTeamNotAuthoritative,
  tokenExpiry,
  teamTokenDescribed,
];
