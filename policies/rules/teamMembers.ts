import type { PolicyConfigSchema, PolicyResource } from "@pulumi/policy";
import {
  Team,
  TeamMembers,
  configOf,
  declaredProps,
  isOfType,
  knownProps,
  recordInputsOf,
  show,
  str,
  strings,
  subject,
  type StackRule,
} from "./common";

// ---------------------------------------------------------------------------------------------
// The owners team's members are not managed authoritatively without an ignore list (stack)
// ---------------------------------------------------------------------------------------------

const ownersSchema: PolicyConfigSchema = {
  properties: {
    teams: {
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
      default: ["owners"],
      description:
        'The teams whose members no authoritative TeamMembers may manage without ignoreUsernames, each by its name (`owners`, the organization\'s owners team) or its id (`team-...`). Default ["owners"].',
    },
  },
};

/**
 * Which of `guarded` the team of a TeamMembers is, and how that is known; undefined when it is
 * none (or not known yet). By its `teamName` (the provider reads it from the service when the
 * team exists, in the inputs its check returns and in the outputs), its `teamId`, or the Team
 * of the stack that `teamId` comes from, found through the engine's property dependencies or
 * by the Team's id.
 */
function guardedTeam(
  members: PolicyResource,
  props: Readonly<Record<string, unknown>>,
  teamsById: ReadonlyMap<string, PolicyResource>,
  guarded: ReadonlySet<string>,
): { team: string; how: string } | undefined {
  for (const name of [str(props.teamName), str(knownProps(members.props).teamName)]) {
    if (name !== undefined && guarded.has(name)) return { team: name, how: `its teamName is ${show(name)}` };
  }
  const id = str(props.teamId);
  if (id !== undefined && guarded.has(id)) return { team: id, how: `its teamId is ${show(id)}` };
  const teams = (members.propertyDependencies?.teamId ?? []).filter((d) => isOfType(d, Team));
  const byId = id !== undefined ? teamsById.get(id) : undefined;
  for (const team of byId !== undefined ? [...teams, byId] : teams) {
    const name = str(declaredProps(team).name);
    if (name !== undefined && guarded.has(name)) return { team: name, how: `its teamId is ${subject(team)}'s` };
  }
  return undefined;
}

export const ownersTeamNotAuthoritative: StackRule = {
  name: "owners-team-not-authoritative",
  description:
    'A TeamMembers with mode "authoritative" does not manage the owners team (by its teamName, its teamId, or the Team of the stack it names) without ignoreUsernames: an authoritative list removes every member of the team it does not declare, and the owners team is the organization\'s way in.',
  // An organisation's convention, not the service's rule: advised unless the pack's config makes it mandatory.
  enforcementLevel: "advisory",
  configSchema: ownersSchema,
  remediationSteps:
    'Use mode "additive" (the default), which adds the declared members and removes only those it added; or keep the team\'s owners who must stay in ignoreUsernames.',
  validateResource: recordInputsOf([TeamMembers, Team]),
  validateStack: (args, reportViolation) => {
    const config = configOf<{ teams: string[] }>(ownersSchema, args);
    const guarded = new Set(strings(config.teams) ?? []);
    const teamsById = new Map<string, PolicyResource>();
    for (const r of args.resources) {
      const id = isOfType(r, Team) ? str(knownProps(r.props).id) : undefined;
      if (id !== undefined) teamsById.set(id, r);
    }
    for (const r of args.resources) {
      if (!isOfType(r, TeamMembers)) continue;
      const props = declaredProps(r);
      if (props.mode !== "authoritative") continue;
      // An ignore list (or one not known yet) is the way out the rule offers.
      const ignored = props.ignoreUsernames;
      if (Array.isArray(ignored) ? ignored.length > 0 : ignored !== undefined && ignored !== null) continue;
      const found = guardedTeam(r, props, teamsById, guarded);
      if (found === undefined) continue;
      const team = found.team === "owners" ? "the owners team" : `team ${show(found.team)}, listed in teams`;
      reportViolation(
        `${subject(r)}: mode "authoritative" manages the whole list of ${team} (${found.how}), ` +
          "so every member it does not declare is removed, owners included. " +
          'Fix: use mode "additive" (the default), which adds the declared members and removes only those it added, ' +
          "or list the members who must stay in ignoreUsernames.",
        r.urn,
      );
    }
  },
};
