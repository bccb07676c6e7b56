package main

import (
	"fmt"
	"reflect"
	"sort"

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
	Lookups         OrganizationLookupValues         `json:"lookups"`
	Imports         []ImportValues                   `json:"imports"`
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

type OrganizationLookupValues struct {
	Team      string `json:"team"`
	Workspace string `json:"workspace"`
}

// fields sets the inputs of args (a pointer to an SDK Args struct of optional fields) named
// in values, each by the name the schema gives it (the field's pulumi tag).
func fields(args any, values map[string]any) error {
	v := reflect.ValueOf(args).Elem()
	byTag := map[string]reflect.Value{}
	for i := 0; i < v.NumField(); i++ {
		byTag[v.Type().Field(i).Tag.Get("pulumi")] = v.Field(i)
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
		default:
			return fmt.Errorf("%s.%s: %v is neither a boolean nor a string", v.Type().Name(), name, x)
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

// organizationProgram declares the organization stack: projects, teams, their access to
// workspaces and projects, run triggers and notification configurations, and the three
// lookups. With adopt, the resources of v.Imports are declared with the import option.
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
		// One of the program's records by its output, any other by its id.
		byRef := func(own map[string]pulumi.StringInput, key string) pulumi.StringInput {
			if id, ok := own[key]; ok {
				return id
			}
			return pulumi.String(key)
		}

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
		return nil
	}
}
