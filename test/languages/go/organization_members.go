package main

import (
	"github.com/pulumi-workspaces/pulumi-workspaces/sdk/go/workspaces"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type MembershipValues struct {
	Email string `json:"email"`
}

// TeamMembersValues is a team's list: Team names one of the program's teams, else it is a
// team's id; each of Memberships names one of the program's memberships, else it is an id.
type TeamMembersValues struct {
	Team        string   `json:"team"`
	Memberships []string `json:"memberships"`
	Usernames   []string `json:"usernames"`
	Mode        *string  `json:"mode"`
}

// TeamTokenValues is a team token: Team as in TeamMembersValues.
type TeamTokenValues struct {
	Team          string  `json:"team"`
	Description   *string `json:"description"`
	ExpiresInDays *int    `json:"expiresInDays"`
	Rotation      *string `json:"rotation"`
}

type OrganizationTokenValues struct {
	TokenType     *string `json:"tokenType"`
	ExpiresInDays *int    `json:"expiresInDays"`
	Rotation      *string `json:"rotation"`
}

// MembersValues are who is in the organization and the tokens its automation runs with:
// the fields of OrganizationValues that organization_members.go declares.
type MembersValues struct {
	Memberships        map[string]MembershipValues        `json:"memberships"`
	TeamMembers        map[string]TeamMembersValues       `json:"teamMembers"`
	TeamTokens         map[string]TeamTokenValues         `json:"teamTokens"`
	OrganizationTokens map[string]OrganizationTokenValues `json:"organizationTokens"`
}

func integer(n *int) pulumi.IntPtrInput {
	if n == nil {
		return nil
	}
	return pulumi.IntPtr(*n)
}

// declareMembers declares the memberships, the teams' lists and the team and organization
// tokens; teams holds the program's teams by name, ids gains each resource's id, and the
// program exports the secret of each token it makes (not of one it imports) as apiTokens,
// and what getOrganizationMembers and getTeamMembers find as members and teamMembers.
func declareMembers(ctx *pulumi.Context, v OrganizationValues, teams map[string]pulumi.StringInput,
	imports map[string]string, ids pulumi.StringMap) error {
	memberships := map[string]pulumi.StringInput{}
	for _, k := range sortedKeys(v.Memberships) {
		m, err := workspaces.NewOrganizationMembership(ctx, k, &workspaces.OrganizationMembershipArgs{
			Email: pulumi.String(v.Memberships[k].Email),
		}, importOption(imports[k])...)
		if err != nil {
			return err
		}
		memberships[k] = m.ID().ToStringOutput()
		ids[k] = memberships[k]
	}
	for _, k := range sortedKeys(v.TeamMembers) {
		l := v.TeamMembers[k]
		args := &workspaces.TeamMembersArgs{
			TeamId:    byRef(teams, l.Team),
			Usernames: strings(l.Usernames),
			Mode:      str(l.Mode),
		}
		if l.Memberships != nil {
			list := pulumi.StringArray{}
			for _, m := range l.Memberships {
				list = append(list, byRef(memberships, m))
			}
			args.OrganizationMembershipIds = list
		}
		members, err := workspaces.NewTeamMembers(ctx, k, args, importOption(imports[k])...)
		if err != nil {
			return err
		}
		ids[k] = members.ID().ToStringOutput()
	}
	tokens := pulumi.Map{}
	for _, k := range sortedKeys(v.TeamTokens) {
		t := v.TeamTokens[k]
		token, err := workspaces.NewTeamToken(ctx, k, &workspaces.TeamTokenArgs{
			TeamId:        byRef(teams, t.Team),
			Description:   str(t.Description),
			ExpiresInDays: integer(t.ExpiresInDays),
			Rotation:      str(t.Rotation),
		}, importOption(imports[k])...)
		if err != nil {
			return err
		}
		ids[k] = token.ID().ToStringOutput()
		if !imported(v.Imports, k) {
			tokens[k] = token.Token
		}
	}
	for _, k := range sortedKeys(v.OrganizationTokens) {
		t := v.OrganizationTokens[k]
		token, err := workspaces.NewOrganizationToken(ctx, k, &workspaces.OrganizationTokenArgs{
			TokenType:     str(t.TokenType),
			ExpiresInDays: integer(t.ExpiresInDays),
			Rotation:      str(t.Rotation),
		}, importOption(imports[k])...)
		if err != nil {
			return err
		}
		ids[k] = token.ID().ToStringOutput()
		if !imported(v.Imports, k) {
			tokens[k] = token.Token
		}
	}
	ctx.Export("apiTokens", tokens)

	members := workspaces.GetOrganizationMembersOutput(ctx, workspaces.GetOrganizationMembersOutputArgs{
		Emails: pulumi.ToStringArray(v.Lookups.Members),
	})
	ctx.Export("members", members.Members())
	team := workspaces.LookupTeamMembersOutput(ctx, workspaces.LookupTeamMembersOutputArgs{
		TeamId: pulumi.String(v.Lookups.TeamMembers),
	})
	ctx.Export("teamMembers", pulumi.Map{
		"teamName":                  team.TeamName(),
		"organizationMembershipIds": team.OrganizationMembershipIds(),
	})
	return nil
}
