"""The stack of test/languages/stack.json as a Python program on the generated SDK
(pulumi_workspaces, installed from its wheel), run as an Automation API inline program
(no Python language host).

    python languages.py ACTION

ACTION is up, preview, refresh, refresh-drift, import or destroy; refresh fails on any
drift (expect_no_changes), refresh-drift reports it; import is an up that takes over the
records of the values' imports with the import resource option. The environment names the
stack (LANGUAGES_DIR: its work directory, with Pulumi.yaml and the stack's config;
LANGUAGES_PROJECT, LANGUAGES_STACK: its names), its program (LANGUAGES_PROGRAM: stack, the
default, for ../stack.json, or organization for ../organization.json) and the program's
values for this step (LANGUAGES_VALUES: a JSON file), beside the engine's own (PATH with pulumi first,
PULUMI_HOME, PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE). It prints one JSON object, the
result (changes by operation, the planned steps of a preview, the stack's outputs), and
exits 1 with {"error": ...} when the operation fails.
"""

import json
import os
import re
import sys

import pulumi
import pulumi_workspaces as workspaces
from pulumi import automation as auto


def program(v, adopt):
    """Declares the stack: the workspaces, their consumers, a lock, a no-code module and a
    workspace made from it, a data retention policy, variables one by one and in a list, a
    variable set and its applications, and the two lookups (values without a "module"
    declare the workspaces and the lookups alone). With adopt, the
    resources of v["imports"] are declared with the import option, which takes over the
    existing records (the SDK's own way to import: `pulumi import` needs the language host,
    which an inline program does without)."""
    imports = {i["resource"]: i["id"] for i in v["imports"]} if adopt else {}

    def run():
        ids = {}
        for key in sorted(v["workspaces"]):
            w = v["workspaces"][key]
            ws = workspaces.Workspace(
                key,
                name=w["name"],
                description=w.get("description"),
                auto_apply=w.get("autoApply"),
                execution_mode=w.get("executionMode"),
                working_directory=w.get("workingDirectory"),
                vcs_repo=vcs_repo(w.get("vcsRepo")),
                tag_names=w.get("tagNames"),
                tags=w.get("tags"),
                force_delete=w.get("forceDelete"),
                opts=pulumi.ResourceOptions(import_=imports.get(key)),
            )
            ids[key] = ws.id

        if "module" in v:
            declare_the_rest(v, ids)
        if "variableSet" in v:
            declare_variables(v, ids, imports)

        found = workspaces.get_workspaces(names=v["lookups"]["names"])
        one = workspaces.get_workspace(name=v["lookups"]["workspace"])

        pulumi.export("ids", ids)
        pulumi.export("found", found.names)
        pulumi.export("foundId", one.id)

    return run


def declare_the_rest(v, ids):
    """The no-code module and workspace, the consumers, the lock and the retention policy;
    `ids` gains the no-code workspace's."""
    m = v["module"]
    module = workspaces.NoCodeModule(
        m["resource"],
        registry_module_id=m["registryModuleId"],
        version_pin=m.get("versionPin"),
        variable_options=[
            workspaces.VariableOptionsArgs(
                variable_name=o["variableName"], variable_type=o["variableType"], options=o["options"]
            )
            for o in m.get("variableOptions", [])
        ],
    )

    n = v["noCodeWorkspace"]
    net = workspaces.NoCodeWorkspace(
        n["resource"],
        no_code_module_id=module.id,
        name=n["name"],
        project=n["project"],
        module_version=module.version_pin,
        force_delete=n.get("forceDelete"),
        variables=[
            workspaces.NoCodeVariableArgs(
                key=x["key"], value=x["value"], category=x["category"], sensitive=x.get("sensitive")
            )
            for x in n["variables"]
        ],
    )
    ids[n["resource"]] = net.id

    c = v["consumers"]
    workspaces.RemoteStateConsumers(
        c["resource"], workspace_id=ids[c["workspace"]], consumer_ids=[ids[k] for k in c["consumers"]]
    )
    lock = v["lock"]
    workspaces.WorkspaceLock(lock["resource"], workspace_id=ids[lock["workspace"]], reason=lock.get("reason"))
    r = v["retention"]
    workspaces.DataRetentionPolicy(
        r["resource"], workspace_id=ids[r["workspace"]], delete_older_than_n_days=r.get("deleteOlderThanNDays")
    )
    pulumi.export("moduleId", module.id)
    pulumi.export("lastUpgrade", net.last_upgrade)


