package main

import (
	"sort"

	"github.com/pulumi-workspaces/pulumi-workspaces/sdk/go/workspaces"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Values are the program's values for one step of ../stack.json, as the test resolved them
// (ids of records made over HTTP filled in). A pointer left nil, or a list or map left out,
// is a property the program does not give.
type Values struct {
	Workspaces      map[string]WorkspaceValues `json:"workspaces"`
	Consumers       ConsumersValues            `json:"consumers"`
	Lock            LockValues                 `json:"lock"`
	Module          ModuleValues               `json:"module"`
	NoCodeWorkspace NoCodeValues               `json:"noCodeWorkspace"`
	Retention       RetentionValues            `json:"retention"`
	Lookups         LookupValues               `json:"lookups"`
	Imports         []ImportValues             `json:"imports"`
	Variables       []WorkspaceVariableValues  `json:"variables"`
	VariableList    VariableListValues         `json:"variableList"`
	VariableSet     VariableSetValues          `json:"variableSet"`
	Applications    []ApplicationValues        `json:"applications"`
}

// WorkspaceVariableValues is one WorkspaceVariable; Workspace is a key of Values.Workspaces
// or a workspace's id.
type WorkspaceVariableValues struct {
	Resource  string `json:"resource"`
	Workspace string `json:"workspace"`
	VariableValues
}

type VariableListValues struct {
	Resource  string           `json:"resource"`
	Workspace string           `json:"workspace"`
	Variables []VariableValues `json:"variables"`
}

type VariableSetValues struct {
	Resource    string           `json:"resource"`
	Name        string           `json:"name"`
	Description *string          `json:"description"`
	Variables   []VariableValues `json:"variables"`
}

// ApplicationValues applies the variable set to a workspace (as in WorkspaceVariableValues)
// or to a project's id.
type ApplicationValues struct {
	Resource  string  `json:"resource"`
	Workspace *string `json:"workspace"`
	Project   *string `json:"project"`
}

type WorkspaceValues struct {
	Name             string            `json:"name"`
	Description      *string           `json:"description"`
	AutoApply        *bool             `json:"autoApply"`
	ExecutionMode    *string           `json:"executionMode"`
	WorkingDirectory *string           `json:"workingDirectory"`
	VcsRepo          *VcsRepoValues    `json:"vcsRepo"`
	TagNames         []string          `json:"tagNames"`
	Tags             map[string]string `json:"tags"`
	ForceDelete      *bool             `json:"forceDelete"`
}

type VcsRepoValues struct {
	Identifier   *string `json:"identifier"`
	OauthTokenID *string `json:"oauthTokenId"`
	Branch       *string `json:"branch"`
}

type ConsumersValues struct {
	Resource  string   `json:"resource"`
	Workspace string   `json:"workspace"`
	Consumers []string `json:"consumers"`
}

type LockValues struct {
	Resource  string  `json:"resource"`
	Workspace string  `json:"workspace"`
	Reason    *string `json:"reason"`
}

type ModuleValues struct {
	Resource         string                 `json:"resource"`
	RegistryModuleID string                 `json:"registryModuleId"`
	VersionPin       *string                `json:"versionPin"`
	VariableOptions  []VariableOptionValues `json:"variableOptions"`
}

type VariableOptionValues struct {
	VariableName string   `json:"variableName"`
	VariableType string   `json:"variableType"`
	Options      []string `json:"options"`
}

type NoCodeValues struct {
	Resource    string           `json:"resource"`
	Name        string           `json:"name"`
	Project     string           `json:"project"`
	ForceDelete *bool            `json:"forceDelete"`
	Variables   []VariableValues `json:"variables"`
}

// VariableValues is a variable as every door declares it (a no-code workspace's has no Hcl).
type VariableValues struct {
	Key       string `json:"key"`
	Value     string `json:"value"`
	Category  string `json:"category"`
	Sensitive *bool  `json:"sensitive"`
	Hcl       *bool  `json:"hcl"`
}

type RetentionValues struct {
	Resource             string `json:"resource"`
	Workspace            string `json:"workspace"`
	DeleteOlderThanNDays *int   `json:"deleteOlderThanNDays"`
}

type LookupValues struct {
	Names     []string `json:"names"`
	Workspace string   `json:"workspace"`
}

type ImportValues struct {
	Type     string `json:"type"`
	Resource string `json:"resource"`
	ID       string `json:"id"`
}

func str(s *string) pulumi.StringPtrInput {
	if s == nil {
		return nil
	}
	return pulumi.StringPtr(*s)
}

func boolean(b *bool) pulumi.BoolPtrInput {
	if b == nil {
		return nil
	}
	return pulumi.BoolPtr(*b)
}

func strings(list []string) pulumi.StringArrayInput {
	if list == nil {
		return nil
	}
	return pulumi.ToStringArray(list)
}

func stringMap(m map[string]string) pulumi.StringMapInput {
	if m == nil {
		return nil
	}
	return pulumi.ToStringMap(m)
}

func vcsRepo(r *VcsRepoValues) workspaces.VcsRepoPtrInput {
	if r == nil {
		return nil
	}
	args := workspaces.VcsRepoArgs{OauthTokenId: str(r.OauthTokenID), Branch: str(r.Branch)}
	if r.Identifier != nil {
		args.Identifier = pulumi.String(*r.Identifier)
	}
	return args
}

func variableList(list []VariableValues) workspaces.VariableArray {
	out := workspaces.VariableArray{}
	for _, x := range list {
		out = append(out, workspaces.VariableArgs{
			Key:       pulumi.String(x.Key),
			Value:     pulumi.String(x.Value),
			Category:  pulumi.String(x.Category),
			Sensitive: boolean(x.Sensitive),
			Hcl:       boolean(x.Hcl),
		})
	}
	return out
}

func importOption(id string) []pulumi.ResourceOption {
	if id == "" {
		return nil
	}
	return []pulumi.ResourceOption{pulumi.Import(pulumi.ID(id))}
}

// program declares the stack: the workspaces, their consumers, a lock, a no-code module and
// a workspace made from it, a data retention policy, variables one by one and in a list, a
// variable set and its applications, and the two lookups.
// With adopt, the resources of v.Imports are declared with the import option, which takes
// over the existing records (the SDK's own way to import: `pulumi import` needs the
// language host, which an inline program does without).
func program(v Values, adopt bool) pulumi.RunFunc {
	imports := map[string]string{}
	if adopt {
		for _, i := range v.Imports {
			imports[i.Resource] = i.ID
		}
	}
	return func(ctx *pulumi.Context) error {
		ids := map[string]pulumi.StringInput{}
		keys := make([]string, 0, len(v.Workspaces))
		for k := range v.Workspaces {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			w := v.Workspaces[k]
			ws, err := workspaces.NewWorkspace(ctx, k, &workspaces.WorkspaceArgs{
				Name:             pulumi.String(w.Name),
				Description:      str(w.Description),
				AutoApply:        boolean(w.AutoApply),
				ExecutionMode:    str(w.ExecutionMode),
				WorkingDirectory: str(w.WorkingDirectory),
				VcsRepo:          vcsRepo(w.VcsRepo),
				TagNames:         strings(w.TagNames),
				Tags:             stringMap(w.Tags),
				ForceDelete:      boolean(w.ForceDelete),
			}, importOption(imports[k])...)
			if err != nil {
				return err
			}
			ids[k] = ws.ID().ToStringOutput()
		}

		m := v.Module
		options := workspaces.VariableOptionsArray{}
		for _, o := range m.VariableOptions {
			values := pulumi.Array{}
			for _, s := range o.Options {
				values = append(values, pulumi.String(s))
			}
			options = append(options, workspaces.VariableOptionsArgs{
				VariableName: pulumi.String(o.VariableName),
				VariableType: pulumi.String(o.VariableType),
				Options:      values,
			})
		}
		module, err := workspaces.NewNoCodeModule(ctx, m.Resource, &workspaces.NoCodeModuleArgs{
			RegistryModuleId: pulumi.String(m.RegistryModuleID),
			VersionPin:       str(m.VersionPin),
			VariableOptions:  options,
		})
		if err != nil {
			return err
		}

		n := v.NoCodeWorkspace
		variables := workspaces.NoCodeVariableArray{}
		for _, x := range n.Variables {
			variables = append(variables, workspaces.NoCodeVariableArgs{
				Key:       pulumi.String(x.Key),
				Value:     pulumi.String(x.Value),
				Category:  pulumi.String(x.Category),
				Sensitive: boolean(x.Sensitive),
			})
		}
		net, err := workspaces.NewNoCodeWorkspace(ctx, n.Resource, &workspaces.NoCodeWorkspaceArgs{
			NoCodeModuleId: module.ID().ToStringOutput(),
			Name:           pulumi.String(n.Name),
			Project:        pulumi.String(n.Project),
			ModuleVersion:  module.VersionPin,
			ForceDelete:    boolean(n.ForceDelete),
			Variables:      variables,
		})
		if err != nil {
			return err
		}
		ids[n.Resource] = net.ID().ToStringOutput()

		consumers := pulumi.StringArray{}
		for _, c := range v.Consumers.Consumers {
			consumers = append(consumers, ids[c])
		}
		if _, err := workspaces.NewRemoteStateConsumers(ctx, v.Consumers.Resource, &workspaces.RemoteStateConsumersArgs{
			WorkspaceId: ids[v.Consumers.Workspace],
			ConsumerIds: consumers,
		}); err != nil {
			return err
		}
		if _, err := workspaces.NewWorkspaceLock(ctx, v.Lock.Resource, &workspaces.WorkspaceLockArgs{
			WorkspaceId: ids[v.Lock.Workspace],
			Reason:      str(v.Lock.Reason),
		}); err != nil {
			return err
		}
		var days pulumi.IntPtrInput
		if v.Retention.DeleteOlderThanNDays != nil {
			days = pulumi.IntPtr(*v.Retention.DeleteOlderThanNDays)
		}
		if _, err := workspaces.NewDataRetentionPolicy(ctx, v.Retention.Resource, &workspaces.DataRetentionPolicyArgs{
			WorkspaceId:          ids[v.Retention.Workspace],
			DeleteOlderThanNDays: days,
		}); err != nil {
			return err
		}

		// A workspace of the program by its output, any other by its id.
		workspaceID := func(w string) pulumi.StringInput {
			if id, ok := ids[w]; ok {
				return id
			}
			return pulumi.String(w)
		}
		for _, x := range v.Variables {
			if _, err := workspaces.NewWorkspaceVariable(ctx, x.Resource, &workspaces.WorkspaceVariableArgs{
				WorkspaceId: workspaceID(x.Workspace),
				Key:         pulumi.String(x.Key),
				Value:       pulumi.String(x.Value),
				Category:    pulumi.String(x.Category),
				Sensitive:   boolean(x.Sensitive),
				Hcl:         boolean(x.Hcl),
			}, importOption(imports[x.Resource])...); err != nil {
				return err
			}
		}
		if _, err := workspaces.NewWorkspaceVariables(ctx, v.VariableList.Resource, &workspaces.WorkspaceVariablesArgs{
			WorkspaceId: workspaceID(v.VariableList.Workspace),
			Variables:   variableList(v.VariableList.Variables),
		}); err != nil {
			return err
		}
		set, err := workspaces.NewVariableSet(ctx, v.VariableSet.Resource, &workspaces.VariableSetArgs{
			Name:        pulumi.String(v.VariableSet.Name),
			Description: str(v.VariableSet.Description),
			Variables:   variableList(v.VariableSet.Variables),
		})
		if err != nil {
			return err
		}
		for _, a := range v.Applications {
			args := &workspaces.VariableSetApplicationArgs{VariableSetId: set.ID().ToStringOutput(), ProjectId: str(a.Project)}
			if a.Workspace != nil {
				args.WorkspaceId = workspaceID(*a.Workspace)
			}
			if _, err := workspaces.NewVariableSetApplication(ctx, a.Resource, args); err != nil {
				return err
			}
		}

		found, err := workspaces.GetWorkspaces(ctx, &workspaces.GetWorkspacesArgs{Names: v.Lookups.Names})
		if err != nil {
			return err
		}
		one, err := workspaces.LookupWorkspace(ctx, &workspaces.LookupWorkspaceArgs{Name: &v.Lookups.Workspace})
		if err != nil {
			return err
		}

		idMap := pulumi.StringMap{}
		for k, id := range ids {
			idMap[k] = id
		}
		ctx.Export("ids", idMap)
		ctx.Export("moduleId", module.ID())
		ctx.Export("found", pulumi.ToStringArray(found.Names))
		ctx.Export("foundId", pulumi.String(one.Id))
		ctx.Export("lastUpgrade", net.LastUpgrade)
		ctx.Export("variableSetId", set.ID())
		return nil
	}
}
