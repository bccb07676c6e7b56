package main

import (
	"fmt"
	"reflect"
	"sort"
	"unicode"

	"github.com/pulumi-workspaces/pulumi-workspaces/sdk/go/workspaces"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// OrganizationValues are the program's values for one step of ../organization.json: every
// resource by its name in the stack. A Team or Project names one of the program's
// resources, else it is an id.
type OrganizationValues struct {
	Projects        map[string]ProjectValues         `json:"projects"`
	Teams           map[string]TeamValues            `json:"teams"`
	WorkspaceAccess map[string]WorkspaceAccessValues `json:"workspaceAccess"`
	ProjectAccess   map[string]ProjectAccessValues   `json:"projectAccess"`
	RunTriggers     map[string]RunTriggerValues      `json:"runTriggers"`
	Notifications   map[string]NotificationValues    `json:"notifications"`
	// Where runs execute: a Pool or a Workspace names one of the program's resources, else
	// it is an id.
	Workspaces  map[string]OwnWorkspaceValues `json:"workspaces"`
	AgentPools  map[string]AgentPoolValues    `json:"agentPools"`
	PoolLists   map[string]PoolListValues     `json:"poolLists"`
	AgentTokens map[string]AgentTokenValues   `json:"agentTokens"`
	Settings    map[string]map[string]any     `json:"settings"`
	// The service's own policies (organization_policies.go).
	Policies   map[string]PolicyValues    `json:"policies"`
	PolicySets map[string]PolicySetValues `json:"policySets"`
	Parameters map[string]ParameterValues `json:"parameters"`
	SetLists   map[string]SetListValues   `json:"setLists"`
	Lookups    OrganizationLookupValues   `json:"lookups"`
	Imports    []ImportValues             `json:"imports"`
	// Who is in the organization and the tokens its automation runs with (organization_members.go).
	MembersValues
}

type ProjectValues struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
}

type TeamValues struct {
	Name       string  `json:"name"`
	Visibility *string `json:"visibility"`
	// The flags by their name in the schema (readWorkspaces).
	OrganizationAccess map[string]any `json:"organizationAccess"`
}

type WorkspaceAccessValues struct {
	Team      string `json:"team"`
	Workspace string `json:"workspace"`
	Access    string `json:"access"`
	// The permissions by their name in the schema (runs, stateVersions).
	Permissions map[string]any `json:"permissions"`
}

type ProjectAccessValues struct {
	Team    string `json:"team"`
	Project string `json:"project"`
	Access  string `json:"access"`
}

type RunTriggerValues struct {
	Workspace string `json:"workspace"`
	Source    string `json:"source"`
}

type NotificationValues struct {
	Workspace       string   `json:"workspace"`
	Name            string   `json:"name"`
	DestinationType string   `json:"destinationType"`
	URL             *string  `json:"url"`
	Token           *string  `json:"token"`
	Enabled         *bool    `json:"enabled"`
	Triggers        []string `json:"triggers"`
}

type OwnWorkspaceValues struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
}

type AgentPoolValues struct {
	Name               string `json:"name"`
	OrganizationScoped *bool  `json:"organizationScoped"`
}

// PoolListValues is a list of what may use a pool: Kind is its resource type
// (AgentPoolAllowedWorkspaces, AgentPoolAllowedProjects or AgentPoolExcludedWorkspaces).
type PoolListValues struct {
	Kind string   `json:"kind"`
	Pool string   `json:"pool"`
	IDs  []string `json:"ids"`
}

type AgentTokenValues struct {
	Pool        string  `json:"pool"`
	Description string  `json:"description"`
	Rotation    *string `json:"rotation"`
}

type OrganizationLookupValues struct {
	Team      string `json:"team"`
	Workspace string `json:"workspace"`
	AgentPool string `json:"agentPool"`
	PolicySet string `json:"policySet"`
	// The emails getOrganizationMembers looks up, and the team (id) getTeamMembers reads.
	Members     []string `json:"members"`
	TeamMembers string   `json:"teamMembers"`
}