def declare_variables(v, ids, imports):
    """The variables one by one and in a list, the variable set and its applications; a
    `workspace` names one of `ids` or is a workspace's id."""

    def workspace(w):
        return ids.get(w, w)

    for x in v["variables"]:
        workspaces.WorkspaceVariable(
            x["resource"],
            workspace_id=workspace(x["workspace"]),
            key=x["key"],
            value=x["value"],
            category=x["category"],
            sensitive=x.get("sensitive"),
            hcl=x.get("hcl"),
            opts=pulumi.ResourceOptions(import_=imports.get(x["resource"])),
        )
    lst = v["variableList"]
    workspaces.WorkspaceVariables(
        lst["resource"], workspace_id=workspace(lst["workspace"]), variables=variable_args(lst["variables"])
    )
    s = v["variableSet"]
    var_set = workspaces.VariableSet(
        s["resource"], name=s["name"], description=s.get("description"), variables=variable_args(s["variables"])
    )
    for a in v["applications"]:
        workspaces.VariableSetApplication(
            a["resource"],
            variable_set_id=var_set.id,
            workspace_id=workspace(a["workspace"]) if "workspace" in a else None,
            project_id=a.get("project"),
        )
    pulumi.export("variableSetId", var_set.id)


def variable_args(variables):
    return [
        workspaces.VariableArgs(
            key=x["key"], value=x["value"], category=x["category"], sensitive=x.get("sensitive"), hcl=x.get("hcl")
        )
        for x in variables
    ]


def vcs_repo(r):
    """The VCS connection as given; `{}` (no identifier) removes it."""
    if r is None:
        return None
    if "identifier" not in r:
        return {}
    return workspaces.VcsRepoArgs(identifier=r["identifier"], oauth_token_id=r.get("oauthTokenId"), branch=r.get("branch"))


