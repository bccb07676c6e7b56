package main

import (
	"fmt"

	"github.com/pulumi-workspaces/pulumi-workspaces/sdk/go/workspaces"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type PolicyValues struct {
	Name             string  `json:"name"`
	Code             string  `json:"code"`
	Description      *string `json:"description"`
	EnforcementLevel *string `json:"enforcementLevel"`
}

// PolicySetValues is a set: each of PolicyIDs names one of the program's policies, else it
// is a policy's id.
type PolicySetValues struct {
	Name           string   `json:"name"`
	Description    *string  `json:"description"`
	Global         *bool    `json:"global"`
	PolicyIDs      []string `json:"policyIds"`
	PoliciesFolder *string  `json:"policiesFolder"`
}

// ParameterValues is a parameter of a set: Set names one of the program's sets, else it
// is a set's id.
type ParameterValues struct {
	Set       string `json:"set"`
	Key       string `json:"key"`
	Value     string `json:"value"`
	Sensitive *bool  `json:"sensitive"`
}

// SetListValues is a list of where a set applies: Kind is its resource type
// (PolicySetWorkspaces, PolicySetProjects, PolicySetWorkspaceExclusions or
// PolicySetProjectExclusions); Set as in ParameterValues; each of IDs names one of the
// program's resources, else it is an id.
type SetListValues struct {
	Kind string   `json:"kind"`
	Set  string   `json:"set"`
	IDs  []string `json:"ids"`
}

// declarePolicies declares the service's own policies: the policies, the sets, their
// parameters and where they apply; ids (which holds every resource declared before, by
// name) gains each one's id, and the program exports the digest of each policy's code as
// policyDigests and of each uploaded set's folder as folderDigests.
func declarePolicies(ctx *pulumi.Context, v OrganizationValues, imports map[string]string, ids pulumi.StringMap) error {
	digests := pulumi.Map{}
	for _, k := range sortedKeys(v.Policies) {
		p := v.Policies[k]
		policy, err := workspaces.NewPolicy(ctx, k, &workspaces.PolicyArgs{
			Name:             pulumi.String(p.Name),
			Code:             pulumi.String(p.Code),
			Description:      str(p.Description),
			EnforcementLevel: str(p.EnforcementLevel),
		}, importOption(imports[k])...)
		if err != nil {
			return err
		}
		ids[k] = policy.ID().ToStringOutput()
		digests[k] = policy.CodeSha256
	}
	folders := pulumi.Map{}
	for _, k := range sortedKeys(v.PolicySets) {
		s := v.PolicySets[k]
		var policyIds pulumi.StringArrayInput
		if s.PolicyIDs != nil {
			list := pulumi.StringArray{}
			for _, p := range s.PolicyIDs {
				list = append(list, byRef(ids, p))
			}
			policyIds = list
		}
		set, err := workspaces.NewPolicySet(ctx, k, &workspaces.PolicySetArgs{
			Name:           pulumi.String(s.Name),
			Description:    str(s.Description),
			Global:         boolean(s.Global),
			PolicyIds:      policyIds,
			PoliciesFolder: str(s.PoliciesFolder),
		}, importOption(imports[k])...)
		if err != nil {
			return err
		}
		ids[k] = set.ID().ToStringOutput()
		if s.PoliciesFolder != nil {
			folders[k] = set.PoliciesSha256
		}
	}
	for _, k := range sortedKeys(v.Parameters) {
		p := v.Parameters[k]
		parameter, err := workspaces.NewPolicySetParameter(ctx, k, &workspaces.PolicySetParameterArgs{
			PolicySetId: byRef(ids, p.Set),
			Key:         pulumi.String(p.Key),
			Value:       pulumi.String(p.Value),
			Sensitive:   boolean(p.Sensitive),
		}, importOption(imports[k])...)
		if err != nil {
			return err
		}
		ids[k] = parameter.ID().ToStringOutput()
	}
	for _, k := range sortedKeys(v.SetLists) {
		l := v.SetLists[k]
		list := pulumi.StringArray{}
		for _, id := range l.IDs {
			list = append(list, byRef(ids, id))
		}
		set := byRef(ids, l.Set)
		opts := importOption(imports[k])
		var res pulumi.CustomResource
		var err error
		switch l.Kind {
		case "PolicySetWorkspaces":
			res, err = workspaces.NewPolicySetWorkspaces(ctx, k, &workspaces.PolicySetWorkspacesArgs{
				PolicySetId: set, WorkspaceIds: list,
			}, opts...)
		case "PolicySetProjects":
			res, err = workspaces.NewPolicySetProjects(ctx, k, &workspaces.PolicySetProjectsArgs{
				PolicySetId: set, ProjectIds: list,
			}, opts...)
		case "PolicySetWorkspaceExclusions":
			res, err = workspaces.NewPolicySetWorkspaceExclusions(ctx, k, &workspaces.PolicySetWorkspaceExclusionsArgs{
				PolicySetId: set, WorkspaceIds: list,
			}, opts...)
		case "PolicySetProjectExclusions":
			res, err = workspaces.NewPolicySetProjectExclusions(ctx, k, &workspaces.PolicySetProjectExclusionsArgs{
				PolicySetId: set, ProjectIds: list,
			}, opts...)
		default:
			return fmt.Errorf("%s: unknown kind of list %q", k, l.Kind)
		}
		if err != nil {
			return err
		}
		ids[k] = res.ID().ToStringOutput()
	}
	ctx.Export("policyDigests", digests)
	ctx.Export("folderDigests", folders)

	set := workspaces.LookupPolicySetOutput(ctx, workspaces.LookupPolicySetOutputArgs{
		Name: pulumi.String(v.Lookups.PolicySet),
	})
	ctx.Export("policySet", pulumi.Map{
		"id":                    set.Id(),
		"kind":                  set.Kind(),
		"global":                set.Global(),
		"policyIds":             set.PolicyIds(),
		"workspaceIds":          set.WorkspaceIds(),
		"projectIds":            set.ProjectIds(),
		"workspaceExclusionIds": set.WorkspaceExclusionIds(),
		"projectExclusionIds":   set.ProjectExclusionIds(),
	})
	return nil
}