// fields sets the inputs of args (a pointer to an SDK Args struct of optional fields) named
// in values, each by the name the schema gives it: the field's pulumi tag (an object type's
// Args), else its Go name, the schema's with the first letter upper case (a resource's Args).
func fields(args any, values map[string]any) error {
	v := reflect.ValueOf(args).Elem()
	byTag := map[string]reflect.Value{}
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		name := f.Tag.Get("pulumi")
		if name == "" {
			name = string(unicode.ToLower(rune(f.Name[0]))) + f.Name[1:]
		}
		byTag[name] = v.Field(i)
	}
	for name, x := range values {
		f, ok := byTag[name]
		if !ok {
			return fmt.Errorf("%s has no input %q", v.Type().Name(), name)
		}
		switch x := x.(type) {
		case bool:
			f.Set(reflect.ValueOf(pulumi.BoolPtr(x)))
		case string:
			f.Set(reflect.ValueOf(pulumi.StringPtr(x)))
		case []any:
			// A list of strings; an empty one is sent as such (it clears), never as absent.
			list := pulumi.StringArray{}
			for _, item := range x {
				s, ok := item.(string)
				if !ok {
					return fmt.Errorf("%s.%s: %v is not a string", v.Type().Name(), name, item)
				}
				list = append(list, pulumi.String(s))
			}
			f.Set(reflect.ValueOf(list))
		default:
			return fmt.Errorf("%s.%s: %v is neither a boolean, a string nor a list of strings", v.Type().Name(), name, x)
		}
	}
	return nil
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// byRef is one of the program's records by its output (own), any other by its id.
func byRef(own map[string]pulumi.StringInput, key string) pulumi.StringInput {
	if id, ok := own[key]; ok {
		return id
	}
	return pulumi.String(key)
}