def organization_program(v, adopt):
    """Declares the organization stack: projects, teams, their access to workspaces and
    projects, run triggers and notification configurations (a `team` or `project` names one
    of the program's resources, else it is an id), where runs execute (declare_agents), the
    service's own policies (declare_policies), who is in the organization and the tokens its
    automation runs with (declare_members) and the seven lookups. With adopt, the resources
    of v["imports"] are declared with the import option."""
    imports = {i["resource"]: i["id"] for i in v["imports"]} if adopt else {}

    def opts(name):
        return pulumi.ResourceOptions(import_=imports.get(name))

    def run():
        ids = {}
        projects = {}
        teams = {}
        for name, p in sorted(v["projects"].items()):
            projects[name] = workspaces.Project(
                name, name=p["name"], description=p.get("description"), opts=opts(name)
            ).id
        for name, t in sorted(v["teams"].items()):
            access = t.get("organizationAccess")
            teams[name] = workspaces.Team(
                name,
                name=t["name"],
                visibility=t.get("visibility"),
                organization_access=workspaces.OrganizationAccessArgs(**snake(access)) if access else None,
                opts=opts(name),
            ).id
        ids.update(projects)
        ids.update(teams)
        for name, a in sorted(v["workspaceAccess"].items()):
            permissions = a.get("permissions")
            ids[name] = workspaces.TeamWorkspaceAccess(
                name,
                team_id=teams.get(a["team"], a["team"]),
                workspace_id=a["workspace"],
                access=a["access"],
                permissions=workspaces.TeamWorkspacePermissionsArgs(**snake(permissions)) if permissions else None,
                opts=opts(name),
            ).id
        for name, a in sorted(v["projectAccess"].items()):
            ids[name] = workspaces.TeamProjectAccess(
                name,
                team_id=teams.get(a["team"], a["team"]),
                project_id=projects.get(a["project"], a["project"]),
                access=a["access"],
                opts=opts(name),
            ).id
        for name, t in sorted(v["runTriggers"].items()):
            ids[name] = workspaces.RunTrigger(
                name, workspace_id=t["workspace"], source_workspace_id=t["source"], opts=opts(name)
            ).id
        for name, n in sorted(v["notifications"].items()):
            ids[name] = workspaces.NotificationConfiguration(
                name,
                workspace_id=n["workspace"],
                name=n["name"],
                destination_type=n["destinationType"],
                url=n.get("url"),
                token=n.get("token"),
                enabled=n.get("enabled"),
                triggers=n.get("triggers"),
                opts=opts(name),
            ).id

        declare_agents(v, ids, opts)
        declare_policies(v, ids, opts)
        declare_members(v, ids, teams, opts)

        lookups = v["lookups"]
        team = workspaces.get_team_output(name=lookups["team"])
        access = workspaces.get_effective_access_output(workspace_id=lookups["workspace"])
        upstream = workspaces.get_workspace_outputs_output(workspace_id=lookups["workspace"])
        pulumi.export("ids", ids)
        pulumi.export("teamId", team.id)
        pulumi.export("teamVisibility", team.visibility)
        pulumi.export("accessTeams", access.teams)
        pulumi.export("upstreamOutputs", upstream.outputs)
        pulumi.export("upstreamSensitive", upstream.sensitive_names)
        pool = workspaces.get_agent_pool_output(name=lookups["agentPool"])
        pulumi.export("poolId", pool.id)
        pulumi.export("poolScoped", pool.organization_scoped)
        pulumi.export("poolAllowed", pool.allowed_workspace_ids)

    return run


# The resources that list what may use a pool, by their type, and the keyword of each list.
POOL_LISTS = {
    "AgentPoolAllowedWorkspaces": (workspaces.AgentPoolAllowedWorkspaces, "workspace_ids"),
    "AgentPoolAllowedProjects": (workspaces.AgentPoolAllowedProjects, "project_ids"),
    "AgentPoolExcludedWorkspaces": (workspaces.AgentPoolExcludedWorkspaces, "workspace_ids"),
}


def declare_agents(v, ids, opts):
    """Where runs execute: the workspaces, the agent pools, the settings of workspaces (before
    the lists that allow them: the provider orders the writes), the lists and the agent tokens
    (a `pool` or a workspace names one of the program's resources, else it is an id); `ids`
    gains each one's id, and the program exports the secret of each token it makes (not of one
    it imports) as agentTokens."""
    own = {}
    pools = {}
    for name, w in sorted(v["workspaces"].items()):
        own[name] = workspaces.Workspace(name, name=w["name"], description=w.get("description"), opts=opts(name)).id
    for name, p in sorted(v["agentPools"].items()):
        pools[name] = workspaces.AgentPool(
            name, name=p["name"], organization_scoped=p.get("organizationScoped"), opts=opts(name)
        ).id
    ids.update(own)
    ids.update(pools)
    for name, s in sorted(v["settings"].items()):
        rest = {k: x for k, x in s.items() if k not in ("workspace", "agentPool")}
        ids[name] = workspaces.WorkspaceSettings(
            name,
            workspace_id=own.get(s["workspace"], s["workspace"]),
            agent_pool_id=pools.get(s["agentPool"], s["agentPool"]) if "agentPool" in s else None,
            opts=opts(name),
            **snake(rest),
        ).id
    for name, lst in sorted(v["poolLists"].items()):
        cls, ids_input = POOL_LISTS[lst["kind"]]
        ids[name] = cls(
            name,
            agent_pool_id=pools.get(lst["pool"], lst["pool"]),
            opts=opts(name),
            **{ids_input: [own.get(w, w) for w in lst["ids"]]},
        ).id
    imported = {i["resource"] for i in v["imports"]}
    tokens = {}
    for name, t in sorted(v["agentTokens"].items()):
        token = workspaces.AgentToken(
            name,
            agent_pool_id=pools.get(t["pool"], t["pool"]),
            description=t["description"],
            rotation=t.get("rotation"),
            opts=opts(name),
        )
        ids[name] = token.id
        if name not in imported:
            tokens[name] = token.token
    pulumi.export("agentTokens", tokens)


# The resources that list where a policy set applies, by their type, and the keyword of each list.
SET_LISTS = {
    "PolicySetWorkspaces": (workspaces.PolicySetWorkspaces, "workspace_ids"),
    "PolicySetProjects": (workspaces.PolicySetProjects, "project_ids"),
    "PolicySetWorkspaceExclusions": (workspaces.PolicySetWorkspaceExclusions, "workspace_ids"),
    "PolicySetProjectExclusions": (workspaces.PolicySetProjectExclusions, "project_ids"),
}


def declare_policies(v, ids, opts):
    """The service's own policies: the policies, the sets, their parameters and where they
    apply (a policy, a set or a workspace names one of `ids`, which holds every resource
    declared before, else it is an id); `ids` gains each one's id, and the program exports
    the digest of each policy's code as policyDigests and of each uploaded set's folder as
    folderDigests, and what getPolicySet finds as policySet."""
    digests = {}
    for name, p in sorted(v["policies"].items()):
        policy = workspaces.Policy(
            name,
            name=p["name"],
            code=p["code"],
            description=p.get("description"),
            enforcement_level=p.get("enforcementLevel"),
            opts=opts(name),
        )
        ids[name] = policy.id
        digests[name] = policy.code_sha256
    folders = {}
    for name, s in sorted(v["policySets"].items()):
        policy_ids = s.get("policyIds")
        policy_set = workspaces.PolicySet(
            name,
            name=s["name"],
            description=s.get("description"),
            global_=s.get("global"),
            policy_ids=[ids.get(p, p) for p in policy_ids] if policy_ids is not None else None,
            policies_folder=s.get("policiesFolder"),
            opts=opts(name),
        )
        ids[name] = policy_set.id
        if s.get("policiesFolder"):
            folders[name] = policy_set.policies_sha256
    for name, p in sorted(v["parameters"].items()):
        ids[name] = workspaces.PolicySetParameter(
            name,
            policy_set_id=ids.get(p["set"], p["set"]),
            key=p["key"],
            value=p["value"],
            sensitive=p.get("sensitive"),
            opts=opts(name),
        ).id
    for name, lst in sorted(v["setLists"].items()):
        cls, ids_input = SET_LISTS[lst["kind"]]
        ids[name] = cls(
            name,
            policy_set_id=ids.get(lst["set"], lst["set"]),
            opts=opts(name),
            **{ids_input: [ids.get(x, x) for x in lst["ids"]]},
        ).id
    pulumi.export("policyDigests", digests)
    pulumi.export("folderDigests", folders)
    found = workspaces.get_policy_set_output(name=v["lookups"]["policySet"])
    pulumi.export(
        "policySet",
        {
            "id": found.id,
            "kind": found.kind,
            "global": found.global_,
            "policyIds": found.policy_ids,
            "workspaceIds": found.workspace_ids,
            "projectIds": found.project_ids,
            "workspaceExclusionIds": found.workspace_exclusion_ids,
            "projectExclusionIds": found.project_exclusion_ids,
        },
    )