// organizationProgram declares the organization stack: projects, teams, their access to
// workspaces and projects, run triggers and notification configurations, where runs execute
// (workspaces, agent pools, the workspaces they allow, agent tokens and workspace settings),
// the service's own policies, who is in the organization and the tokens its automation runs
// with, and the seven lookups. With adopt, the resources of v.Imports
// are declared with the import option.
func organizationProgram(v OrganizationValues, adopt bool) pulumi.RunFunc {
	imports := map[string]string{}
	if adopt {
		for _, i := range v.Imports {
			imports[i.Resource] = i.ID
		}
	}
	return func(ctx *pulumi.Context) error {
		ids := pulumi.StringMap{}
		projects := map[string]pulumi.StringInput{}
		teams := map[string]pulumi.StringInput{}
		for _, k := range sortedKeys(v.Projects) {
			p := v.Projects[k]
			project, err := workspaces.NewProject(ctx, k, &workspaces.ProjectArgs{
				Name:        pulumi.String(p.Name),
				Description: str(p.Description),
			}, importOption(imports[k])...)
			if err != nil {
				return err
			}
			projects[k] = project.ID().ToStringOutput()
			ids[k] = projects[k]
		}
		for _, k := range sortedKeys(v.Teams) {
			t := v.Teams[k]
			args := &workspaces.TeamArgs{Name: pulumi.String(t.Name), Visibility: str(t.Visibility)}
			if t.OrganizationAccess != nil {
				access := workspaces.OrganizationAccessArgs{}
				if err := fields(&access, t.OrganizationAccess); err != nil {
					return err
				}
				args.OrganizationAccess = access
			}
			team, err := workspaces.NewTeam(ctx, k, args, importOption(imports[k])...)
			if err != nil {
				return err
			}
			teams[k] = team.ID().ToStringOutput()
			ids[k] = teams[k]
		}
		for _, k := range sortedKeys(v.WorkspaceAccess) {
			a := v.WorkspaceAccess[k]
			args := &workspaces.TeamWorkspaceAccessArgs{
				TeamId:      byRef(teams, a.Team),
				WorkspaceId: pulumi.String(a.Workspace),
				Access:      pulumi.String(a.Access),
			}
			if a.Permissions != nil {
				permissions := workspaces.TeamWorkspacePermissionsArgs{}
				if err := fields(&permissions, a.Permissions); err != nil {
					return err
				}
				args.Permissions = permissions
			}
			access, err := workspaces.NewTeamWorkspaceAccess(ctx, k, args, importOption(imports[k])...)
			if err != nil {
				return err
			}
			ids[k] = access.ID().ToStringOutput()
		}
		for _, k := range sortedKeys(v.ProjectAccess) {
			a := v.ProjectAccess[k]
			access, err := workspaces.NewTeamProjectAccess(ctx, k, &workspaces.TeamProjectAccessArgs{
				TeamId:    byRef(teams, a.Team),
				ProjectId: byRef(projects, a.Project),
				Access:    pulumi.String(a.Access),
			}, importOption(imports[k])...)
			if err != nil {
				return err
			}
			ids[k] = access.ID().ToStringOutput()
		}
		for _, k := range sortedKeys(v.RunTriggers) {
			t := v.RunTriggers[k]
			trigger, err := workspaces.NewRunTrigger(ctx, k, &workspaces.RunTriggerArgs{
				WorkspaceId:       pulumi.String(t.Workspace),
				SourceWorkspaceId: pulumi.String(t.Source),
			}, importOption(imports[k])...)
			if err != nil {
				return err
			}
			ids[k] = trigger.ID().ToStringOutput()
		}
		for _, k := range sortedKeys(v.Notifications) {
			n := v.Notifications[k]
			notification, err := workspaces.NewNotificationConfiguration(ctx, k, &workspaces.NotificationConfigurationArgs{
				WorkspaceId:     pulumi.String(n.Workspace),
				Name:            pulumi.String(n.Name),
				DestinationType: pulumi.String(n.DestinationType),
				Url:             str(n.URL),
				Token:           str(n.Token),
				Enabled:         boolean(n.Enabled),
				Triggers:        strings(n.Triggers),
			}, importOption(imports[k])...)
			if err != nil {
				return err
			}
			ids[k] = notification.ID().ToStringOutput()
		}

		if err := declareAgents(ctx, v, imports, ids); err != nil {
			return err
		}
		if err := declarePolicies(ctx, v, imports, ids); err != nil {
			return err
		}
		if err := declareMembers(ctx, v, teams, imports, ids); err != nil {
			return err
		}

		team := workspaces.LookupTeamOutput(ctx, workspaces.LookupTeamOutputArgs{Name: pulumi.String(v.Lookups.Team)})
		access := workspaces.GetEffectiveAccessOutput(ctx, workspaces.GetEffectiveAccessOutputArgs{
			WorkspaceId: pulumi.String(v.Lookups.Workspace),
		})
		upstream := workspaces.GetWorkspaceOutputsOutput(ctx, workspaces.GetWorkspaceOutputsOutputArgs{
			WorkspaceId: pulumi.String(v.Lookups.Workspace),
		})

		ctx.Export("ids", ids)
		ctx.Export("teamId", team.Id())
		ctx.Export("teamVisibility", team.Visibility())
		ctx.Export("accessTeams", access.Teams())
		ctx.Export("upstreamOutputs", upstream.Outputs())
		ctx.Export("upstreamSensitive", upstream.SensitiveNames())
		pool := workspaces.LookupAgentPoolOutput(ctx, workspaces.LookupAgentPoolOutputArgs{
			Name: pulumi.String(v.Lookups.AgentPool),
		})
		ctx.Export("poolId", pool.Id())
		ctx.Export("poolScoped", pool.OrganizationScoped())
		ctx.Export("poolAllowed", pool.AllowedWorkspaceIds())
		return nil
	}
}