def declare_members(v, ids, teams, opts):
    """The memberships, the teams' lists and the team and organization tokens (a `team` names
    one of `teams`, a membership one of the program's, else each is an id); `ids` gains each
    one's id, and the program exports the secret of each token it makes (not of one it
    imports) as apiTokens, and what get_organization_members and get_team_members find as
    members and teamMembers."""
    memberships = {}
    for name, m in sorted(v["memberships"].items()):
        memberships[name] = workspaces.OrganizationMembership(name, email=m["email"], opts=opts(name)).id
    ids.update(memberships)
    for name, lst in sorted(v["teamMembers"].items()):
        listed = lst.get("memberships")
        ids[name] = workspaces.TeamMembers(
            name,
            team_id=teams.get(lst["team"], lst["team"]),
            organization_membership_ids=[memberships.get(m, m) for m in listed] if listed is not None else None,
            usernames=lst.get("usernames"),
            mode=lst.get("mode"),
            opts=opts(name),
        ).id
    imported = {i["resource"] for i in v["imports"]}
    tokens = {}
    for name, t in sorted(v["teamTokens"].items()):
        token = workspaces.TeamToken(
            name,
            team_id=teams.get(t["team"], t["team"]),
            description=t.get("description"),
            expires_in_days=t.get("expiresInDays"),
            rotation=t.get("rotation"),
            opts=opts(name),
        )
        ids[name] = token.id
        if name not in imported:
            tokens[name] = token.token
    for name, t in sorted(v["organizationTokens"].items()):
        token = workspaces.OrganizationToken(
            name,
            token_type=t.get("tokenType"),
            expires_in_days=t.get("expiresInDays"),
            rotation=t.get("rotation"),
            opts=opts(name),
        )
        ids[name] = token.id
        if name not in imported:
            tokens[name] = token.token
    pulumi.export("apiTokens", tokens)
    lookups = v["lookups"]
    members = workspaces.get_organization_members_output(emails=lookups["members"])
    pulumi.export("members", members.members)
    team = workspaces.get_team_members_output(team_id=lookups["teamMembers"])
    pulumi.export(
        "teamMembers",
        {"teamName": team.team_name, "organizationMembershipIds": team.organization_membership_ids},
    )


def snake(values):
    """The SDK's keyword names of values given by their names in the schema (readWorkspaces)."""
    return {re.sub(r"(?<!^)([A-Z])", r"_\1", k).lower(): x for k, x in values.items()}


def changes(summary):
    return dict(summary.resource_changes or {})


PROGRAMS = {"stack": program, "organization": organization_program}


def run(action):
    with open(os.environ["LANGUAGES_VALUES"], encoding="utf-8") as f:
        v = json.load(f)
    stack = auto.create_or_select_stack(
        stack_name=os.environ["LANGUAGES_STACK"],
        project_name=os.environ["LANGUAGES_PROJECT"],
        program=PROGRAMS[os.environ.get("LANGUAGES_PROGRAM") or "stack"](v, action == "import"),
        opts=auto.LocalWorkspaceOptions(work_dir=os.environ["LANGUAGES_DIR"]),
    )
    res = {}
    if action in ("up", "import"):
        r = stack.up()
        res["changes"] = changes(r.summary)
    elif action == "preview":
        steps = []
        diagnostics = []

        def on_event(e):
            if e.resource_pre_event is not None:
                m = e.resource_pre_event.metadata
                steps.append({"op": str(m.op.value), "urn": m.urn})
            if e.diagnostic_event is not None:
                diagnostics.append(e.diagnostic_event.message)

        r = stack.preview(on_event=on_event)
        res["changes"] = {str(getattr(op, "value", op)): n for op, n in r.change_summary.items()}
        res["steps"] = steps
        res["diagnostics"] = diagnostics
    elif action in ("refresh", "refresh-drift"):
        r = stack.refresh(expect_no_changes=action == "refresh")
        res["changes"] = changes(r.summary)
    elif action == "destroy":
        r = stack.destroy()
        res["changes"] = changes(r.summary)
    else:
        raise ValueError(f"unknown action {action!r}")
    res["outputs"] = {k: o.value for k, o in stack.outputs().items()}
    return res


def main():
    if len(sys.argv) != 2:
        print("usage: languages.py up|preview|refresh|refresh-drift|import|destroy", file=sys.stderr)
        sys.exit(2)
    try:
        res = run(sys.argv[1])
    except Exception as e:  # noqa: BLE001 - the test reads the error from the result
        print(json.dumps({"changes": {}, "error": str(e)}))
        sys.exit(1)
    print(json.dumps(res))


if __name__ == "__main__":
    main()