// declareAgents declares where runs execute: the workspaces, the agent pools, the settings of
// workspaces (before the lists that allow them: the provider orders the writes), the lists
// and the agent tokens; ids gains each one's id, and the program exports the secret of each
// token it makes (not of one it imports) as agentTokens.
func declareAgents(ctx *pulumi.Context, v OrganizationValues, imports map[string]string, ids pulumi.StringMap) error {
	own := map[string]pulumi.StringInput{}
	pools := map[string]pulumi.StringInput{}
	for _, k := range sortedKeys(v.Workspaces) {
		w := v.Workspaces[k]
		ws, err := workspaces.NewWorkspace(ctx, k, &workspaces.WorkspaceArgs{
			Name:        pulumi.String(w.Name),
			Description: str(w.Description),
		}, importOption(imports[k])...)
		if err != nil {
			return err
		}
		own[k] = ws.ID().ToStringOutput()
		ids[k] = own[k]
	}
	for _, k := range sortedKeys(v.AgentPools) {
		p := v.AgentPools[k]
		pool, err := workspaces.NewAgentPool(ctx, k, &workspaces.AgentPoolArgs{
			Name:               pulumi.String(p.Name),
			OrganizationScoped: boolean(p.OrganizationScoped),
		}, importOption(imports[k])...)
		if err != nil {
			return err
		}
		pools[k] = pool.ID().ToStringOutput()
		ids[k] = pools[k]
	}
	for _, k := range sortedKeys(v.Settings) {
		values := map[string]any{}
		args := &workspaces.WorkspaceSettingsArgs{}
		for name, x := range v.Settings[k] {
			switch name {
			case "workspace":
				args.WorkspaceId = byRef(own, x.(string))
			case "agentPool":
				args.AgentPoolId = byRef(pools, x.(string))
			default:
				values[name] = x
			}
		}
		if err := fields(args, values); err != nil {
			return err
		}
		settings, err := workspaces.NewWorkspaceSettings(ctx, k, args, importOption(imports[k])...)
		if err != nil {
			return err
		}
		ids[k] = settings.ID().ToStringOutput()
	}
	for _, k := range sortedKeys(v.PoolLists) {
		l := v.PoolLists[k]
		list := pulumi.StringArray{}
		for _, w := range l.IDs {
			list = append(list, byRef(own, w))
		}
		pool := byRef(pools, l.Pool)
		opts := importOption(imports[k])
		var res pulumi.CustomResource
		var err error
		switch l.Kind {
		case "AgentPoolAllowedWorkspaces":
			res, err = workspaces.NewAgentPoolAllowedWorkspaces(ctx, k, &workspaces.AgentPoolAllowedWorkspacesArgs{
				AgentPoolId: pool, WorkspaceIds: list,
			}, opts...)
		case "AgentPoolAllowedProjects":
			res, err = workspaces.NewAgentPoolAllowedProjects(ctx, k, &workspaces.AgentPoolAllowedProjectsArgs{
				AgentPoolId: pool, ProjectIds: list,
			}, opts...)
		case "AgentPoolExcludedWorkspaces":
			res, err = workspaces.NewAgentPoolExcludedWorkspaces(ctx, k, &workspaces.AgentPoolExcludedWorkspacesArgs{
				AgentPoolId: pool, WorkspaceIds: list,
			}, opts...)
		default:
			return fmt.Errorf("%s: unknown kind of list %q", k, l.Kind)
		}
		if err != nil {
			return err
		}
		ids[k] = res.ID().ToStringOutput()
	}
	tokens := pulumi.Map{}
	for _, k := range sortedKeys(v.AgentTokens) {
		t := v.AgentTokens[k]
		token, err := workspaces.NewAgentToken(ctx, k, &workspaces.AgentTokenArgs{
			AgentPoolId: byRef(pools, t.Pool),
			Description: pulumi.String(t.Description),
			Rotation:    str(t.Rotation),
		}, importOption(imports[k])...)
		if err != nil {
			return err
		}
		ids[k] = token.ID().ToStringOutput()
		if !imported(v.Imports, k) {
			tokens[k] = token.Token
		}
	}
	ctx.Export("agentTokens", tokens)
	return nil
}

// imported is whether the values' imports name the resource (with or without the import option).
func imported(list []ImportValues, resource string) bool {
	for _, i := range list {
		if i.Resource == resource {
			return true
		}
	}
	return false
}
